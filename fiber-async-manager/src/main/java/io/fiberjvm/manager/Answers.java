package io.fiberjvm.manager;

import java.util.List;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.RemoteException;
import io.fiberjvm.codec.CodecException;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.internal.frames.Answer;
import io.fiberjvm.internal.frames.AnswerFrame;
import io.fiberjvm.transport.Outbound;

/** Sends answers up the session, from many object threads: a value, or an error cut to fit a frame. */
record Answers(ShippedValues values, int maxError, Consumer<Outbound> up) {

	/**
	 * Sends the answer to call {@code id}; a large value's array goes back to the codec once the transport lets
	 * its frame go, for the next result of its size.
	 */
	void send(long id, @Nullable Throwable error, @Nullable Object value) {
		send(error != null ? failure(id, error) : answer(id, value));
	}

	/** Sends an answer made already. */
	void send(Answer answer) {
		up.accept(Answer.outbound(AnswerFrame.encode(answer), List.of(answer), values::giveBack));
	}

	/** Sends other frames up the session. */
	Consumer<byte[]> frames() {
		return frame -> up.accept(Outbound.of(frame));
	}

	/** The answer carrying {@code value}, or the failure to carry it. */
	Answer answer(long id, @Nullable Object value) {
		try {
			return AnswerFrame.answer(id, values, value, "the result");
		}
		catch (CodecException e) {
			return failure(id, e);
		}
	}

	/** The answer saying the call failed with {@code error}, cut to fit a frame. */
	Answer failure(long id, Throwable error) {
		return Answer.failure(id, RemoteException.encode(error, maxError));
	}
}
