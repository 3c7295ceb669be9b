package io.fiberjvm.internal.ring;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;

import io.fiberjvm.codec.CodecException;
import io.fiberjvm.internal.frames.DoneFrame;
import io.fiberjvm.internal.frames.FrameHeaderCodec;
import io.fiberjvm.internal.frames.JoinFrame;
import io.fiberjvm.internal.frames.RosterFrame;
import io.fiberjvm.transport.Endpoint;
import io.fiberjvm.transport.Routes;

/**
 * The parent's side of a ring's rendezvous: each member opens a session on {@code fiber.ring-<id>/session}
 * and joins; once all have, each gets the roster; once all have said they are done, every session ends, so
 * members leave together and none closes its route while a peer still waits for an answer from it.
 */
final class RingCoordinator {

	private final int size;
	private final Endpoint[] members;
	// Guarded by this.
	private final List<FluxSink<byte[]>> sessions = new ArrayList<>();
	private int frameworkPort;
	private int joined;
	private int done;
	private @Nullable Throwable abandoned;

	RingCoordinator(int size) {
		this.size = size;
		this.members = new Endpoint[size];
	}

	/** The route members' sessions arrive on. */
	Routes routes(String prefix) {
		return Routes.empty().withChannel(prefix + "session", this::session);
	}

	/** Ends every session with {@code why}, and refuses later ones: the ring has ended without them. */
	void abandon(Throwable why) {
		List<FluxSink<byte[]>> ending;
		synchronized (this) {
			if (abandoned != null) {
				return;
			}
			abandoned = why;
			ending = new ArrayList<>(sessions);
			sessions.clear();
		}
		ending.forEach(sink -> sink.error(why));
	}

	private Flux<byte[]> session(Flux<byte[]> inbound) {
		return Flux.create(sink -> {
			Throwable refused;
			synchronized (this) {
				refused = abandoned;
				if (refused == null) {
					sessions.add(sink);
				}
			}
			if (refused != null) {
				sink.error(refused);
				return;
			}
			reactor.core.Disposable frames = inbound.subscribe(frame -> receive(frame, sink), error -> { }, () -> { });
			sink.onDispose(() -> {
				frames.dispose();
				synchronized (this) {
					sessions.remove(sink);
				}
			});
		});
	}

	private void receive(byte[] frame, FluxSink<byte[]> sink) {
		try {
			switch (FrameHeaderCodec.kind(frame)) {
				case JOIN -> join(JoinFrame.decode(frame));
				case DONE -> {
					DoneFrame.check(frame);
					done();
				}
				default -> throw new CodecException("a ring member sent a " + FrameHeaderCodec.kind(frame).description()
						+ " where a join or its end belongs");
			}
		}
		catch (RuntimeException e) {
			sink.error(e);
		}
	}

	private void join(JoinFrame join) {
		byte[] roster;
		List<FluxSink<byte[]>> all;
		synchronized (this) {
			if (join.rank() < 0 || join.rank() >= size || members[join.rank()] != null) {
				throw new CodecException("rank " + join.rank() + " cannot join a ring of " + size
						+ (join.rank() >= 0 && join.rank() < size ? ": it has joined already" : ""));
			}
			members[join.rank()] = join.address();
			if (join.rank() == 0) {
				frameworkPort = join.frameworkPort();
			}
			if (++joined < size) {
				return;
			}
			roster = new RosterFrame(Arrays.asList(members), frameworkPort).encode();
			all = new ArrayList<>(sessions);
		}
		all.forEach(sink -> sink.next(roster));
	}

	private void done() {
		List<FluxSink<byte[]>> all;
		synchronized (this) {
			if (++done < size) {
				return;
			}
			all = new ArrayList<>(sessions);
		}
		all.forEach(FluxSink::complete);
	}
}
