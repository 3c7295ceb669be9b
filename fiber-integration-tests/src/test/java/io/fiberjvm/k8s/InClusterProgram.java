package io.fiberjvm.k8s;

import java.util.List;

import reactor.core.publisher.Flux;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.pool.FiberPool;

/**
 * A program as a user would run it with {@code fiber run}: it opens a runtime with no configuration at
 * all, so inside the cluster it finds the Kubernetes backend, its own pod and namespace by itself, and
 * maps over a pool of worker pods. With {@code linger} it then keeps a long map running, for the test
 * that deletes its pod.
 */
public final class InClusterProgram {

	private InClusterProgram() {
	}

	public static void main(String[] args) {
		try (Fiber fiber = Fiber.open()) {
			System.out.println("backend " + fiber.backendName() + ", run " + fiber.runId());
			FiberPool pool = fiber.pool(2).open();
			List<Integer> squares = pool.map((FiberFunction<Integer, Integer>) x -> x * x, Flux.range(0, 100)).collectList().block();
			System.out.println("sum of squares " + squares.stream().mapToInt(Integer::intValue).sum());
			if (args.length > 0 && args[0].equals("linger")) {
				System.out.println("lingering");
				pool.map((FiberFunction<Integer, Integer>) x -> {
					java.util.concurrent.locks.LockSupport.parkNanos(600_000_000_000L);
					return x;
				}, Flux.range(0, 2)).blockLast();
			}
		}
	}
}
