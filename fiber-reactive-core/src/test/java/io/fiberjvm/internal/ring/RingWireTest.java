package io.fiberjvm.internal.ring;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import io.fiberjvm.codec.CodecException;
import io.fiberjvm.internal.frames.SegmentFrame;
import io.fiberjvm.runtime.InProcessRuntime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RingWireTest {

	private static byte[] bytes(ByteBuffer buffer) {
		byte[] out = new byte[buffer.remaining()];
		buffer.get(out);
		return out;
	}

	private static SegmentFrame segment(int seq, int step, int from, int offset, int total, byte[] data, int dataOffset, int length) {
		return SegmentFrame.decode(SegmentFrame.encode(seq, step, from, offset, total, data, dataOffset, length));
	}

	@Test
	void aMessageArrivesWholeWhetherItCameBeforeOrAfterItWasAwaited() {
		Mailbox mailbox = new Mailbox(4);
		byte[] payload = {1, 2, 3, 4, 5};
		mailbox.deliver(segment(7, 1, 2, 0, 5, payload, 0, 5));
		StepVerifier.create(mailbox.take(7, 1, 2).map(RingWireTest::bytes)).assertNext(b -> assertThat(b).containsExactly(payload)).verifyComplete();

		var later = mailbox.take(8, 0, 1).map(RingWireTest::bytes);
		// Segments out of order.
		mailbox.deliver(segment(8, 0, 1, 3, 5, payload, 3, 2));
		mailbox.deliver(segment(8, 0, 1, 0, 5, payload, 0, 3));
		StepVerifier.create(later).assertNext(b -> assertThat(b).containsExactly(payload)).verifyComplete();

		mailbox.deliver(segment(9, 0, 0, 0, 0, new byte[0], 0, 0));
		StepVerifier.create(mailbox.take(9, 0, 0).map(ByteBuffer::remaining)).expectNext(0).verifyComplete();
	}

	@Test
	void malformedMessagesAreClearErrors() {
		Mailbox mailbox = new Mailbox(3);
		assertThatThrownBy(() -> mailbox.deliver(segment(0, 0, 5, 0, 1, new byte[1], 0, 1)))
				.isInstanceOf(CodecException.class).hasMessageContaining("rank 5").hasMessageContaining("ring of 3");
		mailbox.deliver(segment(1, 0, 1, 0, 4, new byte[2], 0, 2));
		assertThatThrownBy(() -> mailbox.deliver(segment(1, 0, 1, 3, 4, new byte[2], 0, 2)))
				.isInstanceOf(CodecException.class).hasMessageContaining("does not fit");
		// Refused before a buffer for the whole message is made.
		assertThatThrownBy(() -> mailbox.deliver(segment(2, 0, 1, 8, Integer.MAX_VALUE - 1, new byte[2], 0, 2)))
				.isInstanceOf(CodecException.class).hasMessageContaining("more than one Java array can hold");
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
	void aRingNeedsARuntimeAndAMember() {
		assertThatThrownBy(() -> ProcessRing.of(null, 2)).isInstanceOf(NullPointerException.class).hasMessage("runtime");
		assertThatThrownBy(() -> ProcessRing.of(new InProcessRuntime(), 0)).isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("at least one member");
	}
}
