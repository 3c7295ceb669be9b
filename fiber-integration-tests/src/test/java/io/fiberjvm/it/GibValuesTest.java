package io.fiberjvm.it;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;

import io.fiberjvm.Fiber;

/**
 * A {@code double[]} of 1 GiB crosses real child JVMs whole in every primitive ({@link WholeValueTransfers}).
 * Tagged {@code huge}: the build runs it in a test JVM of its own with a heap to match
 * ({@code fiber-integration-tests/pom.xml}).
 */
@Tag("huge")
@Timeout(600)
class GibValuesTest extends WholeValueTransfers {

	@Override
	int length() {
		return 1024 * 1024 * 1024 / 8;
	}

	@Override
	Fiber open() {
		// A child holds the value, its encoding and its frame at once; every setting but the heap is the default.
		return Fiber.builder().set("jvm-options", "-Xmx5g").open();
	}
}
