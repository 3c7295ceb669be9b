package io.fiberjvm.backend.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.test.StepVerifier;

import io.fiberjvm.FiberException;
import io.fiberjvm.ResourceSpec;
import io.fiberjvm.backend.Backend;
import io.fiberjvm.backend.BackendProvider;
import io.fiberjvm.backend.Job;
import io.fiberjvm.backend.JobSpec;
import io.fiberjvm.backend.JobStatus;
import io.fiberjvm.backend.JobStatus.Phase;
import io.fiberjvm.config.FiberConfig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The local backend with real child processes ({@code sh}), beyond what every backend does (fiber-testkit's
 * BackendContract, run on it there). Children that must still be running when
 * the test looks at them wait for a gate file the test creates; nothing here depends on how fast a
 * process starts or ends. Every backend a test opens is closed afterwards, which kills its live jobs.
 */
class LocalBackendTest {

	private static final Duration LIMIT = Duration.ofSeconds(30);

	@TempDir
	Path dir;

	private final List<Backend> backends = new CopyOnWriteArrayList<>();
	private final List<Job> jobs = new CopyOnWriteArrayList<>();
	private final List<Path> gates = new CopyOnWriteArrayList<>();

	@AfterEach
	void cleanUp() {
		// Let every gated job finish on its own, so nothing is killed half-way through its script.
		for (Path gate : gates) {
			if (!Files.exists(gate)) {
				open(gate);
			}
		}
		List<Throwable> errors = new ArrayList<>();
		for (Job job : jobs) {
			try {
				job.onTerminal().block(LIMIT);
			}
			catch (RuntimeException e) {
				errors.add(e);
			}
		}
		for (Backend b : backends) {
			try {
				b.close();
			}
			catch (RuntimeException e) {
				errors.add(e);
			}
		}
		// Belt and braces: nothing a test started may outlive it.
		for (Job job : jobs) {
			job.pid().ifPresent(pid -> ProcessHandle.of(pid).ifPresent(h -> {
				h.descendants().forEach(ProcessHandle::destroyForcibly);
				h.destroyForcibly();
			}));
		}
		assertThat(errors).isEmpty();
	}

	private LocalBackend backend(List<String> gpus) {
		return backend(gpus, Duration.ofSeconds(3));
	}

	private LocalBackend backend(List<String> gpus, Duration grace) {
		LocalBackend backend = new LocalBackend(dir.resolve("logs"), grace, gpus);
		backends.add(backend);
		return backend;
	}

	private Job start(Backend backend, JobSpec spec) {
		Job job = backend.create(spec).block(LIMIT);
		assertThat(job).isNotNull();
		jobs.add(job);
		return job;
	}

	/**
	 * {@code sleep 60} run directly, not through a shell: a shell would fork it, and a child forked
	 * while the shell is being killed could outlive the test.
	 */
	private static JobSpec sleeper(String name) {
		return JobSpec.of(name, List.of("sleep", "60"));
	}

	private static JobSpec sh(String name, String script) {
		return JobSpec.of(name, List.of("sh", "-c", script));
	}

	private Path gate(String name) {
		Path gate = dir.resolve(name + ".gate");
		gates.add(gate);
		return gate;
	}

	/** Shell that waits until {@code gate} exists. */
	private static String waitFor(Path gate) {
		return "while [ ! -e '" + gate + "' ]; do sleep 0.02; done; ";
	}

	private static void open(Path gate) {
		try {
			Files.createFile(gate);
		}
		catch (IOException e) {
			throw new IllegalStateException(e);
		}
	}

	private static List<String> logs(Job job) {
		List<String> lines = job.logs().collectList().block(LIMIT);
		assertThat(lines).isNotNull();
		return lines;
	}

	private static JobStatus terminal(Job job) {
		JobStatus status = job.onTerminal().block(LIMIT);
		assertThat(status).isNotNull();
		return status;
	}

	// ---- statuses -----------------------------------------------------------------------

