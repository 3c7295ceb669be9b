package io.fiberjvm.internal.ring;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import io.fiberjvm.codec.CodecException;
import io.fiberjvm.internal.frames.MessageFrame;
import io.fiberjvm.runtime.InProcessRuntime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RingWireTest {

	private static MessageFrame chunk(int seq, int step, int from, byte[] data) {
		return MessageFrame.decode(MessageFrame.chunk(seq, step, from, data.length, out -> out.put(data)).toArray());
	}

	private static byte[] bytes(MessageFrame message) {
		ByteBuffer chunk = message.chunk().duplicate();
		byte[] out = new byte[chunk.remaining()];
		chunk.get(out);
		return out;
	}

	@Test
	void aMessageIsTakenWhetherItCameBeforeOrAfterItWasAwaited() {
		Mailbox mailbox = new Mailbox(4);
		byte[] payload = {1, 2, 3, 4, 5};
		mailbox.deliver(chunk(7, 1, 2, payload));
		StepVerifier.create(mailbox.take(7, 1, 2).map(RingWireTest::bytes)).assertNext(b -> assertThat(b).containsExactly(payload))
				.verifyComplete();

		var later = mailbox.take(8, 0, 1).map(RingWireTest::bytes);
		// Another sender's message, and another step's, are not this one.
		mailbox.deliver(chunk(8, 0, 2, new byte[] {9}));
		mailbox.deliver(chunk(8, 1, 1, new byte[] {9}));
		mailbox.deliver(chunk(8, 0, 1, payload));
		StepVerifier.create(later).assertNext(b -> assertThat(b).containsExactly(payload)).verifyComplete();
		StepVerifier.create(mailbox.take(8, 0, 2).map(RingWireTest::bytes)).assertNext(b -> assertThat(b).containsExactly(9))
				.verifyComplete();

		mailbox.deliver(chunk(9, 0, 0, new byte[0]));
		StepVerifier.create(mailbox.take(9, 0, 0).map(m -> m.chunk().remaining())).expectNext(0).verifyComplete();
	}

	@Test
	void malformedMessagesAreClearErrors() {
		Mailbox mailbox = new Mailbox(3);
		assertThatThrownBy(() -> mailbox.deliver(chunk(0, 0, 5, new byte[1])))
				.isInstanceOf(CodecException.class).hasMessageContaining("rank 5").hasMessageContaining("ring of 3");
		mailbox.deliver(chunk(1, 0, 1, new byte[2]));
		assertThatThrownBy(() -> mailbox.deliver(chunk(1, 0, 1, new byte[2])))
				.isInstanceOf(CodecException.class).hasMessageContaining("came twice");
		StepVerifier.create(mailbox.take(1, 0, 1).map(m -> m.chunk().remaining())).expectNext(2).verifyComplete();
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
