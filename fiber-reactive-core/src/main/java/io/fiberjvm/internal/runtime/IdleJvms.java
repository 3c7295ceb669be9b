package io.fiberjvm.internal.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import io.fiberjvm.ResourceSpec;
import io.fiberjvm.internal.frames.EmptyFrame;

/**
 * Child JVMs whose reusable target (a pool worker's) ended well, each waiting for the next one with the same
 * resources. A waiting child has reported its outcome and waits for the answer: the next target frame, or the
 * empty frame that lets it exit, sent once it has waited the idle time, when the runtime closes, or at once
 * after closing.
 */
final class IdleJvms {

	private final Duration idleTime;
	// Guarded by this: in the order they became idle.
	private final Map<ProcessSupervisor, Waiting> waiting = new LinkedHashMap<>();
	private boolean closed;

	IdleJvms(Duration idleTime) {
		this.idleTime = idleTime;
	}

	/** Whether JVMs are kept at all: {@code worker-idle-time} above zero, on a backend whose jobs run on this machine. */
	boolean keepsJvms() {
		return !idleTime.isZero();
	}

	/**
	 * Keeps {@code jvm}, whose child holds resources {@code resources}, until a target is handed to it: the answer
	 * to the child's outcome report, the next target frame or the empty frame.
	 */
	Mono<byte[]> keep(ProcessSupervisor jvm, ResourceSpec resources) {
		Waiting entry;
		synchronized (this) {
			if (closed) {
				return Mono.just(EmptyFrame.encode());
			}
			entry = new Waiting(jvm, resources);
			waiting.put(jvm, entry);
		}
		entry.timer = Mono.delay(idleTime).subscribe(tick -> release(entry));
		// A child whose connection closes while it waits cancels the answer: it is gone, not idle.
		return entry.next.asMono().doOnCancel(() -> forget(jvm));
	}

	/** An idle JVM with {@code resources}, no longer idle, or null: the caller hands it a target or lets it go. */
	synchronized @Nullable Waiting take(ResourceSpec resources) {
		for (Iterator<Waiting> it = waiting.values().iterator(); it.hasNext();) {
			Waiting entry = it.next();
			if (entry.resources.equals(resources)) {
				it.remove();
				entry.timer.dispose();
				return entry;
			}
		}
		return null;
	}

	/** Whether {@code jvm} waits here now. */
	synchronized boolean holds(ProcessSupervisor jvm) {
		return waiting.containsKey(jvm);
	}

	/** {@code jvm} ended while it waited, or its child went away. */
	void forget(ProcessSupervisor jvm) {
		Waiting entry;
		synchronized (this) {
			entry = waiting.remove(jvm);
		}
		if (entry != null) {
			entry.timer.dispose();
		}
	}

	/**
	 * Lets every waiting JVM exit, and every JVM whose target ends from now on: the runtime is closing. Returns the
	 * JVMs let go, which exit by themselves.
	 */
	List<ProcessSupervisor> closeAll() {
		List<Waiting> all;
		synchronized (this) {
			closed = true;
			all = new ArrayList<>(waiting.values());
			waiting.clear();
		}
		all.forEach(entry -> {
			entry.timer.dispose();
			entry.letGo();
		});
		return all.stream().map(entry -> entry.jvm).toList();
	}

	private void release(Waiting entry) {
		synchronized (this) {
			if (waiting.get(entry.jvm) != entry) {
				return;
			}
			waiting.remove(entry.jvm);
		}
		entry.letGo();
	}

	/** One idle JVM and the answer its child waits for. */
	static final class Waiting {

		final ProcessSupervisor jvm;
		private final ResourceSpec resources;
		private final Sinks.One<byte[]> next = Sinks.one();
		private volatile Disposable timer = () -> { };

		private Waiting(ProcessSupervisor jvm, ResourceSpec resources) {
			this.jvm = jvm;
			this.resources = resources;
		}

		/** Sends the child its next target. */
		void hand(byte[] targetFrame) {
			next.tryEmitValue(targetFrame);
		}

		/** Sends the child the empty frame: it exits. */
		void letGo() {
			next.tryEmitValue(EmptyFrame.encode());
		}
	}
}