	@Test
	void statusesGoRunningThenFailedWithTheExitCodeAndComplete() {
		LocalBackend backend = backend(List.of());
		Path gate = gate("fail");
		Job job = start(backend, sh("fail-three", waitFor(gate) + "echo hello; exit 3"));

		assertThat(job.id()).isEqualTo("fail-three");
		assertThat(job.pid()).isPresent();
		assertThat(job.spec().name()).isEqualTo("fail-three");

		StepVerifier.create(job.statuses())
				.assertNext(s -> {
					assertThat(s.phase()).isEqualTo(Phase.RUNNING);
					assertThat(s.exitCode()).isNull();
					assertThat(s.isTerminal()).isFalse();
					assertThat(s.message()).contains(Long.toString(job.pid().getAsLong()));
				})
				.then(() -> open(gate))
				.assertNext(s -> {
					assertThat(s.phase()).isEqualTo(Phase.FAILED);
					assertThat(s.exitCode()).isEqualTo(3);
					assertThat(s.isTerminal()).isTrue();
					assertThat(s.message()).contains("3");
				})
				.expectComplete()
				.verify(LIMIT);

		assertThat(job.status().phase()).isEqualTo(Phase.FAILED);
		assertThat(job.status().exitCode()).isEqualTo(3);
	}

	@Test
	void exitZeroIsSucceeded() {
		Job job = start(backend(List.of()), sh("ok", "exit 0"));

		JobStatus status = terminal(job);

		assertThat(status.phase()).isEqualTo(Phase.SUCCEEDED);
		assertThat(status.exitCode()).isZero();
		assertThat(job.status()).isEqualTo(status);
	}

	@Test
	void aLateSubscriberSeesOnlyTheTerminalStatusThenCompletion() {
		Job job = start(backend(List.of()), sh("late", "exit 5"));
		JobStatus status = terminal(job);

		StepVerifier.create(job.statuses()).expectNext(status).expectComplete().verify(LIMIT);
		StepVerifier.create(job.statuses()).expectNext(status).expectComplete().verify(LIMIT);
		assertThat(status.exitCode()).isEqualTo(5);
	}

	@Test
	void everySubscriberSeesTheLatestStatusFirst() {
		Path gate = gate("two-subs");
		Job job = start(backend(List.of()), sh("two-subs", waitFor(gate) + "exit 0"));

		StepVerifier first = StepVerifier.create(job.statuses())
				.expectNextMatches(s -> s.phase() == Phase.RUNNING)
				.expectNextMatches(s -> s.phase() == Phase.SUCCEEDED)
				.expectComplete()
				.verifyLater();
		StepVerifier second = StepVerifier.create(job.statuses())
				.expectNextMatches(s -> s.phase() == Phase.RUNNING)
				.expectNextMatches(s -> s.phase() == Phase.SUCCEEDED)
				.expectComplete()
				.verifyLater();
		open(gate);

		first.verify(LIMIT);
		second.verify(LIMIT);
	}

	@Test
	void aCommandThatCannotStartFailsCreate() {
		LocalBackend backend = backend(List.of());
		StepVerifier.create(backend.create(JobSpec.of("missing", List.of(dir.resolve("no-such-program").toString()))))
				.expectError(IOException.class)
				.verify(LIMIT);
		assertThat(backend.liveJobs()).isZero();
	}

	// ---- logs ---------------------------------------------------------------------------

	@Test
	void logsReturnTheOutputLinesInOrderIncludingStandardError() {
		Job job = start(backend(List.of()), sh("talker", "echo one; echo two >&2; printf 'three\\nfour\\n'; exit 1"));
		terminal(job);

		assertThat(logs(job)).containsExactly("one", "two", "three", "four");
		assertThat(dir.resolve("logs").resolve("talker.log")).exists();
	}

	@Test
	void logsCanBeReadWhileTheJobRuns() {
		Path gate = gate("chatty");
		Job job = start(backend(List.of()), sh("chatty", "echo before; " + waitFor(gate) + "echo after"));

		await().atMost(LIMIT).untilAsserted(() -> assertThat(logs(job)).containsExactly("before"));
		assertThat(job.status().phase()).isEqualTo(Phase.RUNNING);

		open(gate);
		terminal(job);
		assertThat(logs(job)).containsExactly("before", "after");
	}

	@Test
	void theLogDirectoryIsCreatedWhenMissing() {
		Path nested = dir.resolve("a").resolve("b");
		LocalBackend backend = new LocalBackend(nested, Duration.ofSeconds(1), List.of());
		backends.add(backend);
		Job job = start(backend, sh("nested", "echo here"));
		terminal(job);
		assertThat(nested.resolve("nested.log")).hasContent("here");
	}

	// ---- environment --------------------------------------------------------------------

	@Test
	void theSpecsEnvironmentReachesTheChildAlongsideTheParents() {
		JobSpec spec = sh("env", "echo \"greeting=$GREETING\"; echo \"other=$OTHER\"; command -v sh >/dev/null && echo path-ok")
				.withEnvironment(Map.of("GREETING", "hi there", "OTHER", "x=y;z"));
		Job job = start(backend(List.of()), spec);
		terminal(job);

		assertThat(logs(job)).containsExactly("greeting=hi there", "other=x=y;z", "path-ok");
	}

