package io.fiberjvm.internal.frames;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.transport.Outbound;

import static org.assertj.core.api.Assertions.assertThat;

/** An answer's frame as a datum to send, and when the buffers of its values go back. */
class AnswerTest {

	private final ShippedValues values = new ShippedValues(List.of());
	private final List<ByteBuffer> givenBack = new ArrayList<>();

	@Test
	void aFrameThatIsItsSoleAnswersArrayGivesItBackOnlyWhenTheTransportLetsItGo() {
		Answer answer = AnswerFrame.answer(3, values, new double[200_000], "weights");
		byte[] frame = AnswerFrame.encode(answer);
		assertThat(frame).as("the frame is the value's own array").isSameAs(answer.value().array());

		Outbound datum = Answer.outbound(frame, List.of(answer), givenBack::add);

		assertThat(datum.toArray()).isSameAs(frame);
		assertThat(givenBack).as("the transport still reads it").isEmpty();
		datum.released();
		assertThat(givenBack).containsExactly(answer.value());
	}

	@Test
	void aFrameThatCopiedItsAnswersGivesTheirBuffersBackAtOnce() {
		Answer large = ResultsFrame.answer(3, values, new double[200_000], "weights");
		Answer small = ResultsFrame.answer(4, values, 7, "seven");
		byte[] frame = new ResultsFrame(true, 1, List.of(large, small)).encode();

		Outbound datum = Answer.outbound(frame, List.of(large, small), givenBack::add);

		assertThat(givenBack).containsExactly(large.value(), small.value());
		datum.released();
		assertThat(givenBack).as("nothing more on release").hasSize(2);
	}
}
