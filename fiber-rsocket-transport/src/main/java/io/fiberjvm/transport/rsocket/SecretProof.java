package io.fiberjvm.transport.rsocket;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.jspecify.annotations.Nullable;

/**
 * Proves knowledge of the run's secret without sending it: an HMAC-SHA256 over the peer's name, a
 * timestamp and a fresh nonce. The server refuses stale timestamps and nonces it has seen, so a recorded
 * setup cannot be replayed; the client in turn asks the server for an HMAC over a nonce of its own, so it
 * never talks to a server that does not know the secret.
 */
final class SecretProof {

	private static final String VERSION = "fiber1";
	private static final Duration MAX_SKEW = Duration.ofMinutes(5);
	private static final int REMEMBERED_NONCES = 100_000;
	/**
	 * Seeded as the class loads, so a nonce comes from the generator's memory: the platform's default reads the
	 * entropy device for each one, which is file I/O on a connection's thread.
	 */
	private static final SecureRandom RANDOM = seededGenerator();

	private final byte[] secret;
	private final Map<String, Long> seenNonces = new LinkedHashMap<>(16, 0.75f, false) {
		@Override
		protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
			return size() > REMEMBERED_NONCES || eldest.getValue() < System.currentTimeMillis() - 2 * MAX_SKEW.toMillis();
		}
	};

	SecretProof(String secret) {
		this.secret = secret.getBytes(StandardCharsets.UTF_8);
	}

	/** The setup data a client named {@code peer} sends. */
	byte[] setupFor(String peer) {
		String nonce = nonce();
		long now = System.currentTimeMillis();
		return (VERSION + ":" + now + ":" + nonce + ":" + mac(peer + "|" + now + "|" + nonce)).getBytes(StandardCharsets.UTF_8);
	}

	/** Why the setup data of {@code peer} is refused, or {@code null} when it proves the secret. */
	synchronized @Nullable String refusal(byte[] data, String peer) {
		if (data.length == 0) {
			return "the setup frame carries no secret";
		}
		String[] parts = new String(data, StandardCharsets.UTF_8).split(":", -1);
		if (parts.length != 4 || !parts[0].equals(VERSION)) {
			return "the setup frame carries no proof of the secret in a form this server reads";
		}
		long stamp;
		try {
			stamp = Long.parseLong(parts[1]);
		}
		catch (NumberFormatException e) {
			return "the setup frame's timestamp is not a number";
		}
		String expected = mac(peer + "|" + parts[1] + "|" + parts[2]);
		if (!MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8), parts[3].getBytes(StandardCharsets.UTF_8))) {
			return "wrong secret";
		}
		if (Math.abs(System.currentTimeMillis() - stamp) > MAX_SKEW.toMillis()) {
			return "the setup frame is stale (its clock is more than " + MAX_SKEW.toMinutes() + " minutes off)";
		}
		if (seenNonces.putIfAbsent(parts[2], stamp) != null) {
			return "the setup frame was replayed";
		}
		return null;
	}

	private static SecureRandom seededGenerator() {
		SecureRandom generator;
		try {
			generator = SecureRandom.getInstance("DRBG");
		}
		catch (java.security.NoSuchAlgorithmException unavailable) {
			generator = new SecureRandom();
		}
		generator.nextBytes(new byte[1]);
		return generator;
	}

	/** A fresh nonce for the client's hello. */
	static String nonce() {
		byte[] bytes = new byte[16];
		RANDOM.nextBytes(bytes);
		return HexFormat.of().formatHex(bytes);
	}

	/** The server's answer to a hello carrying {@code nonce}. */
	byte[] helloAnswer(byte[] nonce) {
		return mac("server|" + new String(nonce, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
	}

	/** Whether {@code answer} is the right answer to a hello carrying {@code nonce}. */
	boolean checksHelloAnswer(String nonce, byte[] answer) {
		return MessageDigest.isEqual(helloAnswer(nonce.getBytes(StandardCharsets.UTF_8)), answer);
	}

	private String mac(String message) {
		try {
			Mac mac = Mac.getInstance("HmacSHA256");
			mac.init(new SecretKeySpec(secret, "HmacSHA256"));
			return HexFormat.of().formatHex(mac.doFinal(message.getBytes(StandardCharsets.UTF_8)));
		}
		catch (GeneralSecurityException e) {
			throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
		}
	}
}
