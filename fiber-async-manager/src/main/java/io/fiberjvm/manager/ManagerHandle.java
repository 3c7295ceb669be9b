package io.fiberjvm.manager;

import java.time.Duration;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.fiberjvm.FiberProcess;
import io.fiberjvm.internal.Deadlines;

/**
 * A program's face of a manager ({@link ManagerSession}), with the deadline the objects it creates carry: the one
 * {@code start()} gives has the manager's own, {@link #callTimeout} views another.
 */
final class ManagerHandle implements AsyncManager {

	private final ManagerSession session;
	/** The deadline of calls on objects created through this handle, in nanoseconds; 0 for none. */
	private final long timeoutNanos;

	ManagerHandle(ManagerSession session, long timeoutNanos) {
		this.session = session;
		this.timeoutNanos = timeoutNanos;
	}

	@Override
	public <A> A create(Class<A> asyncInterface, Object... args) {
		return session.create(asyncInterface, timeoutNanos, args);
	}

	@Override
	public AsyncManager callTimeout(Duration timeout) {
		return new ManagerHandle(session, Deadlines.nanos(timeout, "a call timeout"));
	}

	@Override
	public Mono<Void> restart() {
		return session.restart();
	}

	@Override
	public String name() {
		return session.name();
	}

	@Override
	public FiberProcess process() {
		return session.process();
	}

	@Override
	public <K, V> SharedMap<K, V> map(String name) {
		return new SharedMap<>(session.shared(), name);
	}

	@Override
	public <T> SharedList<T> list(String name) {
		return new SharedList<>(session.shared(), name);
	}

	@Override
	public <T> SharedValue<T> value(String name) {
		return new SharedValue<>(session.shared(), name);
	}

	@Override
	public SharedCounter counter(String name) {
		return new SharedCounter(session.shared(), name);
	}

	@Override
	public <T> SharedQueue<T> queue(String name) {
		return new SharedQueue<>(session.shared(), name);
	}

	@Override
	public ManagerStats stats() {
		return session.stats();
	}

	@Override
	public Flux<Duration> callLatencies() {
		return session.callLatencies();
	}

	@Override
	public Mono<Void> closeAsync() {
		return session.closeAsync();
	}

	@Override
	public void dispose() {
		session.dispose();
	}

	@Override
	public boolean isDisposed() {
		return session.isDisposed();
	}

	@Override
	public Mono<Void> onClose() {
		return session.onClose();
	}

	@Override
	public String toString() {
		return "AsyncManager[" + session.name() + "]" + (timeoutNanos == 0 ? "" : ".callTimeout(" + Duration.ofNanos(timeoutNanos) + ")");
	}
}
