package io.fiberjvm.internal.pool;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

import io.fiberjvm.internal.frames.Answer;
import io.fiberjvm.internal.frames.ChunkFrame;
import io.fiberjvm.internal.frames.DemandFrame;
import io.fiberjvm.internal.stream.SequenceOut;

/**
 * Runs a streaming task on a worker: its elements go to the pool on a request-channel of their own, in
 * {@code ELEMENTS} frames, as many as the pool's {@code DEMAND} frames on the same channel ask for; then the
 * task is answered as any other, with the error if the function or its publisher failed.
 */
final class TaskStreamer {

	private final TaskCodec codec;
	/** Opens a request-channel to the pool: the route, the frames up; the pool's side of the channel back. */
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
	 * cancelled it. The publisher is subscribed and asked on a thread of the stream's own, one call at a
	 * time, never on the connection's; it is cancelled from wherever the cancel comes, so a publisher that
	 * holds its thread still sees it. The worker answers when the pool ends the stream, whatever the
	 * publisher does then.
	 */
	Answer stream(StreamingFunction fn, ChunkFrame.Task task) {
		Publisher<?> elements;
		try {
			elements = fn.apply(codec.readArgument(task));
		}
		catch (OutOfMemoryError | InternalError fatal) {
			throw fatal;
		}
		catch (Throwable error) {
			return codec.failure(task.id(), error);
		}
		AtomicReference<@Nullable Throwable> failure = new AtomicReference<>();
		Sinks.Many<byte[]> up = Sinks.many().unicast().onBackpressureBuffer();
		// Frames up go one at a time, whichever thread the publisher emits on.
		Consumer<@Nullable Throwable> end = error -> {
			if (error != null) {
				failure.compareAndSet(null, error);
			}
			synchronized (up) {
				up.tryEmitComplete();
			}
		};
		ExecutorService thread = Executors.newSingleThreadExecutor(command -> {
			Thread own = new Thread(command, "fiber-stream-" + task.id());
			own.setDaemon(true);
			return own;
		});
		// Subscribing and asking run one at a time on the stream's thread; a command that throws ends the stream.
		Executor serially = command -> thread.execute(() -> {
			try {
				command.run();
			}
			catch (RuntimeException | LinkageError | StackOverflowError e) {
				end.accept(e);
			}
		});
		SequenceOut out = new SequenceOut(task.id(), "an element of the task's stream", serially, codec.values(), frame -> {
			synchronized (up) {
				up.tryEmitNext(frame);
			}
		}, end);
		serially.execute(() -> Flux.from(elements).subscribe(out));
		try {
			// Cancelling is thread-safe and goes straight to the publisher, even one that holds its thread.
			Flux.from(pool.apply(routes + task.id(), up.asFlux().doOnCancel(out::cancel)))
					.doOnNext(frame -> {
						long count = DemandFrame.decode(frame).count();
						if (count > 0) {
							out.demand(count);
						}
						else {
							out.cancel();
						}
					})
					.then()
					.block();
		}
		catch (RuntimeException broken) {
			// The pool refused the stream (its caller cancelled first), the connection failed, or this thread was interrupted.
			failure.compareAndSet(null, broken);
		}
		finally {
			// Whatever is left of the publisher stops; its thread ends once it returns.
			out.cancel();
			thread.shutdown();
		}
		Throwable error = failure.get();
		return error == null ? codec.result(task.id(), null) : codec.failure(task.id(), error);
	}
}
