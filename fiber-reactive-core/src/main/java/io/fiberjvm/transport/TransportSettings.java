package io.fiberjvm.transport;

import java.time.Duration;
import java.util.Objects;

import io.fiberjvm.config.ConfigKeys;
import io.fiberjvm.config.FiberConfig;

/**
 * What every connection of one run shares: the run's secret, the frame and payload limits and keep-alive.
 *
 * @param secret the run's secret; a peer must present it at setup or be refused
 * @param maxFrameSize the largest frame sent or accepted, in bytes; a larger payload travels in fragments
 * @param maxPayloadSize the largest payload sent or accepted, in bytes, with its route
 * @param keepAliveInterval how often a keep-alive frame is sent
 * @param keepAliveTimeout how long a silent peer lives before its connection is closed
 * @param tls whether connections over the network use TLS with the run's identity ({@link RunTls}); connections
 *        between processes of one machine through its local sockets never do
 */
public record TransportSettings(String secret, int maxFrameSize, int maxPayloadSize, Duration keepAliveInterval,
		Duration keepAliveTimeout, boolean tls) {

	/** Room beside a value for the frame that carries it (its header, ids, the function a task ships with). */
	public static final int VALUE_ROOM = 1 << 20;

	public TransportSettings {
		Objects.requireNonNull(secret, "secret");
		Objects.requireNonNull(keepAliveInterval, "keepAliveInterval");
		Objects.requireNonNull(keepAliveTimeout, "keepAliveTimeout");
		if (secret.isEmpty()) {
			throw new IllegalArgumentException("secret must not be empty");
		}
		if (maxFrameSize < 1024) {
			throw new IllegalArgumentException("maxFrameSize " + maxFrameSize + " is under 1024 bytes");
		}
		if (maxPayloadSize < maxFrameSize) {
			throw new IllegalArgumentException("maxPayloadSize " + maxPayloadSize + " is under maxFrameSize " + maxFrameSize);
		}
	}

	/** Settings without TLS. */
	public TransportSettings(String secret, int maxFrameSize, int maxPayloadSize, Duration keepAliveInterval, Duration keepAliveTimeout) {
		this(secret, maxFrameSize, maxPayloadSize, keepAliveInterval, keepAliveTimeout, false);
	}

	/** The settings {@code config} describes, with {@code secret}, and TLS over the network when {@code tls}. */
	public static TransportSettings from(FiberConfig config, String secret, boolean tls) {
		return new TransportSettings(secret, Math.toIntExact(config.get(ConfigKeys.MAX_FRAME_SIZE)),
				// A payload may always fill a frame, however small the values.
				Math.toIntExact(Math.max(config.get(ConfigKeys.MAX_VALUE_SIZE) + VALUE_ROOM, config.get(ConfigKeys.MAX_FRAME_SIZE))),
				config.get(ConfigKeys.KEEPALIVE_INTERVAL), config.get(ConfigKeys.KEEPALIVE_TIMEOUT), tls);
	}

	/** The settings {@code config} describes, with {@code secret}, without TLS. */
	public static TransportSettings from(FiberConfig config, String secret) {
		return from(config, secret, false);
	}

	/** The same settings with another secret: for tests of a peer that knows the wrong one. */
	public TransportSettings withSecret(String otherSecret) {
		return new TransportSettings(otherSecret, maxFrameSize, maxPayloadSize, keepAliveInterval, keepAliveTimeout, tls);
	}

	/** The same settings with TLS over the network on or off. */
	public TransportSettings withTls(boolean on) {
		return new TransportSettings(secret, maxFrameSize, maxPayloadSize, keepAliveInterval, keepAliveTimeout, on);
	}

	@Override
	public String toString() {
		// Never print the secret.
		return "TransportSettings[maxFrameSize=" + maxFrameSize + ", maxPayloadSize=" + maxPayloadSize + ", keepAliveInterval=" + keepAliveInterval
				+ ", keepAliveTimeout=" + keepAliveTimeout + ", tls=" + tls + "]";
	}
}