	// ---- terminate ----------------------------------------------------------------------

	@Test
	void terminateEndsASleepingJob() {
		Job job = start(backend(List.of()), sleeper("sleeper"));

		StepVerifier.create(job.terminate()).expectComplete().verify(LIMIT);

		JobStatus status = job.status();
		assertThat(status.phase()).isEqualTo(Phase.FAILED);
		assertThat(status.exitCode()).isEqualTo(143);
		assertThat(status.message()).contains("signal 15");
		assertThat(ProcessHandle.of(job.pid().getAsLong()).map(ProcessHandle::isAlive).orElse(false)).isFalse();
	}

	@Test
	void terminateAlsoEndsTheJobsChildren() {
		Job job = start(backend(List.of()), sh("parent", "sleep 60; echo never"));
		ProcessHandle self = ProcessHandle.of(job.pid().getAsLong()).orElseThrow();
		await().atMost(LIMIT).until(() -> self.descendants().findAny().isPresent());
		List<ProcessHandle> children = self.descendants().toList();

		StepVerifier.create(job.terminate()).expectComplete().verify(LIMIT);

		for (ProcessHandle child : children) {
			await().atMost(LIMIT).until(() -> !child.isAlive());
		}
		assertThat(job.status().isTerminal()).isTrue();
	}

	@Test
	void terminateKillsAJobThatIgnoresTheRequestOnceTheGraceIsOver() {
		// read is a shell builtin: the job forks nothing that its kill could leave behind.
		Job job = start(backend(List.of(), Duration.ofMillis(300)),
				sh("stubborn", "trap '' TERM; echo ready; while true; do read line; done"));
		await().atMost(LIMIT).until(() -> logs(job).contains("ready"));

		StepVerifier.create(job.terminate()).expectComplete().verify(LIMIT);

		assertThat(job.status().phase()).isEqualTo(Phase.FAILED);
		assertThat(job.status().exitCode()).isEqualTo(137);
		assertThat(job.status().message()).contains("signal 9");
	}

	@Test
	void terminateWithAGraceOfItsOwnKillsAtThatGraceNotTheBackends() {
		Job job = start(backend(List.of(), Duration.ofHours(1)),
				sh("stubborn", "trap '' TERM; echo ready; while true; do read line; done"));
		await().atMost(LIMIT).until(() -> logs(job).contains("ready"));

		StepVerifier.create(job.terminate(Duration.ofMillis(300))).expectComplete().verify(LIMIT);

		assertThat(job.status().exitCode()).isEqualTo(137);
	}

	@Test
	void aNegativeGraceIsRefusedAndTheJobRunsOn() {
		Job job = start(backend(List.of()), sleeper("sleeper"));

		assertThatThrownBy(() -> job.terminate(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("negative");

		assertThat(job.status().isTerminal()).isFalse();
		StepVerifier.create(job.terminate()).expectComplete().verify(LIMIT);
	}

	@Test
	void terminatingAnEndedJobCompletesAndChangesNothing() {
		Job job = start(backend(List.of()), sh("done", "exit 0"));
		JobStatus status = terminal(job);

		StepVerifier.create(job.terminate()).expectComplete().verify(LIMIT);

		assertThat(job.status()).isEqualTo(status);
	}

	// ---- GPUs ---------------------------------------------------------------------------

	@Test
	void aGpuJobSeesOneOfTheIdsAndConcurrentJobsGetDifferentOnes() {
		LocalBackend backend = backend(List.of("0", "1"));
		Path gate = gate("gpus");
		String script = waitFor(gate) + "echo \"gpu=$CUDA_VISIBLE_DEVICES\"";
		Job a = start(backend, sh("gpu-a", script).withResources(ResourceSpec.NONE.withGpu(1)));
		Job b = start(backend, sh("gpu-b", script).withResources(ResourceSpec.NONE.withGpu(1)));

		open(gate);
		terminal(a);
		terminal(b);

		List<String> la = logs(a);
		List<String> lb = logs(b);
		assertThat(la).hasSize(1);
		assertThat(lb).hasSize(1);
		assertThat(la.get(0)).isIn("gpu=0", "gpu=1");
		assertThat(lb.get(0)).isIn("gpu=0", "gpu=1");
		assertThat(la.get(0)).isNotEqualTo(lb.get(0));
	}

	@Test
	void aJobAskingForSeveralGpusSeesThemCommaSeparated() {
		LocalBackend backend = backend(List.of("3", "5"));
		Job job = start(backend, sh("gpu-two", "echo \"$CUDA_VISIBLE_DEVICES\"").withResources(ResourceSpec.NONE.withGpu(2)));
		terminal(job);

		String line = logs(job).get(0);
		assertThat(Set.of(line.split(","))).containsExactlyInAnyOrder("3", "5");
	}

	@Test
	void askingForMoreGpusThanAreFreeFailsNamingTheKey() {
		LocalBackend backend = backend(List.of("0", "1"));
		Path gate = gate("hold");
		start(backend, sh("holder", waitFor(gate) + "exit 0").withResources(ResourceSpec.NONE.withGpu(1)));

		StepVerifier.create(backend.create(sh("greedy", "exit 0").withResources(ResourceSpec.NONE.withGpu(2))))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(FiberException.class)
						.hasMessageContaining("greedy")
						.hasMessageContaining("fiber.local-gpus"))
				.verify(LIMIT);
		assertThat(backend.liveJobs()).isEqualTo(1);
		open(gate);
	}

	@Test
	void askingForAGpuFromABackendWithoutGpusFails() {
		LocalBackend backend = backend(List.of());
		StepVerifier.create(backend.create(sh("no-gpu", "exit 0").withResources(ResourceSpec.NONE.withGpu(1))))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(FiberException.class)
						.hasMessageContaining("fiber.local-gpus"))
				.verify(LIMIT);
		assertThat(backend.liveJobs()).isZero();
	}

