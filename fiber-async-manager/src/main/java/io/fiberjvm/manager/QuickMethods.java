package io.fiberjvm.manager;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Which methods of a manager's objects may run straight on the thread their call arrives on (the connection's),
 * which saves a call two thread hand-offs: those whose last {@value #TRUST_AFTER} runs each took under
 * {@value #QUICK_NANOS} ns.
 *
 * <p>A method that waits for another process takes longer than that, so it never earns the trust. A trusted
 * method that runs there for more than {@value #SLOW_NANOS} ns loses it until it has been quick
 * {@value #TRUST_AFTER} times again: a run a little over the mark is more often the thread preempted on a busy
 * machine than the method's own time. One that blocks where blocking is refused loses it for good. Counts from
 * objects running at once may race: they are a judgement, never a guarantee the caller relies on.
 */
final class QuickMethods {

	/** The longest run that counts as quick. */
	static final long QUICK_NANOS = 50_000;

	/** Quick runs in a row that earn a method trust. */
	static final int TRUST_AFTER = 16;

	/** The longest run on the connection's thread after which a method keeps its trust. */
	static final long SLOW_NANOS = 1_000_000;

	/** What a method's runs have shown. */
	private static final class Record {

		final AtomicInteger quickInARow = new AtomicInteger();
		volatile boolean barred;
	}

	private final boolean enabled;
	private final Map<Method, Record> records = new ConcurrentHashMap<>();

	/** Trusts no method when not {@code enabled} ({@code manager-direct-calls=false}). */
	QuickMethods(boolean enabled) {
		this.enabled = enabled;
	}

	/** Whether a call of {@code method} may run on the thread it arrived on. */
	boolean trusted(Method method) {
		if (!enabled) {
			return false;
		}
		Record record = records.get(method);
		return record != null && !record.barred && record.quickInARow.get() >= TRUST_AFTER;
	}

	/** Counts a run of {@code method} that took {@code nanos}, {@code direct}ly on the connection's thread or not. */
	void ran(Method method, long nanos, boolean direct) {
		if (!enabled) {
			return;
		}
		Record record = records.computeIfAbsent(method, key -> new Record());
		if (nanos < QUICK_NANOS) {
			// Capped, so a method run for ever keeps its count.
			record.quickInARow.updateAndGet(n -> n < TRUST_AFTER ? n + 1 : n);
		}
		else if (!direct || nanos > SLOW_NANOS) {
			record.quickInARow.set(0);
		}
	}

	/** Never trusts {@code method} again: it blocked where blocking is refused. */
	void bar(Method method) {
		records.computeIfAbsent(method, key -> new Record()).barred = true;
	}

	/** Whether {@code error} is Reactor refusing to block a thread that must not block, such as the connection's. */
	static boolean refusedBlocking(Throwable error) {
		String message = error.getMessage();
		return error instanceof IllegalStateException && message != null && message.contains("which is not supported in thread");
	}
}
