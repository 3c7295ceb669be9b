package io.fiberjvm.transport;

import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.function.Function;

/**
 * Reads each datum a request-channel receives as its bytes arrive, from the memory the transport received them
 * in, instead of from an array made and filled for it first.
 *
 * <p>The transport calls {@link #begin} when a datum's first bytes are in, hands the {@link InboundAssembly} it
 * returns every run of the datum's bytes in order, and emits what {@link InboundAssembly#end()} makes once all
 * {@code size} bytes were taken. It does so on one thread at a time, its connection's own among them: a reader
 * must be quick and must not block. A reader that throws fails its channel with what it threw, and the rest of
 * that datum is dropped; a channel that ends or is cancelled in the middle of a datum drops its assembly without
 * ending it.
 *
 * @param <T> what a datum is read as
 */
@FunctionalInterface
public interface InboundReader<T> {

	/** An assembly for a datum of {@code size} bytes, whose bytes follow. */
	InboundAssembly<T> begin(int size);

	/** A reader that copies each datum into an array of its own, as {@code byte[]} channels receive them. */
	static InboundReader<byte[]> bytes() {
		return ArrayAssembly::new;
	}

	/** A reader that reads each datum as this one does, then makes {@code mapper}'s result of what it read. */
	default <R> InboundReader<R> map(Function<? super T, ? extends R> mapper) {
		Objects.requireNonNull(mapper, "mapper");
		return size -> {
			InboundAssembly<T> assembly = begin(size);
			return new InboundAssembly<>() {
				@Override
				public void take(ByteBuffer bytes) {
					assembly.take(bytes);
				}

				@Override
				public R end() {
					return mapper.apply(assembly.end());
				}
			};
		};
	}

	/** What {@code reader} makes of {@code datum} handed over whole, as from a peer in this process. */
	static <T> T read(InboundReader<T> reader, byte[] datum) {
		Objects.requireNonNull(datum, "datum");
		InboundAssembly<T> assembly = Objects.requireNonNull(reader, "reader").begin(datum.length);
		if (datum.length > 0) {
			assembly.take(ByteBuffer.wrap(datum).asReadOnlyBuffer());
		}
		return Objects.requireNonNull(assembly.end(), "what an assembly ends with");
	}
}
