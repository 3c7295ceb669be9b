package io.fiberjvm.it;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A JVM a test starts by hand with this test's classpath, whose output lines it can wait for. */
final class ChildJvm implements AutoCloseable {

	private final Process process;
	private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

	private ChildJvm(Process process) {
		this.process = process;
		Thread reader = new Thread(() -> {
			try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
				String line;
				while ((line = in.readLine()) != null) {
					lines.add(line);
				}
			}
			catch (IOException ignored) {
				// the process ended
			}
		}, "child-output");
		reader.setDaemon(true);
		reader.start();
	}

	static ChildJvm start(Class<?> main, Map<String, String> env, String... args) throws IOException {
		return start(main, env, System.getProperty("java.class.path"), List.of(), args);
	}

	static ChildJvm start(Class<?> main, Map<String, String> env, String classpath, List<String> jvmOptions, String... args)
			throws IOException {
		return start(Path.of(System.getProperty("java.home"), "bin", "java").toString(), main, env, classpath, jvmOptions, args);
	}

	/** As {@link #start(Class, Map, String, List, String...)}, with the {@code java} executable given. */
	static ChildJvm start(String java, Class<?> main, Map<String, String> env, String classpath, List<String> jvmOptions,
			String... args) throws IOException {
		List<String> command = new ArrayList<>();
		command.add(java);
		command.addAll(jvmOptions);
		command.addAll(List.of("-cp", classpath, main.getName()));
		command.addAll(List.of(args));
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
		builder.environment().putAll(env);
		return new ChildJvm(builder.start());
	}

	/** The next line that starts with {@code prefix}, waiting at most a minute. */
	String awaitLine(String prefix) throws InterruptedException {
		while (true) {
			String line = lines.poll(60, TimeUnit.SECONDS);
			if (line == null) {
				throw new AssertionError("no line starting with '" + prefix + "' within a minute");
			}
			if (line.startsWith(prefix)) {
				return line;
			}
		}
	}

	long pid() {
		return process.pid();
	}

	void signal(String name) throws IOException, InterruptedException {
		new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start().waitFor();
	}

	void kill() {
		process.destroyForcibly();
	}

	@Override
	public void close() throws InterruptedException {
		process.destroyForcibly();
		process.waitFor(30, TimeUnit.SECONDS);
	}
}
