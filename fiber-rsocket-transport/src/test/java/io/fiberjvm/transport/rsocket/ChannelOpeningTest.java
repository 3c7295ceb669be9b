package io.fiberjvm.transport.rsocket;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.netty.buffer.ByteBufUtil;
import io.rsocket.Payload;
import io.rsocket.RSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;

import io.fiberjvm.transport.InboundReader;
import io.fiberjvm.transport.Outbound;

import static org.assertj.core.api.Assertions.assertThat;

/** A channel opened with its first datum sends that datum in the frame that opens it, when it fits one payload. */
@Timeout(60)
class ChannelOpeningTest {

	/** What a peer's socket saw of each frame a channel sent: its metadata and its data, as text. */
	private static final class Recording implements RSocket {
		final List<String> frames = new CopyOnWriteArrayList<>();

		@Override
		public Flux<Payload> requestChannel(Publisher<Payload> payloads) {
			return Flux.from(payloads).doOnNext(frame -> {
				try {
					frames.add(ByteBufUtil.hexDump(frame.metadata()) + "|" + frame.data().readableBytes());
				}
				finally {
					frame.release();
				}
			}).thenMany(Flux.empty());
		}
	}

	private static String hex(int marker, String route) {
		byte[] bytes = route.getBytes(StandardCharsets.UTF_8);
		return (marker < 0 ? "" : String.format("%02x", marker)) + ByteBufUtil.hexDump(bytes);
	}

	@Test
	void theFirstDatumGoesWithTheRouteWhenItFitsOnePayloadAndAfterItOtherwise() {
		Recording peer = new Recording();
		RSocketConnection connection = new RSocketConnection(peer, "peer", 64 << 20);
		connection.requestChannel("r/one", Outbound.of(new byte[10]), Flux.just(Outbound.of(new byte[3])), InboundReader.bytes())
				.blockLast(Duration.ofSeconds(30));
		assertThat(peer.frames).containsExactly(hex(Frames.WITH_DATUM, "r/one") + "|10", "|3");

		peer.frames.clear();
		connection.requestChannel("r/big", Outbound.of(new byte[Parts.PART]), Flux.empty(), InboundReader.bytes())
				.blockLast(Duration.ofSeconds(30));
		assertThat(peer.frames).containsExactly(hex(Frames.WITH_DATUM, "r/big") + "|" + Parts.PART);

		// Over one payload: the route alone opens the channel, and the datum follows in parts.
		peer.frames.clear();
		connection.requestChannel("r/parts", Outbound.of(new byte[Parts.PART + 1]), Flux.empty(), InboundReader.bytes())
				.blockLast(Duration.ofSeconds(30));
		assertThat(peer.frames).hasSize(3).first().isEqualTo(hex(-1, "r/parts") + "|0");

		// Without a first datum named, the route alone opens it, as always.
		peer.frames.clear();
		connection.requestChannel("r/plain", Flux.just(Outbound.of(new byte[10])), InboundReader.bytes()).blockLast(Duration.ofSeconds(30));
		assertThat(peer.frames).containsExactly(hex(-1, "r/plain") + "|0", "|10");
	}

	@Test
	void anOpeningFrameIsReadBackAsItsRouteAndItsDatum() {
		Payload frame = Frames.routeWith("fiber.ring-x/data", Outbound.of(new byte[] {4, 5, 6}), 1 << 20);
		ChannelOpening opening = ChannelOpening.of(frame);
		assertThat(frame.refCnt()).as("the frame, released once read").isZero();
		assertThat(opening.route()).isEqualTo("fiber.ring-x/data");
		Payload datum = opening.take();
		assertThat(datum).isNotNull();
		assertThat(ByteBufUtil.getBytes(datum.data())).containsExactly(4, 5, 6);
		assertThat(opening.take()).as("taken once").isNull();
		opening.release();
		assertThat(datum.refCnt()).as("a taken datum is the taker's to release").isEqualTo(1);
		datum.release();

		ChannelOpening plain = ChannelOpening.of(Frames.routeOnly("a/b"));
		assertThat(plain.route()).isEqualTo("a/b");
		assertThat(plain.take()).isNull();
		Payload untaken = Frames.routeWith("c", Outbound.of(new byte[700_000]), 1 << 20);
		ChannelOpening dropped = ChannelOpening.of(untaken);
		dropped.release();
		assertThat(dropped.take()).as("released, not taken").isNull();
	}
}
