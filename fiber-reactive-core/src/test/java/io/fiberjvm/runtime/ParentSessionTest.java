package io.fiberjvm.runtime;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Sinks;

import io.fiberjvm.FiberException;
import io.fiberjvm.transport.InboundReader;
import io.fiberjvm.transport.Routes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** A child's session with its parent's service: frames both ways, demand crossing, one end. */
class ParentSessionTest {

	private static final String ROUTE = "fiber.test/session";
	private static final Duration WAIT = Duration.ofSeconds(10);

	/** Frames the parent sends down. */
	private final Sinks.Many<byte[]> down = Sinks.many().unicast().onBackpressureBuffer();
	/** Frames the child sent up, as text, and whether the child ended them. */
	private final List<String> up = new CopyOnWriteArrayList<>();
	private volatile boolean upEnded;
	/** Frames the child asked for. */
	private final AtomicLong requested = new AtomicLong();
	private final LoopbackConnection parent = new LoopbackConnection(Routes.empty().withChannel(ROUTE, inbound -> {
		inbound.subscribe(frame -> up.add(text(frame)), error -> { }, () -> upEnded = true);
		return down.asFlux().doOnRequest(requested::addAndGet);
	}));

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private static String text(byte[] frame) {
		return new String(frame, StandardCharsets.UTF_8);
	}

	@Test
	void framesDownWaitInTheInboxAndOnlyAsManyAsAskedForAreRequested() {
		ParentSession<byte[]> session = ParentSession.open(parent, ROUTE, "the test", 2);
		await().atMost(WAIT).until(() -> requested.get() == 2);
		down.tryEmitNext(bytes("a"));
		down.tryEmitNext(bytes("b"));
		assertThat(text(session.take())).isEqualTo("a");
		session.request(1);
		await().atMost(WAIT).until(() -> requested.get() == 3);
		assertThat(text(session.take(WAIT))).isEqualTo("b");
		session.send(bytes("x"));
		session.send(bytes("y"));
		await().atMost(WAIT).until(() -> up.equals(List.of("x", "y")));
		down.tryEmitComplete();
		assertThat(session.take()).isNull();
		assertThat(session.take()).as("it stays ended").isNull();
		session.close();
		await().atMost(WAIT).until(() -> upEnded);
		session.send(bytes("late"));
		assertThat(up).as("a frame after the end is dropped").containsExactly("x", "y");
	}

	@Test
	void anErrorFromTheParentFailsTakeNamingTheServiceAndTheCause() {
		ParentSession<byte[]> session = ParentSession.open(parent, ROUTE, "the pool", 1);
		down.tryEmitError(new IllegalStateException("no such worker"));
		assertThatThrownBy(session::take).isInstanceOf(FiberException.class)
				.hasMessage("the pool's session ended with an error: no such worker");
		assertThatThrownBy(session::take).as("it stays failed").hasMessageContaining("no such worker");
	}

	@Test
	void aTakeThatWaitsTooLongSaysSo() {
		ParentSession<byte[]> session = ParentSession.open(parent, ROUTE, "the ring", 1);
		assertThatThrownBy(() -> session.take(Duration.ofMillis(50))).isInstanceOf(FiberException.class)
				.hasMessage("the ring did not answer within PT0.05S");
	}

	@Test
	void aHandlerGetsFramesAsTheyComeAndAwaitReturnsWhenTheParentEnds() {
		List<String> handled = new CopyOnWriteArrayList<>();
		ParentSession<byte[]> session = ParentSession.open(parent, ROUTE, "the manager", frame -> handled.add(text(frame)));
		for (int i = 0; i < 100; i++) {
			down.tryEmitNext(bytes("call " + i));
		}
		down.tryEmitComplete();
		session.await();
		assertThat(handled).hasSize(100).startsWith("call 0").endsWith("call 99");
		assertThat(requested.get()).as("as fast as they come").isEqualTo(Long.MAX_VALUE);
		assertThatThrownBy(session::take).isInstanceOf(IllegalStateException.class).hasMessageContaining("handler");
	}

	@Test
	void aHandlerGetsWhatItsReaderMakesOfEachFrame() {
		List<String> handled = new CopyOnWriteArrayList<>();
		InboundReader<String> shouting = InboundReader.bytes().map(frame -> text(frame).toUpperCase(Locale.ROOT));
		ParentSession<String> session = ParentSession.open(parent, ROUTE, "the manager", shouting, handled::add);
		down.tryEmitNext(bytes("call"));
		down.tryEmitComplete();
		session.await();
		assertThat(handled).containsExactly("CALL");
	}

	@Test
	void aHandlerThatThrowsEndsTheSessionWithItsError() {
		ParentSession<byte[]> session = ParentSession.open(parent, ROUTE, "the manager", frame -> {
			throw new IllegalArgumentException("malformed call");
		});
		down.tryEmitNext(bytes("?"));
		assertThatThrownBy(session::await).isInstanceOf(FiberException.class)
				.hasMessage("the manager's session ended with an error: malformed call");
	}
}
