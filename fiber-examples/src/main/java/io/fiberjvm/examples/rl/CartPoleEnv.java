package io.fiberjvm.examples.rl;

import reactor.core.publisher.Mono;

/** The async face of a {@link CartPole} hosted in a manager: every call returns at once. */
public interface CartPoleEnv {

	Mono<double[]> reset();

	Mono<Step> step(int action);
}
