package io.fiberjvm.progress;

import java.io.PrintStream;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Shows {@link ProgressSnapshot}s to a person: on a terminal, one line redrawn in place
 * ({@code [##########..........] 4,500/10,000 (45.0%), 1,234/s, ETA 0:04}); elsewhere (a log file, CI), a
 * plain line at each tenth of the way (every ten seconds when the total is not known) and at the end,
 * so the output stays readable.
 *
 * <p>Library code prints nothing; this is for programs that choose to show progress.
 */
public final class ProgressBar implements Consumer<ProgressSnapshot> {

	private static final int WIDTH = 30;

	private final PrintStream out;
	private final boolean terminal;
	// Guarded by this.
	private long lastTenth = -1;
	private long lastLineSecond = -1;
	private int lastLength;

	private ProgressBar(PrintStream out, boolean terminal) {
		this.out = out;
		this.terminal = terminal;
	}

	/** To standard error: redrawn in place when this program runs on a terminal, plain lines otherwise. */
	public static ProgressBar toConsole() {
		return to(System.err, System.console() != null);
	}

	/** To {@code out}, redrawn in place when {@code terminal}, as plain lines otherwise. */
	public static ProgressBar to(PrintStream out, boolean terminal) {
		return new ProgressBar(Objects.requireNonNull(out, "out"), terminal);
	}

	@Override
	public synchronized void accept(ProgressSnapshot snapshot) {
		if (terminal) {
			String line = bar(snapshot) + " " + snapshot;
			// Spaces over whatever the longer previous line left.
			out.print("\r" + line + " ".repeat(Math.max(0, lastLength - line.length())));
			lastLength = line.length();
			if (snapshot.finished()) {
				out.println();
			}
			out.flush();
			return;
		}
		// A known total: a line at each tenth of the way; an unknown one: a line every ten seconds.
		long tenth = Double.isNaN(snapshot.fraction()) ? -1 : (long) Math.floor(snapshot.fraction() * 10);
		long tenSeconds = snapshot.elapsed().toSeconds() / 10;
		boolean due = Double.isNaN(snapshot.fraction()) ? tenSeconds > lastLineSecond : tenth > lastTenth;
		if (snapshot.finished() || due) {
			lastTenth = tenth;
			lastLineSecond = tenSeconds;
			out.println((snapshot.finished() ? "done: " : "progress: ") + snapshot);
			out.flush();
		}
	}

	/** {@code [#########.....]}, or a bare count when the total is not known. */
	static String bar(ProgressSnapshot snapshot) {
		if (Double.isNaN(snapshot.fraction())) {
			return "[" + (snapshot.finished() ? "done" : "...") + "]";
		}
		int filled = (int) Math.min(WIDTH, Math.round(snapshot.fraction() * WIDTH));
		return "[" + "#".repeat(filled) + ".".repeat(WIDTH - filled) + "]";
	}
}
