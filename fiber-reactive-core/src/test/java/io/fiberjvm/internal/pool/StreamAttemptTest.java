package io.fiberjvm.internal.pool;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Operators;
import reactor.test.StepVerifier;

import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.internal.frames.DemandFrame;
import io.fiberjvm.internal.frames.ElementsFrame;
import io.fiberjvm.pool.WorkerLostException;

import static org.assertj.core.api.Assertions.assertThat;

/** One attempt at a streaming task on the pool's side, against streams the test plays by hand. */
@Timeout(30)
class StreamAttemptTest {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final ShippedValues values = new ShippedValues(List.of());
	private final TaskCodec codec = new TaskCodec(values, 1 << 20);
	private final AtomicLong delivered = new AtomicLong();
	private final AtomicReference<StreamAttempt> attempt = new AtomicReference<>();

	/** The caller's side: a Flux whose subscription makes the attempt, asking for {@code initial} elements. */
	private StepVerifier.FirstStep<Object> caller(long initial) {
		return StepVerifier.create(Flux.create(sink -> attempt.set(new StreamAttempt(codec, sink, delivered)),
				FluxSink.OverflowStrategy.BUFFER), initial);
	}

	/** A stream that does {@code before} when subscribed, before it hands its subscriber a subscription. */
	private static Flux<byte[]> stream(Runnable before) {
		return Flux.from(subscriber -> {
			before.run();
			subscriber.onSubscribe(Operators.emptySubscription());
		});
	}

	@Test
	void aCancelBeforeTheStreamSubscribesStillEndsThePoolsSide() {
		caller(0).then(() -> {
			StreamAttempt a = attempt.get();
			StepVerifier.create(a.open("w", stream(a::cancel))).expectComplete().verify(WAIT);
		}).thenCancel().verify(WAIT);
	}

	@Test
	void anErrorBeforeTheStreamSubscribesEndsBothSides() {
		caller(0).then(() -> {
			StreamAttempt a = attempt.get();
			Consumer<Throwable> fail = a::error;
			StepVerifier.create(a.open("w", stream(() -> fail.accept(new WorkerLostException("t", "w", "gone")))))
					.expectComplete().verify(WAIT);
		}).expectError(WorkerLostException.class).verify(WAIT);
	}

	@Test
	void demandBeforeTheStreamOpensGoesDownFirstAndElementsComeInOrder() {
		byte[] one = values.write(1, "1");
		byte[] two = values.write(2, "2");
		caller(5).then(() -> {
			StreamAttempt a = attempt.get();
			Flux<byte[]> down = a.open("w", Flux.just(ElementsFrame.of(0, List.of(one, two)).encode()));
			StepVerifier.create(down.map(frame -> DemandFrame.decode(frame).count()))
					.expectNext(5L)
					.expectComplete()
					.verify(WAIT);
			a.success(null);
		}).expectNext(1, 2).expectComplete().verify(WAIT);
		assertThat(delivered).hasValue(2);
	}

	@Test
	void aWorkerLostAfterElementsSaysHowManyCame() {
		byte[] one = values.write(1, "1");
		caller(5).then(() -> {
			StreamAttempt a = attempt.get();
			a.open("w", Flux.<byte[]>just(ElementsFrame.of(0, List.of(one)).encode()).concatWith(Flux.never())).subscribe();
			a.error(new WorkerLostException("t", "w", "its process exited"));
		}).expectNext(1).expectErrorSatisfies(error -> assertThat(error).isInstanceOf(WorkerLostException.class)
				.hasMessageContaining("after its stream had delivered 1 element;")
				.hasMessageContaining("its process exited")).verify(WAIT);
	}
}
