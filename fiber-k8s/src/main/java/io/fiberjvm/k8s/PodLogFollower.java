package io.fiberjvm.k8s;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.BytesLimitTerminateTimeTailPrettyLoggable;
import io.fabric8.kubernetes.client.dsl.LogWatch;
import io.fabric8.kubernetes.client.dsl.Loggable;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;

import io.fiberjvm.FiberException;
import io.fiberjvm.backend.JobStatus;

/**
 * Follows a running pod's log line by line, on a daemon thread of its own (a pod may run for days),
 * through {@code pods/log?follow=true&timestamps=true}. A stream that ends while the pod still runs (cut,
 * or the API server's limit) is opened again from where it stopped ({@link LogCursor}); once the pod has
 * ended, one last read from there delivers what no stream had, and the follow completes. Lines end at
 * {@code \n} only (a progress bar's {@code \r} stays in its line, a CRLF's is dropped) and keep at most
 * {@value #MAX_LINE} bytes; a line a cut stream left unfinished is read again whole. Disposing while a
 * stream is being opened takes effect when the API server first answers (fabric8 waits for it without
 * heeding interrupts). Opening fails {@value #ATTEMPTS} times in a row, or the API server answers with
 * something other than a log, and the follow fails naming the pod; a pod deleted after it ended, or a
 * backend closing, ends it quietly with what was read.
 */
final class PodLogFollower {

	/** How long a stream that ended waits for the pod to end before opening another. */
	private static final Duration END_WAIT = Duration.ofSeconds(2);
	/** The pause between tries once the pod has ended. */
	private static final Duration RETRY_PAUSE = Duration.ofSeconds(1);
	private static final int ATTEMPTS = 3;
	/** Bytes of one line kept; the rest of a longer line is dropped. */
	static final int MAX_LINE = 1024 * 1024;

	private final KubernetesClient client;
	private final String namespace;
	private final String pod;
	private final Supplier<JobStatus> status;
	private final Mono<JobStatus> terminal;
	private final BooleanSupplier backendClosed;

	PodLogFollower(KubernetesClient client, String namespace, String pod, Supplier<JobStatus> status, Mono<JobStatus> terminal,
			BooleanSupplier backendClosed) {
		this.client = client;
		this.namespace = namespace;
		this.pod = pod;
		this.status = status;
		this.terminal = terminal;
		this.backendClosed = backendClosed;
	}

	Flux<String> lines() {
		return Flux.create(sink -> {
			AtomicReference<Closeable> open = new AtomicReference<>();
			Thread reader = new Thread(() -> run(sink, open), "fiber-pod-log-" + pod);
			reader.setDaemon(true);
			sink.onDispose(() -> {
				reader.interrupt();
				closeQuietly(open.get());
			});
			reader.start();
		}, FluxSink.OverflowStrategy.BUFFER);
	}

	private void run(FluxSink<String> sink, AtomicReference<Closeable> open) {
		LogCursor cursor = new LogCursor();
		int failures = 0;
		while (!sink.isCancelled()) {
			boolean ended = status.get().isTerminal();
			cursor.reopened();
			try {
				BytesLimitTerminateTimeTailPrettyLoggable stamped = client.pods().inNamespace(namespace).withName(pod)
						.inContainer(PodTemplate.CONTAINER).usingTimestamps();
				Loggable from = cursor.since() == null ? stamped : stamped.sinceTime(cursor.since());
				if (ended) {
					lastRead(from, cursor, sink);
					return;
				}
				stream(from, cursor, sink, open);
				failures = 0;
			}
			catch (KubernetesClientException e) {
				if (ended && e.getCode() == 404) {
					// Deleted once it ended (its runtime closing, say): its output went with it.
					sink.complete();
					return;
				}
				if (failed(sink, ++failures, KubernetesBackend.describe(e), e)) {
					return;
				}
			}
			catch (RuntimeException e) {
				// A transport failure (which fabric8 wraps), or an answer that is not a log.
				if (failed(sink, ++failures, e instanceof CompletionException && e.getCause() != null ? e.getCause().toString()
						: e.getMessage(), e)) {
					return;
				}
			}
			if (!pause(ended, sink)) {
				return;
			}
		}
	}

