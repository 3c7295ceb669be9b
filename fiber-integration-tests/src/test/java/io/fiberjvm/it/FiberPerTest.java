package io.fiberjvm.it;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import io.fiberjvm.Fiber;

/** A fresh runtime for each test, closed after it: its processes, pools and ports go with it. */
abstract class FiberPerTest {

	protected Fiber fiber;

	@BeforeEach
	void openFiber() {
		fiber = Fiber.open();
	}

	@AfterEach
	void closeFiber() {
		fiber.close();
	}
}
