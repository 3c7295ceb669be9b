package io.fiberjvm.testing;

import org.slf4j.LoggerFactory;
import reactor.blockhound.BlockHound;
import reactor.blockhound.BlockingOperationError;
import reactor.blockhound.integration.BlockHoundIntegration;

/**
 * How the suites that run network threads install BlockHound (those with blockhound-junit-platform and this
 * test-jar): a blocking call on a thread that must not block (Netty's event loops,
 * Reactor's parallel workers) is logged with where it happened, then fails as BlockHound makes it fail, since the
 * transport may turn that error into a closed connection whose cause the test no longer sees.
 */
public final class BlockingCallsReported implements BlockHoundIntegration {

	@Override
	public void applyTo(BlockHound.Builder builder) {
		// A log line written where it is made waits for the file and for other threads' lines: not what this hunts.
		builder.allowBlockingCallsInside("ch.qos.logback.core.UnsynchronizedAppenderBase", "doAppend");
		builder.allowBlockingCallsInside("ch.qos.logback.core.AppenderBase", "doAppend");
		// Netty's own allocator takes a short lock of its own on the event loop it serves.
		builder.allowBlockingCallsInside("io.netty.buffer.AdaptivePoolingAllocator$MagazineGroup", "tryExpandMagazines");
		builder.allowBlockingCallsInside("io.netty.buffer.AdaptivePoolingAllocator$Magazine", "free");
		// Jackson builds a type's deserializer once, under a short lock of its own (a remote error read on an event loop).
		builder.allowBlockingCallsInside("com.fasterxml.jackson.databind.deser.DeserializerCache", "_createAndCacheValueDeserializer");
		builder.blockingMethodCallback(method -> {
			BlockingOperationError error = new BlockingOperationError(method);
			LoggerFactory.getLogger(BlockingCallsReported.class).error("a blocking call on a non-blocking thread", error);
			throw error;
		});
	}
}
