package io.fiberjvm.internal.queue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.internal.frames.CreditFrame;
import io.fiberjvm.internal.frames.QueueItem;

import static org.assertj.core.api.Assertions.assertThat;

class SenderTest {

	private final ShippedValues values = new ShippedValues(List.of());

	/**
	 * A host in another process, as its producer sees it: grants room for four items at a time, copies each batch as a
	 * transport would, and gives the batch back when it is asked to.
	 */
	private static final class CopyingChannel implements QueueChannel {

		final List<byte[]> received = new ArrayList<>();
		final Map<byte[], Boolean> arraysSeen = new IdentityHashMap<>();
		private final boolean givesBack;

		CopyingChannel(boolean givesBack) {
			this.givesBack = givesBack;
		}

		@Override
		public Flux<Long> send(Flux<List<QueueItem>> batches, Consumer<List<QueueItem>> sent) {
			Sinks.Many<Long> grants = Sinks.many().unicast().onBackpressureBuffer();
			grants.tryEmitNext(4L);
			batches.subscribe(batch -> {
				for (QueueItem queued : batch) {
					ByteBuffer item = java.util.Objects.requireNonNull(queued.bytes());
					received.add(Arrays.copyOfRange(item.array(), item.position(), item.limit()));
					arraysSeen.put(item.array(), Boolean.TRUE);
				}
				if (givesBack) {
					sent.accept(batch);
				}
				grants.tryEmitNext((long) batch.size());
			}, grants::tryEmitError, grants::tryEmitComplete);
			return grants.asFlux();
		}

		@Override
		public Mono<Void> put(QueueItem item) {
			return Mono.error(new UnsupportedOperationException("put"));
		}

		@Override
		public Flux<List<QueueItem>> receive(Flux<CreditFrame> credits) {
			return Flux.error(new UnsupportedOperationException("receive"));
		}

		@Override
		public Mono<Integer> size() {
			return Mono.just(0);
		}

		@Override
		public boolean emitsOutsideLock() {
			return true;
		}

		@Override
		public Mono<Void> close() {
			return Mono.empty();
		}

		@Override
		public Mono<Void> closed() {
			return Mono.never();
		}
	}

	private Mono<Void> send(CopyingChannel channel, int count) {
		byte[] mine = new byte[4096];
		Flux<byte[]> items = Flux.range(0, count).map(i -> {
			Arrays.fill(mine, i.byteValue());
			return mine;
		});
		return Sender.send(channel, items, (item, arrays) -> ByteBuffer.wrap(values.write(item, "an item", arrays)), 2, 1 << 20);
	}

	@Test
	void itemsAreEncodedIntoTheArraysOfBatchesAlreadySentAndArriveAsTheyWereSent() {
		CopyingChannel channel = new CopyingChannel(true);
		StepVerifier.create(send(channel, 40)).expectComplete().verify(Duration.ofSeconds(10));
		assertThat(channel.received).hasSize(40);
		for (int i = 0; i < 40; i++) {
			byte expected = (byte) i;
			byte[] item = channel.received.get(i);
			assertThat(values.read(item, "item")).as("item %d", i).isInstanceOfSatisfying(byte[].class, bytes -> {
				assertThat(bytes).hasSize(4096);
				for (byte b : bytes) {
					assertThat(b).isEqualTo(expected);
				}
			});
		}
		assertThat(channel.arraysSeen).as("arrays reused once their batch was sent").hasSizeLessThan(10);
	}

	@Test
	void aBatchNeverGivenBackLeavesEachItemItsOwnArray() {
		CopyingChannel channel = new CopyingChannel(false);
		StepVerifier.create(send(channel, 40)).expectComplete().verify(Duration.ofSeconds(10));
		assertThat(channel.arraysSeen).hasSize(40);
	}
}
