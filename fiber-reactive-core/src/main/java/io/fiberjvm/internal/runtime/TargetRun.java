package io.fiberjvm.internal.runtime;

import java.util.OptionalLong;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import io.fiberjvm.FiberProcess;
import io.fiberjvm.ResourceSpec;

/**
 * One target's run in a child JVM that may run several in turn (a pool worker's), as the one who started it sees
 * it: it exits, with code 0, when its target has returned, even though the JVM stays for the next target; when
 * the target throws or the JVM dies first, with the JVM's exit code and error. Terminating it ends the JVM while
 * the target runs, and does nothing once it has ended. Its logs are the JVM's, earlier runs' lines included.
 */
final class TargetRun implements FiberProcess {

	private final String name;
	private final ProcessSupervisor jvm;
	private final Mono<Void> running;
	private final Sinks.One<Integer> exit = Sinks.one();
	private volatile boolean ended;

	TargetRun(String name, ProcessSupervisor jvm, Mono<Void> running) {
		this.name = name;
		this.jvm = jvm;
		this.running = running;
	}

	/** The target returned (code 0), or the JVM ended with {@code code} before it did. */
	void end(int code) {
		ended = true;
		exit.tryEmitValue(code);
	}

	@Override
	public String name() {
		return name;
	}

	@Override
	public String jobId() {
		return jvm.jobId();
	}

	@Override
	public OptionalLong pid() {
		return jvm.pid();
	}

	@Override
	public ResourceSpec resources() {
		return jvm.resources();
	}

	@Override
	public Mono<Void> onRunning() {
		return running;
	}

	@Override
	public Mono<Integer> onExit() {
		return exit.asMono();
	}

	@Override
	public Mono<Void> join() {
		// A run that did not return ended with its JVM, whose own join() says why.
		return onExit().flatMap(code -> code == 0 ? Mono.<Void>empty() : jvm.join(name));
	}

	@Override
	public Mono<Void> terminate() {
		return jvm.terminate(this);
	}

	@Override
	public boolean isAlive() {
		return !ended;
	}

	@Override
	public Flux<String> logs() {
		return jvm.logs();
	}

	@Override
	public String toString() {
		return "FiberProcess[" + name + ", job " + jvm.jobId() + "]";
	}
}
