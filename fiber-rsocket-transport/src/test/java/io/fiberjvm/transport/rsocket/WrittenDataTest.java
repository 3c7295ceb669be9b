package io.fiberjvm.transport.rsocket;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

import io.fiberjvm.transport.Connection;
import io.fiberjvm.transport.Outbound;
import io.fiberjvm.transport.Routes;
import io.fiberjvm.transport.TransportSettings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Data a channel's sender writes into the transport's memory crosses a real connection as it was written. */
@Timeout(120)
class WrittenDataTest {

	private static final Duration WAIT = Duration.ofSeconds(60);

	private final TransportSettings settings = new TransportSettings("written-secret", 1 << 20, 64 << 20, Duration.ofMillis(500),
			Duration.ofSeconds(5));

	private final LoopbackPeers peers = new LoopbackPeers(settings);

	@AfterEach
	void close() {
		peers.close();
	}

	/** {@code size} bytes counting up from {@code seed}, written one at a time; each write counted in {@code writes}. */
	private static Outbound counting(int size, int seed, AtomicInteger writes) {
		return Outbound.of(size, target -> {
			writes.incrementAndGet();
			for (int i = 0; i < size; i++) {
				target.put((byte) (seed + i));
			}
		});
	}

	/**
	 * A datum of {@code size} bytes that {@code writer} writes only when the transport asks: unlike
	 * {@link Outbound#of(int, Consumer)}, it checks nothing and writes nothing large at once.
	 */
	private static Outbound unchecked(int size, Consumer<ByteBuffer> writer) {
		return new Outbound() {
			@Override
			public int size() {
				return size;
			}

			@Override
			public void writeTo(ByteBuffer target) {
				writer.accept(target);
			}
		};
	}

	private static byte[] expected(int size, int seed) {
		byte[] bytes = new byte[size];
		for (int i = 0; i < size; i++) {
			bytes[i] = (byte) (seed + i);
		}
		return bytes;
	}

	@Test
	void writtenDataOfEverySizeArrivesAsWrittenEachWrittenOnce() {
		Connection c = peers.connect(Routes.empty().withChannel("echo", in -> in));
		int[] sizes = {0, 100, Frames.POOLED_LIMIT, Frames.POOLED_LIMIT + 1, Parts.PART * 2 + 5};
		AtomicInteger writes = new AtomicInteger();
		Flux<Outbound> data = Flux.range(0, sizes.length).map(i -> counting(sizes[i], i, writes));
		StepVerifier.create(c.requestChannel("echo", data))
				.assertNext(back -> assertThat(back).isEqualTo(expected(0, 0)))
				.assertNext(back -> assertThat(back).isEqualTo(expected(100, 1)))
				.assertNext(back -> assertThat(back).isEqualTo(expected(Frames.POOLED_LIMIT, 2)))
				.assertNext(back -> assertThat(back).isEqualTo(expected(Frames.POOLED_LIMIT + 1, 3)))
				.assertNext(back -> assertThat(back).isEqualTo(expected(Parts.PART * 2 + 5, 4)))
				.expectComplete().verify(WAIT);
		assertThat(writes).as("one write for each datum but the empty one, whatever its parts").hasValue(4);
	}

