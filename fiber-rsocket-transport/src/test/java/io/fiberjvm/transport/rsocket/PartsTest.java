package io.fiberjvm.transport.rsocket;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rsocket.Payload;
import io.rsocket.util.ByteBufPayload;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

import io.fiberjvm.FiberException;
import io.fiberjvm.transport.Connection;
import io.fiberjvm.transport.InboundReader;
import io.fiberjvm.transport.Outbound;
import io.fiberjvm.transport.Routes;
import io.fiberjvm.transport.TransportSettings;

import static org.assertj.core.api.Assertions.assertThat;

/** Data larger than a part crosses a real connection as parts, at the receiver's pace, and is put together whole. */
@Timeout(120)
class PartsTest {

	private static final Duration WAIT = Duration.ofSeconds(60);

	/** Values up to 64 MiB; frames of 1 MiB. */
	private final TransportSettings settings = new TransportSettings("parts-secret", 1 << 20, 64 << 20, Duration.ofMillis(500),
			Duration.ofSeconds(5));

	private final LoopbackPeers peers = new LoopbackPeers(settings);

	@AfterEach
	void close() {
		peers.close();
	}

	private static byte[] data(int size, int seed) {
		byte[] data = new byte[size];
		new Random(seed).nextBytes(data);
		return data;
	}

	@Test
	void streamsAndChannelsCarryDataOfManyPartsWholeAndInOrderBesideSmallData() {
		byte[] big = data(Parts.PART * 2 + 12345, 1);
		byte[] exact = data(Parts.PART, 2);
		Routes routes = Routes.empty()
				.withStream("three", bytes -> Flux.just(bytes, new byte[] {7}, bytes))
				.withChannel("sizes", in -> in.map(bytes -> (bytes.length + ":" + bytes[bytes.length - 1]).getBytes(StandardCharsets.UTF_8)))
				.withChannel("echo", in -> in);
		Connection c = peers.connect(routes);
		StepVerifier.create(c.requestStream("three", big))
				.assertNext(back -> assertThat(back).isEqualTo(big))
				.assertNext(back -> assertThat(back).containsExactly(7))
				.assertNext(back -> assertThat(back).isEqualTo(big))
				.expectComplete().verify(WAIT);
		StepVerifier.create(c.requestChannel("sizes", Flux.just(big, new byte[] {3}, exact).map(Outbound::of)).map(b -> new String(b, StandardCharsets.UTF_8)))
				.expectNext(big.length + ":" + big[big.length - 1], "1:3", exact.length + ":" + exact[exact.length - 1])
				.expectComplete().verify(WAIT);
		StepVerifier.create(c.requestChannel("echo", Flux.just(exact, big).map(Outbound::of)))
				.assertNext(back -> assertThat(back).isEqualTo(exact))
				.assertNext(back -> assertThat(back).isEqualTo(big))
				.expectComplete().verify(WAIT);
	}

	@Test
	void aFirstDatumOfAnySizeSentWithTheRouteArrivesWholeBeforeTheRest() {
		Routes routes = Routes.empty()
				.withChannel("sizes", in -> in.map(bytes -> (bytes.length + ":" + (bytes.length == 0 ? "-" : bytes[bytes.length - 1]))
						.getBytes(StandardCharsets.UTF_8)));
		Connection c = peers.connect(routes);
		byte[] tail = {5};
		for (int size : new int[] {0, 1, Outbound.WRITTEN_LIMIT, Outbound.WRITTEN_LIMIT + 1, Parts.PART, Parts.PART + 1, Parts.PART * 3}) {
			byte[] first = data(size, size);
			String said = size + ":" + (size == 0 ? "-" : first[size - 1]);
			StepVerifier.create(c.requestChannel("sizes", Outbound.of(first), Flux.just(Outbound.of(tail)), InboundReader.bytes())
							.map(b -> new String(b, StandardCharsets.UTF_8)))
					.expectNext(said, "1:5")
					.expectComplete().verify(WAIT);
			StepVerifier.create(c.requestChannel("sizes", Outbound.of(first), Flux.empty(), InboundReader.bytes())
							.map(b -> new String(b, StandardCharsets.UTF_8)))
					.expectNext(said)
					.expectComplete().verify(WAIT);
		}
		StepVerifier.create(c.requestChannel("nowhere", Outbound.of(tail), Flux.empty(), InboundReader.bytes()))
				.expectErrorSatisfies(e -> assertThat(e).hasMessageContaining("nowhere"))
				.verify(WAIT);
		// Over the limit: refused before anything is sent, as any datum is.
		StepVerifier.create(c.requestChannel("sizes", Outbound.of(new byte[(64 << 20) + 1]), Flux.empty(), InboundReader.bytes()))
				.expectError()
				.verify(WAIT);
	}

