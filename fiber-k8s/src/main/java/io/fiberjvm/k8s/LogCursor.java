package io.fiberjvm.k8s;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.TreeMap;

/**
 * Where a followed pod log has got to, so that a stream opened again after a break delivers each line
 * once. Lines are read with their instants ({@code timestamps=true}). A new stream starts a second before
 * the second of the last line delivered ({@code sinceTime} has a second's resolution and keeps lines at or
 * after it, in the log's order); since the lines delivered are the log's first ones, the new stream begins
 * with those of them at or after that instant, and the cursor skips exactly as many. Within one stream
 * every line is delivered, even one whose instant goes back (a container's two outputs are stamped apart).
 */
final class LogCursor {

	/** How far before the last line's second a new stream starts, for lines stamped a little out of order. */
	private static final Duration BACK = Duration.ofSeconds(1);
	/** Delivered instants kept for counting: a new stream never starts earlier than this before the last. */
	private static final Duration WINDOW = Duration.ofSeconds(5);

	private Instant last;
	private final TreeMap<Instant, Integer> recent = new TreeMap<>();
	private long toSkip;

	/** The {@code sinceTime} to open the next stream with, or null to read from the start. */
	String since() {
		return last == null ? null : last.minus(BACK).truncatedTo(ChronoUnit.SECONDS).toString();
	}

	/** A new stream begins, from {@link #since()}. */
	void reopened() {
		toSkip = 0;
		if (last != null) {
			for (int count : recent.tailMap(Instant.parse(since()), true).values()) {
				toSkip += count;
			}
		}
	}

	/**
	 * The text of a line read with its instant, or null when it was delivered already. Fails on a line that
	 * does not start with an instant: what the API server sent is not a log.
	 */
	String accept(String stamped) {
		int space = stamped.indexOf(' ');
		Instant at;
		try {
			at = Instant.parse(space < 0 ? stamped : stamped.substring(0, space));
		}
		catch (DateTimeParseException e) {
			String shown = stamped.length() > 300 ? stamped.substring(0, 300) + "..." : stamped;
			throw new IllegalStateException("the API server sent this instead of a log line: " + shown);
		}
		if (toSkip > 0) {
			toSkip--;
			return null;
		}
		last = at;
		recent.merge(at, 1, Integer::sum);
		recent.headMap(at.minus(WINDOW)).clear();
		return space < 0 ? "" : stamped.substring(space + 1);
	}
}