	@Test
	void aRespondersWrittenAnswersOfEverySizeArriveAsWrittenEachWrittenOnce() {
		int[] sizes = {0, 100, Frames.POOLED_LIMIT + 1, Parts.PART * 2 + 5};
		AtomicInteger writes = new AtomicInteger();
		List<Boolean> intoDirectMemory = new CopyOnWriteArrayList<>();
		Routes routes = Routes.empty().withWrittenChannel("sizes", io.fiberjvm.transport.InboundReader.bytes(),
				in -> in.map(asked -> {
					Outbound answer = counting(sizes[asked[0]], asked[0], writes);
					return unchecked(answer.size(), target -> {
						intoDirectMemory.add(target.isDirect());
						answer.writeTo(target);
					});
				}));
		Connection c = peers.connect(routes);
		Flux<Outbound> asks = Flux.range(0, sizes.length).map(i -> Outbound.of(new byte[] {i.byteValue()}));
		StepVerifier.create(c.requestChannel("sizes", asks))
				.assertNext(back -> assertThat(back).isEqualTo(expected(sizes[0], 0)))
				.assertNext(back -> assertThat(back).isEqualTo(expected(sizes[1], 1)))
				.assertNext(back -> assertThat(back).isEqualTo(expected(sizes[2], 2)))
				.assertNext(back -> assertThat(back).isEqualTo(expected(sizes[3], 3)))
				.expectComplete().verify(WAIT);
		assertThat(writes).as("one write for each answer but the empty one, whatever its parts").hasValue(3);
		// The empty answer is never written; a small one straight into the transport's memory; larger ones once each, as arrays.
		assertThat(intoDirectMemory).containsExactly(true, false, false);
		// A caller in this process gets each answer as an array.
		StepVerifier.create(routes.requestChannel("sizes", Flux.just(new byte[] {1})))
				.assertNext(back -> assertThat(back).isEqualTo(expected(sizes[1], 1)))
				.expectComplete().verify(WAIT);
	}

	@Test
	void everyDatumIsReleasedOnceTheTransportIsDoneWithItsBytesAndNotBeforeItWasAllTaken() {
		Connection c = peers.connect(Routes.empty().withChannel("echo", in -> in));
		int[] sizes = {0, 100, Frames.POOLED_LIMIT + 1, Parts.PART * 2 + Frames.POOLED_LIMIT + 1, Parts.PART * 2 + 5};
		List<Integer> released = new CopyOnWriteArrayList<>();
		Flux<Outbound> data = Flux.range(0, sizes.length).map(i -> {
			byte[] bytes = expected(sizes[i], i);
			// Written over once released, as its maker may: a release before the bytes are all out shows in the echo.
			return Outbound.of(bytes, () -> {
				released.add(i);
				java.util.Arrays.fill(bytes, (byte) 0x5A);
			});
		});
		StepVerifier.create(c.requestChannel("echo", data))
				.assertNext(back -> assertThat(back).isEqualTo(expected(sizes[0], 0)))
				.assertNext(back -> assertThat(back).isEqualTo(expected(sizes[1], 1)))
				.assertNext(back -> assertThat(back).isEqualTo(expected(sizes[2], 2)))
				.assertNext(back -> assertThat(back).isEqualTo(expected(sizes[3], 3)))
				.assertNext(back -> assertThat(back).isEqualTo(expected(sizes[4], 4)))
				.expectComplete().verify(WAIT);
		// Each at most once, and all of them, whatever their parts (the last part of one copied, of the other not).
		await().atMost(WAIT).untilAsserted(() -> assertThat(released).containsExactlyInAnyOrder(0, 1, 2, 3, 4));

		// A datum its channel ended before taking all of it is not released.
		Connection d = peers.connect(Routes.empty().withChannel("first", in -> in.take(1).thenMany(Flux.never())));
		List<String> releasedToo = new CopyOnWriteArrayList<>();
		Flux<Outbound> two = Flux.just(Outbound.of(new byte[10], () -> releasedToo.add("small")),
				Outbound.of(new byte[Parts.PART * 8], () -> releasedToo.add("large")));
		StepVerifier.create(d.requestChannel("first", two))
				.expectSubscription()
				.then(() -> await().atMost(WAIT).untilAsserted(() -> assertThat(releasedToo).contains("small")))
				.thenCancel()
				.verify(WAIT);
		assertThat(releasedToo).containsExactly("small");
	}

