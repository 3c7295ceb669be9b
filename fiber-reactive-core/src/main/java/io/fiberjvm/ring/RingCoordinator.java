package io.fiberjvm.ring;

import java.util.ArrayList;
import java.util.List;

import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import io.fiberjvm.codec.CodecException;
import io.fiberjvm.transport.Endpoint;
import io.fiberjvm.transport.Router;
import io.fiberjvm.transport.Routes;

/** The parent's side of a ring's rendezvous: each member joins, and every join is answered with the roster once all have. */
final class RingCoordinator {

	private final int size;
	private final Endpoint[] members;
	private int frameworkPort;
	private int joined;
	private final Sinks.One<RingFrames.Roster> roster = Sinks.one();
	private final Sinks.Empty<Void> allDone = Sinks.empty();
	private int done;

	RingCoordinator(int size) {
		this.size = size;
		this.members = new Endpoint[size];
	}

	/** Fails every join and finish still waiting: the ring has ended without them. */
	void abandon(Throwable why) {
		roster.tryEmitError(why);
		allDone.tryEmitError(why);
	}

	Router router(String prefix) {
		return Routes.empty().withResponse(prefix + "done", bytes -> {
			// Members leave together, so none closes its route while a peer still waits for an answer from it.
			boolean last;
			synchronized (this) {
				last = ++done == size;
			}
			if (last) {
				allDone.tryEmitEmpty();
			}
			return allDone.asMono().thenReturn(new byte[0]);
		}).withResponse(prefix + "join", bytes -> {
			RingFrames.Join join = RingFrames.Join.decode(bytes);
			RingFrames.Roster complete = null;
			synchronized (this) {
				if (join.rank() < 0 || join.rank() >= size || members[join.rank()] != null) {
					throw new CodecException("rank " + join.rank() + " cannot join a ring of " + size
							+ (join.rank() >= 0 && join.rank() < size ? ": it has joined already" : ""));
				}
				members[join.rank()] = join.address();
				if (join.rank() == 0) {
					frameworkPort = join.frameworkPort();
				}
				if (++joined == size) {
					complete = new RingFrames.Roster(List.copyOf(new ArrayList<>(List.of(members))), frameworkPort);
				}
			}
			if (complete != null) {
				roster.tryEmitValue(complete);
			}
			return roster.asMono().map(RingFrames.Roster::encode);
		});
	}
}