	/** The rest of an ended pod's log, then the end. */
	private static void lastRead(Loggable from, LogCursor cursor, FluxSink<String> sink) {
		for (String line : KubernetesJob.lines(from.getLog())) {
			if (sink.isCancelled()) {
				return;
			}
			emit(cursor.accept(line), sink);
		}
		sink.complete();
	}

	/** One stream, until it ends or is cut; a cut is not a failure. Fails on an answer that is not a log. */
	private static void stream(Loggable from, LogCursor cursor, FluxSink<String> sink, AtomicReference<Closeable> open) {
		LogWatch watch = from.watchLog();
		InputStream body = watch.getOutput();
		// Closing the watch alone leaves its response open: close the body too.
		Closeable both = () -> {
			try {
				body.close();
			}
			finally {
				watch.close();
			}
		};
		open.set(both);
		try (both) {
			if (sink.isCancelled()) {
				return;
			}
			ByteArrayOutputStream line = new ByteArrayOutputStream();
			byte[] buffer = new byte[8192];
			int read;
			while (!sink.isCancelled() && (read = body.read(buffer)) >= 0) {
				int start = 0;
				for (int i = 0; i < read && !sink.isCancelled(); i++) {
					if (buffer[i] == '\n') {
						append(line, buffer, start, i - start);
						emit(cursor.accept(withoutReturn(line.toString(StandardCharsets.UTF_8))), sink);
						line.reset();
						start = i + 1;
					}
				}
				append(line, buffer, start, Math.max(0, read - start));
			}
			// What is left is a line the stream ended in the middle of: the next stream, or the last read, has it
			// whole. Unless it is no log line at all (an error without a newline), which is a failure.
			if (line.size() > 0 && !sink.isCancelled()) {
				LogCursor.check(line.toString(StandardCharsets.UTF_8));
			}
		}
		catch (IOException cut) {
			// The connection went: the next stream goes on from the cursor.
		}
	}

	/** Adds to a line, keeping at most {@value #MAX_LINE} bytes of it: a line without end must not take all memory. */
	private static void append(ByteArrayOutputStream line, byte[] bytes, int offset, int length) {
		int room = MAX_LINE - line.size();
		if (room > 0) {
			line.write(bytes, offset, Math.min(room, length));
		}
	}

	/** A line's text without the carriage return of a CRLF ending (one inside the line stays). */
	static String withoutReturn(String line) {
		return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
	}

	private static void emit(@Nullable String text, FluxSink<String> sink) {
		if (text != null) {
			sink.next(text);
		}
	}

	/**
	 * Waits before the next try: for the pod to end (briefly) while it runs, a pause once it has ended.
	 * False when following must stop.
	 */
	private boolean pause(boolean ended, FluxSink<String> sink) {
		try {
			if (ended) {
				Thread.sleep(RETRY_PAUSE.toMillis());
			}
			else {
				terminal.timeout(END_WAIT, Mono.empty()).block();
			}
			return true;
		}
		catch (InterruptedException | RuntimeException interrupted) {
			if (!sink.isCancelled()) {
				sink.error(new FiberException("stopped following the logs of pod " + pod + ": " + interrupted, interrupted));
			}
			return false;
		}
	}

	/** Counts a failed try; after too many in a row, ends the follow, with an error naming the pod unless the backend closed. */
	private boolean failed(FluxSink<String> sink, int failures, @Nullable String why, Throwable cause) {
		if (sink.isCancelled()) {
			return true;
		}
		if (backendClosed.getAsBoolean()) {
			sink.complete();
			return true;
		}
		if (failures >= ATTEMPTS) {
			sink.error(new FiberException("cannot follow the logs of pod " + pod + " in namespace " + namespace + ": " + why, cause));
			return true;
		}
		return false;
	}

	private static void closeQuietly(@Nullable Closeable open) {
		if (open != null) {
			try {
				open.close();
			}
			catch (IOException | RuntimeException ignored) {
				// closing what is going anyway
			}
		}
	}
}
