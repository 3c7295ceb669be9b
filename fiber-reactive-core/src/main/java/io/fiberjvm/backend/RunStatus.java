package io.fiberjvm.backend;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.jspecify.annotations.Nullable;

/**
 * What {@code fiber ps --local} shows of one run on this machine: its master, job-backed processes, pools
 * and their workers, as the run's runtime last wrote them to the {@code runs-dir} (a JSON file per run,
 * written again whenever it changes while the runtime is open, deleted when it closes).
 *
 * @param run the run id
 * @param pid the master's process id
 * @param backend the backend's name
 * @param started when the runtime opened (ISO-8601)
 * @param processes the job-backed processes still known to the runtime
 * @param pools the open pools
 */
public record RunStatus(String run, long pid, String backend, String started, List<Process> processes,
		List<Pool> pools) {

	/** Made at the first status written or read, not when a runtime opens: a mapper costs a cold JVM a third of a second. */
	private static final class Json {
		static final ObjectMapper MAPPER = new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
	}

	/**
	 * One job-backed process.
	 *
	 * @param name its name
	 * @param job its job id
	 * @param pid its operating-system process id, or -1 when not on this machine
	 * @param state creating, pending, starting, running, idle (a worker JVM waiting for the next pool), succeeded or failed
	 */
	public record Process(String name, String job, long pid, String state) {
	}

	/**
	 * One pool.
	 *
	 * @param name its name
	 * @param target the number of workers it keeps now
	 * @param min the fewest it keeps: {@code target} unless it scales
	 * @param max the most it grows to: {@code target} unless it scales
	 * @param workers its workers now
	 */
	public record Pool(String name, int target, int min, int max, List<Worker> workers) {

		/** Whether it sizes itself between {@code min} and {@code max}. */
		public boolean scales() {
			return min != max;
		}


		/** How many of its workers are working. */
		public long working() {
			return workers.stream().filter(w -> w.state().equals("working")).count();
		}
	}

	/**
	 * One pool worker.
	 *
	 * @param name its name
	 * @param process the name of the process hosting it
	 * @param state waiting (its process waits its turn to start), starting, working or retiring
	 */
	public record Worker(String name, String process, String state) {
	}

	/** The process named {@code name}, or null. */
	public @Nullable Process process(String name) {
		return processes.stream().filter(p -> p.name().equals(name)).findFirst().orElse(null);
	}

	/** This status as JSON. */
	public byte[] toJson() {
		try {
			return Json.MAPPER.writeValueAsBytes(this);
		}
		catch (IOException e) {
			throw new UncheckedIOException("cannot write run " + run + "'s status as JSON: " + e.getMessage(), e);
		}
	}

	/** A status from its JSON; fails naming what could not be read. */
	public static RunStatus fromJson(byte[] json) {
		try {
			return Json.MAPPER.readValue(json, RunStatus.class);
		}
		catch (IOException e) {
			throw new UncheckedIOException("not a run status: " + e.getMessage(), e);
		}
	}

	/** The same status without the pools' worker lists, for where a long list does not fit. */
	public RunStatus withoutWorkers() {
		return new RunStatus(run, pid, backend, started, processes,
				pools.stream().map(p -> new Pool(p.name(), p.target(), p.min(), p.max(), List.of())).toList());
	}

	/** The directory runs keep their status in under {@code config}: {@code runs-dir}, else {@code java.io.tmpdir/fiber-runs}. */
	public static Path directory(io.fiberjvm.config.FiberConfig config) {
		Path configured = config.get(io.fiberjvm.config.ConfigKeys.RUNS_DIR);
		return configured.toString().isEmpty() ? Path.of(System.getProperty("java.io.tmpdir"), "fiber-runs") : configured;
	}

	/** The file this run's status is written to in {@code dir}. */
	public static Path fileIn(Path dir, String run) {
		return dir.resolve(run + ".json");
	}

	/**
	 * The runs whose status files are in {@code dir} and whose master is still alive, oldest first; a file
	 * left by a master that died without closing is deleted. A missing directory holds no runs.
	 */
	public static List<RunStatus> readAll(Path dir) {
		if (!Files.isDirectory(dir)) {
			return List.of();
		}
		List<RunStatus> runs = new ArrayList<>();
		try (Stream<Path> files = Files.list(dir)) {
			for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".json")).sorted().toList()) {
				RunStatus status;
				try {
					status = Json.MAPPER.readValue(file.toFile(), RunStatus.class);
				}
				catch (IOException unreadable) {
					// Being replaced, or not ours: skip it.
					continue;
				}
				if (ProcessHandle.of(status.pid()).map(ProcessHandle::isAlive).orElse(false)) {
					runs.add(status);
				}
				else {
					Files.deleteIfExists(file);
				}
			}
		}
		catch (IOException e) {
			throw new UncheckedIOException("cannot list the runs in " + dir + ": " + e.getMessage(), e);
		}
		runs.sort(java.util.Comparator.comparing(RunStatus::started));
		return runs;
	}
}
