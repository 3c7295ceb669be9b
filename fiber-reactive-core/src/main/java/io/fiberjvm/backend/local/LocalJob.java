package io.fiberjvm.backend.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import io.fiberjvm.backend.Job;
import io.fiberjvm.backend.JobSpec;
import io.fiberjvm.backend.JobStatus;
import io.fiberjvm.backend.JobStatusFeed;
import io.fiberjvm.internal.DataSize;

/** A child process on this machine; its status follows {@link Process#onExit()}. */
final class LocalJob implements Job {

	private final JobSpec spec;
	private final Process process;
	private final Path log;
	private final Duration grace;
	private final JobStatusFeed statuses;

	/**
	 * @param memoryLimit the memory the job declared, in bytes, or 0 for none: a JVM started with it ends when its heap
	 *        runs out ({@code -XX:+ExitOnOutOfMemoryError}, see LocalBackend)
	 */
	LocalJob(JobSpec spec, Process process, Path log, Duration grace, long memoryLimit) {
		this.spec = spec;
		this.process = process;
		this.log = log;
		this.grace = grace;
		this.statuses = new JobStatusFeed(new JobStatus(JobStatus.Phase.RUNNING, null, "pid " + process.pid()));
		process.onExit().whenComplete((p, error) -> {
			int code = process.exitValue();
			String outOfMemory = memoryLimit > 0 && code == EXIT_OUT_OF_MEMORY ? outOfMemoryLine() : null;
			statuses.advance(outOfMemory == null ? JobStatus.exited(code, describe(code))
					: JobStatus.killedForMemory(code, "killed for memory at its limit of " + DataSize.format(memoryLimit)
							+ " (" + outOfMemory + ")"));
		});
	}

	/** What a JVM run with -XX:+ExitOnOutOfMemoryError exits with when it runs out of memory. */
	static final int EXIT_OUT_OF_MEMORY = 3;
	private static final String OUT_OF_MEMORY = "Terminating due to java.lang.OutOfMemoryError: ";

	/** The JVM's last word on running out of memory, from the end of its output; null when it did not say it. */
	private @Nullable String outOfMemoryLine() {
		try (java.nio.channels.SeekableByteChannel channel = Files.newByteChannel(log)) {
			long size = channel.size();
			java.nio.ByteBuffer tail = java.nio.ByteBuffer.allocate((int) Math.min(size, 8192));
			channel.position(size - tail.capacity());
			while (tail.hasRemaining() && channel.read(tail) >= 0) {
				// reads until the buffer is full or the file ends
			}
			String text = new String(tail.array(), 0, tail.position(), StandardCharsets.UTF_8);
			int at = text.lastIndexOf(OUT_OF_MEMORY);
			if (at < 0) {
				return null;
			}
			int end = text.indexOf('\n', at);
			return text.substring(at + "Terminating due to ".length(), end < 0 ? text.length() : end).strip();
		}
		catch (IOException e) {
			return null;
		}
	}

	private static String describe(int code) {
		// The JVM reports death by signal N as 128 + N.
		if (code > 128 && code < 160) {
			return "exited with code " + code + " (signal " + (code - 128) + ")";
		}
		return "exited with code " + code;
	}

	@Override
	public String id() {
		return spec.name();
	}

	@Override
	public JobSpec spec() {
		return spec;
	}

	@Override
	public OptionalLong pid() {
		return OptionalLong.of(process.pid());
	}

	@Override
	public JobStatus status() {
		return statuses.current();
	}

	@Override
	public Flux<JobStatus> statuses() {
		return statuses.flux();
	}

	@Override
	public Mono<Void> terminate() {
		return terminate(grace);
	}

	@Override
	public Mono<Void> terminate(Duration grace) {
		Job.checkGrace(grace);
		return Mono.fromRunnable(() -> {
			if (!process.isAlive()) {
				return;
			}
			signalTree(false);
			try {
				if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
					signalTree(true);
				}
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				process.destroyForcibly();
			}
		}).subscribeOn(Schedulers.boundedElastic()).then(onTerminal()).then();
	}

	/** Kills at once, without a grace period: for a runtime that is going away. */
	void kill() {
		signalTree(true);
	}

	/**
	 * Signals the process and its descendants. The tree is listed before and again after the process
	 * is signalled, so a child forked in between is caught too; once the process is gone its orphans
	 * can no longer be found.
	 */
	private void signalTree(boolean forcibly) {
		java.util.List<ProcessHandle> before = process.descendants().toList();
		if (forcibly) {
			process.destroyForcibly();
		}
		else {
			process.destroy();
		}
		java.util.stream.Stream.concat(before.stream(), process.descendants()).distinct()
				.forEach(forcibly ? ProcessHandle::destroyForcibly : ProcessHandle::destroy);
	}

	boolean isAlive() {
		return process.isAlive();
	}

	@Override
	public Flux<String> follow() {
		return OutputTail.follow(log, () -> !process.isAlive());
	}

	@Override
	public Flux<String> logs() {
		return Flux.using(() -> Files.newBufferedReader(log, StandardCharsets.UTF_8),
				reader -> Flux.fromStream(reader.lines()),
				reader -> {
					try {
						reader.close();
					}
					catch (IOException ignored) {
						// nothing left to release
					}
				}).subscribeOn(Schedulers.boundedElastic());
	}

	@Override
	public String toString() {
		return "LocalJob[" + spec.name() + ", pid " + process.pid() + "]";
	}
}
