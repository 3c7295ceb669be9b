package io.fiberjvm.testing;

import java.util.Arrays;

import org.slf4j.LoggerFactory;
import reactor.blockhound.BlockHound;
import reactor.blockhound.integration.BlockHoundIntegration;

/**
 * How the suites that run network threads install BlockHound (those with blockhound-junit-platform and this
 * test-jar): a blocking call on a thread that must not block (Netty's event loops, Reactor's parallel workers) is
 * logged and recorded in {@link BlockingCalls} with where it happened, and the call goes on;
 * {@link BlockingCallsReported} fails the test it happened in, naming it.
 *
 * <p>It does not throw where the call is made, as BlockHound does by default: an error thrown from inside a
 * scheduler's or an event loop's own bookkeeping (a queue's lock that another thread holds for a moment) leaves
 * a timer unscheduled or a connection half closed, and the test that waits for it hangs with no word of why.
 */
public final class BlockingCallsRecorded implements BlockHoundIntegration {

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
		// Cancelling a periodic timer (a keep-alive's, an interval's) takes its worker's queue lock for a moment, as
		// cancelling a one-shot one does, which Reactor's own integration allows.
		builder.allowBlockingCallsInside("reactor.core.scheduler.PeriodicSchedulerTask", "dispose");
		builder.allowBlockingCallsInside("reactor.core.scheduler.PeriodicWorkerTask", "dispose");
		builder.allowBlockingCallsInside("reactor.core.scheduler.InstantPeriodicWorkerTask", "dispose");
		builder.allowBlockingCallsInside("java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue", "remove");
		builder.allowBlockingCallsInside("java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue", "poll");
		builder.blockingMethodCallback(method -> {
			Thread thread = Thread.currentThread();
			StackTraceElement[] stack = thread.getStackTrace();
			// The frames of BlockHound and of this callback say nothing of the caller.
			String blocking = method.getClassName().replace('/', '.');
			int from = 0;
			while (from < stack.length && !stack[from].getClassName().equals(blocking)) {
				from++;
			}
			BlockingCalls.record(method.toString(), thread, from < stack.length ? Arrays.copyOfRange(stack, from, stack.length) : stack);
			LoggerFactory.getLogger(BlockingCallsRecorded.class).error("a blocking call on a non-blocking thread: {}", method,
					new IllegalStateException("the blocking call " + method + " on " + thread.getName()));
		});
	}
}