	@Test
	void aDatumThatWritesOtherThanItsSizeOrFailsFailsItsChannelSayingSoAndTheConnectionGoesOn() {
		Connection c = peers.connect(Routes.empty().withChannel("echo", in -> in));
		Outbound shortOne = Outbound.of(8, target -> target.putInt(1));
		StepVerifier.create(c.requestChannel("echo", Flux.just(Outbound.of(new byte[] {1}), shortOne)))
				.assertNext(back -> assertThat(back).containsExactly(1))
				.expectErrorSatisfies(error -> assertThat(error).isInstanceOf(IllegalStateException.class)
						.hasMessage("a datum of 8 bytes wrote 4"))
				.verify(WAIT);
		Outbound longOne = Outbound.of(2, target -> target.putInt(1));
		StepVerifier.create(c.requestChannel("echo", Flux.just(longOne)))
				.expectErrorSatisfies(error -> assertThat(error).isInstanceOf(IllegalStateException.class)
						.hasMessage("a datum of 2 bytes wrote more than its size"))
				.verify(WAIT);
		Outbound failing = Outbound.of(8, target -> {
			throw new AssertionError("the writer broke");
		});
		StepVerifier.create(c.requestChannel("echo", Flux.just(failing)))
				.expectErrorSatisfies(error -> assertThat(error).isInstanceOf(AssertionError.class).hasMessage("the writer broke"))
				.verify(WAIT);
		Outbound negative = unchecked(-1, target -> { });
		Outbound largeAndShort = unchecked(Outbound.WRITTEN_LIMIT + 10, target -> target.put(new byte[10]));
		StepVerifier.create(c.requestChannel("echo", Flux.just(largeAndShort)))
				.expectErrorSatisfies(error -> assertThat(error).isInstanceOf(IllegalStateException.class)
						.hasMessage("a datum of " + (Outbound.WRITTEN_LIMIT + 10) + " bytes wrote 10"))
				.verify(WAIT);
		StepVerifier.create(c.requestChannel("echo", Flux.just(negative)))
				.expectErrorSatisfies(error -> assertThat(error).hasMessage("a datum's size must not be negative: -1"))
				.verify(WAIT);
		StepVerifier.create(c.requestChannel("echo", Flux.just(Outbound.of(new byte[] {5}))))
				.assertNext(back -> assertThat(back).containsExactly(5))
				.expectComplete().verify(WAIT);
	}

	@Test
	void aLargeWrittenDatumIsMadeAnArrayOnTheCallersThreadNotTheConnections() {
		Thread caller = Thread.currentThread();
		List<Thread> writers = new CopyOnWriteArrayList<>();
		Outbound large = Outbound.of(Outbound.WRITTEN_LIMIT + 1, target -> {
			writers.add(Thread.currentThread());
			target.put(new byte[Outbound.WRITTEN_LIMIT + 1]);
		});
		assertThat(writers).containsExactly(caller);
		assertThat(large.toArray()).as("the array it made").isSameAs(large.toArray()).hasSize(Outbound.WRITTEN_LIMIT + 1);
		assertThatThrownBy(() -> Outbound.of(Outbound.WRITTEN_LIMIT + 10,
				target -> target.put(new byte[10]))).isInstanceOf(IllegalStateException.class).hasMessage("a datum of "
						+ (Outbound.WRITTEN_LIMIT + 10) + " bytes wrote 10");
	}

	@Test
	void aDatumOverTheLimitIsRefusedBeforeItIsWritten() {
		Connection c = peers.connect(Routes.empty().withChannel("echo", in -> in));
		AtomicInteger writes = new AtomicInteger();
		Outbound tooLarge = unchecked(64 << 20, target -> {
			writes.incrementAndGet();
			target.put(ByteBuffer.allocate(64 << 20));
		});
		StepVerifier.create(c.requestChannel("echo", Flux.just(tooLarge)))
				.expectErrorSatisfies(error -> assertThat(error).hasMessageContaining("over the limit"))
				.verify(WAIT);
		assertThat(writes).hasValue(0);
	}
}
