package io.fiberjvm.it;

/**
 * How long-running work is simulated inside the code under test (a consumer's item, a pool task, a
 * managed object's call): the thread is occupied, as by I/O, without using a core. Tests never wait
 * with it; they wait with StepVerifier or Awaitility.
 */
final class SimulatedWork {

	private SimulatedWork() {
	}

	/**
	 * Occupies the calling thread for {@code millis}, as a task that waits on I/O would, unless it is interrupted:
	 * then throws, its interrupt cleared, as a blocking call does.
	 */
	static void awaitUnlessInterrupted(long millis) throws InterruptedException {
		new java.util.concurrent.CountDownLatch(1).await(millis, java.util.concurrent.TimeUnit.MILLISECONDS);
	}

	/** Occupies the calling thread for {@code millis}, as a task that waits on I/O would. */
	static void pause(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while simulating work", e);
		}
	}
}
