package io.fiberjvm.transport;

import java.time.Duration;
import java.util.Objects;

import io.fiberjvm.config.ConfigKeys;
import io.fiberjvm.config.FiberConfig;

/**
 * What every connection of one run shares: the run's secret, the frame limit and keep-alive.
 *
 * @param secret the run's secret; a peer must present it at setup or be refused
 * @param maxFrameSize the largest frame sent or accepted, in bytes
 * @param keepAliveInterval how often a keep-alive frame is sent
 * @param keepAliveTimeout how long a silent peer lives before its connection is closed
 */
public record TransportSettings(String secret, int maxFrameSize, Duration keepAliveInterval, Duration keepAliveTimeout) {

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
	}

	/** The settings {@code config} describes, with {@code secret}. */
	public static TransportSettings from(FiberConfig config, String secret) {
		return new TransportSettings(secret, Math.toIntExact(config.get(ConfigKeys.MAX_FRAME_SIZE)),
				config.get(ConfigKeys.KEEPALIVE_INTERVAL), config.get(ConfigKeys.KEEPALIVE_TIMEOUT));
	}

	/** The same settings with another secret: for tests of a peer that knows the wrong one. */
	public TransportSettings withSecret(String otherSecret) {
		return new TransportSettings(otherSecret, maxFrameSize, keepAliveInterval, keepAliveTimeout);
	}

	@Override
	public String toString() {
		// Never print the secret.
		return "TransportSettings[maxFrameSize=" + maxFrameSize + ", keepAliveInterval=" + keepAliveInterval
				+ ", keepAliveTimeout=" + keepAliveTimeout + "]";
	}
}
