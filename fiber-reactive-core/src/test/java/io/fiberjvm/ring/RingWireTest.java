package io.fiberjvm.ring;

import java.nio.ByteBuffer;
import java.util.List;

import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import io.fiberjvm.codec.CodecException;
import io.fiberjvm.transport.Endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RingWireTest {

	private static byte[] bytes(ByteBuffer buffer) {
		byte[] out = new byte[buffer.remaining()];
		buffer.get(out);
		return out;
	}

	@Test
	void aMessageArrivesWholeWhetherItCameBeforeOrAfterItWasAwaited() {
		Mailbox mailbox = new Mailbox();
		byte[] payload = {1, 2, 3, 4, 5};
		RingFrames.deliver(RingFrames.segment(7, 1, 2, 0, 5, payload, 0, 5), mailbox, 4);
		StepVerifier.create(mailbox.take(7, 1, 2).map(RingWireTest::bytes)).assertNext(b -> assertThat(b).containsExactly(payload)).verifyComplete();

		var later = mailbox.take(8, 0, 1).map(RingWireTest::bytes);
		// Segments out of order.
		RingFrames.deliver(RingFrames.segment(8, 0, 1, 3, 5, payload, 3, 2), mailbox, 4);
		RingFrames.deliver(RingFrames.segment(8, 0, 1, 0, 5, payload, 0, 3), mailbox, 4);
		StepVerifier.create(later).assertNext(b -> assertThat(b).containsExactly(payload)).verifyComplete();

		RingFrames.deliver(RingFrames.segment(9, 0, 0, 0, 0, new byte[0], 0, 0), mailbox, 4);
		StepVerifier.create(mailbox.take(9, 0, 0).map(ByteBuffer::remaining)).expectNext(0).verifyComplete();
	}

	@Test
	void malformedMessagesAreClearErrors() {
		Mailbox mailbox = new Mailbox();
		assertThatThrownBy(() -> RingFrames.deliver(new byte[7], mailbox, 3)).isInstanceOf(CodecException.class)
				.hasMessageContaining("shorter than its 20-byte header");
		assertThatThrownBy(() -> RingFrames.deliver(RingFrames.segment(0, 0, 5, 0, 1, new byte[1], 0, 1), mailbox, 3))
				.isInstanceOf(CodecException.class).hasMessageContaining("rank 5").hasMessageContaining("ring of 3");
		RingFrames.deliver(RingFrames.segment(1, 0, 1, 0, 4, new byte[2], 0, 2), mailbox, 3);
		assertThatThrownBy(() -> RingFrames.deliver(RingFrames.segment(1, 0, 1, 3, 4, new byte[2], 0, 2), mailbox, 3))
				.isInstanceOf(CodecException.class).hasMessageContaining("does not fit");
		assertThatThrownBy(() -> RingFrames.Join.decode("x\ny".getBytes())).isInstanceOf(CodecException.class)
				.hasMessageContaining("ring join is malformed");
		assertThatThrownBy(() -> RingFrames.Roster.decode("no-port\n1.2.3.4:5".getBytes())).isInstanceOf(CodecException.class)
				.hasMessageContaining("ring roster is malformed");
	}

	@Test
	void joinsAndRostersRoundTrip() {
		RingFrames.Join join = new RingFrames.Join(3, new Endpoint("10.0.0.7", 4100), 0);
		assertThat(RingFrames.Join.decode(join.encode())).isEqualTo(join);
		RingFrames.Roster roster = new RingFrames.Roster(List.of(new Endpoint("10.0.0.1", 1), new Endpoint("10.0.0.2", 2)), 29500);
		assertThat(RingFrames.Roster.decode(roster.encode())).isEqualTo(roster);
	}

	@Test
	void reduceBuffersAddAndSetLittleEndianRanges() {
		ReduceBuffer.Doubles doubles = new ReduceBuffer.Doubles(new double[] {1, 2, 3, 4});
		ByteBuffer chunk = ByteBuffer.allocate(2 * Double.BYTES);
		new ReduceBuffer.Doubles(new double[] {10, 20, 30}).encode(1, 3, chunk);
		doubles.add(1, chunk.flip());
		assertThat(doubles.values).containsExactly(1, 22, 33, 4);
		doubles.set(2, chunk.rewind());
		assertThat(doubles.values).containsExactly(1, 22, 20, 30);
		doubles.divide(2);
		assertThat(doubles.values).containsExactly(0.5, 11, 10, 15);

		ReduceBuffer.Floats floats = new ReduceBuffer.Floats(new float[] {1, 1});
		ByteBuffer both = ByteBuffer.allocate(2 * Float.BYTES);
		new ReduceBuffer.Floats(new float[] {2, 3}).encode(0, 2, both);
		floats.add(0, both.flip());
		assertThat(floats.values).containsExactly(3f, 4f);
	}

	@Test
	void aRingNeedsAMember() {
		assertThatThrownBy(() -> Ring.of(null, 2)).isInstanceOf(NullPointerException.class).hasMessage("fiber");
	}
}
