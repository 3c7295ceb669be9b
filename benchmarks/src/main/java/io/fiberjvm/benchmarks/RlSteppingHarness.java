package io.fiberjvm.benchmarks;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.fiberjvm.benchmarks.PoolOverheadHarness.Summary;

/**
 * RL stepping side by side: this project's {@code AsyncCartPole} example and its Python Fiber twin
 * ({@code benchmarks/python/fiber_cartpole.py}), each run {@code --runs} times in the same run, alternating.
 *
 * <p>The contract: both programs host {@code --managers} CartPole environments (4), each in its own manager process,
 * step them all with the same fixed policy for {@code --steps} time steps (5,000) per pass, and after one warm-up
 * pass of each mode time a pass through sync calls (each step waited for in turn) and one through async proxies
 * (all environments' steps issued, then all taken). Each runs as a program of its own, at most ten minutes a run.
 * The report gives, per mode, the mean and the range of each program's times and this project's time over Python
 * Fiber's; Python Fiber's column says why it is empty when {@code python3} or {@code import fiber} is missing. Two
 * floors run in the same rounds ({@link RlFloor}): the same steps as plain RSocket request-responses to one echo JVM
 * per environment, with no Fiber at all, and as blocking loopback sockets, with no framework at all.
 * Writes {@code rl-stepping.md} into {@code --out} and prints it; progress goes to standard error.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.fiberjvm.benchmarks.RlSteppingHarness [--runs 3] [--managers 4] [--steps 5000]
 *     [--out benchmarks/results] [--python-script benchmarks/python/fiber_cartpole.py]
 * </pre>
 */
public final class RlSteppingHarness {

	static final String THIS_PROJECT = "this project";
	static final String PYTHON_FIBER = "Python Fiber";
	static final String PLAIN_RSOCKET = "plain RSocket, no Fiber";
	static final String RAW_SOCKETS = "blocking sockets, no framework";
	private static final String EXAMPLE = "io.fiberjvm.examples.rl.AsyncCartPole";
	private static final Duration RUN_LIMIT = Duration.ofMinutes(10);
	/** The timing lines both programs print: {@code sync proxies : 5000 steps x 4 envs in 3.90 s, ...}. */
	private static final Pattern PASS = Pattern.compile("^(sync|async) proxies ?: .* in ([0-9]+[.,][0-9]+) s\\b.*");

	private RlSteppingHarness() {
	}

	/** The command line: runs of each program, environments, time steps per pass, where to write, the Python script. */
	record Options(int runs, int managers, int steps, Path out, Path pythonScript) {

		static Options parse(String[] args) {
			int[] numbers = {3, 4, 5000};
			Path[] paths = {Path.of("benchmarks", "results"), Path.of("benchmarks", "python", "fiber_cartpole.py")};
			HarnessArgs.pairs(args, (name, value) -> {
				switch (name) {
					case "--runs" -> numbers[0] = HarnessArgs.positive(name, value);
					case "--managers" -> numbers[1] = HarnessArgs.positive(name, value);
					case "--steps" -> numbers[2] = HarnessArgs.positive(name, value);
					case "--out" -> paths[0] = Path.of(value);
					case "--python-script" -> paths[1] = Path.of(value);
					default -> throw new IllegalArgumentException("unknown option " + name);
				}
			});
			return new Options(numbers[0], numbers[1], numbers[2], paths[0], paths[1]);
		}
	}

	/** One program's timed passes: seconds of the sync pass and of the async pass, one of each per run. */
	record Passes(List<Double> sync, List<Double> async, String about, String skipped) {

		static Passes empty() {
			return new Passes(new ArrayList<>(), new ArrayList<>(), "", null);
		}

		Passes skip(String reason) {
			return new Passes(sync, async, about, reason);
		}

		Passes about(String text) {
			return new Passes(sync, async, text, skipped);
		}

		boolean present() {
			return skipped == null && !sync.isEmpty();
		}
	}

