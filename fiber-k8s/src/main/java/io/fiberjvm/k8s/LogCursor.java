package io.fiberjvm.k8s;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Where a followed pod log has got to, so that a stream opened again after a break delivers each line
 * once. Lines are read with their instants ({@code timestamps=true}). A new stream starts a second before
 * the second of the last line delivered ({@code sinceTime} has a second's resolution and keeps lines at or
 * after it, in the log's order), so it begins with lines delivered already: while it does, each line that
 * matches one delivered (same instant, same text, no more often than it was delivered) is skipped; the
 * first that matches none, and all after it, are delivered. Matching rather than counting keeps this
 * right when the kubelet has rotated the log (the new stream lacks lines the old one had). Within one stream every line is delivered, even one whose instant goes back (a
 * container's two outputs are stamped apart).
 */
final class LogCursor {

	/** How far before the last line's second a new stream starts, for lines stamped a little out of order. */
	private static final Duration BACK = Duration.ofSeconds(1);
	/** Delivered lines remembered for matching: a new stream never starts earlier than this before the last. */
	private static final Duration WINDOW = Duration.ofSeconds(5);
	/** At most this many remembered, so a chatty pod costs bounded memory. */
	private static final int REMEMBERED = 10_000;

	/** A delivered line as matched: its instant and its text's length and hash. */
	private record Seen(Instant at, int length, int hash) {
	}

	/** Delivered lines in the order delivered, the last one last. */
	private final ArrayDeque<Seen> recent = new ArrayDeque<>();
	private final Map<Seen, Integer> counts = new HashMap<>();
	/** How often this stream has shown each delivered line so far, while it catches up. */
	private final Map<Seen, Integer> matched = new HashMap<>();
	private boolean catchingUp;

	/** The {@code sinceTime} to open the next stream with, or null to read from the start. */
	@Nullable String since() {
		return recent.isEmpty() ? null : recent.peekLast().at().minus(BACK).truncatedTo(ChronoUnit.SECONDS).toString();
	}

	/** A new stream begins, from {@link #since()}. */
	void reopened() {
		catchingUp = !recent.isEmpty();
		matched.clear();
	}

	/**
	 * The text of a line read with its instant, or null when it was delivered already. Fails on a line that
	 * does not start with an instant: what the API server sent is not a log.
	 */
	@Nullable String accept(String stamped) {
		int space = stamped.indexOf(' ');
		Instant at = instantOf(stamped, space);
		String text = space < 0 ? "" : stamped.substring(space + 1);
		Seen seen = new Seen(at, text.length(), text.hashCode());
		if (catchingUp) {
			int delivered = counts.getOrDefault(seen, 0);
			int again = matched.getOrDefault(seen, 0);
			if (again < delivered) {
				// Delivered before the break (as often as this stream has shown it so far).
				matched.put(seen, again + 1);
				return null;
			}
			catchingUp = false;
			matched.clear();
		}
		remember(seen);
		return text;
	}

	/** Fails unless {@code stamped} starts with an instant. */
	static void check(String stamped) {
		instantOf(stamped, stamped.indexOf(' '));
	}

	private void remember(Seen seen) {
		recent.addLast(seen);
		counts.merge(seen, 1, Integer::sum);
		Instant oldest = seen.at().minus(WINDOW);
		while (!recent.isEmpty() && (recent.size() > REMEMBERED || recent.peekFirst().at().isBefore(oldest))) {
			Seen gone = recent.removeFirst();
			counts.computeIfPresent(gone, (key, count) -> count == 1 ? null : count - 1);
		}
	}

	private static Instant instantOf(String stamped, int space) {
		try {
			return Instant.parse(space < 0 ? stamped : stamped.substring(0, space));
		}
		catch (DateTimeParseException e) {
			String shown = stamped.length() > 300 ? stamped.substring(0, 300) + "..." : stamped;
			throw new IllegalStateException("the API server sent this instead of a log line: " + shown);
		}
	}
}
