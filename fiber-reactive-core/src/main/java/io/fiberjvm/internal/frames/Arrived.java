package io.fiberjvm.internal.frames;

import org.jspecify.annotations.Nullable;

/**
 * A frame as a reader made it where the transport received it (a manager's session: {@link CallFrame#reader},
 * {@link AnswerFrame#reader}; a fetched shared value: {@link ValueFrame#reader}): a message whose large value was read into its array as it arrived, or, for any other
 * frame, its bytes whole, to be decoded by its kind. Exactly one of the two is there.
 *
 * @param read the message read as it arrived, or null
 * @param whole the frame's bytes, or null
 * @param <T> the message
 */
public record Arrived<T>(@Nullable T read, byte @Nullable [] whole) {

	public Arrived {
		if ((read == null) == (whole == null)) {
			throw new IllegalArgumentException("a frame arrives read or whole, one of the two");
		}
	}

	static <T> Arrived<T> read(T message) {
		return new Arrived<T>(message, null);
	}

	static <T> Arrived<T> whole(byte[] frame) {
		return new Arrived<>(null, frame);
	}
}
