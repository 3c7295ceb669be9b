package io.fiberjvm.benchmarks;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.fiberjvm.benchmarks.PoolOverheadHarness.Config;
import io.fiberjvm.benchmarks.PoolOverheadHarness.Summary;

import static io.fiberjvm.benchmarks.PoolOverheadHarness.WORKERS;
import static io.fiberjvm.benchmarks.PoolOverheadHarness.progress;

/** The overhead harness's peers in processes of their own: Python's {@code multiprocessing.Pool}, Python Fiber's {@code fiber.Pool} and Spark. */
final class OverheadPeers {

	private static final String PYTHON = "multiprocessing.Pool";
	static final String PYTHON_FIBER = "Python Fiber";
	private static final String SPARK = "Spark local[5]";
	/** One task a chunk, as the Fiber paper's own benchmark maps; Python Fiber's default of 32 puts all of 5 × 1 s on one worker. */
	static final String PYTHON_FIBER_CHUNKSIZE = "1";

	private OverheadPeers() {
	}

	/** Runs the Python script with {@code multiprocessing.Pool} once for every configuration, or says why the column is skipped. */
	static ExternalColumn runPython(OverheadOptions options) throws IOException, InterruptedException {
		return runPythonScript(PYTHON, options, List.of("--library", "multiprocessing"));
	}

	/**
	 * Runs the Python script with Python Fiber's {@code fiber.Pool} (local backend) once for every configuration, or says
	 * why the column is skipped: the script itself says so when {@code import fiber} fails.
	 */
	static ExternalColumn runPythonFiber(OverheadOptions options) throws IOException, InterruptedException {
		return runPythonScript(PYTHON_FIBER, options, List.of("--library", "fiber", "--chunksize", PYTHON_FIBER_CHUNKSIZE));
	}

	private static ExternalColumn runPythonScript(String name, OverheadOptions options, List<String> library)
			throws IOException, InterruptedException {
		Optional<String> missing = pythonMissing(options.pythonScript(), name);
		if (missing.isPresent()) {
			return ExternalColumn.skipped(name, missing.get());
		}
		List<String> command = new ArrayList<>(List.of(onPath("python3").orElseThrow().toString(), options.pythonScript().toString()));
		command.addAll(library);
		command.addAll(List.of("--runs", Integer.toString(options.runs()), "--processes", Integer.toString(WORKERS)));
		return runExternal(name, command, options);
	}

	/** Why the column {@code name} cannot run {@code script} with python3 here, if it cannot. */
	static Optional<String> pythonMissing(Path script, String name) {
		if (onPath("python3").isEmpty()) {
			return Optional.of("python3 not found on the PATH: skipping " + name);
		}
		if (!Files.isRegularFile(script)) {
			return Optional.of(script.toAbsolutePath() + " not found (run from the repository root or pass --python-script): skipping "
					+ name);
		}
		return Optional.empty();
	}

	/** Spark's own --add-opens for JDK 17, which its launcher scripts would pass; a plain java command must. */
	private static final List<String> SPARK_JVM_OPTIONS = List.of("-XX:+IgnoreUnrecognizedVMOptions",
			"--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
			"--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
			"--add-opens=java.base/java.net=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
			"--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
			"--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED", "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
			"--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
			"--add-opens=java.base/sun.security.action=ALL-UNNAMED", "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
			"-Djdk.reflect.useDirectMethodHandle=false");

