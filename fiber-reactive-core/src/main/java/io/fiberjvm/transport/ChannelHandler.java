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

	/** The answers to {@code data} handed over as arrays (from a peer in this process), each read as the transport would. */
	default Publisher<byte[]> answerArrays(Publisher<byte[]> data) {
		InboundReader<T> reader = reader();
		return answer(Flux.from(data).map(datum -> InboundReader.read(reader, datum)));
	}

	/** A handler that reads with {@code reader} and answers with {@code answer}. */
	static <T> ChannelHandler<T> of(InboundReader<T> reader, Function<? super Flux<T>, ? extends Publisher<byte[]>> answer) {
		Objects.requireNonNull(reader, "reader");
		Objects.requireNonNull(answer, "answer");
		return new ChannelHandler<>() {
			@Override
			public InboundReader<T> reader() {
				return reader;
			}

			@Override
			public Publisher<byte[]> answer(Flux<T> data) {
				return Flux.defer(() -> answer.apply(data));
			}
		};
	}
}
