package io.fiberjvm.internal.runtime;

import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import io.fiberjvm.transport.Router;
import io.fiberjvm.transport.Routes;
import io.fiberjvm.transport.UnknownRouteException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** How a runtime's requests find their service: by prefix; a child's own routes for that child only. */
class ServedRoutesTest {

	private final ServedRoutes routes = new ServedRoutes();

	private static Routes answering(String route, String answer) {
		return Routes.empty().withResponse(route, bytes -> Mono.just(answer.getBytes()));
	}

	@Test
	void eachPrefixReachesItsServiceUntilItStops() {
		Disposable queue = routes.serve("fiber.queue-q1/", answering("fiber.queue-q1/size", "queue"));
		routes.serve("fiber.pool-p1/", answering("fiber.pool-p1/work", "pool"));
		Router peer = routes.forPeer(null);
		StepVerifier.create(peer.requestResponse("fiber.queue-q1/size", new byte[0]).map(String::new)).expectNext("queue").verifyComplete();
		StepVerifier.create(peer.requestResponse("fiber.pool-p1/work", new byte[0]).map(String::new)).expectNext("pool").verifyComplete();
		queue.dispose();
		StepVerifier.create(peer.requestResponse("fiber.queue-q1/size", new byte[0]))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(UnknownRouteException.class)
						.hasMessageContaining("nothing in this process serves route 'fiber.queue-q1/size'"))
				.verify();
		StepVerifier.create(peer.requestChannel("fiber.nothing/x", Flux.empty())).expectError(UnknownRouteException.class).verify();
	}

	@Test
	void aChildsOwnRoutesAreItsAloneAndNeverShadowAService() {
		routes.serve("fiber.queue-q1/", answering("fiber.queue-q1/size", "queue"));
		Router child = routes.forPeer(answering("fiber.process.target", "target"));
		StepVerifier.create(child.requestResponse("fiber.process.target", new byte[0]).map(String::new)).expectNext("target").verifyComplete();
		StepVerifier.create(child.requestResponse("fiber.queue-q1/size", new byte[0]).map(String::new)).expectNext("queue").verifyComplete();
		StepVerifier.create(routes.forPeer(null).requestResponse("fiber.process.target", new byte[0]))
				.expectError(UnknownRouteException.class).verify();
	}

	@Test
	void aPrefixOfAnotherFormOrServedTwiceIsRefused() {
		Routes none = Routes.empty();
		assertThatThrownBy(() -> routes.serve("queue/", none)).isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("'fiber.<name>/'");
		assertThatThrownBy(() -> routes.serve("fiber.Queue/", none)).isInstanceOf(IllegalArgumentException.class);
		routes.serve("fiber.m-1/", none);
		assertThatThrownBy(() -> routes.serve("fiber.m-1/", none)).isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("served already");
	}
}
