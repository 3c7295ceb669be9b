package io.fiberjvm.progress;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Tracks how far one stream of results is (a pool's {@code map}, say) and reports it as a {@link Flux}
 * of {@link ProgressSnapshot}s.
 *
 * <p>{@link #count(Publisher)} passes the stream through unchanged and counts its elements; while it
 * runs, {@link #snapshots()} emits a snapshot every {@code every}, and exactly one last snapshot, with
 * {@link ProgressSnapshot#finished()} set, when the count reaches the total or the stream completes, fails
 * or is cancelled, whichever comes first; then it completes. Only that last snapshot can have
 * {@code done == total}. Snapshots are replayed to late subscribers from the latest one. One {@code Progress}
 * tracks one subscription of one stream.
 *
 * <pre>{@code
 * Progress progress = Progress.expecting(seeds.size());
 * progress.snapshots().subscribe(ProgressBar.toConsole());
 * List<Result> results = pool.map(Simulator::rollout, seeds).transform(progress::count).collectList().block();
 * }</pre>
 */
public final class Progress {

	/** How often a running stream reports, unless told otherwise. */
	public static final Duration DEFAULT_EVERY = Duration.ofMillis(200);

	private final long total;
	private final Duration every;
	private final Scheduler timer;
	private final AtomicLong done = new AtomicLong();
	private final Sinks.Many<ProgressSnapshot> snapshots = Sinks.many().replay().latest();
	// Guarded by this.
	private long startNanos = -1;
	private boolean finished;
	private @Nullable Disposable ticker;

	private Progress(long total, Duration every, Scheduler timer) {
		this.total = total;
		this.every = every;
		this.timer = timer;
	}

	/** Progress toward {@code total} elements (0 or more), reported every {@link #DEFAULT_EVERY}. */
	public static Progress expecting(long total) {
		return expecting(total, DEFAULT_EVERY);
	}

	/** Progress toward {@code total} elements (0 or more), reported every {@code every}. */
	public static Progress expecting(long total, Duration every) {
		if (total < 0) {
			throw new IllegalArgumentException("a progress total is 0 or more, not " + total + " (use unbounded() when it is not known)");
		}
		// Reports go to code that may print or log: off the JVM's timer threads.
		return new Progress(total, checked(every), Schedulers.boundedElastic());
	}

	/** Progress of a stream whose length is not known: snapshots have total -1 and no ETA. */
	public static Progress unbounded(Duration every) {
		return new Progress(-1, checked(every), Schedulers.boundedElastic());
	}

	/** A new, unused {@code Progress} like this one, its reports timed on {@code timer} (a virtual-time scheduler in tests, say). */
	public Progress on(Scheduler timer) {
		return new Progress(total, every, Objects.requireNonNull(timer, "timer"));
	}

	private static Duration checked(Duration every) {
		Objects.requireNonNull(every, "every");
		if (every.isNegative() || every.isZero()) {
			throw new IllegalArgumentException("progress is reported at a positive interval, not " + every);
		}
		return every;
	}

	/** {@code results}, unchanged, counted; fit for {@code Flux.transform(progress::count)}. */
	public <T> Flux<T> count(Publisher<T> results) {
		Objects.requireNonNull(results, "results");
		// Claimed before subscribing, so a second subscriber's refusal cannot finish the first one's report.
		return Flux.defer(() -> {
			started();
			return Flux.from(results)
					.doOnNext(element -> {
						if (done.incrementAndGet() == total) {
							finish();
						}
					})
					.doFinally(signal -> finish());
		});
	}

	/** Snapshots every {@code every} while the stream runs, then the last one; see the class comment. */
	public Flux<ProgressSnapshot> snapshots() {
		return snapshots.asFlux();
	}

	/** The snapshot now. */
	public synchronized ProgressSnapshot now() {
		return snapshot(finished);
	}

	private synchronized void started() {
		if (startNanos >= 0) {
			throw new IllegalStateException("a Progress tracks one subscription; make a new one for each");
		}
		startNanos = timer.now(TimeUnit.NANOSECONDS);
		if (total == 0) {
			return;
		}
		ticker = Flux.interval(every, every, timer).subscribe(tick -> tick());
	}

	private synchronized void tick() {
		ProgressSnapshot now = snapshot(false);
		// The last snapshot alone may show everything done: it is on its way from finish().
		if (!finished && now.done() != total) {
			snapshots.tryEmitNext(now);
		}
	}

	private synchronized void finish() {
		if (finished) {
			return;
		}
		finished = true;
		if (ticker != null) {
			ticker.dispose();
		}
		snapshots.tryEmitNext(snapshot(true));
		snapshots.tryEmitComplete();
	}

	/** Under the lock. */
	private ProgressSnapshot snapshot(boolean last) {
		long elapsed = startNanos < 0 ? 0 : timer.now(TimeUnit.NANOSECONDS) - startNanos;
		return new ProgressSnapshot(done.get(), total, Duration.ofNanos(elapsed), last);
	}
}
