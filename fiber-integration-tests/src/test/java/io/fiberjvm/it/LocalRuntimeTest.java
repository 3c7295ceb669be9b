package io.fiberjvm.it;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberProcess;

/** The runtime contract on the local backend: workers are child JVMs, lost by SIGKILL. */
class LocalRuntimeTest implements RuntimeContract {

	private final List<Fiber> fibers = new CopyOnWriteArrayList<>();

	@Override
	public Fiber openFiber(java.util.Map<String, String> settings) {
		io.fiberjvm.FiberBuilder builder = Fiber.builder().backend("local");
		Fiber fiber = RuntimeContract.with(builder, settings).open();
		fibers.add(fiber);
		return fiber;
	}

	@Override
	public void loseWorker(Fiber fiber, FiberProcess worker) {
		worker.pid().ifPresent(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
	}

	@AfterEach
	void close() {
		fibers.forEach(Fiber::close);
	}
}
