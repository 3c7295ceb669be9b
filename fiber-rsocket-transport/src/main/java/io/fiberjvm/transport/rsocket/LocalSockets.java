package io.fiberjvm.transport.rsocket;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.netty.channel.unix.DomainSocketAddress;
import org.jspecify.annotations.Nullable;
import reactor.netty.resources.LoopResources;

/**
 * The Unix domain socket a server listens on beside its TCP port, for peers on the same machine: on this kind of
 * machine a message crosses it in about half the time it takes through TCP's loopback.
 *
 * <p>Its name is in Linux's abstract namespace, so it leaves no file behind, is gone when the server is, and is
 * seen only in the server's network namespace. It is made of the run's secret (hashed), the TCP port, and whether
 * the port is bound on loopback or on every interface: a peer of the run that would reach that port on this
 * machine finds the socket without being told, and no other server of the run can hold the same name. A server
 * bound to one other address has none: a peer could not tell it from another server on the same port.
 */
final class LocalSockets {

	private static final Map<String, Boolean> LOCAL_HOSTS = new ConcurrentHashMap<>();

	private LocalSockets() {
	}

	/** Whether this JVM can listen on and connect to Unix domain sockets: through Netty's native transport. */
	static boolean available() {
		return LoopResources.hasNativeSupport();
	}

	/** The name a server of the run with {@code secret} bound to {@code host} and TCP {@code port} listens on, or null when none. */
	static @Nullable DomainSocketAddress forServer(String secret, String host, int port) {
		InetAddress address = resolved(host);
		if (address == null || !(address.isLoopbackAddress() || address.isAnyLocalAddress())) {
			return null;
		}
		return name(secret, address.isLoopbackAddress() ? "lo" : "any", port);
	}

	/**
	 * The names a peer tries, in order, before TCP, to reach a server of the run with {@code secret} at
	 * {@code host}:{@code port}: none unless {@code host} is this machine's.
	 */
	static List<DomainSocketAddress> forPeer(String secret, String host, int port) {
		if (!LOCAL_HOSTS.computeIfAbsent(host, LocalSockets::resolvesHere)) {
			return List.of();
		}
		InetAddress address = resolved(host);
		return address != null && address.isLoopbackAddress() ? List.of(name(secret, "lo", port), name(secret, "any", port))
				: List.of(name(secret, "any", port));
	}

	private static DomainSocketAddress name(String secret, String scope, int port) {
		return new DomainSocketAddress("\0fiber-" + runTag(secret) + "-" + scope + "-" + port);
	}

	private static @Nullable InetAddress resolved(String host) {
		try {
			return InetAddress.getByName(host);
		}
		catch (UnknownHostException e) {
			return null;
		}
	}

	private static boolean resolvesHere(String host) {
		InetAddress address = resolved(host);
		try {
			return address != null
					&& (address.isLoopbackAddress() || address.isAnyLocalAddress() || NetworkInterface.getByInetAddress(address) != null);
		}
		catch (SocketException e) {
			return false;
		}
	}

	/** A short name for the run: sixteen hex digits of its secret's digest, which say nothing of the secret. */
	private static String runTag(String secret) {
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256").digest(("fiber-local-socket:" + secret).getBytes(StandardCharsets.UTF_8));
			return HexFormat.of().formatHex(digest, 0, 8);
		}
		catch (NoSuchAlgorithmException e) {
			throw new IllegalStateException("SHA-256 is part of every JDK", e);
		}
	}
}
