package io.fiberjvm.transport.rsocket;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.DomainSocketAddress;
import org.jspecify.annotations.Nullable;

/**
 * The Unix domain socket a server listens on beside its TCP port, for peers on the same machine: on this kind of
 * machine a message crosses it in about half the time it takes through TCP's loopback.
 *
 * <p>Its name is in Linux's abstract namespace, so it leaves no file behind, is gone when the server is, and is
 * seen only in the server's network namespace. It is made of the run's secret (hashed), the TCP port and the
 * address the port is bound on ({@code any} for every interface): a peer of the run that would reach that port
 * at an address of this machine finds the socket without being told, and no two servers of the run can hold the
 * same name. A peer looks for it only for an IP address of this machine (no name is looked up), and only
 * talks through it to a socket held by its own user ({@link #heldByThisUser}); any other holder of the name is
 * passed over for TCP.
 */
final class LocalSockets {

	private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
	private static final Map<String, Boolean> LOCAL_ADDRESSES = new ConcurrentHashMap<>();
	private static final long NO_USER = -1;
	private static volatile long thisUser = NO_USER - 1;

	private LocalSockets() {
	}

	/** Whether this JVM can listen on and connect to Linux's abstract Unix domain sockets: through Netty's epoll. */
	static boolean available() {
		return Epoll.isAvailable();
	}

	/**
	 * The name a server of the run with {@code secret} bound to {@code host} and TCP {@code port} listens on, or null
	 * when none: where sockets are not {@link #available}, or {@code host} is a name.
	 */
	static @Nullable DomainSocketAddress forServer(String secret, String host, int port) {
		InetAddress address = available() ? literal(host) : null;
		if (address == null) {
			return null;
		}
		return name(secret, address.isAnyLocalAddress() ? "any" : address.getHostAddress(), port);
	}

	/**
	 * The names a peer tries, in order, before TCP, to reach a server of the run with {@code secret} at
	 * {@code host}:{@code port}: the server bound to that address, then one bound to every interface; none unless
	 * sockets are {@link #available} and {@code host} is an IP address of this machine.
	 */
	static List<DomainSocketAddress> forPeer(String secret, String host, int port) {
		InetAddress address = available() ? literal(host) : null;
		if (address == null || !onThisMachine(address)) {
			return List.of();
		}
		return address.isAnyLocalAddress() ? List.of(name(secret, "any", port))
				: List.of(name(secret, address.getHostAddress(), port), name(secret, "any", port));
	}

	/**
	 * Whether the process at the other end of a Unix domain socket runs as this process's user: anyone may hold an
	 * abstract name, and only a process of the same user could already read this run's secret anyway.
	 */
	static boolean heldByThisUser(long peerUser) {
		long user = thisUser;
		if (user == NO_USER - 1) {
			try {
				user = ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).longValue();
			}
			catch (IOException | RuntimeException e) {
				user = NO_USER;
			}
			thisUser = user;
		}
		return user != NO_USER && user == peerUser;
	}

	private static DomainSocketAddress name(String secret, String address, int port) {
		return new DomainSocketAddress("\0fiber-" + runTag(secret) + "-" + address + "-" + port);
	}

	/** The address {@code host} spells out, or null when it is a name (looking names up could block). */
	private static @Nullable InetAddress literal(String host) {
		if (!IPV4.matcher(host).matches() && host.indexOf(':') < 0) {
			return null;
		}
		try {
			return InetAddress.getByName(host);
		}
		catch (UnknownHostException e) {
			return null;
		}
	}

	private static boolean onThisMachine(InetAddress address) {
		if (address.isLoopbackAddress() || address.isAnyLocalAddress()) {
			return true;
		}
		if (LOCAL_ADDRESSES.size() > 1024) {
			LOCAL_ADDRESSES.clear();
		}
		return LOCAL_ADDRESSES.computeIfAbsent(address.getHostAddress(), key -> {
			try {
				return NetworkInterface.getByInetAddress(address) != null;
			}
			catch (SocketException e) {
				return false;
			}
		});
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
