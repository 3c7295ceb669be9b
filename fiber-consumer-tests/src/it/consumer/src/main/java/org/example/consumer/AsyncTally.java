package org.example.consumer;

import reactor.core.publisher.Mono;

/** The async face of a {@link Tally} in a manager. */
public interface AsyncTally {

	Mono<Integer> add(int amount);
}
