package io.fiberjvm.internal.ring;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.fiberjvm.FiberException;
import io.fiberjvm.LogKeys;
import io.fiberjvm.codec.CodecException;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.config.ConfigKeys;
import io.fiberjvm.internal.frames.DoneFrame;
import io.fiberjvm.internal.frames.EmptyFrame;
import io.fiberjvm.internal.frames.JoinFrame;
import io.fiberjvm.internal.frames.RosterFrame;
import io.fiberjvm.internal.frames.MessageFrame;
import io.fiberjvm.ring.RingTarget;
import io.fiberjvm.runtime.ParentSession;
import io.fiberjvm.runtime.ProcessTarget;
import io.fiberjvm.runtime.RuntimeContext;
import io.fiberjvm.transport.Endpoint;
import io.fiberjvm.transport.Routes;

/**
 * What each ring member's process runs: it serves its ring route, joins at the parent through a session
 * (which brings every member's address once all have joined), runs the initializer and the target with its
 * {@link MemberContext}, then says it is done and waits for the others. The user's functions travel as bytes
 * with their own allow-list patterns, as a pool's do.
 */
final class RingMember implements ProcessTarget {

	private static final long serialVersionUID = 1L;

	private final String ringId;
	private final int rank;
	private final int size;
	private final byte @Nullable [] initializer;
	private final byte[] target;
	private final List<String> allow;
	private final long collectiveTimeoutMillis;

	RingMember(String ringId, int rank, int size, byte @Nullable [] initializer, byte[] target, List<String> allow,
			long collectiveTimeoutMillis) {
		this.ringId = ringId;
		this.rank = rank;
		this.size = size;
		this.initializer = initializer;
		this.target = target;
		this.allow = List.copyOf(allow);
		this.collectiveTimeoutMillis = collectiveTimeoutMillis;
	}

	static String prefix(String ringId) {
		return "fiber.ring-" + ringId + "/";
	}

	@Override
	public void run(RuntimeContext runtime) {
		Endpoint parent = runtime.parentAddress()
				.orElseThrow(() -> new IllegalStateException("a ring member runs only in a job-backed process its ring started"));
		MDC.put(LogKeys.RANK, Integer.toString(rank));
		ShippedValues values = runtime.values();
		RingTarget init = initializer == null ? null : values.readFunction(initializer, allow, RingTarget.class, "the ring's initializer");
		RingTarget main = values.readFunction(target, allow, RingTarget.class, "the ring's target");
		Mailbox mailbox = new Mailbox(size);
		String route = prefix(ringId) + "data";
		Disposable served = runtime.serve(prefix(ringId), Routes.empty()
				.withResponse(route, frame -> Mono.fromCallable(() -> {
					mailbox.deliver(MessageFrame.decode(frame));
					return EmptyFrame.encode();
				}))
				.withChannel(route, MessageFrame.reader(values),
						messages -> messages.doOnNext(mailbox::deliver).thenMany(Flux.empty())));
		Duration timeout = runtime.config().get(ConfigKeys.START_TIMEOUT);
		try {
			Endpoint self = Objects.requireNonNull(runtime.address().block(timeout), "this member's address");
			ParentSession<byte[]> session = ParentSession.open(Objects.requireNonNull(runtime.connectionTo(parent).block(timeout),
					"a connection to the ring's parent"), prefix(ringId) + "session", "the ring", 1);
			session.send(new JoinFrame(rank, self, rank == 0 ? freePort() : 0).encode());
			// Every member must be placed and started first: one may wait for a machine as long as pending-timeout.
			byte[] answer = session.take(timeout.multipliedBy(2).plus(runtime.config().get(ConfigKeys.PENDING_TIMEOUT)));
			if (answer == null) {
				throw new FiberException("the ring ended before rank " + rank + " had every member's address");
			}
			RosterFrame roster = RosterFrame.decode(answer);
			if (roster.members().size() != size) {
				throw new CodecException("the ring's roster names " + roster.members().size() + " members; rank " + rank
						+ " is one of " + size);
			}
			Map<String, String> environment = new LinkedHashMap<>();
			environment.put("MASTER_ADDR", roster.members().get(0).host());
			environment.put("MASTER_PORT", Integer.toString(roster.frameworkPort()));
			environment.put("RANK", Integer.toString(rank));
			environment.put("WORLD_SIZE", Integer.toString(size));
			environment.forEach(System::setProperty);
			MemberContext ring = new MemberContext(rank, size, route, roster.members(), Collections.unmodifiableMap(environment),
					runtime, mailbox, Duration.ofMillis(collectiveTimeoutMillis));
			if (init != null) {
				init.run(ring);
			}
			main.run(ring);
			// Members leave together: the parent ends every session once all are done.
			session.send(DoneFrame.encode());
			session.request(1);
			if (session.take() != null) {
				throw new CodecException("the ring's parent sent more than the roster");
			}
			session.close();
		}
		catch (RuntimeException e) {
			throw e;
		}
		catch (Exception e) {
			throw new IllegalStateException("rank " + rank + ": " + e.getMessage(), e);
		}
		finally {
			served.dispose();
		}
	}

	/** A port free on this machine now, for a framework's rendezvous (MASTER_PORT). */
	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException e) {
			throw new IllegalStateException("rank 0 found no free port for MASTER_PORT: " + e.getMessage(), e);
		}
	}
}