	@Test
	void gpusAreReturnedWhenTheJobExits() {
		LocalBackend backend = backend(List.of("0", "1"));
		Path gate = gate("first");
		Job first = start(backend, sh("first", waitFor(gate) + "exit 0").withResources(ResourceSpec.NONE.withGpu(2)));
		StepVerifier.create(backend.create(sh("blocked", "exit 0").withResources(ResourceSpec.NONE.withGpu(1))))
				.expectError(FiberException.class)
				.verify(LIMIT);

		open(gate);
		terminal(first);

		List<Job> second = new ArrayList<>();
		await().atMost(LIMIT).ignoreExceptions().untilAsserted(() -> {
			Job job = backend.create(sh("second", "echo \"$CUDA_VISIBLE_DEVICES\"").withResources(ResourceSpec.NONE.withGpu(2)))
					.block(LIMIT);
			jobs.add(job);
			second.add(job);
		});
		terminal(second.get(0));
		assertThat(Set.of(logs(second.get(0)).get(0).split(","))).containsExactlyInAnyOrder("0", "1");
	}

	@Test
	void gpusAreReturnedWhenTheJobIsTerminated() {
		LocalBackend backend = backend(List.of("0"));
		Job first = start(backend, sleeper("gpu-sleeper").withResources(ResourceSpec.NONE.withGpu(1)));
		StepVerifier.create(first.terminate()).expectComplete().verify(LIMIT);

		await().atMost(LIMIT).ignoreExceptions().untilAsserted(() ->
				jobs.add(backend.create(sh("gpu-next", "exit 0").withResources(ResourceSpec.NONE.withGpu(1))).block(LIMIT)));
	}

	@Test
	void gpusAreReturnedWhenTheCommandCannotStart() {
		LocalBackend backend = backend(List.of("0", "1"));
		StepVerifier.create(backend.create(JobSpec.of("broken", List.of(dir.resolve("nothing-here").toString()))
						.withResources(ResourceSpec.NONE.withGpu(2))))
				.expectError(IOException.class)
				.verify(LIMIT);

		Job job = start(backend, sh("after-broken", "echo \"$CUDA_VISIBLE_DEVICES\"").withResources(ResourceSpec.NONE.withGpu(2)));
		terminal(job);
		assertThat(Set.of(logs(job).get(0).split(","))).containsExactlyInAnyOrder("0", "1");
	}

	// ---- resource hints -----------------------------------------------------------------

	private Path script(String name) throws IOException {
		Path bin = Files.createDirectories(dir.resolve("bin-" + name));
		Path script = bin.resolve(name);
		Files.writeString(script, "#!/bin/sh\necho \"$@\"\n");
		Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
		return script;
	}

