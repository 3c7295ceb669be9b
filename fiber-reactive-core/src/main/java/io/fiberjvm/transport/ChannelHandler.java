package io.fiberjvm.transport;

import java.util.Objects;
import java.util.function.Function;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;

/**
 * What a {@link Router} does with one request-channel: how each datum that arrives is read, and what answers them.
 *
 * @param <T> what each datum is read as
 */
public interface ChannelHandler<T> {

	/** How the transport reads each datum that arrives on the channel. */
	InboundReader<T> reader();

	/** The answers to {@code data}, the channel's data as {@link #reader()} read it. */
	Publisher<byte[]> answer(Flux<T> data);

	/**
	 * The answers to {@code data} as a transport sends them to a peer: data it writes where it sends them from. Each
	 * of {@link #answer}'s arrays, unless the handler writes its answers itself ({@link #written}).
	 */
	default Publisher<? extends Outbound> answerOutbound(Flux<T> data) {
		return Flux.from(answer(data)).map(Outbound::of);
	}

	/** The answers to {@code data} handed over as arrays (from a peer in this process), each read as the transport would. */
	default Publisher<byte[]> answerArrays(Publisher<byte[]> data) {
		InboundReader<T> reader = reader();
		return answer(Flux.from(data).map(datum -> InboundReader.read(reader, datum)));
	}

	/** A handler that reads with {@code reader} and answers with {@code answer}. */
	static <T> ChannelHandler<T> of(InboundReader<T> reader, Function<? super Flux<T>, ? extends Publisher<byte[]>> answer) {
		Objects.requireNonNull(answer, "answer");
		// An array's Outbound gives the array itself back: a caller in this process gets the handler's own arrays.
		return written(reader, data -> Flux.from(answer.apply(data)).map(Outbound::of));
	}

	/**
	 * A handler that reads with {@code reader} and answers with data {@code answer} makes, which a transport writes
	 * where it sends it from ({@link Outbound}); a peer in this process gets each as an array.
	 */
	static <T> ChannelHandler<T> written(InboundReader<T> reader,
			Function<? super Flux<T>, ? extends Publisher<? extends Outbound>> answer) {
		Objects.requireNonNull(reader, "reader");
		Objects.requireNonNull(answer, "answer");
		return new ChannelHandler<>() {
			@Override
			public InboundReader<T> reader() {
				return reader;
			}

			@Override
			public Publisher<byte[]> answer(Flux<T> data) {
				return Flux.from(answerOutbound(data)).map(Outbound::toArray);
			}

			@Override
			public Publisher<? extends Outbound> answerOutbound(Flux<T> data) {
				return Flux.defer(() -> Flux.<Outbound>from(answer.apply(data)));
			}
		};
	}
}
