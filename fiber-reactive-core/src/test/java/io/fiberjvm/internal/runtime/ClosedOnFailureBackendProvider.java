package io.fiberjvm.internal.runtime;

import java.util.concurrent.atomic.AtomicInteger;

import reactor.core.publisher.Mono;

import io.fiberjvm.backend.Backend;
import io.fiberjvm.backend.BackendProvider;
import io.fiberjvm.backend.Job;
import io.fiberjvm.backend.JobSpec;
import io.fiberjvm.config.FiberConfig;

/**
 * A backend that counts how often it was closed, chosen only by its name ({@value #NAME}): the tests of a runtime
 * that fails while it is being made see whether it left its backend open.
 */
public final class ClosedOnFailureBackendProvider implements BackendProvider {

	static final String NAME = "closed-on-failure-test";
	static final AtomicInteger CREATED = new AtomicInteger();
	static final AtomicInteger CLOSED = new AtomicInteger();

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public int priority() {
		// Never the one chosen when configuration names none.
		return Integer.MIN_VALUE;
	}

	@Override
	public Backend create(FiberConfig config) {
		CREATED.incrementAndGet();
		return new Backend() {
			@Override
			public String name() {
				return NAME;
			}

			@Override
			public Mono<Job> create(JobSpec spec) {
				return Mono.error(new UnsupportedOperationException("this backend starts no job"));
			}

			@Override
			public void close() {
				CLOSED.incrementAndGet();
			}
		};
	}
}
