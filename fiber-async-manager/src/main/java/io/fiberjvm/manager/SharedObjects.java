package io.fiberjvm.manager;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;
import reactor.core.publisher.SignalType;
import reactor.core.scheduler.Schedulers;

import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.internal.frames.AnswerFrame;
import io.fiberjvm.internal.frames.CallFrame;
import io.fiberjvm.transport.Routes;
import io.fiberjvm.transport.UnknownRouteException;

/**
 * The shared objects of one manager, in its process, and the routes every process of the run reaches
 * them on: {@code fiber.shared-<manager>/<kind>/<name>/<operation>}, request-response. Each operation
 * runs under its object's lock, so it is atomic; a sequence of operations is not.
 */
final class SharedObjects {

	private final String prefix;
	private final ShippedValues values;
	private final Map<String, Object> objects = new ConcurrentHashMap<>();
	private final SharedCallCounts counts;

	SharedObjects(String prefix, ShippedValues values, SharedCallCounts counts) {
		this.prefix = prefix;
		this.values = values;
		this.counts = counts;
	}

	/** Every shared object's operations, as one family of routes under the manager's prefix. */
	Routes routes() {
		return Routes.empty().withResponses(prefix, this::request);
	}

	/** A queue's items and the takers waiting for one. */
	private static final class QueueState {
		final ArrayDeque<Object> items = new ArrayDeque<>();
		final ArrayDeque<MonoSink<Object>> takers = new ArrayDeque<>();
	}

	/** A single value, or a counter. */
	private static final class ValueState {
		@Nullable Object value;
	}

	/** One operation, {@code <kind>/<name>/<operation>} under the prefix. */
	private Mono<byte[]> request(String path, byte[] data) {
		return Mono.defer(() -> {
			long arrived = System.nanoTime();
			// Every call is counted once it ends, a take its caller gave up on included.
			return serve(path, data).doFinally(signal -> counts.served(arrived, signal == SignalType.ON_ERROR));
		});
	}

	private Mono<byte[]> serve(String path, byte[] data) {
		return Mono.defer(() -> {
			String[] parts = path.split("/", -1);
			if (parts.length != 3) {
				return Mono.error(new UnknownRouteException("no shared object at '" + prefix + path + "'"));
			}
			String kind = parts[0];
			String op = parts[2];
			CallFrame call = CallFrame.decode(data);
			@Nullable Object[] args = new Object[call.args().size()];
			for (int i = 0; i < args.length; i++) {
				args[i] = values.read(call.args().get(i), "argument " + i + " of " + kind + " " + parts[1] + "." + op);
			}
			String key = kind + "/" + parts[1];
			// Off the network thread: a shipped function (compute, update) may take its time.
			return switch (kind) {
				case "map" -> Mono.fromCallable(() -> map(state(key, LinkedHashMap::new), op, args));
				case "list" -> Mono.fromCallable(() -> list(state(key, ArrayList::new), op, args));
				case "value" -> Mono.fromCallable(() -> value(state(key, ValueState::new), op, args, false));
				case "counter" -> Mono.fromCallable(() -> value(state(key, ValueState::new), op, args, true));
				case "queue" -> queue(state(key, QueueState::new), op, args);
				default -> Mono.error(new UnknownRouteException("no kind of shared object called '" + kind + "'"));
			};
		}).subscribeOn(Schedulers.boundedElastic());
	}

	/** Encodes under the object's lock, so the copy that travels is never torn by a concurrent change. */
	private byte[] encode(@Nullable Object value) {
		return AnswerFrame.encode(AnswerFrame.answer(0, values, value, "the result"));
	}

	@SuppressWarnings("unchecked")
	private <S> S state(String key, java.util.function.Supplier<S> create) {
		return (S) objects.computeIfAbsent(key, k -> create.get());
	}