	public static void main(String[] args) throws Exception {
		Options options = HarnessArgs.parseOrExit(args, Options::parse, "usage: RlSteppingHarness [--runs 3] [--managers 4] [--steps 5000] [--out benchmarks/results] "
					+ "[--python-script benchmarks/python/fiber_cartpole.py]");
		Files.createDirectories(options.out());
		Passes java = Passes.empty();
		Passes python = Passes.empty();
		Passes rsocket = Passes.empty();
		Passes raw = Passes.empty();
		Optional<String> pythonMissing = OverheadPeers.pythonMissing(options.pythonScript(), PYTHON_FIBER);
		if (pythonMissing.isPresent()) {
			python = python.skip(pythonMissing.get());
		}
		// The programs alternate within a run, so a change in the machine's load hits both alike.
		for (int run = 1; run <= options.runs(); run++) {
			java = once(java, THIS_PROJECT, javaCommand(options), run);
			if (java.skipped() != null) {
				throw new IllegalStateException("this project's AsyncCartPole gave no timings: " + java.skipped());
			}
			if (python.skipped() == null) {
				python = once(python, PYTHON_FIBER, pythonCommand(options), run);
			}
			rsocket = once(rsocket, PLAIN_RSOCKET, floorCommand(options, "rsocket"), run);
			raw = once(raw, RAW_SOCKETS, floorCommand(options, "raw"), run);
		}
		String markdown = markdown(options, java, python, rsocket, raw);
		Files.writeString(options.out().resolve("rl-stepping.md"), markdown, StandardCharsets.UTF_8);
		PoolOverheadHarness.printReport(markdown);
		progress("wrote rl-stepping.md in " + options.out().toAbsolutePath());
	}

