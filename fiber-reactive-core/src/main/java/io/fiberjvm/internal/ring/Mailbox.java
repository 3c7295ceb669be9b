package io.fiberjvm.internal.ring;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import io.fiberjvm.codec.CodecException;
import io.fiberjvm.internal.frames.MessageFrame;

/**
 * What a member has received from its peers, by collective, step and sender. A message may arrive before its
 * collective is called here (a faster neighbour); it is kept until taken.
 */
final class Mailbox {

	private record Key(int seq, int step, int from) {
	}

	private final Map<Key, Sinks.One<MessageFrame>> slots = new ConcurrentHashMap<>();
	private final int size;

	/** The mailbox of a member of a ring of {@code size}. */
	Mailbox(int size) {
		this.size = size;
	}

	/** A message from a peer; one naming a rank the ring does not have, or one that came before, is a {@link CodecException}. */
	void deliver(MessageFrame message) {
		if (message.from() >= size) {
			throw new CodecException("a ring message names collective " + message.seq() + ", step " + message.step() + " and rank "
					+ message.from() + ", which a ring of " + size + " does not have");
		}
		Key key = new Key(message.seq(), message.step(), message.from());
		Sinks.One<MessageFrame> slot = slots.computeIfAbsent(key, k -> Sinks.one());
		if (slot.tryEmitValue(message).isFailure()) {
			throw new CodecException("a ring message from rank " + message.from() + " for collective #" + message.seq() + ", step "
					+ message.step() + " came twice");
		}
	}

	/** The message, once it has come. */
	Mono<MessageFrame> take(int seq, int step, int from) {
		Key key = new Key(seq, step, from);
		Sinks.One<MessageFrame> slot = slots.computeIfAbsent(key, k -> Sinks.one());
		return slot.asMono().doOnNext(message -> slots.remove(key, slot));
	}
}
