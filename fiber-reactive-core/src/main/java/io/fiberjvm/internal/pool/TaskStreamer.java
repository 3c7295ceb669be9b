package io.fiberjvm.internal.pool;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import io.fiberjvm.internal.frames.Answer;
import io.fiberjvm.internal.frames.ChunkFrame;

/**
 * Runs a streaming task on a worker: its elements go to the pool on a request-channel of their own, one per
 * payload, as fast as the caller asks for them; then the task is answered as any other, with the error if
 * the function or its publisher failed.
 */
final class TaskStreamer {

	private final TaskCodec codec;
	/** Opens a request-channel to the pool: the route, the elements up; the pool's side of the channel back. */
	private final BiFunction<String, Flux<byte[]>, ? extends Publisher<byte[]>> pool;
	/** {@code fiber.pool-<id>/streams/<worker>/}, to which a task's id is added. */
	private final String routes;

	TaskStreamer(TaskCodec codec, BiFunction<String, Flux<byte[]>, ? extends Publisher<byte[]>> pool, String routes) {
		this.codec = codec;
		this.pool = pool;
		this.routes = routes;
	}

	/**
	 * Streams one task's elements and returns its answer, once the pool has taken the whole stream or
	 * cancelled it. The publisher runs on a worker thread of its own, not on the connection's.
	 */
	Answer stream(StreamingFunction fn, ChunkFrame.Task task) {
		Publisher<?> elements;
		try {
			elements = fn.apply(codec.readArgument(task.arg()));
		}
		catch (OutOfMemoryError | InternalError fatal) {
			throw fatal;
		}
		catch (Throwable error) {
			return codec.failure(task.id(), error);
		}
		AtomicReference<@Nullable Throwable> failure = new AtomicReference<>();
		Flux<byte[]> up = Flux.from(elements)
				.subscribeOn(Schedulers.boundedElastic())
				.map(codec::element)
				.onErrorResume(error -> {
					failure.set(error);
					return Mono.empty();
				});
		try {
			Flux.from(pool.apply(routes + task.id(), up)).then().block();
		}
		catch (RuntimeException broken) {
			// The pool refused the stream (its caller cancelled first) or the connection failed.
			return codec.failure(task.id(), broken);
		}
		Throwable error = failure.get();
		return error == null ? codec.result(task.id(), null) : codec.failure(task.id(), error);
	}
}
