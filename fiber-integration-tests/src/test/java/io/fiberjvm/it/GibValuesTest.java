package io.fiberjvm.it;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;

import io.fiberjvm.Fiber;

/**
 * A {@code double[]} of 1 GiB crosses real child JVMs whole in every primitive ({@link WholeValueTransfers}).
 * Tagged {@code huge}: the build runs it in a test JVM of its own with a heap to match
 * ({@code fiber-integration-tests/pom.xml}), with the keep-alive timeout raised to 60 s for the queue's sake (see {@link #open()}).
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
		// A child holds the value, its encoding and its frame at once. At the default keep-alive timeout of 5 s the
		// pool, manager and ring transfers pass, in a full build too; the queue's does not, even alone (its relay
		// worker loses its parent). The timeout is raised so the test checks that every value arrives whole.
		return Fiber.builder().set("jvm-options", "-Xmx5g").set("keepalive-timeout", "60s").open();
	}
}