	@Test
	void aJavaCommandIsSizedFromTheResources() throws IOException {
		Path fakeJava = script("java");
		JobSpec spec = JobSpec.of("sized", List.of(fakeJava.toString(), "-cp", "x", "Main"))
				.withResources(ResourceSpec.NONE.withCpu(1.5).withMemory("64Mi"));
		Job job = start(backend(List.of()), spec);
		terminal(job);

		assertThat(logs(job)).containsExactly("-XX:ActiveProcessorCount=2 -XX:MaxRAM=67108864 -XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError -cp x Main");
	}

	@Test
	void otherCommandsAndUnsizedJavaAreLeftAlone() throws IOException {
		Path notJava = script("javac");
		Job other = start(backend(List.of()), JobSpec.of("other", List.of(notJava.toString(), "a", "b"))
				.withResources(ResourceSpec.NONE.withCpu(2).withMemory("1Gi")));
		Path fakeJava = script("java");
		Job unsized = start(backend(List.of()), JobSpec.of("unsized", List.of(fakeJava.toString(), "Main")));
		terminal(other);
		terminal(unsized);

		assertThat(logs(other)).containsExactly("a b");
		assertThat(logs(unsized)).containsExactly("Main");
	}

	// ---- close --------------------------------------------------------------------------

	@Test
	void closeKillsLiveJobsAndRefusesNewOnes() {
		LocalBackend backend = backend(List.of("0"));
		Job a = start(backend, sleeper("live-a"));
		Job b = start(backend, sleeper("live-b").withResources(ResourceSpec.NONE.withGpu(1)));
		Job done = start(backend, sh("already-done", "exit 0"));
		terminal(done);
		await().atMost(LIMIT).until(() -> backend.liveJobs() == 2);

		backend.close();

		assertThat(a.status().isTerminal()).isTrue();
		assertThat(b.status().isTerminal()).isTrue();
		assertThat(a.status().phase()).isEqualTo(Phase.FAILED);
		assertThat(ProcessHandle.of(a.pid().getAsLong()).map(ProcessHandle::isAlive).orElse(false)).isFalse();
		assertThat(ProcessHandle.of(b.pid().getAsLong()).map(ProcessHandle::isAlive).orElse(false)).isFalse();
		assertThat(done.status().phase()).isEqualTo(Phase.SUCCEEDED);
		assertThat(backend.liveJobs()).isZero();

		StepVerifier.create(backend.create(sh("too-late", "exit 0")))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(FiberException.class)
						.hasMessageContaining("closed").hasMessageContaining("too-late"))
				.verify(LIMIT);

		backend.close();
	}

	@Test
	void liveJobsCountsRunningJobsOnly() {
		LocalBackend backend = backend(List.of());
		Path gate = gate("count");
		Job a = start(backend, sh("count-a", waitFor(gate) + "exit 0"));
		Job b = start(backend, sh("count-b", waitFor(gate) + "exit 0"));
		assertThat(backend.liveJobs()).isEqualTo(2);

		open(gate);
		terminal(a);
		terminal(b);
		await().atMost(LIMIT).until(() -> backend.liveJobs() == 0);
		assertThat(backend.name()).isEqualTo("local");
	}

	@Test
	void createNeedsASpec() {
		assertThatThrownBy(() -> backend(List.of()).create(null)).isInstanceOf(NullPointerException.class);
	}

	// ---- provider -----------------------------------------------------------------------

	@Test
	void theProviderIsFoundAndBuildsABackendFromTheConfiguration() {
		List<BackendProvider> providers = new ArrayList<>();
		ServiceLoader.load(BackendProvider.class).forEach(providers::add);
		assertThat(providers).anySatisfy(p -> assertThat(p).isInstanceOf(LocalBackendProvider.class));

		LocalBackendProvider provider = new LocalBackendProvider();
		assertThat(provider.name()).isEqualTo("local");
		assertThat(provider.priority()).isZero();

		Path logDir = dir.resolve("provider-logs");
		FiberConfig config = FiberConfig.resolve(Map.of("log-dir", logDir.toString(), "local-gpus", "7", "terminate-grace", "1s"),
				new Properties(), Map.of(), null);
		Backend backend = provider.create(config);
		backends.add(backend);

		assertThat(backend.name()).isEqualTo("local");
		Job job = start(backend, sh("from-config", "echo \"$CUDA_VISIBLE_DEVICES\"").withResources(ResourceSpec.NONE.withGpu(1)));
		terminal(job);
		assertThat(logs(job)).containsExactly("7");
		assertThat(logDir.resolve("from-config.log")).exists();
	}
}
