package io.fiberjvm.k8s;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/**
 * A container's log as the node agent keeps it, the way a container runtime does: each line of the
 * container's output with the instant it was read, {@code <RFC 3339 instant> <text>}, which is also what
 * {@code pods/log?timestamps=true} returns.
 */
final class ContainerLog {

	private ContainerLog() {
	}

	/**
	 * Copies {@code output} into {@code file} line by line, stamped; completes at the output's end. The file
	 * exists when this returns, so the log can be read as soon as the container is said to run.
	 */
	static CompletableFuture<Void> capture(InputStream output, Path file) throws IOException {
		CompletableFuture<Void> done = new CompletableFuture<>();
		OutputStream opened = Files.newOutputStream(file);
		Thread pump = new Thread(() -> {
			try (InputStream in = output; OutputStream log = opened) {
				ByteArrayOutputStream line = new ByteArrayOutputStream();
				int b;
				while ((b = in.read()) >= 0) {
					if (b == '\n') {
						write(log, line);
					}
					else {
						line.write(b);
					}
				}
				if (line.size() > 0) {
					write(log, line);
				}
			}
			catch (IOException e) {
				// the process went away
			}
			finally {
				done.complete(null);
			}
		}, "node-agent-log-" + file.getFileName());
		pump.setDaemon(true);
		pump.start();
		return done;
	}

	private static void write(OutputStream log, ByteArrayOutputStream line) throws IOException {
		// One write per line, so a reader never sees half a stamp.
		ByteArrayOutputStream stamped = new ByteArrayOutputStream(line.size() + 40);
		stamped.write((Instant.now() + " ").getBytes(StandardCharsets.US_ASCII));
		line.writeTo(stamped);
		stamped.write('\n');
		log.write(stamped.toByteArray());
		log.flush();
		line.reset();
	}

	/** A stored line's instant. */
	static Instant instantOf(String stamped) {
		int space = stamped.indexOf(' ');
		return Instant.parse(space < 0 ? stamped : stamped.substring(0, space));
	}

	/** A stored line's text. */
	static String textOf(String stamped) {
		int space = stamped.indexOf(' ');
		return space < 0 ? "" : stamped.substring(space + 1);
	}
}