	@SuppressWarnings("unchecked")
	private byte[] map(Map<Object, Object> map, String op, @Nullable Object[] args) {
		synchronized (map) {
			return encode(switch (op) {
				case "get" -> map.get(args[0]);
				case "put" -> map.put(args[0], Objects.requireNonNull(args[1], "a shared map holds no null values"));
				case "putIfAbsent" -> map.putIfAbsent(args[0], Objects.requireNonNull(args[1], "a shared map holds no null values"));
				case "remove" -> map.remove(args[0]);
				case "containsKey" -> map.containsKey(args[0]);
				case "size" -> map.size();
				case "snapshot" -> new LinkedHashMap<>(map);
				case "compute" -> map.compute(args[0], (BiFunction<Object, Object, Object>) args[1]);
				case "clear" -> {
					map.clear();
					yield null;
				}
				default -> throw new UnsupportedOperationException("a shared map has no operation '" + op + "'");
			});
		}
	}

	private static int index(@Nullable Object arg) {
		return (Integer) Objects.requireNonNull(arg, "an index");
	}

	private byte[] list(List<Object> list, String op, @Nullable Object[] args) {
		synchronized (list) {
			return encode(switch (op) {
				case "add" -> {
					list.add(Objects.requireNonNull(args[0], "a shared list holds no null items"));
					yield list.size();
				}
				case "get" -> list.get(index(args[0]));
				case "set" -> list.set(index(args[0]), Objects.requireNonNull(args[1], "a shared list holds no null items"));
				case "remove" -> list.remove(index(args[0]));
				case "size" -> list.size();
				case "snapshot" -> new ArrayList<>(list);
				default -> throw new UnsupportedOperationException("a shared list has no operation '" + op + "'");
			});
		}
	}

	@SuppressWarnings("unchecked")
	private byte[] value(ValueState state, String op, @Nullable Object[] args, boolean counter) {
		synchronized (state) {
			if (counter && state.value == null) {
				state.value = 0L;
			}
			return encode(switch (op) {
				case "get" -> state.value;
				case "set" -> {
					Object previous = state.value;
					state.value = args[0];
					yield previous;
				}
				case "compareAndSet" -> {
					boolean matches = Objects.equals(state.value, args[0]);
					if (matches) {
						state.value = args[1];
					}
					yield matches;
				}
				case "update" -> {
					state.value = ((Function<@Nullable Object, @Nullable Object>) Objects.requireNonNull(args[0], "a function"))
							.apply(state.value);
					yield state.value;
				}
				case "addAndGet" -> {
					state.value = (Long) Objects.requireNonNull(state.value, "a counter's value") + (Long) Objects.requireNonNull(args[0], "a delta");
					yield state.value;
				}
				default -> throw new UnsupportedOperationException("a shared " + (counter ? "counter" : "value")
						+ " has no operation '" + op + "'");
			});
		}
	}

	/**
	 * A put hands its item to the longest-waiting taker under the queue's lock; a taker that went away
	 * (cancelled, or its request ended) has been removed under the same lock, so no item goes to it. An
	 * item already sent to a taker whose process then dies is lost with it: delivery is at most once.
	 */
	private Mono<byte[]> queue(QueueState queue, String op, @Nullable Object[] args) {
		return switch (op) {
			case "put" -> Mono.fromCallable(() -> {
				Object item = Objects.requireNonNull(args[0], "a shared queue holds no null items");
				synchronized (queue) {
					// A taker that went away was removed under this lock, so the first one left is live.
					MonoSink<Object> taker = queue.takers.poll();
					if (taker != null) {
						taker.success(encode(item));
						return encode(null);
					}
					queue.items.add(item);
					return encode(null);
				}
			});
			case "take" -> Mono.<Object>create(sink -> {
				synchronized (queue) {
					Object item = queue.items.poll();
					if (item != null) {
						sink.success(encode(item));
						return;
					}
					queue.takers.add(sink);
					sink.onCancel(() -> {
						synchronized (queue) {
							queue.takers.remove(sink);
						}
					});
				}
			}).cast(byte[].class);
			case "poll" -> Mono.fromCallable(() -> {
				synchronized (queue) {
					return encode(queue.items.poll());
				}
			});
			case "size" -> Mono.fromCallable(() -> {
				synchronized (queue) {
					return encode(queue.items.size());
				}
			});
			default -> Mono.error(new UnsupportedOperationException("a shared queue has no operation '" + op + "'"));
		};
	}
}
