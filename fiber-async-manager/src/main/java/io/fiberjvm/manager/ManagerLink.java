package io.fiberjvm.manager;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;

import io.fiberjvm.FiberProcess;

/**
 * One process of a manager and the session it opens: a manager has one at a time, and a new one at each restart.
 * Calls go down it only once the process has sent its ready word; its session's fields are guarded by the
 * {@link ManagerSession}'s lock.
 */
final class ManagerLink {

	/** Names routes; seeded once, so that a restart on a network thread reads no file for them. */
	private static final SecureRandom RANDOM = seeded();

	/** The prefix of the parent's route the process opens its session on. */
	final String sessionPrefix;
	/** The prefix of the routes the process serves its shared objects under. */
	final String sharedPrefix;
	/** Completes once the process took its session and the calls held for it went down. */
	final Sinks.One<Void> ready = Sinks.one();
	/** The parent's route the process opens its session on, served until the link is given up. */
	volatile @Nullable Disposable served;
	volatile @Nullable FiberProcess process;
	/** Where calls go down, once the process opened its session; under the session's lock. */
	@Nullable FluxSink<byte[]> out;
	/** Whether the process sent its ready word, so calls may go down; under the session's lock. */
	boolean open;

	private ManagerLink(String sessionPrefix, String sharedPrefix) {
		this.sessionPrefix = sessionPrefix;
		this.sharedPrefix = sharedPrefix;
	}

	/** A link for a new process, its routes named so no other process can guess them. */
	static ManagerLink named() {
		return new ManagerLink("fiber.m-" + unguessable() + "/", "fiber.shared-" + unguessable() + "/");
	}

	private static String unguessable() {
		return Long.toString(RANDOM.nextLong() >>> 1, 36);
	}

	private static SecureRandom seeded() {
		SecureRandom random;
		try {
			random = SecureRandom.getInstance("DRBG");
		}
		catch (java.security.NoSuchAlgorithmException e) {
			random = new SecureRandom();
		}
		random.nextLong();
		return random;
	}

	/** Gives the link up: the route goes, the session is ended, the process is stopped. */
	void close(@Nullable FluxSink<byte[]> sink) {
		Disposable route = served;
		if (route != null) {
			route.dispose();
		}
		if (sink != null) {
			sink.complete();
		}
		FiberProcess running = process;
		if (running != null) {
			running.terminate().subscribe(done -> { }, error -> { });
		}
	}

	/**
	 * How long a session that ended waits for its process's exit to say why: a process that dies (killed for memory,
	 * say) drops its connection a moment before its exit is seen.
	 */
	static final Duration EXIT_WAIT = Duration.ofSeconds(5);

	/**
	 * Completes when the process {@code started} of this link of manager {@code manager} sent its ready word. Its own
	 * bounds (a wait for a machine, then its start) end when it runs; then it has {@code startTimeout}. A process that
	 * fails to start ends, and its end loses the manager saying why; should its end not be seen (its pod could not be
	 * deleted), this fails with why it did not start.
	 */
	Mono<Void> readyWithin(FiberProcess started, Duration startTimeout, String manager) {
		return ready.asMono().timeout(started.onRunning()
						.onErrorResume(error -> Mono.delay(EXIT_WAIT, Schedulers.boundedElastic()).then(Mono.error(new ManagerLostException("manager " + manager
								+ " was lost before it took calls: " + error.getMessage(), error))))
						.then(Mono.delay(startTimeout, Schedulers.boundedElastic())))
				.onErrorMap(TimeoutException.class, timeout -> new ManagerLostException("manager " + manager
						+ " did not take calls within " + startTimeout + " (fiber.start-timeout) of its process starting"));
	}
}
