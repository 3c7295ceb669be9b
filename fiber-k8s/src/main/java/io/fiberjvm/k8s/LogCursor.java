package io.fiberjvm.k8s;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/**
 * Where a followed pod log has got to, so that a stream opened again after a break delivers each line
 * once. Lines are read with their timestamps ({@code timestamps=true}); a new stream starts at the second
 * of the last line delivered ({@code sinceTime} has a second's resolution), and the cursor skips what
 * came before that line and as many lines of its very timestamp as were delivered already.
 */
final class LogCursor {

	private Instant last;
	private long deliveredAtLast;
	private long toSkipAtLast;

	/** The {@code sinceTime} to open the next stream with, or null to read from the start. */
	String since() {
		return last == null ? null : last.truncatedTo(ChronoUnit.SECONDS).toString();
	}

	/** A new stream begins. */
	void reopened() {
		toSkipAtLast = deliveredAtLast;
	}

	/**
	 * The text of a line read with its timestamp, or null when it was delivered already. Fails on a line
	 * that does not start with a timestamp: what the API server sent is not a log.
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
		String text = space < 0 ? "" : stamped.substring(space + 1);
		if (last != null) {
			int order = at.compareTo(last);
			if (order < 0) {
				return null;
			}
			if (order == 0) {
				if (toSkipAtLast > 0) {
					toSkipAtLast--;
					return null;
				}
				deliveredAtLast++;
				return text;
			}
		}
		last = at;
		deliveredAtLast = 1;
		toSkipAtLast = 0;
		return text;
	}
}
