package io.fiberjvm.manager;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.ResourceSpec;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.internal.Deadlines;
import io.fiberjvm.runtime.RuntimeContext;

/**
 * A manager about to be started: registrations and options accumulate on it, {@link #start()} runs it.
 *
 * <p>Immutable: each option returns a new call, so one configured call can start many managers.
 */
public final class ManagerCall {

	private static final AtomicLong NAMES = new AtomicLong();

	private final RuntimeContext runtime;
	private final Map<String, Registration> registrations;
	private final @Nullable String name;
	private final ResourceSpec resources;
	/** Each call's deadline, in nanoseconds; 0 for none. */
	private final long timeoutNanos;
	private final ManagerRestarts restarts;

	private ManagerCall(RuntimeContext runtime, Map<String, Registration> registrations, @Nullable String name, ResourceSpec resources,
			long timeoutNanos, ManagerRestarts restarts) {
		this.runtime = runtime;
		this.registrations = registrations;
		this.name = name;
		this.resources = resources;
		this.timeoutNanos = timeoutNanos;
		this.restarts = restarts;
	}

	static ManagerCall of(Fiber fiber) {
		return new ManagerCall(Objects.requireNonNull(fiber, "fiber").runtime(), Map.of(), null, ResourceSpec.NONE, 0,
				ManagerRestarts.none());
	}

	/**
	 * Lets the manager create objects of {@code implementation} behind proxies of {@code asyncInterface}.
	 *
	 * @throws IllegalArgumentException naming the method, when a method of the interface does not return
	 *         Mono or Flux, or the class has no public method to match it
	 */
	public <A> ManagerCall register(Class<A> asyncInterface, Class<?> implementation) {
		Registration registration = Registration.check(asyncInterface, implementation);
		Map<String, Registration> more = new LinkedHashMap<>(registrations);
		more.put(registration.asyncInterface(), registration);
		return new ManagerCall(runtime, Map.copyOf(more), name, resources, timeoutNanos, restarts);
	}

	/**
	 * Like {@link #register(Class, Class)}, but the manager makes each object with {@code factory},
	 * given {@code create}'s arguments, instead of a constructor. The factory is shipped to the manager.
	 */
	public <A, I> ManagerCall register(Class<A> asyncInterface, Class<I> implementation,
			FiberFunction<Object[], ? extends I> factory) {
		Objects.requireNonNull(factory, "factory");
		ShippedValues values = runtime.values();
		byte[] bytes = values.writeFunction(factory, "the factory of " + implementation.getName());
		List<String> allow = List.of(ShippedValues.packagePattern(factory.getClass()));
		// Read back here, so a capture the manager would refuse fails now, not at every create.
		values.readFunction(bytes, allow, java.util.function.Function.class, "the factory of " + implementation.getName());
		Registration registration = Registration.check(asyncInterface, implementation).withFactory(bytes, allow);
		Map<String, Registration> more = new LinkedHashMap<>(registrations);
		more.put(registration.asyncInterface(), registration);
		return new ManagerCall(runtime, Map.copyOf(more), name, resources, timeoutNanos, restarts);
	}

	/** Names the manager; its process is named after it. */
	public ManagerCall name(String name) {
		Objects.requireNonNull(name, "name");
		if (name.isBlank()) {
			throw new IllegalArgumentException("a manager name must not be blank");
		}
		return new ManagerCall(runtime, registrations, name, resources, timeoutNanos, restarts);
	}

	/** Cores for the manager process (fractions allowed). */
	public ManagerCall cpu(double cpu) {
		return new ManagerCall(runtime, registrations, name, resources.withCpu(cpu), timeoutNanos, restarts);
	}

	/** Memory for the manager process, as a size ({@code 512Mi}, {@code 2Gi}). */
	public ManagerCall memory(String memory) {
		return new ManagerCall(runtime, registrations, name, resources.withMemory(memory), timeoutNanos, restarts);
	}

	/** Whole GPUs for the manager process. */
	public ManagerCall gpu(int gpu) {
		return new ManagerCall(runtime, registrations, name, resources.withGpu(gpu), timeoutNanos, restarts);
	}

	/** Where the manager process may run on a cluster, laid over the configured placement. */
	public ManagerCall placement(io.fiberjvm.Placement placement) {
		return new ManagerCall(runtime, registrations, name, resources.withPlacement(Objects.requireNonNull(placement, "placement")),
				timeoutNanos, restarts);
	}

	/**
	 * How long each call on the manager's objects may run (creations included, sequences excepted) before the
	 * manager interrupts it; {@code Duration.ZERO}, the default, for no limit. {@link AsyncManager#callTimeout} views
	 * change it for the objects they create.
	 *
	 * @throws IllegalArgumentException if {@code timeout} is negative or longer than a JVM can time
	 */
	public ManagerCall callTimeout(Duration timeout) {
		return new ManagerCall(runtime, registrations, name, resources, Deadlines.nanos(timeout, "a call timeout"), restarts);
	}

	/**
	 * How the manager comes back when its process is lost ({@link ManagerRestarts}); {@link ManagerRestarts#none()},
	 * the default, leaves it lost.
	 */
	public ManagerCall restarts(ManagerRestarts restarts) {
		return new ManagerCall(runtime, registrations, name, resources, timeoutNanos, Objects.requireNonNull(restarts, "restarts"));
	}

	/** Starts the manager process when subscribed; emits the manager once it takes calls. With nothing registered it hosts shared objects only. */
	public Mono<AsyncManager> start() {
		return Mono.defer(() -> {
			String managerName = name != null ? name : "manager" + NAMES.incrementAndGet();
			ManagerSession session = new ManagerSession(managerName, registrations, resources, runtime, restarts);
			return session.start()
					.thenReturn((AsyncManager) new ManagerHandle(session, timeoutNanos))
					.doOnError(error -> session.dispose())
					// A cancelled start (say, another start in the same flatMap failed) must not leave a process behind.
					.doOnCancel(session::dispose);
		});
	}
}