	private static List<String> javaCommand(Options options) {
		return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", System.getProperty("java.class.path"),
				EXAMPLE, Integer.toString(options.managers()), Integer.toString(options.steps()));
	}

	private static List<String> floorCommand(Options options, String way) {
		return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", System.getProperty("java.class.path"),
				RlFloor.class.getName(), way, Integer.toString(options.managers()), Integer.toString(options.steps()));
	}

	private static List<String> pythonCommand(Options options) {
		return List.of(OverheadPeers.onPath("python3").orElseThrow().toString(), options.pythonScript().toString(),
				Integer.toString(options.managers()), Integer.toString(options.steps()));
	}

	/** Runs one program once and adds its two timings to {@code passes}, or marks it skipped with the reason. */
	private static Passes once(Passes passes, String name, List<String> command, int run) throws Exception {
		progress("run " + run + ", " + name + ": " + String.join(" ", command));
		ExternalProgram program = ExternalProgram.run(command, RUN_LIMIT);
		String failure = program.failure(name);
		if (failure != null) {
			progress(failure);
			return passes.skip(failure);
		}
		Double sync = null;
		Double async = null;
		for (String line : program.lines()) {
			Matcher matcher = PASS.matcher(line);
			if (matcher.matches()) {
				double seconds = Double.parseDouble(matcher.group(2).replace(',', '.'));
				if (matcher.group(1).equals("sync")) {
					sync = seconds;
				}
				else {
					async = seconds;
				}
			}
		}
		if (sync == null || async == null) {
			String reason = name + " printed no 'sync proxies : ... in X s' and 'async proxies: ... in X s' lines: skipping " + name;
			progress(reason);
			return passes.skip(reason);
		}
		progress(String.format(Locale.ROOT, "run %d, %s: sync %.2f s, async %.2f s", run, name, sync, async));
		passes.sync().add(sync);
		passes.async().add(async);
		return program.about().isEmpty() ? passes : passes.about(program.about());
	}

	static String markdown(Options options, Passes java, Passes python, Passes rsocket, Passes raw) {
		StringBuilder md = new StringBuilder();
		md.append("# RL stepping: ").append(options.managers()).append(" CartPole environments in manager processes, ")
				.append(THIS_PROJECT).append(" and ").append(PYTHON_FIBER).append("\n\n");
		md.append(String.format(Locale.ROOT, "%s, %s %s, %d cores%s. Each program runs %d times, the two alternating; a run "
				+ "starts %d managers (one environment each, its own process), makes one warm-up pass of each mode, then times a "
				+ "sync pass and an async pass of %,d time steps of every environment (the policy: push toward the side the pole "
				+ "leans to; an ended episode is reset). Sync: each step waited for before the next is issued. Async: every "
				+ "environment's step issued, then every result taken. The programs: %s's `%s`, and %s's twin "
				+ "`benchmarks/python/fiber_cartpole.py` (`fiber.managers.AsyncManager`, local backend; the same CartPole-v1 physics, "
				+ "written in Python). The floors, run in the same rounds: the same steps, each a 64-byte message echoed by one "
				+ "JVM per environment, as plain RSocket request-responses over TCP (`block()` per sync call, `flatMapSequential` "
				+ "of all for async) and as blocking loopback sockets (one thread; async writes to all, then reads all).\n\n",
				ZonedDateTime.now().format(DateTimeFormatter.ISO_LOCAL_DATE), System.getProperty("java.vm.name"),
				System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(),
				python.about().isEmpty() ? "" : "; " + python.about(), options.runs(), options.managers(), options.steps(),
				THIS_PROJECT, EXAMPLE, PYTHON_FIBER));
		List<Passes> columns = List.of(java, python, rsocket, raw);
		md.append("| pass | ").append(THIS_PROJECT).append(" s | ").append(PYTHON_FIBER).append(" s | ").append(PLAIN_RSOCKET)
				.append(" s | ").append(RAW_SOCKETS).append(" s | ").append(THIS_PROJECT).append(" / ").append(PYTHON_FIBER)
				.append(" | ").append(THIS_PROJECT).append(" / plain RSocket |\n|---|---|---|---|---|---|---|\n");
		row(md, "sync calls, one after another", columns, Passes::sync);
		row(md, "async, all environments at once", columns, Passes::async);
		md.append("| async / sync (means) |");
		for (Passes column : columns) {
			md.append(' ').append(column.present() ? String.format(Locale.ROOT, "%.2f", mean(column.async()) / mean(column.sync()))
					: "not run").append(" |");
		}
		md.append(" | |\n\nEach cell: mean (min–max) of the runs.\n");
		List<String> names = List.of(THIS_PROJECT, PYTHON_FIBER, PLAIN_RSOCKET, RAW_SOCKETS);
		for (int i = 1; i < columns.size(); i++) {
			if (!columns.get(i).present()) {
				md.append("\n").append(names.get(i)).append(" not run: ").append(columns.get(i).skipped()).append(".\n");
			}
		}
		return md.toString();
	}

	private static void row(StringBuilder md, String pass, List<Passes> columns, java.util.function.Function<Passes, List<Double>> times) {
		md.append("| ").append(pass).append(" |");
		for (Passes column : columns) {
			md.append(' ').append(column.present() ? range(times.apply(column)) : "not run").append(" |");
		}
		Passes ours = columns.get(0);
		for (Passes peer : List.of(columns.get(1), columns.get(2))) {
			md.append(' ').append(peer.present() ? String.format(Locale.ROOT, "%.2f", mean(times.apply(ours)) / mean(times.apply(peer))) : "")
					.append(" |");
		}
		md.append('\n');
	}

	/** {@code 3.90 (3.85–3.95)}. */
	static String range(List<Double> values) {
		Summary summary = Summary.of(values);
		return String.format(Locale.ROOT, "%.2f (%.2f–%.2f)", summary.mean(), summary.min(), summary.max());
	}

	private static double mean(List<Double> values) {
		return Summary.of(values).mean();
	}

	static void progress(String message) {
		System.err.println("[rl-stepping] " + message);
	}
}
