package org.example.consumer;

import java.time.Duration;
import java.util.List;

import reactor.core.publisher.Flux;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.manager.AsyncManager;
import io.fiberjvm.pool.FiberPool;

/**
 * What a program does with Fiber, each part checked: a lambda run in a child JVM whose output comes back, a pool's
 * map over child JVMs, and an object hosted in a manager called through its async proxy.
 */
final class Checks {

	private static final Duration WAIT = Duration.ofMinutes(2);

	private Checks() {
	}

	/** Runs every check; returns what was seen, or throws saying what was not. */
	static String run(String launcher) {
		try (Fiber fiber = Fiber.open()) {
			FiberProcess hello = fiber.process(() -> System.out.println("hello from a child JVM")).name("hello").start().block(WAIT);
			hello.join().block(WAIT);
			String line = hello.logs().filter(l -> l.startsWith("hello from")).next().block(WAIT);
			expect("hello from a child JVM", line, launcher, "a process's output");

			List<Integer> squares;
			try (FiberPool pool = fiber.pool(2).name("squares").open()) {
				squares = pool.map((FiberFunction<Integer, Integer>) x -> x * x, Flux.range(1, 6)).collectList().block(WAIT);
			}
			expect(List.of(1, 4, 9, 16, 25, 36), squares, launcher, "a pool's map");

			AsyncManager manager = AsyncManager.on(fiber).register(AsyncTally.class, Tally.class).start().block(WAIT);
			AsyncTally tally = manager.create(AsyncTally.class);
			tally.add(2).block(WAIT);
			expect(5, tally.add(3).block(WAIT), launcher, "a manager's object");
			return "consumer under " + launcher + ": a process, a pool and a manager all worked";
		}
	}

	private static void expect(Object expected, Object actual, String launcher, String what) {
		if (!expected.equals(actual)) {
			throw new AssertionError("under " + launcher + ", " + what + " gave " + actual + ", not " + expected);
		}
	}
}
