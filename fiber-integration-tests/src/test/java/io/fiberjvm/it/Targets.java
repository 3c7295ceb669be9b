package io.fiberjvm.it;

import io.fiberjvm.Resources;

/** Target classes that the process tests start by class. */
final class Targets {

	private Targets() {
	}

	/** Prints what the JVM sees of the resources it was given. */
	@Resources(cpu = 1, memory = "256Mi")
	public static final class Sized implements Runnable {
		@Override
		public void run() {
			System.out.println("processors=" + Runtime.getRuntime().availableProcessors());
			System.out.println("gpus=" + System.getenv("CUDA_VISIBLE_DEVICES"));
			System.out.println("heapMiB=" + (Runtime.getRuntime().maxMemory() >> 20));
		}
	}

	/** Sleeps until it is killed. */
	public static final class Sleeper implements Runnable {
		@Override
		public void run() {
			System.out.println("sleeping in " + ProcessHandle.current().pid());
			System.out.flush();
			try {
				Thread.sleep(Long.MAX_VALUE);
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
			}
		}
	}
}
