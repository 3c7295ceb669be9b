package io.fiberjvm.progress;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * Where a tracked stream stands: how many elements are done out of how many, how fast, and when it
 * should end at that pace.
 *
 * @param done elements done so far
 * @param total elements expected, or -1 when not known
 * @param elapsed time since the stream was subscribed
 * @param finished whether this is the last snapshot: the stream completed, failed or was cancelled
 */
public record ProgressSnapshot(long done, long total, Duration elapsed, boolean finished) {

	/** Done over total, from 0 to 1; NaN when the total is not known. */
	public double fraction() {
		if (total < 0) {
			return Double.NaN;
		}
		return total == 0 ? 1 : (double) done / total;
	}

	/** Elements done per second so far; 0 before any time has passed. */
	public double perSecond() {
		double seconds = elapsed.toNanos() / 1e9;
		return seconds <= 0 ? 0 : done / seconds;
	}

	/** The time left at the pace so far; empty when the total is unknown, nothing is done yet, or it finished. */
	public Optional<Duration> eta() {
		double rate = perSecond();
		if (finished || total < 0 || rate <= 0) {
			return Optional.empty();
		}
		return Optional.of(Duration.ofNanos((long) (Math.max(0, total - done) / rate * 1e9)));
	}

	/** {@code 4,500/10,000 (45.0%), 1,234/s, ETA 0:04}. */
	@Override
	public String toString() {
		StringBuilder text = new StringBuilder(String.format(Locale.ROOT, "%,d", done));
		if (total >= 0) {
			text.append(String.format(Locale.ROOT, "/%,d (%.1f%%)", total, 100 * fraction()));
		}
		text.append(String.format(Locale.ROOT, ", %,.0f/s", perSecond()));
		eta().ifPresent(left -> text.append(", ETA ").append(clock(left)));
		if (finished) {
			text.append(", in ").append(clock(elapsed));
		}
		return text.toString();
	}

	/** {@code 1:02:03} or {@code 2:03}. */
	static String clock(Duration duration) {
		long seconds = Math.round(duration.toNanos() / 1e9);
		long hours = seconds / 3600;
		return hours > 0 ? String.format(Locale.ROOT, "%d:%02d:%02d", hours, seconds / 60 % 60, seconds % 60)
				: String.format(Locale.ROOT, "%d:%02d", seconds / 60, seconds % 60);
	}
}
