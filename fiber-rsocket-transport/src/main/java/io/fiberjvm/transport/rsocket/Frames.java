package io.fiberjvm.transport.rsocket;

import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rsocket.Payload;
import io.rsocket.exceptions.ApplicationErrorException;
import io.rsocket.exceptions.RejectedSetupException;
import io.rsocket.util.ByteBufPayload;

import io.fiberjvm.FiberException;
import io.fiberjvm.RemoteException;
import io.fiberjvm.transport.ConnectionRejectedException;
import io.fiberjvm.transport.FrameTooLargeException;
import io.fiberjvm.transport.Outbound;

/** Conversions between Fiber's bytes-and-routes and RSocket payloads and errors. */
final class Frames {

	/** Room for the frame header and route around the payload, so a checked payload always fits its frame. */
	static final int HEADER_ROOM = 64;

	static final int POOLED_LIMIT = Outbound.WRITTEN_LIMIT;

	private Frames() {
	}

	static Payload payload(String route, byte[] data, int maxPayloadSize) {
		byte[] metadata = route.getBytes(StandardCharsets.UTF_8);
		checkSize(route, (long) data.length + metadata.length, maxPayloadSize);
		ByteBuf dataBuffer = data(data);
		try {
			return ByteBufPayload.create(dataBuffer, data(metadata));
		}
		catch (RuntimeException | Error e) {
			dataBuffer.release();
			throw e;
		}
	}

	static Payload data(byte[] data, String route, int maxPayloadSize) {
		checkSize(route, data.length, maxPayloadSize);
		return ByteBufPayload.create(data(data));
	}

	static Payload routeOnly(String route) {
		return ByteBufPayload.create(Unpooled.EMPTY_BUFFER, data(route.getBytes(StandardCharsets.UTF_8)));
	}

	/**
	 * The first byte of the metadata of a channel's opening frame that carries the channel's first datum: the route
	 * follows. No route starts with it, nor does a part's mark ({@link Parts#MARK}).
	 */
	static final byte WITH_DATUM = 1;

	/**
	 * The frame that opens a channel on {@code route} carrying its first datum, of at most one part's size: written
	 * into pooled memory when it is small (and then released), else sent from its array.
	 */
	static Payload routeWith(String route, Outbound first, int maxPayloadSize) {
		int size = first.size();
		byte[] name = route.getBytes(StandardCharsets.UTF_8);
		checkSize(route, (long) size + name.length + 1, maxPayloadSize);
		ByteBuf data;
		if (size > POOLED_LIMIT) {
			byte[] array = first.toArray();
			if (array.length != size) {
				throw new IllegalStateException("a datum of " + size + " bytes made an array of " + array.length);
			}
			data = data(array);
		}
		else {
			data = data(first, size);
		}
		try {
			ByteBuf metadata = ReassemblingAllocator.INSTANCE.directBuffer(name.length + 1).writeByte(WITH_DATUM).writeBytes(name);
			return ByteBufPayload.create(data, metadata);
		}
		catch (RuntimeException | Error e) {
			data.release();
			throw e;
		}
		finally {
			if (size <= POOLED_LIMIT) {
				released(first);
			}
		}
	}

	/** Tells {@code datum} its bytes are no longer read; what its maker's hook throws is its own affair, not the channel's. */
	private static void released(Outbound datum) {
		try {
			datum.released();
		}
		catch (Throwable e) {
			reactor.core.Exceptions.throwIfJvmFatal(e);
		}
	}


	/**
	 * The payload's data: up to 512 KiB copied once into pooled direct memory, since a frame whose parts are all
	 * direct is written as it is and one with a heap part is copied again as it is written ({@link DirectWrites}).
	 * Larger data stays where it is: Netty's pool keeps no buffer over 1 MiB, and pieces of it, held by a payload
	 * in flight, made the pool take new memory each time, which is only given back at a garbage collection.
	 */
	private static ByteBuf data(byte[] bytes) {
		return data(bytes, 0, bytes.length);
	}

	/** {@code length} bytes of {@code bytes} from {@code offset} as payload data, as {@link #data(byte[])} makes it. */
	static ByteBuf data(byte[] bytes, int offset, int length) {
		if (length == 0) {
			return Unpooled.EMPTY_BUFFER;
		}
		if (length > POOLED_LIMIT) {
			return Unpooled.wrappedBuffer(bytes, offset, length);
		}
		return ReassemblingAllocator.INSTANCE.directBuffer(length, length).writeBytes(bytes, offset, length);
	}

	/**
	 * The data of {@code datum}, of {@code size} bytes up to {@link #POOLED_LIMIT}, written once straight into pooled
	 * direct memory; fails if the datum writes other than its size.
	 */
	static ByteBuf data(Outbound datum, int size) {
		if (size == 0) {
			return Unpooled.EMPTY_BUFFER;
		}
		ByteBuf buffer = ReassemblingAllocator.INSTANCE.directBuffer(size, size);
		try {
			Outbound.write(datum, buffer.nioBuffer(0, size));
			return buffer.writerIndex(size);
		}
		catch (RuntimeException | Error e) {
			buffer.release();
			throw e;
		}
	}

	static void checkSize(String route, long size, int maxPayloadSize) {
		if (size + HEADER_ROOM > maxPayloadSize) {
			throw new FrameTooLargeException("a payload of " + size + " bytes on route '" + route
					+ "' is over the limit of " + maxPayloadSize + " bytes (fiber.max-value-size and room for its frame)");
		}
	}

	/** The data of {@code payload}, copied once out of the frames it arrived in, and the payload released. */
	static byte[] bytes(Payload payload) {
		try {
			ByteBuf data = payload.data();
			byte[] copy = new byte[data.readableBytes()];
			data.getBytes(data.readerIndex(), copy);
			return copy;
		}
		finally {
			payload.release();
		}
	}

	static String route(Payload payload) {
		return payload.hasMetadata() ? payload.getMetadataUtf8() : "";
	}

	/** A handler's error as it travels: the type, message and trace of the original, encoded. */
	static Throwable toWire(Throwable error, int maxFrameSize) {
		return new ApplicationErrorException(RemoteException.encode(error, maxFrameSize - HEADER_ROOM));
	}

	/** An error as RSocket reports it, as Fiber's callers should see it. */
	static Throwable fromWire(Throwable error, String peer, String route) {
		if (error instanceof ApplicationErrorException) {
			return RemoteException.decode(error.getMessage());
		}
		if (error instanceof RejectedSetupException) {
			return new ConnectionRejectedException("connection to " + peer + " was refused: " + error.getMessage(), error);
		}
		if (error instanceof ClosedChannelException || error.getClass().getSimpleName().equals("ConnectionCloseException")
				|| error instanceof io.rsocket.exceptions.ConnectionErrorException) {
			return new FiberException("connection to " + peer + " closed during a request on route '" + route + "': "
					+ error.getMessage(), error);
		}
		return error;
	}
}
