package io.fiberjvm.internal.pool;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Operators;
import reactor.core.publisher.SignalType;
import reactor.core.publisher.Sinks;

import io.fiberjvm.internal.frames.DemandFrame;
import io.fiberjvm.internal.frames.ElementsFrame;
import io.fiberjvm.pool.WorkerLostException;

/**
 * One attempt at a streaming task, on the pool's side: the caller's sink, the worker's stream of elements
 * once it opens, and the task's answer, which comes after the stream has ended.
 *
 * <p>The worker opens a request-channel to the pool for the task and sends elements up in {@code ELEMENTS}
 * frames; the caller's demand goes down the same channel in {@code DEMAND} frames, so the worker makes no
 * more than was asked for. The pool ends its side of the channel once it has taken the whole stream, and
 * only then does the worker answer the task, so the answer always follows the elements. The attempt ends
 * when both have come: with the answer's error if it failed, else complete. A worker lost after some
 * elements were delivered fails the attempt saying how many; the caller's retry does not run it again, as
 * that would repeat them.
 */
final class StreamAttempt implements TaskSink {

	private final TaskCodec codec;
	private final FluxSink<Object> out;
	/** Elements delivered by every attempt at this task, which only the first attempt to deliver any can add to. */
	private final AtomicLong delivered;
	private @Nullable String task;
	/** How errors name an element: made once, not for every element. */
	private String element = "an element of a streaming task";
	private long id;
	private @Nullable Inbound inbound;
	/** Demand that came before the stream opened. */
	private long demand;
	private boolean streamEnded;
	private boolean answered;
	private boolean finished;

	StreamAttempt(TaskCodec codec, FluxSink<Object> out, AtomicLong delivered) {
		this.codec = codec;
		this.out = out;
		this.delivered = delivered;
		out.onRequest(this::request);
	}

	/** Names the task in errors; called once, before the task is submitted. */
	void named(Task attempt) {
		this.task = attempt.toString();
		this.element = "an element of task " + task;
		this.id = attempt.id;
	}

	/**
	 * The worker opened the task's stream: elements come from {@code elements} as the caller asks for them.
	 * Returns the pool's side of the channel, which ends once the stream has been taken or cancelled.
	 */
	Flux<byte[]> open(String worker, Flux<byte[]> elements) {
		Inbound in = new Inbound(worker);
		synchronized (this) {
			if (finished || inbound != null) {
				return Flux.error(new IllegalStateException("task " + task + " takes no stream now (cancelled, ended, or already streaming)"));
			}
			inbound = in;
			if (demand > 0) {
				in.demand(demand);
				demand = 0;
			}
		}
		elements.subscribe(in);
		return in.down.asFlux();
	}

	private void request(long n) {
		synchronized (this) {
			if (inbound == null) {
				demand = Operators.addCap(demand, n);
			}
			else {
				inbound.demand(n);
			}
		}
	}

	/** The caller cancelled, or the attempt ended: the worker's stream stops. */
	void cancel() {
		Inbound in;
		synchronized (this) {
			finished = true;
			in = inbound;
		}
		if (in != null) {
			in.close();
		}
	}

	/** The worker answered after its stream ended: the attempt is complete once the stream's end has come too. */
	@Override
	public void success(@Nullable Object value) {
		boolean complete;
		synchronized (this) {
			answered = true;
			complete = streamEnded && !finished;
			if (inbound == null && !finished) {
				// The pool ends the channel before the worker may answer: an answer with no stream breaks that order.
				finished = true;
				out.error(new IllegalStateException("task " + task + " was answered before its stream opened"));
				return;
			}
			if (complete) {
				finished = true;
			}
		}
		if (complete) {
			out.complete();
		}
	}

	/** The function threw, the worker was lost or the pool ended: elements already delivered stay delivered. */
	@Override
	public void error(Throwable error) {
		Inbound in;
		synchronized (this) {
			if (finished) {
				return;
			}
			finished = true;
			in = inbound;
		}
		if (in != null) {
			in.close();
		}
		out.error(partial(error));
	}

	/** An error that says how far the stream got, when it got anywhere. */
	private Throwable partial(Throwable error) {
		long count = delivered.get();
		if (count == 0 || !(error instanceof WorkerLostException lost)) {
			return error;
		}
		WorkerLostException after = new WorkerLostException(lost.task(), lost.worker(),
				"it was lost after its stream had delivered " + count + " element" + (count == 1 ? "" : "s")
						+ "; the task is not run again, which would deliver them twice (" + lost.getMessage() + ")");
		after.addSuppressed(lost);
		return after;
	}

	private void streamEnded() {
		boolean complete;
		synchronized (this) {
			streamEnded = true;
			complete = answered && !finished;
			if (complete) {
				finished = true;
			}
		}
		if (complete) {
			out.complete();
		}
	}

	/** The worker's stream, taken at the caller's pace: demand goes down, frames of elements come up. */
	private final class Inbound extends BaseSubscriber<byte[]> {

		private final String worker;
		/** The pool's side of the channel: demand, then its end, which lets the worker answer. */
		final Sinks.Many<byte[]> down = Sinks.many().unicast().onBackpressureBuffer();

		Inbound(String worker) {
			this.worker = worker;
		}

		/** Under the attempt's lock, so frames down go one at a time. */
		void demand(long n) {
			down.tryEmitNext(new DemandFrame(id, n).encode());
		}

		/**
		 * Stops taking the stream and ends the pool's side of the channel, which lets the worker answer: also
		 * when the stream has not subscribed this yet, when disposing alone would end nothing.
		 */
		void close() {
			dispose();
			synchronized (StreamAttempt.this) {
				down.tryEmitComplete();
			}
		}

		@Override
		protected void hookOnNext(byte[] frame) {
			List<ByteBuffer> batch;
			try {
				batch = ElementsFrame.decode(frame).elements();
			}
			catch (RuntimeException malformed) {
				StreamAttempt.this.error(new WorkerLostException(String.valueOf(task), worker,
						"it sent a malformed frame of elements (" + malformed.getMessage() + ")"));
				return;
			}
			for (ByteBuffer element : batch) {
				Object value;
				try {
					value = codec.values().read(element, StreamAttempt.this.element);
				}
				catch (RuntimeException | LinkageError e) {
					StreamAttempt.this.error(e);
					return;
				}
				if (value == null) {
					StreamAttempt.this.error(new IllegalStateException("task " + task + " streamed a null element, which a Flux cannot carry"));
					return;
				}
				// Counted and passed on together, so an error that ends the attempt counts exactly what went before it.
				synchronized (StreamAttempt.this) {
					if (finished) {
						return;
					}
					delivered.incrementAndGet();
					out.next(value);
				}
			}
		}

		@Override
		protected void hookOnComplete() {
			streamEnded();
		}

		@Override
		protected void hookOnError(Throwable failure) {
			StreamAttempt.this.error(new WorkerLostException(String.valueOf(task), worker, "its stream broke (" + failure.getMessage() + ")"));
		}

		@Override
		protected void hookFinally(SignalType type) {
			synchronized (StreamAttempt.this) {
				down.tryEmitComplete();
			}
		}
	}
}
