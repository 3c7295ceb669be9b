package io.fiberjvm.it;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.queue.FiberQueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A run with TLS forced on, whose parent listens on a host name (which has no local socket), so its children reach it
 * over TCP with TLS: processes, pools and queues work as without it, and the children are told to use it.
 */
class TlsRunTest {

	private static final Duration LONG = Duration.ofSeconds(120);

	private Fiber fiber;

	@BeforeEach
	void open() {
		fiber = Fiber.builder().set("tls", "on").set("host", "localhost").open();
	}

	@AfterEach
	void close() {
		fiber.close();
	}

	@Test
	void processesPoolsAndQueuesWorkOverTls() {
		FiberProcess child = fiber.process(() -> System.out.println("tls=" + System.getenv("FIBER_TLS"))).name("told").start().block(LONG);
		child.join().block(LONG);
		assertThat(child.logs().collectList().block(LONG)).contains("tls=on");
		List<Integer> squares = fiber.pool(2).open().map((FiberFunction<Integer, Integer>) x -> x * x, Flux.range(0, 50))
				.collectList().block(LONG);
		assertThat(squares).hasSize(50).contains(49 * 49);
		FiberQueue<String> queue = fiber.queue(String.class);
		FiberProcess producer = fiber.process(() -> queue.put("sealed").block()).name("producer").start().block(LONG);
		assertThat(queue.take().block(LONG)).isEqualTo("sealed");
		producer.join().block(LONG);
	}

	@Test
	void aSettingOtherThanAutoOnOrOffIsRefusedNamingTheKey() {
		assertThatThrownBy(() -> Fiber.builder().set("tls", "maybe").open()).hasMessageContaining("tls").hasMessageContaining("auto, on, off");
	}
}
