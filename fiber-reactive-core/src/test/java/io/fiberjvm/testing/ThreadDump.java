package io.fiberjvm.testing;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.Arrays;
import java.util.stream.Collectors;

/** The stacks of this JVM's threads, for the message of a test that waited in vain for one of them. */
public final class ThreadDump {

	private ThreadDump() {
	}

	/** Every thread's name, state, the lock it waits for and its whole stack. */
	public static String all() {
		return Arrays.stream(ManagementFactory.getThreadMXBean().dumpAllThreads(true, true))
				.map(thread -> "\"" + thread.getThreadName() + "\" " + describe(thread) + "\n")
				.collect(Collectors.joining("\n"));
	}

	/** One thread's state, the lock it waits for and who holds it, and its stack, a frame a line. */
	static String describe(ThreadInfo thread) {
		StringBuilder text = new StringBuilder().append(thread.getThreadState());
		if (thread.getLockName() != null) {
			text.append(" on ").append(thread.getLockName());
		}
		if (thread.getLockOwnerName() != null) {
			text.append(" held by \"").append(thread.getLockOwnerName()).append('"');
		}
		for (StackTraceElement frame : thread.getStackTrace()) {
			text.append("\n\tat ").append(frame);
		}
		return text.toString();
	}
}
