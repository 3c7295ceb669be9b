package io.fiberjvm.internal.pool;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import io.fiberjvm.FiberProcess;
import io.fiberjvm.ProcessFailedException;
import io.fiberjvm.ResourceSpec;
import io.fiberjvm.runtime.InProcessRuntime;

/** A process a test runs by hand: it connects when told, and exits when told or terminated. */
final class FakeProcess implements FiberProcess {

	private final String name;
	private final Sinks.Empty<Void> running = Sinks.empty();
	private final Sinks.One<Integer> exit = Sinks.one();
	volatile boolean terminated;
	private volatile boolean ended;

	FakeProcess(String name) {
		this.name = name;
	}

	/** A runtime whose every start is a new FakeProcess, kept in {@code byName} and its name added to {@code startOrder}. */
	static InProcessRuntime runtimeStarting(Map<String, FakeProcess> byName, List<String> startOrder) {
		return new InProcessRuntime(start -> Mono.fromCallable(() -> {
			FakeProcess process = new FakeProcess(start.name());
			byName.put(start.name(), process);
			startOrder.add(start.name());
			return process;
		}));
	}

	/** It connected back and its target runs. */
	void run() {
		running.tryEmitEmpty();
	}

	/** It did not connect back within the start timeout, so it was killed, as a supervisor reports it. */
	void timeOut() {
		running.tryEmitError(new ProcessFailedException(name, -1, name + " did not connect back within 60s (fiber.start-timeout); it was killed", null));
		exit(137);
	}

	/** It ends with {@code code}. */
	void exit(int code) {
		ended = true;
		exit.tryEmitValue(code);
	}

	@Override
	public String name() {
		return name;
	}

	@Override
	public String jobId() {
		return name + "-job";
	}

	@Override
	public OptionalLong pid() {
		return OptionalLong.empty();
	}

	@Override
	public ResourceSpec resources() {
		return ResourceSpec.NONE;
	}

	@Override
	public Mono<Void> onRunning() {
		return running.asMono();
	}

	@Override
	public Mono<Integer> onExit() {
		return exit.asMono();
	}

	@Override
	public Mono<Void> join() {
		return onExit().flatMap(code -> code == 0 ? Mono.<Void>empty()
				: Mono.error(new ProcessFailedException(name, code, name + " exited with code " + code, null)));
	}

	@Override
	public Mono<Void> terminate() {
		return Mono.fromRunnable(() -> {
			terminated = true;
			exit(143);
		});
	}

	@Override
	public boolean isAlive() {
		return !ended;
	}

	@Override
	public Flux<String> logs() {
		return Flux.empty();
	}
}
