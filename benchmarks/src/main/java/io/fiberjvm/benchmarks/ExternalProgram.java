package io.fiberjvm.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A program a harness runs as a column of its own (a Python script, another JVM): its standard output, line by line,
 * and how it ended.
 *
 * <p>The contract: {@link #run} starts {@code command} with no standard input and its standard error passed through
 * to this JVM's, reads every line of its standard output, and waits at most {@code limit} for it to end; past that the
 * program and its descendants are destroyed and the outcome says it timed out. A program that cannot run its column
 * says so with one line {@code # skipped: REASON} ({@link ExternalColumn#SKIP_LINE}), which {@link #skipped()} returns.
 *
 * @param command what ran
 * @param lines every line the program printed to standard output
 * @param exit its exit status, or -1 when it timed out
 * @param timedOut whether it was destroyed at the time limit
 */
record ExternalProgram(List<String> command, List<String> lines, int exit, boolean timedOut) {

	/** Runs {@code command} to its end or to {@code limit}, whichever comes first. */
	static ExternalProgram run(List<String> command, Duration limit) throws IOException, InterruptedException {
		Objects.requireNonNull(command, "command");
		Objects.requireNonNull(limit, "limit");
		Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
		process.getOutputStream().close();
		List<String> lines = new ArrayList<>();
		// Read on a thread of its own, so that a program that stops printing but does not end still meets the limit.
		Thread reader = new Thread(() -> {
			try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
				for (String line = out.readLine(); line != null; line = out.readLine()) {
					synchronized (lines) {
						lines.add(line);
					}
				}
			}
			catch (IOException e) {
				// The stream closes when the program is destroyed at its limit; what was read so far stays.
			}
		}, "external-program-output");
		reader.setDaemon(true);
		reader.start();
		boolean ended = process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
		if (!ended) {
			process.descendants().forEach(ProcessHandle::destroyForcibly);
			process.destroyForcibly();
			process.waitFor(30, TimeUnit.SECONDS);
		}
		reader.join(TimeUnit.SECONDS.toMillis(30));
		synchronized (lines) {
			return new ExternalProgram(List.copyOf(command), List.copyOf(lines), ended ? process.exitValue() : -1, !ended);
		}
	}

	/** The reason the program gave for not running its column, or null when it gave none. */
	String skipped() {
		return lines.stream().filter(line -> line.startsWith(ExternalColumn.SKIP_LINE))
				.map(line -> line.substring(ExternalColumn.SKIP_LINE.length()).trim()).findFirst().orElse(null);
	}

	/** The program's {@code #} line saying what ran, without the {@code #}, or "" when it printed none. */
	String about() {
		return lines.stream().filter(line -> line.startsWith("#") && !line.startsWith(ExternalColumn.SKIP_LINE))
				.map(line -> line.substring(1).trim()).findFirst().orElse("");
	}

	/** Why the program's results cannot be used, for a report: its skip reason, a time-out or a failed exit; null when it ended well. */
	String failure(String name) {
		String skipped = skipped();
		if (skipped != null) {
			return skipped + ": skipping " + name;
		}
		String program = "`" + String.join(" ", command) + "`";
		if (timedOut) {
			return program + " did not end within its time limit and was stopped: skipping " + name;
		}
		if (exit != 0) {
			return program + " exited with " + exit + " (its error is above): skipping " + name;
		}
		return null;
	}
}
