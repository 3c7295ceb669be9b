package io.fiberjvm.testing;

import java.util.Arrays;

import org.slf4j.LoggerFactory;
import reactor.blockhound.BlockHound;
import reactor.blockhound.BlockingOperationError;
import reactor.blockhound.integration.BlockHoundIntegration;

/**
 * How the suites that run network threads install BlockHound (those with blockhound-junit-platform and this
 * test-jar): a blocking call on a thread that must not block (Netty's event loops, Reactor's parallel workers) is
 * logged and recorded in {@link BlockingCalls} with where it happened, and {@link BlockingCallsReported} fails
 * the test it happened in, naming it.
 *
 * <p>A wait for a lock goes on rather than throw where it is made, as BlockHound does by default: an error thrown
 * from inside a scheduler's or an event loop's own bookkeeping (a queue's lock that another thread holds for a
 * moment) leaves a timer unscheduled or a connection half closed, and the test that waits for it hangs with no
 * word of why. Any other blocking call (a sleep, a future's get, I/O) still fails where it is made, so it cannot
 * hold a shared thread for ever.
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
			// BlockHound's frames and this callback's say nothing of the caller: the stack starts at the blocking call.
			int from = 0;
			for (int i = 0; i < stack.length; i++) {
				if (stack[i].getClassName().startsWith("reactor.blockhound.")) {
					from = i + 1;
				}
			}
			StackTraceElement[] caller = Arrays.copyOfRange(stack, Math.min(from, stack.length), stack.length);
			BlockingCalls.record(method.toString(), thread, caller);
			LoggerFactory.getLogger(BlockingCallsRecorded.class).error("a blocking call on a non-blocking thread: {}", method,
					new IllegalStateException("the blocking call " + method + " on " + thread.getName()));
			// A wait for a lock goes on (its holder lets go); anything else (a sleep, a future's get, I/O) would hold the
			// thread for long or for ever, and fails where it is made.
			if (!waitsForALock(caller)) {
				throw new BlockingOperationError(method);
			}
		});
	}

	/** A park inside a lock's {@code lock()}, before any other caller. */
	private static boolean waitsForALock(StackTraceElement[] caller) {
		for (StackTraceElement frame : caller) {
			String type = frame.getClassName();
			if (frame.getMethodName().equals("lock") && type.startsWith("java.util.concurrent.locks.Reentrant")) {
				return true;
			}
			if (!type.startsWith("jdk.internal.misc.") && !type.startsWith("java.util.concurrent.locks.")) {
				return false;
			}
		}
		return false;
	}
}
