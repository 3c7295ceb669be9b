package io.fiberjvm.transport.rsocket;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;

import io.netty.buffer.ByteBuf;
import io.rsocket.Payload;
import io.rsocket.util.ByteBufPayload;
import org.jspecify.annotations.Nullable;

/**
 * What the frame that opens a channel says: the channel's route, and its first datum when the requester sent it
 * with the route ({@link Frames#routeWith}). The datum is held until {@link #take() taken} or {@link #release()
 * released}, whichever comes first; the other then finds nothing.
 */
final class ChannelOpening {

	private final String route;
	private final AtomicReference<@Nullable Payload> first;

	private ChannelOpening(String route, @Nullable Payload first) {
		this.route = route;
		this.first = new AtomicReference<>(first);
	}

	/** What {@code frame} says; the frame is released, the datum it carries kept as a payload of its own. */
	static ChannelOpening of(Payload frame) {
		try {
			ByteBuf metadata = frame.metadata();
			boolean carries = frame.hasMetadata() && metadata.readableBytes() > 0
					&& metadata.getByte(metadata.readerIndex()) == Frames.WITH_DATUM;
			if (!carries) {
				return new ChannelOpening(Frames.route(frame), null);
			}
			String route = metadata.toString(metadata.readerIndex() + 1, metadata.readableBytes() - 1, StandardCharsets.UTF_8);
			return new ChannelOpening(route, ByteBufPayload.create(frame.data().retain()));
		}
		finally {
			frame.release();
		}
	}

	String route() {
		return route;
	}

	/** The first datum, once; null when the frame carried none or it was taken or released. */
	@Nullable Payload take() {
		return first.getAndSet(null);
	}

	/** Releases the first datum unless it was taken. */
	void release() {
		Payload left = take();
		if (left != null) {
			left.release();
		}
	}
}
