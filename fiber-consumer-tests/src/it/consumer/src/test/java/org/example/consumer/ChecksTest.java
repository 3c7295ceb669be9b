package org.example.consumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The checks run from a test, as surefire runs it, and failsafe (which says so in the system property launcher). */
class ChecksTest {

	@Test
	@Timeout(300)
	void aProcessAPoolAndAManagerWorkUnderATestRunner() {
		String outcome = Checks.run(System.getProperty("launcher", "surefire"));
		System.out.println(outcome);
		assertTrue(outcome.endsWith("all worked"));
	}
}
