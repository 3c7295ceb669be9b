package io.fiberjvm.internal.runtime;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import io.fiberjvm.FiberException;
import io.fiberjvm.config.ConfigException;
import io.fiberjvm.config.ConfigKeys;
import io.fiberjvm.config.FiberConfig;
import io.fiberjvm.transport.Acceptor;
import io.fiberjvm.transport.Endpoint;
import io.fiberjvm.transport.Transport;
import io.fiberjvm.transport.TransportServer;
import io.fiberjvm.transport.TransportStats;

/**
 * Where a runtime listens: its transport server, bound on first use, and the address others reach it at.
 */
final class Listener {

	private final Mono<TransportServer> server;
	private final String bindHost;
	private final String configuredHost;
	private final BooleanSupplier closed;
	private final Function<String, FiberException> closedError;
	private volatile @Nullable TransportServer bound;
	private volatile @Nullable String advertisedHost;

	/**
	 * @param jobsRunHere whether the runtime's jobs run on this machine; jobs elsewhere cannot reach loopback,
	 *        so the runtime then listens on every interface unless {@code host} is set
	 */
	Listener(Transport transport, FiberConfig config, boolean jobsRunHere, Acceptor acceptor, BooleanSupplier closed,
			Function<String, FiberException> closedError) {
		this.closed = closed;
		this.closedError = closedError;
		this.configuredHost = config.get(ConfigKeys.ADVERTISE_HOST);
		this.bindHost = !jobsRunHere && config.sourceOf(ConfigKeys.HOST).equals("default") ? "0.0.0.0" : config.get(ConfigKeys.HOST);
		Endpoint bindAt = new Endpoint(bindHost, config.get(ConfigKeys.PORT));
		this.server = Mono.defer(() -> closed.getAsBoolean() ? Mono.error(closedError.apply("listen")) : transport.bind(bindAt, acceptor))
				.doOnNext(s -> {
					bound = s;
					if (closed.getAsBoolean()) {
						s.dispose();
					}
				})
				// A failed bind (say, a fixed port in use) is tried again next time, not remembered.
				.cache(s -> Duration.ofMillis(Long.MAX_VALUE), error -> Duration.ZERO, () -> Duration.ZERO);
	}

	/** Where others reach the runtime; binds on first use. Fails once the runtime is closed. */
	Mono<Endpoint> address() {
		return Mono.defer(() -> closed.getAsBoolean() ? Mono.error(closedError.apply("listen"))
				: server.map(s -> new Endpoint(advertisedHost(), s.address().port())));
	}

	/** The listening server's counters; zeros before it listens. */
	TransportStats stats() {
		TransportServer listening = bound;
		return listening == null ? TransportStats.NONE : listening.stats();
	}

	/** Stops listening and closes every accepted connection. */
	void close() {
		TransportServer listening = bound;
		if (listening != null) {
			listening.dispose();
		}
	}

	/**
	 * The host others reach this runtime at: the one configured, else the bound one, else (for a wildcard)
	 * this machine's address, found once, when first needed.
	 */
	private String advertisedHost() {
		String known = advertisedHost;
		if (known == null) {
			known = advertisedHost(configuredHost, bindHost);
			advertisedHost = known;
		}
		return known;
	}

	private static String advertisedHost(String configured, String bound) {
		if (!configured.isEmpty()) {
			return configured;
		}
		if (!bound.equals("0.0.0.0") && !bound.equals("::") && !bound.equals("[::]")) {
			return bound;
		}
		try {
			// In a pod the host name resolves to the pod's IP; elsewhere it may resolve to loopback.
			java.net.InetAddress named = java.net.InetAddress.getLocalHost();
			if (!named.isLoopbackAddress()) {
				return named.getHostAddress();
			}
			for (java.net.NetworkInterface nic : java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces())) {
				if (!nic.isUp() || nic.isLoopback()) {
					continue;
				}
				for (java.net.InetAddress address : java.util.Collections.list(nic.getInetAddresses())) {
					if (address instanceof java.net.Inet4Address && !address.isLinkLocalAddress()) {
						return address.getHostAddress();
					}
				}
			}
			return named.getHostAddress();
		}
		catch (java.io.IOException e) {
			throw new ConfigException(ConfigKeys.ADVERTISE_HOST.name(), "this runtime listens on every interface (" + bound
					+ ") but this machine's own address cannot be found (" + e.getMessage()
					+ "); set configuration key 'advertise-host' to the address its jobs should reach it at");
		}
	}
}
