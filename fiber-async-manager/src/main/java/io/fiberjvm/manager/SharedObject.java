package io.fiberjvm.manager;

import java.io.ObjectStreamException;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import io.fiberjvm.RemoteException;
import io.fiberjvm.codec.CodecException;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.internal.LargeDecoding;
import io.fiberjvm.internal.frames.Answer;
import io.fiberjvm.internal.frames.AnswerFrame;
import io.fiberjvm.internal.frames.CallFrame;
import io.fiberjvm.transport.Endpoint;
import io.fiberjvm.transport.FrameTooLargeException;

/**
 * What every shared-object handle is: the manager's address and the object's kind and name, bound to the
 * runtime of the process holding it. It travels to any job-backed process of the run (as a {@link SharedRef}),
 * captured by a shipped lambda or target, and works there.
 */
abstract class SharedObject implements Serializable {

	private static final long serialVersionUID = 1L;

	/** How long a blocking view waits for an answer. */
	static final Duration BLOCKING_WAIT = Duration.ofMinutes(5);

	/** What {@code operation} answers, waiting at most {@link #BLOCKING_WAIT}; null when it answers nothing. */
	static <T> @Nullable T await(Mono<T> operation) {
		return operation.block(BLOCKING_WAIT);
	}

	/** What an operation that always answers something answers, waiting at most {@link #BLOCKING_WAIT}. */
	static <T> T awaitValue(Mono<T> operation) {
		T value = operation.block(BLOCKING_WAIT);
		if (value == null) {
			throw new IllegalStateException("the manager answered nothing where it always answers a value");
		}
		return value;
	}

	private final transient SharedAddress shared;
	private final String kind;
	private final String name;
	private final String route;
	private final String description;

	SharedObject(SharedAddress shared, String kind, String name) {
		if (!name.matches("[A-Za-z0-9._-]{1,100}")) {
			throw new IllegalArgumentException("a shared object's name is 1 to 100 letters, digits, '.', '_' or '-'; not '" + name + "'");
		}
		this.shared = shared;
		this.kind = kind;
		this.name = name;
		this.route = shared.prefix() + kind + "/" + name + "/";
		this.description = "shared " + kind + " '" + name + "' in manager " + shared.manager();
	}

	/** Runs {@code operation} on the object in the manager; a null result is an empty Mono. */
	final Mono<Object> call(String operation, Object... args) {
		return Mono.defer(() -> {
			ShippedValues values = shared.runtime().values();
			List<ByteBuffer> encoded = Arguments.encode(values, args, operation, List.of(), operation + " on " + description);
			byte[] frame = new CallFrame(CallFrame.Mode.CALL, 0, 0, operation, List.of(), encoded).encode();
			return shared.runtime().connectionTo(Endpoint.parse(shared.address()))
					.flatMap(connection -> connection.requestResponse(route + operation, frame))
					// Only a failure to reach the manager means it is lost; the operation's own errors pass as they are.
					.onErrorMap(error -> !(error instanceof RemoteException) && !(error instanceof CodecException)
							&& !(error instanceof FrameTooLargeException),
							error -> new ManagerLostException("cannot reach " + description + " (" + error.getMessage() + ")"))
					.flatMap(bytes -> {
						Answer answer = AnswerFrame.decode(bytes);
						if (answer.failed()) {
							return Mono.error(new CodecException("the answer to " + operation + " on " + description
									+ " arrived as an error frame; errors travel as remote exceptions"));
						}
						return LargeDecoding.mono(answer.value(),
								() -> answer.result(values, "the result of " + operation + " on " + description));
					});
		});
	}

	/** What travels in a handle's place; protected, as serialization finds it for subclasses only then. */
	protected final Object writeReplace() throws ObjectStreamException {
		return new SharedRef(shared.manager(), shared.address(), shared.prefix(), kind, name);
	}

	@Override
	public String toString() {
		return description;
	}
}
