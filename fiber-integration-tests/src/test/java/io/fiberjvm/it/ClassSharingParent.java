package io.fiberjvm.it;

import java.lang.management.ManagementFactory;
import java.time.Duration;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberProcess;

/**
 * A parent JVM for the class-sharing test: starts three children one after the other, each printing
 * the JVM options it was started with, and relays their output as {@code CHILD <n> <line>}.
 */
public final class ClassSharingParent {

	private ClassSharingParent() {
	}

	/** Prints this JVM's options. */
	public static final class PrintOptions implements Runnable {
		@Override
		public void run() {
			System.out.println("options " + ManagementFactory.getRuntimeMXBean().getInputArguments());
		}
	}

	public static void main(String[] args) {
		try (Fiber fiber = Fiber.open()) {
			for (int i = 0; i < 3; i++) {
				FiberProcess child = fiber.process(PrintOptions.class).start().block(Duration.ofSeconds(60));
				child.join().block(Duration.ofSeconds(120));
				int n = i;
				child.logs().doOnNext(line -> System.out.println("CHILD " + n + " " + line)).blockLast(Duration.ofSeconds(30));
			}
		}
		System.out.println("DONE");
		System.out.flush();
	}
}