	/** Runs Spark's column (module benchmarks/spark, built with -Pspark) in a JVM of its own, or says why it is skipped. */
	static ExternalColumn runSpark(OverheadOptions options) throws IOException, InterruptedException {
		Path classpathFile = options.sparkClasspath();
		Path jar = classpathFile.resolveSibling("benchmarks-spark.jar");
		if (!Files.isRegularFile(classpathFile) || !Files.isRegularFile(jar)) {
			return ExternalColumn.skipped(SPARK, classpathFile.toAbsolutePath() + " not found: build with `mvn -B -DskipTests -Pspark "
					+ "package` (from the repository root) to add Spark's column; skipping Spark");
		}
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.addAll(SPARK_JVM_OPTIONS);
		command.addAll(List.of("-cp", jar + File.pathSeparator + Files.readString(classpathFile).trim(),
				"io.fiberjvm.benchmarks.spark.SparkOverhead", "--runs", Integer.toString(options.runs()),
				"--warmups", Integer.toString(options.warmups()), "--workers", Integer.toString(WORKERS)));
		return runExternal(SPARK, command, options);
	}

	/**
	 * Runs {@code command} with each configuration as a {@code TASKS:SECONDS} argument; it answers in the Python script's protocol: a {@code #} line saying what ran,
	 * then {@code tasks,seconds,mean,min,max} per configuration; or the one line {@code # skipped: REASON} when it cannot run its column.
	 */
	private static ExternalColumn runExternal(String name, List<String> command, OverheadOptions options) throws IOException, InterruptedException {
		for (Config config : options.configs()) {
			command.add(config.tasks() + ":" + config.taskSecondsText());
		}
		progress("running " + (command.size() > 12 ? String.join(" ", command.subList(0, 2)) + " … " + command.get(command.size() - 1)
				: String.join(" ", command)));
		Duration limit = timeLimit(options);
		ExternalProgram program = ExternalProgram.run(command, limit);
		if (program.skipped() != null) {
			return ExternalColumn.skipped(name, program.skipped() + ": skipping " + name);
		}
		List<Summary> results = new ArrayList<>();
		for (String line : program.lines()) {
			if (line.startsWith("#") || line.isBlank()) {
				continue;
			}
			String[] fields = line.trim().split(",");
			if (results.size() == options.configs().size() || fields.length != 5) {
				throw new IllegalStateException(name + " answered '" + line + "' where no configuration or no tasks,seconds,mean,min,max "
						+ "line was due");
			}
			Config expected = options.configs().get(results.size());
			if (Integer.parseInt(fields[0]) != expected.tasks()) {
				throw new IllegalStateException(name + " answered '" + line + "' where " + expected.label() + " was due");
			}
			results.add(new Summary(Double.parseDouble(fields[2]), Double.parseDouble(fields[3]), Double.parseDouble(fields[4])));
		}
		if (program.timedOut()) {
			return ExternalColumn.skipped(name, command.get(0) + " did not end within " + limit.toMinutes() + " minutes and was stopped after "
					+ results.size() + " of " + options.configs().size() + " configurations: skipping " + name);
		}
		if (program.exit() != 0 || results.size() != options.configs().size()) {
			return ExternalColumn.skipped(name, command.get(0) + " exited with " + program.exit() + " after " + results.size() + " of "
					+ options.configs().size() + " configurations: skipping " + name);
		}
		return new ExternalColumn(name, results, program.about(), null);
	}

	/** Room for every pass (timed, warm-up and one more) at five times the ideal and 30 s more per configuration: a hang ends, a slow peer does not. */
	private static Duration timeLimit(OverheadOptions options) {
		Duration pass = Duration.ZERO;
		for (Config config : options.configs()) {
			pass = pass.plus(Duration.ofNanos(config.tasks() * config.taskNanos()).multipliedBy(5)).plusSeconds(30);
		}
		return pass.multipliedBy(options.runs() + options.warmups() + 1L).plusMinutes(2);
	}

	/** The executable {@code command} in the first {@code PATH} directory that has one. */
	static Optional<Path> onPath(String command) {
		String path = System.getenv("PATH");
		if (path == null) {
			return Optional.empty();
		}
		for (String dir : path.split(File.pathSeparator)) {
			Path candidate = Path.of(dir.isEmpty() ? "." : dir, command);
			if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
				return Optional.of(candidate);
			}
		}
		return Optional.empty();
	}
}
