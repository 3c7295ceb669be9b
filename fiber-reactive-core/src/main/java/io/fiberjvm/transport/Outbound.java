package io.fiberjvm.transport;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * One datum a connection sends on a request-channel, which the transport writes into memory of its own.
 *
 * <p>A datum made of pieces (a frame's header and the items of a batch, say) is written once, straight into the
 * memory the transport sends from, instead of first into one array that the transport then copies. A transport
 * writes a datum of up to {@link #WRITTEN_LIMIT} bytes that way ({@link #writeTo}) and asks for a larger one as
 * an array ({@link #toArray()}), which it sends from in parts. It does either at most once, at any time until
 * the datum is sent, on any thread, its connection's own among them: so what a datum writes must not change once
 * it is handed over, and a large datum should be an array already ({@link #of(int, Consumer)} makes it one at
 * once). A datum that is never sent is dropped without a call, and so is an empty one.
 */
public interface Outbound {

	/** The most a transport writes with {@link #writeTo}; it asks for a larger datum as an array. */
	int WRITTEN_LIMIT = 512 * 1024;

	/** The bytes {@link #writeTo} writes, the same each time it is asked; not negative. */
	int size();

	/**
	 * Writes exactly {@link #size()} bytes into {@code target} from its position, which moves past them. The
	 * target is big-endian, has room for no more, and must not be kept once this returns.
	 */
	void writeTo(ByteBuffer target);

	/**
	 * Called by a transport that will not read this datum's bytes again, {@link #toArray()}'s array included: all
	 * of them written to the peer, copied into memory of its own, or dropped with their channel. A transport that
	 * keeps no such account, or one that hands the bytes to a receiver in this process, never calls it, nor does
	 * one whose channel ended before the datum was all taken: a maker must not count on the call, only take it as
	 * leave to reuse the bytes. Called at most once, on any thread. Does nothing unless the datum was made to do
	 * something.
	 */
	default void released() {
	}

	/** The bytes as one array: the array itself for {@link #of(byte[])}, else a new one. */
	default byte[] toArray() {
		return write(this, ByteBuffer.allocate(size())).array();
	}

	/**
	 * {@code datum} written into {@code target}, which has exactly its size left; a datum that writes other than
	 * its size fails with an {@link IllegalStateException} saying so.
	 */
	static ByteBuffer write(Outbound datum, ByteBuffer target) {
		int size = target.remaining();
		int start = target.position();
		try {
			datum.writeTo(target);
		}
		catch (BufferOverflowException overflow) {
			throw new IllegalStateException("a datum of " + size + " bytes wrote more than its size", overflow);
		}
		if (target.hasRemaining()) {
			throw new IllegalStateException("a datum of " + size + " bytes wrote " + (target.position() - start));
		}
		return target;
	}

	/** The bytes of {@code data}, which the transport may send from where they lie; they must not change. */
	static Outbound of(byte[] data) {
		return of(data, () -> { });
	}

	/** As {@link #of(byte[])}, running {@code whenReleased} when the transport {@link #released releases} it. */
	static Outbound of(byte[] data, Runnable whenReleased) {
		return new ArrayOutbound(Objects.requireNonNull(data, "data"), Objects.requireNonNull(whenReleased, "whenReleased"));
	}

	/**
	 * A datum of {@code size} bytes that {@code writer} writes into a target it is given, from its position. One
	 * over {@link #WRITTEN_LIMIT} is written into an array here and now, on the caller's thread, so a transport's
	 * thread never makes a large array.
	 */
	static Outbound of(int size, Consumer<ByteBuffer> writer) {
		return of(size, writer, () -> { });
	}

	/**
	 * As {@link #of(int, Consumer)}, running {@code whenReleased} when the transport {@link #released releases} it:
	 * from then on, {@code writer} is not called and what it reads may be reused.
	 */
	static Outbound of(int size, Consumer<ByteBuffer> writer, Runnable whenReleased) {
		if (size < 0) {
			throw new IllegalArgumentException("a datum's size must not be negative: " + size);
		}
		Objects.requireNonNull(writer, "writer");
		Objects.requireNonNull(whenReleased, "whenReleased");
		Outbound written = new Outbound() {
			@Override
			public int size() {
				return size;
			}

			@Override
			public void writeTo(ByteBuffer target) {
				writer.accept(target);
			}

			@Override
			public void released() {
				whenReleased.run();
			}
		};
		return size > WRITTEN_LIMIT ? of(written.toArray(), whenReleased) : written;
	}
}
