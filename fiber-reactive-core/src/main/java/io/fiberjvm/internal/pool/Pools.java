package io.fiberjvm.internal.pool;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;

import io.fiberjvm.backend.RunStatus;
import io.fiberjvm.pool.PoolClosedException;
import io.fiberjvm.runtime.RuntimeContext;

/**
 * The open pools of one runtime: listed for {@code fiber ps}, and terminated first when the runtime closes.
 */
public final class Pools implements Disposable {

	private static final Logger log = LoggerFactory.getLogger(Pools.class);

	private final Set<PoolCore> open = ConcurrentHashMap.newKeySet();
	private volatile boolean disposed;

	private Pools(RuntimeContext runtime) {
	}

	/** The pools of {@code runtime}. */
	public static Pools of(RuntimeContext runtime) {
		return runtime.service(Pools.class, Pools::new);
	}

	void register(PoolCore pool) {
		if (disposed) {
			throw closed(pool.name(), null);
		}
		open.add(pool);
		if (disposed) {
			// Closed meanwhile: dispose() may not have seen it.
			open.remove(pool);
			throw closed(pool.name(), null);
		}
	}

	/** The error of opening pool {@code name} in a runtime that is closing. */
	static PoolClosedException closed(String name, @Nullable Throwable cause) {
		PoolClosedException closed = new PoolClosedException("the Fiber this pool belongs to is closed; cannot open pool " + name);
		if (cause != null) {
			closed.initCause(cause);
		}
		return closed;
	}

	void unregister(PoolCore pool) {
		open.remove(pool);
	}

	/** Every open pool and its workers, for {@code fiber ps}. */
	public List<RunStatus.Pool> status() {
		return open.stream().map(PoolCore::status).toList();
	}

	/** Terminates every pool: the runtime is closing. */
	@Override
	public void dispose() {
		disposed = true;
		for (PoolCore pool : new ArrayList<>(open)) {
			try {
				pool.terminate();
			}
			catch (RuntimeException e) {
				// One pool's failure must not leave the others running.
				log.warn("terminating pool {} failed", pool.name(), e);
			}
		}
	}

	@Override
	public boolean isDisposed() {
		return disposed;
	}
}