	@Test
	void theSenderIsAskedForNoMoreDataThanTheReceiverWants() {
		byte[] big = data(Parts.PART * 2 + 1, 3);
		List<Long> asked = new CopyOnWriteArrayList<>();
		Routes routes = Routes.empty().withStream("many", bytes -> Flux.range(0, 5).map(i -> big).doOnRequest(asked::add));
		Connection c = peers.connect(routes);
		StepVerifier.create(c.requestStream("many", new byte[0]), 1)
				.assertNext(back -> assertThat(back).isEqualTo(big))
				// Parts of the next datum are not sent ahead: the publisher was asked for one.
				.expectNoEvent(Duration.ofMillis(300))
				.then(() -> assertThat(asked.stream().mapToLong(Long::longValue).sum()).isEqualTo(1))
				.thenRequest(4)
				.expectNextCount(4)
				.expectComplete().verify(WAIT);
	}

	@Test
	void partsOutOfOrderOrCutByAWholePayloadFailSayingSoAndAreReleased() {
		byte[] big = data(Parts.PART + 10, 4);
		List<Payload> parts = Parts.out(Flux.just(big).map(Outbound::of), "r", 64 << 20).collectList().block(WAIT);
		assertThat(parts).hasSize(2);
		Payload whole = ByteBufPayload.create(Unpooled.wrappedBuffer(new byte[] {1}));
		StepVerifier.create(Parts.join(Flux.just(parts.get(0), whole), InboundReader.bytes(), 64 << 20))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(FiberException.class)
						.hasMessageContaining("a whole payload arrived after " + Parts.PART + " of " + big.length))
				.verify(WAIT);
		assertThat(parts.get(0).refCnt()).isZero();
		assertThat(whole.refCnt()).isZero();
		parts.get(1).release();

		List<Payload> again = Parts.out(Flux.just(big).map(Outbound::of), "r", 64 << 20).collectList().block(WAIT);
		StepVerifier.create(Parts.join(Flux.just(again.get(1)), InboundReader.bytes(), 64 << 20))
				.expectErrorSatisfies(e -> assertThat(e).hasMessageContaining("a first part at " + Parts.PART))
				.verify(WAIT);
		assertThat(again.get(1).refCnt()).isZero();
		again.get(0).release();

