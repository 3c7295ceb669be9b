package io.fiberjvm.internal.share;

import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.fiberjvm.FiberException;
import io.fiberjvm.RemoteException;
import io.fiberjvm.Shared;
import io.fiberjvm.codec.CodecException;
import io.fiberjvm.config.ConfigKeys;
import io.fiberjvm.internal.LargeDecoding;
import io.fiberjvm.internal.frames.DropFrame;
import io.fiberjvm.internal.frames.FetchFrame;
import io.fiberjvm.internal.frames.ValueFrame;
import io.fiberjvm.runtime.RuntimeContext;
import io.fiberjvm.transport.Endpoint;
import io.fiberjvm.transport.InboundReader;
import io.fiberjvm.transport.Outbound;
import io.fiberjvm.transport.Routes;

/**
 * One runtime's shared values: those it shared (their bytes, served to each JVM that fetches them, and who
 * fetched them), and its copies of values other runtimes shared, fetched once and kept until they are released.
 */
public final class SharedValues implements Disposable {

	private static final SecureRandom RANDOM = new SecureRandom();

	private static final String PREFIX = "fiber.value/";
	private static final String FETCH = PREFIX + "fetch";
	private static final String DROP = PREFIX + "drop";

	private final RuntimeContext runtime;
	private final Map<String, Hosted> hosted = new ConcurrentHashMap<>();
	private final Map<String, Mono<Object>> copies = new ConcurrentHashMap<>();
	private volatile @Nullable Disposable served;
	private boolean disposed;

	/** A value this runtime shared: its frame, and where the runtimes that fetched it listen. */
	private record Hosted(byte[] frame, Set<String> fetchers, AtomicInteger fetches) {
	}

	private SharedValues(RuntimeContext runtime) {
		this.runtime = runtime;
	}

	/** The shared values of {@code runtime}, made and served on first use. */
	public static SharedValues of(RuntimeContext runtime) {
		SharedValues values = runtime.service(SharedValues.class, SharedValues::new);
		if (values.served == null) {
			values.serveOnce();
		}
		return values;
	}

	/** Serves the routes, once: the instance two threads may each make first is not the one kept, so not in the constructor. */
	private synchronized void serveOnce() {
		if (served == null && !disposed) {
			served = runtime.serve(PREFIX, Routes.empty()
					.withWrittenChannel(FETCH, InboundReader.bytes(), requests -> requests.next().flatMap(this::serve))
					.withFireAndForget(DROP, frame -> Mono.fromRunnable(() -> copies.remove(DropFrame.decode(frame)))));
		}
	}

	/** Shares {@code value}: its bytes are made now, so a value that cannot travel is refused here. */
	public <T> Shared<T> share(T value) {
		Objects.requireNonNull(value, "value");
		ByteBuffer bytes = runtime.values().writeAfter(ValueFrame.ROOM, value, "the shared value");
		byte[] frame = ValueFrame.encode(Objects.requireNonNull(bytes, "the shared value's bytes"));
		String id = "v" + Long.toString(RANDOM.nextLong() >>> 1, 36);
		hosted.put(id, new Hosted(frame, ConcurrentHashMap.newKeySet(), new AtomicInteger()));
		copies.put(id, Mono.just(value));
		return handle(new SharedRef(listeningAddress().toString(), id));
	}

	/** The handle {@code ref} stands for, in this runtime. */
	<T> Shared<T> handle(SharedRef ref) {
		return new SharedHandle<>(ref, this);
	}

	/** This runtime's copy of the value, fetched the first time it is asked for; a failed fetch is tried again next time. */
	Mono<Object> value(SharedRef ref) {
		return copies.computeIfAbsent(ref.id, id -> Mono.defer(() -> fetch(ref)).cacheInvalidateIf(value -> false));
	}

	int fetches(String id) {
		Hosted value = hosted.get(id);
		return value == null ? 0 : value.fetches.get();
	}

	/** In the owner, forgets the bytes and tells each fetcher to drop its copy; elsewhere drops this copy. */
	Mono<Void> release(String id) {
		copies.remove(id);
		Hosted value = hosted.remove(id);
		if (value == null) {
			return Mono.empty();
		}
		List<String> fetchers;
		synchronized (value) {
			// A fetch that found the value before it was removed has added its fetcher by now.
			fetchers = List.copyOf(value.fetchers);
		}
		// A fetcher that is gone has nothing left to drop.
		return Flux.fromIterable(fetchers)
				.flatMap(address -> runtime.connectionTo(Endpoint.parse(address))
						.flatMap(connection -> connection.fireAndForget(DROP, DropFrame.encode(id)))
						.onErrorResume(error -> Mono.empty()))
				.then();
	}

	/**
	 * The value, fetched over a request-channel whose one answer is its frame, of any size: the transport brings it
	 * in parts as they are taken, and a large array of numbers or bytes is filled from them as they arrive.
	 */
	private Mono<Object> fetch(SharedRef ref) {
		return runtime.address().flatMap(here -> runtime.connectionTo(Endpoint.parse(ref.owner))
				.flatMap(connection -> connection.requestChannel(FETCH, Outbound.of(new FetchFrame(ref.id, here.toString()).encode()),
						Flux.empty(), ValueFrame.reader(runtime.values())).next())
				.switchIfEmpty(Mono.error(() -> new CodecException("shared value " + ref.id + ": its owner answered with nothing")))
				// The owner's own refusal says what happened; anything else is said with the value and where it lives.
				.onErrorMap(error -> !(error instanceof RemoteException), error -> new FiberException("cannot fetch shared value "
						+ ref.id + " from " + ref.owner + ", the JVM that shared it: " + error.getMessage(), error))
				.flatMap(arrived -> {
					Object read = arrived.read();
					if (read != null) {
						return Mono.just(read);
					}
					ByteBuffer bytes = ValueFrame.decode(Objects.requireNonNull(arrived.whole()));
					// Decoding a large value takes a while: not on the connection's thread.
					return LargeDecoding.mono(bytes, () -> {
						Object value = runtime.values().read(bytes, "shared value " + ref.id);
						if (value == null) {
							throw new CodecException("shared value " + ref.id + " arrived as null");
						}
						return value;
					});
				}));
	}

	/** The one answer to {@code request}: the value's frame, sent from where it lies. */
	private Mono<Outbound> serve(byte[] request) {
		FetchFrame fetch = FetchFrame.decode(request);
		Hosted value = hosted.get(fetch.id());
		if (value != null) {
			synchronized (value) {
				if (hosted.get(fetch.id()) == value) {
					value.fetchers.add(fetch.requester());
					value.fetches.incrementAndGet();
				}
				else {
					value = null;
				}
			}
		}
		if (value == null) {
			return Mono.error(new FiberException("shared value " + fetch.id() + " was released by the JVM that shared it"
					+ " (or never shared there); share it again"));
		}
		return Mono.just(Outbound.of(value.frame));
	}

	private Endpoint listeningAddress() {
		Duration timeout = runtime.config().get(ConfigKeys.START_TIMEOUT);
		return Objects.requireNonNull(runtime.address().block(timeout), "address");
	}

	@Override
	public synchronized void dispose() {
		disposed = true;
		if (served != null) {
			served.dispose();
		}
		hosted.clear();
		copies.clear();
	}

	@Override
	public synchronized boolean isDisposed() {
		return disposed;
	}
}
