package io.fiberjvm.it;

import java.time.Duration;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberProcess;

/**
 * A parent JVM for the parent-death tests: starts two sleeping children, prints their pids, then
 * waits to be killed.
 */
public final class OrphanParent {

	private OrphanParent() {
	}

	public static void main(String[] args) throws InterruptedException {
		Fiber fiber = Fiber.builder().set("keepalive-interval", "500ms").set("keepalive-timeout", "3s").open();
		for (int i = 0; i < 2; i++) {
			FiberProcess child = fiber.process(Targets.Sleeper.class).name("orphan-" + i).start().block(Duration.ofSeconds(60));
			child.onRunning().block(Duration.ofSeconds(60));
			System.out.println("CHILD " + child.pid().getAsLong());
		}
		System.out.println("READY");
		System.out.flush();
		Thread.currentThread().join();
	}
}