		List<Payload> tooLarge = Parts.out(Flux.just(big).map(Outbound::of), "r", 64 << 20).collectList().block(WAIT);
		StepVerifier.create(Parts.join(Flux.fromIterable(tooLarge), InboundReader.bytes(), Parts.PART + 1))
				.expectErrorSatisfies(e -> assertThat(e).hasMessageContaining("(limit " + (Parts.PART + 1) + ")"))
				.verify(WAIT);
		tooLarge.stream().filter(p -> p.refCnt() > 0).forEach(Payload::release);
	}

	@Test
	void aReceiverAsksForTheRestOfADatumAheadAndForNothingBeyondIt() {
		// Twelve parts: the receiver wants one datum, so the sender is asked for its first part, then for the other
		// eleven, a window ahead and one more as each arrives; the small datum after it waits to be wanted.
		byte[] big = data(Parts.PART * 11 + 5, 6);
		byte[] small = data(100, 7);
		List<Long> asked = new CopyOnWriteArrayList<>();
		Flux<Payload> payloads = Parts.out(Flux.just(big, small).map(Outbound::of), "r", 64 << 20).doOnRequest(asked::add);
		StepVerifier.create(Parts.join(payloads, InboundReader.bytes(), 64 << 20), 1)
				.assertNext(data -> assertThat(data).isEqualTo(big))
				.then(() -> assertThat(asked).containsExactly(1L, (long) Parts.WINDOW, 1L, 1L, 1L))
				.thenRequest(1)
				.assertNext(data -> assertThat(data).isEqualTo(small))
				.verifyComplete();
		assertThat(asked).containsExactly(1L, (long) Parts.WINDOW, 1L, 1L, 1L, 1L);
	}

	@Test
	void partsOfAnotherSizeThanASenderMakesAreRefusedNotWaitedFor() {
		// What is asked for ahead counts on parts of PART bytes: smaller ones would leave the receiver waiting for
		// parts nobody asked for, a larger one would let through a payload nobody asked for.
		int total = Parts.PART * 2 + 1;
		StepVerifier.create(Parts.join(Flux.just(part(Parts.PART / 2, 0, total)), InboundReader.bytes(), 64 << 20), 1)
				.expectErrorSatisfies(e -> assertThat(e).hasMessageContaining("a part of " + Parts.PART / 2 + " bytes at 0 of " + total))
				.verify(WAIT);
		StepVerifier.create(Parts.join(Flux.just(part(Parts.PART, 0, total), part(Parts.PART + 1, Parts.PART, total)), InboundReader.bytes(), 64 << 20), 1)
				.expectErrorSatisfies(e -> assertThat(e).hasMessageContaining("a part of " + (Parts.PART + 1) + " bytes at " + Parts.PART))
				.verify(WAIT);
	}

	/** A part as a sender marks it, of any length. */
	private static Payload part(int length, long offset, long total) {
		ByteBuf mark = Unpooled.buffer(Parts.MARK_SIZE).writeByte(Parts.MARK).writeLong(total).writeLong(offset);
		return ByteBufPayload.create(Unpooled.wrappedBuffer(new byte[length]), mark);
	}

	@Test
	void partsThatStopShortFailAndCountsHoldNearTwoGibibytes() {
		byte[] big = data(Parts.PART + 10, 5);
		List<Payload> parts = Parts.out(Flux.just(big).map(Outbound::of), "r", 64 << 20).collectList().block(WAIT);
		StepVerifier.create(Parts.join(Flux.just(parts.get(0)), InboundReader.bytes(), 64 << 20))
				.expectErrorSatisfies(e -> assertThat(e).hasMessageContaining("ended after " + Parts.PART + " of " + big.length))
				.verify(WAIT);
		parts.get(1).release();
		assertThat(Parts.count(Integer.MAX_VALUE - 8)).isEqualTo(512);
		assertThat(Parts.count(2046 << 20)).isEqualTo(512);
		assertThat(Parts.count(Parts.PART + 1)).isEqualTo(2);
		assertThat(Parts.count(0)).isEqualTo(1);
	}

	@Test
	void dataUpToAPartIsOnePayloadAndLargerDataOverTheLimitIsRefusedBeforeAnyPart() {
		assertThat(Parts.out(Flux.just(new byte[Parts.PART]).map(Outbound::of), "r", 64 << 20).collectList().block(WAIT)).singleElement()
				.satisfies(payload -> {
					ByteBuf data = payload.data();
					assertThat(data.readableBytes()).isEqualTo(Parts.PART);
					payload.release();
				});
		StepVerifier.create(Parts.out(Flux.just(new byte[Parts.PART * 2]).map(Outbound::of), "route-x", Parts.PART))
				.expectErrorSatisfies(e -> assertThat(e).hasMessageContaining("route-x").hasMessageContaining("max-value-size"))
				.verify(WAIT);
	}

	@Test
	void aStreamQueuesAtMost32MiBOfLargePayloadsUntilTheTransportHasWrittenThem() {
		byte[] big = new byte[Parts.PART * 20];
		List<Payload> out = new CopyOnWriteArrayList<>();
		List<Integer> sizes = new CopyOnWriteArrayList<>();
		java.util.concurrent.atomic.AtomicBoolean completed = new java.util.concurrent.atomic.AtomicBoolean();
		// Asked for without bound, as a manager's session asks; nothing is written until a payload is released.
		Parts.out(Flux.just(big, new byte[2 << 20], new byte[2 << 20]).map(Outbound::of), "r", 128 << 20)
				.doOnNext(payload -> sizes.add(payload.data().readableBytes()))
				.subscribe(out::add, error -> { }, () -> completed.set(true));
		assertThat(out).hasSize(8);
		out.get(0).release();
		assertThat(out).hasSize(9);
		out.get(1).release();
		out.get(2).release();
		assertThat(out).hasSize(11);
		for (int released = 3; released < out.size(); released++) {
			out.get(released).release();
		}
		assertThat(out).hasSize(22);
		assertThat(completed).isTrue();
		assertThat(sizes.subList(0, 20)).containsOnly(Parts.PART);
		assertThat(sizes.subList(20, 22)).containsOnly(2 << 20);
	}

	@Test
	void smallPayloadsAreNotHeldBack() {
		List<Payload> out = new CopyOnWriteArrayList<>();
		// 100 MiB of payloads just small enough to be copied as they are made: none waits for another to be written.
		Parts.out(Flux.range(0, 200).map(i -> new byte[Parts.TRACKED - 1]).map(Outbound::of), "r", 128 << 20).subscribe(out::add);
		assertThat(out).hasSize(200);
		out.forEach(Payload::release);
	}
}
