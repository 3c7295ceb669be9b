package io.fiberjvm.manager;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Which methods of a manager's objects may run straight on the thread their call arrives on (the connection's),
 * which saves a call two thread hand-offs: those whose last {@value #TRUST_AFTER} runs each took under
 * {@value #QUICK_NANOS} ns, arguments read and answer encoded.
 *
 * <p>A method that waits for another process takes longer than that, so it never earns the trust; one that runs
 * longer there loses it until it has been quick {@value #TRUST_AFTER} times again. One that blocks there in a way
 * Reactor refuses (its {@code block()} on a connection's thread) loses it for good. Other blocking is not seen
 * until it ends: a method that is quick for a while and then waits for something only another call to the same
 * manager would bring stops every object of that manager and its keep-alives, and the parent gives the manager up
 * as lost after the keep-alive timeout; that is why {@code manager-direct-calls=false} exists. Counts
 * from objects running at once may race: they are a judgement, never a guarantee the caller relies on.
 */
final class QuickMethods {

	/** The longest run that counts as quick. */
	static final long QUICK_NANOS = 50_000;

	/** Quick runs in a row that earn a method trust. */
	static final int TRUST_AFTER = 16;

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

	/** Whether any method may run on the thread its call arrived on. */
	boolean enabled() {
		return enabled;
	}

	/** Whether a call of {@code method} may run on the thread it arrived on, once direct calls are {@link #enabled()}. */
	boolean trusted(Method method) {
		Record record = records.get(method);
		return record != null && !record.barred && record.quickInARow.get() >= TRUST_AFTER;
	}

	/** Counts a run of {@code method}, on the connection's thread or not, that took {@code nanos}. */
	void ran(Method method, long nanos) {
		if (!enabled) {
			return;
		}
		Record record = records.computeIfAbsent(method, key -> new Record());
		if (nanos < QUICK_NANOS) {
			// Capped, so a method run for ever keeps its count.
			record.quickInARow.updateAndGet(n -> n < TRUST_AFTER ? n + 1 : n);
		}
		else {
			record.quickInARow.set(0);
		}
	}

	/** Never trusts {@code method} again: it blocked where blocking is refused. */
	void bar(Method method) {
		records.computeIfAbsent(method, key -> new Record()).barred = true;
	}

	/**
	 * Whether {@code error}, or an error that caused it, is Reactor refusing to block a thread that must not block,
	 * such as the connection's.
	 */
	static boolean refusedBlocking(Throwable error) {
		try {
			int depth = 0;
			for (Throwable cause = error; cause != null && depth < 32; cause = cause.getCause(), depth++) {
				String message = cause.getMessage();
				if (cause instanceof IllegalStateException && message != null && message.contains("which is not supported in thread")) {
					return true;
				}
			}
			return false;
		}
		catch (RuntimeException e) {
			// A user's exception whose getMessage or getCause throws is not Reactor's refusal.
			return false;
		}
	}
}
