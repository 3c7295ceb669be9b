package io.fiberjvm.internal.pool;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

import io.fiberjvm.FiberException;
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
	 * cancelled it. The publisher is subscribed, asked and cancelled on the calling thread (the worker's, idle
	 * meanwhile), one call at a time, never on the connection's.
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
		Sinks.Many<byte[]> up = Sinks.many().unicast().onBackpressureBuffer();
		// Frames up go one at a time, whichever thread the publisher emits on.
		Runnable end = () -> {
			synchronized (up) {
				up.tryEmitComplete();
			}
		};
		OwnThread thread = new OwnThread(error -> {
			failure.compareAndSet(null, error);
			end.run();
		});
		SequenceOut out = new SequenceOut(task.id(), "an element of the task's stream", thread, codec.values(), frame -> {
			synchronized (up) {
				up.tryEmitNext(frame);
			}
		}, error -> {
			failure.compareAndSet(null, error);
			end.run();
		});
		thread.execute(() -> Flux.from(elements).subscribe(out));
		Flux.from(pool.apply(routes + task.id(), up.asFlux().doOnCancel(out::cancelOnExecutor)))
				.doOnNext(frame -> {
					long count = DemandFrame.decode(frame).count();
					if (count > 0) {
						out.demand(count);
					}
					else {
						out.cancelOnExecutor();
					}
				})
				.subscribe(frame -> { }, broken -> {
					// The pool refused the stream (its caller cancelled first) or the connection failed.
					failure.compareAndSet(null, broken);
					thread.end();
				}, thread::end);
		thread.runUntilEnded();
		// Whatever is left of the publisher stops.
		out.cancel();
		Throwable error = failure.get();
		return error == null ? codec.result(task.id(), null) : codec.failure(task.id(), error);
	}

	/** The worker's thread lent to its stream: commands queue here and run on it until the stream's channel ends. */
	private static final class OwnThread implements Executor {

		private static final Runnable END = () -> { };

		private final BlockingQueue<Runnable> commands = new LinkedBlockingQueue<>();
		/** Told when a command throws: the stream ends with that error. */
		private final Consumer<Throwable> failed;

		OwnThread(Consumer<Throwable> failed) {
			this.failed = failed;
		}

		@Override
		public void execute(Runnable command) {
			commands.add(command);
		}

		void end() {
			commands.add(END);
		}

		/** Runs commands as they come, until {@link #end}; later ones are dropped. */
		void runUntilEnded() {
			try {
				Runnable next;
				while ((next = commands.take()) != END) {
					try {
						next.run();
					}
					catch (RuntimeException | LinkageError | StackOverflowError e) {
						failed.accept(e);
					}
				}
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				throw new FiberException("interrupted while streaming a task's elements", e);
			}
		}
	}
}
