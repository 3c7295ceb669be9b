package io.fiberjvm.backend.local;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;

import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;

/**
 * Follows a local job's output file as it grows, line by line, until the job has ended and the file is
 * read to its end. Each follower reads on a daemon thread of its own (a job may run for days, which must
 * not hold a shared scheduler's thread), and looks again every 100 ms when it has read all there is.
 */
final class OutputTail {

	private static final long IDLE_MILLIS = 100;

	private OutputTail() {
	}

	static Flux<String> follow(Path file, BooleanSupplier ended) {
		return Flux.create(sink -> {
			Thread reader = new Thread(() -> read(file, ended, sink), "fiber-output-" + file.getFileName());
			reader.setDaemon(true);
			sink.onDispose(reader::interrupt);
			reader.start();
		}, FluxSink.OverflowStrategy.BUFFER);
	}

	private static void read(Path file, BooleanSupplier ended, FluxSink<String> sink) {
		try (InputStream in = Files.newInputStream(file)) {
			ByteArrayOutputStream line = new ByteArrayOutputStream();
			byte[] buffer = new byte[8192];
			boolean lastLook = false;
			while (!sink.isCancelled()) {
				int read = in.read(buffer);
				if (read > 0) {
					int start = 0;
					for (int i = 0; i < read; i++) {
						if (buffer[i] == '\n') {
							line.write(buffer, start, i - start);
							sink.next(text(line));
							line.reset();
							start = i + 1;
						}
					}
					line.write(buffer, start, read - start);
					continue;
				}
				if (lastLook) {
					if (line.size() > 0) {
						sink.next(text(line));
					}
					sink.complete();
					return;
				}
				// Once the job has ended, read once more: its last bytes may have landed after the last read.
				if (ended.getAsBoolean()) {
					lastLook = true;
					continue;
				}
				Thread.sleep(IDLE_MILLIS);
			}
		}
		catch (InterruptedException e) {
			// Disposed: nobody is listening any more.
			Thread.currentThread().interrupt();
		}
		catch (IOException e) {
			sink.error(new IOException("cannot follow the output in " + file + ": " + e.getMessage(), e));
		}
	}

	private static String text(ByteArrayOutputStream line) {
		String text = line.toString(StandardCharsets.UTF_8);
		return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
	}
}
