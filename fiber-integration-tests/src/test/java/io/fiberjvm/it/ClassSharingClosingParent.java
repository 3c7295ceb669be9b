package io.fiberjvm.it;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.queue.FiberQueue;

/**
 * A parent JVM for the class-sharing test of a closing {@code Fiber}: its first child, the one that writes the class
 * archive as it exits, takes longer to exit than the terminate grace and the few seconds a close waits beyond it, as a
 * large archive takes to write. Prints
 * {@code DONE} once the {@code Fiber} has closed.
 */
public final class ClassSharingClosingParent {

	private static final Duration WAIT = Duration.ofSeconds(120);

	private ClassSharingClosingParent() {
	}

	public static void main(String[] args) {
		try (Fiber fiber = Fiber.builder().set("terminate-grace", "1s").open()) {
			FiberQueue<String> hooked = fiber.queue(String.class, 1);
			FiberProcess writer = fiber.process(() -> {
				Runtime.getRuntime().addShutdownHook(new Thread(() -> SimulatedWork.pause(8_000)));
				hooked.put("hooked").block(WAIT);
				awaitTermination();
			}).name("writer").start().block(WAIT);
			// Closed only once the child is slow to exit, so the close has to wait for it.
			hooked.take().block(WAIT);
			System.out.println("CLOSING " + writer.name());
		}
		System.out.println("DONE");
		System.out.flush();
	}

	/** Runs until the JVM is terminated. */
	private static void awaitTermination() {
		try {
			new CountDownLatch(1).await();
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}
}
