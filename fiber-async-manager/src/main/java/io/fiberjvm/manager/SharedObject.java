package io.fiberjvm.manager;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import reactor.core.publisher.Mono;

import io.fiberjvm.RemoteException;
import io.fiberjvm.codec.CodecException;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.queue.QueueContext;
import io.fiberjvm.transport.Endpoint;

/**
 * What every shared-object handle is: the manager's address and the object's kind and name. It travels
 * to any job-backed process of the run, captured by a shipped lambda or target, and works there.
 */
abstract class SharedObject implements Serializable {

	private static final long serialVersionUID = 1L;

	/** How long a blocking view waits for an answer. */
	static final Duration BLOCKING_WAIT = Duration.ofMinutes(5);

	private final String manager;
	private final String address;
	private final String route;
	private final String description;
	private transient QueueContext context;

	SharedObject(ManagerSession.Shared shared, String kind, String name) {
		if (!name.matches("[A-Za-z0-9._-]{1,100}")) {
			throw new IllegalArgumentException("a shared object's name is 1 to 100 letters, digits, '.', '_' or '-'; not '" + name + "'");
		}
		this.manager = shared.manager();
		this.address = shared.address();
		this.route = shared.prefix() + kind + "/" + name + "/";
		this.description = "shared " + kind + " '" + name + "' in manager " + manager;
		this.context = shared.context();
	}

	private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
		in.defaultReadObject();
		context = QueueContext.current();
	}

	/** Runs {@code operation} on the object in the manager; a null result is an empty Mono. */
	final Mono<Object> call(String operation, Object... args) {
		return Mono.defer(() -> {
			if (context == null) {
				return Mono.error(new IllegalStateException(description + " was read outside a Fiber runtime; "
						+ "handles work in the process that made them and in job-backed processes they are shipped to"));
			}
			ShippedValues values = context.values();
			List<byte[]> encoded = new ArrayList<>(args.length);
			List<String> allow = new ArrayList<>();
			for (int i = 0; i < args.length; i++) {
				encoded.add(values.write(args[i], "argument " + i + " of " + operation + " on " + description));
				String pattern = ShippedValues.allowFor(args[i]);
				if (pattern != null && !allow.contains(pattern)) {
					allow.add(pattern);
				}
			}
			byte[] frame = CallFrames.encode(new CallFrames.Call(CallFrames.CALL, 0, 0, operation, List.of(), allow, encoded));
			return context.connectionTo(Endpoint.parse(address))
					.flatMap(connection -> connection.requestResponse(route + operation, frame))
					// Only a failure to reach the manager means it is lost; the operation's own errors pass as they are.
					.onErrorMap(error -> !(error instanceof RemoteException) && !(error instanceof CodecException)
							&& !(error instanceof io.fiberjvm.transport.FrameTooLargeException),
							error -> new ManagerLostException("cannot reach " + description + " (" + error.getMessage() + ")"))
					.flatMap(bytes -> {
						CallFrames.Answer answer = CallFrames.decodeAnswer(bytes);
						return Mono.justOrEmpty(QueueContext.resolving(context, () -> values.read(answer.bytes(),
								answer.allow() == null ? List.of() : List.of(answer.allow()), "the result of " + operation + " on " + description)));
					});
		});
	}

	@Override
	public String toString() {
		return description;
	}
}
