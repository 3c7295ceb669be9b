package io.fiberjvm.transport.rsocket;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

import io.fiberjvm.transport.Connection;
import io.fiberjvm.transport.InboundAssembly;
import io.fiberjvm.transport.InboundReader;
import io.fiberjvm.transport.Outbound;
import io.fiberjvm.transport.Routes;
import io.fiberjvm.transport.TransportSettings;

/** A channel's reader gets each datum's bytes where they arrived, in order, on both sides of a real connection. */
@Timeout(120)
class InboundReaderTest {

	private static final Duration WAIT = Duration.ofSeconds(60);

	private final LoopbackPeers peers = new LoopbackPeers(new TransportSettings("reader-secret", 1 << 20, 64 << 20,
			Duration.ofMillis(500), Duration.ofSeconds(5)));

	@AfterEach
	void close() {
		peers.close();
	}

	/** What a reader saw of one datum: its size, the runs it was given, and their bytes put together. */
	private record Seen(int size, int runs, byte[] bytes) {
	}

	/** Records what it is given, and checks what the contract promises of each run. */
	private static final InboundReader<Seen> RECORDING = size -> new InboundAssembly<>() {
		private final List<byte[]> runs = new ArrayList<>();

		@Override
		public void take(ByteBuffer bytes) {
			assertThat(bytes.isReadOnly()).isTrue();
			assertThat(bytes.hasRemaining()).isTrue();
			byte[] run = new byte[bytes.remaining()];
			bytes.get(run);
			runs.add(run);
		}

		@Override
		public Seen end() {
			ByteBuffer all = ByteBuffer.allocate(runs.stream().mapToInt(run -> run.length).sum());
			runs.forEach(all::put);
			return new Seen(size, runs.size(), all.array());
		}
	};

	private static byte[] data(int size, int seed) {
		byte[] bytes = new byte[size];
		for (int i = 0; i < size; i++) {
			bytes[i] = (byte) (seed + i * 7);
		}
		return bytes;
	}

	@Test
	void bothSidesReadEachDatumWhereItArrivedWholeOrInParts() {
		List<byte[]> data = List.of(new byte[0], data(10, 1), data(300_000, 2), data(Parts.PART * 2 + 3, 3), data(5, 4));
		List<Seen> seenByServer = new CopyOnWriteArrayList<>();
		Connection c = peers.connect(Routes.empty().withChannel("echo", RECORDING,
				in -> in.doOnNext(seenByServer::add).map(Seen::bytes)));
		StepVerifier.create(c.requestChannel("echo", Flux.fromIterable(data).map(Outbound::of), RECORDING))
				.assertNext(seen -> assertThat(seen.size()).isZero())
				.assertNext(seen -> assertThat(seen.bytes()).isEqualTo(data.get(1)))
				.assertNext(seen -> assertThat(seen.bytes()).isEqualTo(data.get(2)))
				.assertNext(seen -> {
					assertThat(seen.size()).isEqualTo(data.get(3).length);
					assertThat(seen.bytes()).isEqualTo(data.get(3));
					// Parts are read as they come, not put together first.
					assertThat(seen.runs()).isGreaterThanOrEqualTo(Parts.count(data.get(3).length));
				})
				.assertNext(seen -> assertThat(seen.bytes()).isEqualTo(data.get(4)))
				.expectComplete()
				.verify(WAIT);
		assertThat(seenByServer).extracting(Seen::size).containsExactly(0, 10, 300_000, Parts.PART * 2 + 3, 5);
		assertThat(seenByServer.get(3).bytes()).isEqualTo(data.get(3));
	}

	@Test
	void aReaderThatFailsFailsItsChannelWithWhatItThrewAndNotItsConnection() {
		InboundReader<byte[]> refusing = size -> {
			if (size == 13) {
				throw new IllegalArgumentException("thirteen is refused");
			}
			return InboundReader.bytes().begin(size);
		};
		Connection c = peers.connect(Routes.empty().withChannel("echo", in -> in));
		StepVerifier.create(c.requestChannel("echo", Flux.just(data(3, 1), data(13, 2), data(4, 3)).map(Outbound::of), refusing))
				.assertNext(bytes -> assertThat(bytes).hasSize(3))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(IllegalArgumentException.class).hasMessage("thirteen is refused"))
				.verify(WAIT);

		InboundReader<byte[]> failingAtEnd = size -> new InboundAssembly<>() {
			@Override
			public void take(ByteBuffer bytes) {
				bytes.position(bytes.limit());
			}

			@Override
			public byte[] end() {
				throw new IllegalStateException("no end for a datum of " + size);
			}
		};
		StepVerifier.create(c.requestChannel("echo", Flux.just(data(Parts.PART + 1, 1)).map(Outbound::of), failingAtEnd))
				.expectErrorSatisfies(e -> assertThat(e).hasMessage("no end for a datum of " + (Parts.PART + 1)))
				.verify(WAIT);

		// The server side: its handler hears the reader's failure, and the connection still serves.
		Connection served = peers.connect(Routes.empty()
				.withChannel("refuse", refusing, in -> in.onErrorResume(e -> Flux.just(e.getMessage().getBytes())))
				.withChannel("echo", in -> in));
		StepVerifier.create(served.requestChannel("refuse", Flux.just(data(13, 1)).map(Outbound::of)))
				.assertNext(answer -> assertThat(new String(answer)).isEqualTo("thirteen is refused"))
				.expectComplete()
				.verify(WAIT);
		StepVerifier.create(served.requestChannel("echo", Flux.just(data(13, 1)).map(Outbound::of)))
				.assertNext(answer -> assertThat(answer).isEqualTo(data(13, 1)))
				.expectComplete()
				.verify(WAIT);
	}
}
