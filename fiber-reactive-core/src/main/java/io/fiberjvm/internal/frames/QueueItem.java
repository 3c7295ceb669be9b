package io.fiberjvm.internal.frames;

import java.nio.ByteBuffer;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.internal.BulkCopy;

/**
 * One queue item as a process holds it: the bytes it travels as, or, when it is an array of numbers or bytes read
 * from a batch as its bytes arrived ({@link ItemsFrame#reader}), that array and the tag byte in front of its bytes.
 * Either writes the same bytes into a frame. Immutable, but an arrived array is the caller's to copy or keep.
 */
public final class QueueItem {

	private final @Nullable ByteBuffer bytes;
	private final @Nullable Object array;
	private final byte tag;
	private final int size;

	private QueueItem(@Nullable ByteBuffer bytes, @Nullable Object array, byte tag, int size) {
		this.bytes = bytes;
		this.array = array;
		this.tag = tag;
		this.size = size;
	}

	/** The item whose bytes are the remaining bytes of {@code bytes}, which must not change while it is held. */
	public static QueueItem of(ByteBuffer bytes) {
		return new QueueItem(Objects.requireNonNull(bytes, "bytes"), null, (byte) 0, bytes.remaining());
	}

	/** The item whose bytes were {@code tag} and then {@code size - 1} bytes of {@code array}, read as they arrived. */
	static QueueItem arrived(byte tag, Object array, int size) {
		return new QueueItem(null, array, tag, size);
	}

	/** The bytes it takes in a frame, after its length. */
	public int size() {
		return size;
	}

	/** Its bytes, or null when it is an {@link #array()}. */
	public @Nullable ByteBuffer bytes() {
		return bytes;
	}

	/** The array of numbers or bytes it was read into as it arrived, or null when it is {@link #bytes()}. */
	public @Nullable Object array() {
		return array;
	}

	/** A copy of its {@link #array()}, for a reader that must leave the item as it is. */
	public Object copyOfArray() {
		return BulkCopy.copyOfArray(Objects.requireNonNull(array, "the item's array"));
	}

	/** Writes its {@link #size()} bytes into {@code target} from its position, which moves past them. */
	void writeTo(ByteBuffer target) {
		ByteBuffer held = bytes;
		if (held != null) {
			BulkCopy.put(target, held);
			return;
		}
		target.put(tag);
		Object arrived = Objects.requireNonNull(array, "the item's array");
		if (arrived instanceof byte[] b) {
			BulkCopy.put(target, b, 0, b.length);
			return;
		}
		// The typed copies leave the position where it was.
		if (arrived instanceof double[] d) {
			BulkCopy.put(target, d);
		}
		else if (arrived instanceof float[] f) {
			BulkCopy.put(target, f);
		}
		else if (arrived instanceof int[] i) {
			BulkCopy.put(target, i);
		}
		else {
			BulkCopy.put(target, (long[]) arrived);
		}
		target.position(target.position() + size - 1);
	}

	@Override
	public String toString() {
		return "QueueItem[" + (array == null ? "" : array.getClass().getSimpleName() + ", ") + size + " bytes]";
	}
}
