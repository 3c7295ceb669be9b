package io.fiberjvm.it;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;

import io.fiberjvm.Fiber;

/**
 * A {@code double[]} of 1 GiB crosses real child JVMs whole in every primitive ({@link WholeValueTransfers}).
 * Tagged {@code huge}: the build runs it in a test JVM of its own with a heap to match
 * ({@code fiber-integration-tests/pom.xml}), with a keep-alive timeout raised to 60 s (see {@link #open()}).
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
		// A child holds the value, its encoding and its frame, and the frame's parts as they arrived. Receiving
		// 1 GiB grows the transport's direct memory by as much on the connection's thread (new memory, zeroed),
		// which takes seconds on this kind of machine, and keep-alives are not answered meanwhile: at the default
		// keepalive-timeout of 5 s a manager or ring member loses its parent. Values this large need it raised
		// until they travel in parts of bounded size.
		return Fiber.builder().set("jvm-options", "-Xmx5g").set("keepalive-timeout", "60s").open();
	}
}
