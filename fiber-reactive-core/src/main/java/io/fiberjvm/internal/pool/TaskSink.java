package io.fiberjvm.internal.pool;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.MonoSink;

/** Where one attempt at a task ends: its caller's {@code Mono}, or a streaming task's {@link StreamAttempt}. */
interface TaskSink {

	/** The attempt's result; null for a null result. */
	void success(@Nullable Object value);

	/** The attempt failed: the function threw, its worker was lost, or the pool ended. */
	void error(Throwable error);

	/** The sink that completes {@code sink}: empty for a null result. */
	static TaskSink of(MonoSink<Object> sink) {
		return new TaskSink() {
			@Override
			public void success(@Nullable Object value) {
				if (value == null) {
					sink.success();
				}
				else {
					sink.success(value);
				}
			}

			@Override
			public void error(Throwable error) {
				sink.error(error);
			}
		};
	}
}
