package io.fiberjvm.it;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.Arrays;
import java.util.stream.Collectors;

/** The stacks of this JVM's threads, for the message of a test that waited in vain for one of them. */
final class ThreadDump {

	private ThreadDump() {
	}

	/** Every thread's name, state, the lock it waits for and its whole stack. */
	static String all() {
		return Arrays.stream(ManagementFactory.getThreadMXBean().dumpAllThreads(true, true))
				.map(ThreadDump::describe)
				.collect(Collectors.joining("\n"));
	}

	private static String describe(ThreadInfo thread) {
		StringBuilder text = new StringBuilder("\"").append(thread.getThreadName()).append("\" ")
				.append(thread.getThreadState());
		if (thread.getLockName() != null) {
			text.append(" on ").append(thread.getLockName());
		}
		if (thread.getLockOwnerName() != null) {
			text.append(" held by \"").append(thread.getLockOwnerName()).append('"');
		}
		for (StackTraceElement frame : thread.getStackTrace()) {
			text.append("\n\tat ").append(frame);
		}
		return text.append('\n').toString();
	}
}
