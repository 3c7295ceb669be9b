package io.fiberjvm.ring;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.net.ServerSocket;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.MDC;
import reactor.core.Disposable;

import io.fiberjvm.FiberRunnable;
import io.fiberjvm.LogKeys;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.config.ConfigKeys;
import io.fiberjvm.queue.QueueContext;
import io.fiberjvm.transport.Connection;
import io.fiberjvm.transport.Endpoint;
import io.fiberjvm.transport.Routes;

/**
 * What each ring member's process runs: it serves its ring route, joins at the parent (which answers
 * with every member's address once all have joined), then runs the initializer and the target with
 * its {@link MemberContext}. The user's functions travel as bytes with their own allow-list patterns,
 * as a pool's do.
 */
final class RingMember implements FiberRunnable {

	private static final long serialVersionUID = 1L;

	private final String ringId;
	private final int rank;
	private final int size;
	private final String parent;
	private final byte[] initializer;
	private final byte[] target;
	private final List<String> allow;
	private final long collectiveTimeoutMillis;
	private transient QueueContext context;

	RingMember(String ringId, int rank, int size, String parent, byte[] initializer, byte[] target, List<String> allow,
			long collectiveTimeoutMillis) {
		this.collectiveTimeoutMillis = collectiveTimeoutMillis;
		this.ringId = ringId;
		this.rank = rank;
		this.size = size;
		this.parent = parent;
		this.initializer = initializer;
		this.target = target;
		this.allow = List.copyOf(allow);
	}

	static String prefix(String ringId) {
		return "fiber.ring-" + ringId + "/";
	}

	private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
		in.defaultReadObject();
		// The runtime reading this target is the member's own.
		context = QueueContext.current();
	}

	@Override
	public void run() {
		if (context == null) {
			throw new IllegalStateException("a ring member runs only in a job-backed process its ring started");
		}
		MDC.put(LogKeys.RANK, Integer.toString(rank));
		ShippedValues values = context.values();
		RingTarget init = initializer == null ? null
				: QueueContext.resolving(context, () -> values.readFunction(initializer, allow, RingTarget.class, "the ring's initializer"));
		RingTarget main = QueueContext.resolving(context, () -> values.readFunction(target, allow, RingTarget.class, "the ring's target"));
		Mailbox mailbox = new Mailbox();
		String route = prefix(ringId) + "data";
		Disposable served = context.serve(prefix(ringId), Routes.empty().withResponse(route, frame -> {
			RingFrames.deliver(frame, mailbox, size);
			return reactor.core.publisher.Mono.just(new byte[0]);
		}));
		try {
			Endpoint self = context.localAddress();
			RingFrames.Join join = new RingFrames.Join(rank, self, rank == 0 ? freePort() : 0);
			Connection toParent = context.connectionTo(Endpoint.parse(parent)).block(context.config().get(ConfigKeys.START_TIMEOUT));
			byte[] answer = toParent.requestResponse(prefix(ringId) + "join", join.encode())
					.block(context.config().get(ConfigKeys.START_TIMEOUT).multipliedBy(2));
			RingFrames.Roster roster = RingFrames.Roster.decode(answer);
			Map<String, String> environment = new LinkedHashMap<>();
			environment.put("MASTER_ADDR", roster.members().get(0).host());
			environment.put("MASTER_PORT", Integer.toString(roster.frameworkPort()));
			environment.put("RANK", Integer.toString(rank));
			environment.put("WORLD_SIZE", Integer.toString(size));
			environment.forEach(System::setProperty);
			MemberContext ring = new MemberContext(rank, size, route, roster.members(), java.util.Collections.unmodifiableMap(environment),
					context, mailbox, java.time.Duration.ofMillis(collectiveTimeoutMillis));
			if (init != null) {
				init.run(ring);
			}
			main.run(ring);
			toParent.requestResponse(prefix(ringId) + "done", new byte[0]).block();
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
