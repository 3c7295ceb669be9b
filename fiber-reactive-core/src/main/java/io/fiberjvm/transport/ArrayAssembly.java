package io.fiberjvm.transport;

import java.nio.ByteBuffer;

/** A datum copied into an array of its own as it arrives ({@link InboundReader#bytes()}). */
final class ArrayAssembly implements InboundAssembly<byte[]> {

	private final byte[] data;
	private int filled;

	ArrayAssembly(int size) {
		if (size < 0) {
			throw new IllegalArgumentException("a datum's size must not be negative: " + size);
		}
		this.data = new byte[size];
	}

	@Override
	public void take(ByteBuffer bytes) {
		int length = bytes.remaining();
		if (length > data.length - filled) {
			throw new IllegalStateException("a datum of " + data.length + " bytes was given " + (filled + (long) length));
		}
		bytes.get(data, filled, length);
		filled += length;
	}

	@Override
	public byte[] end() {
		if (filled != data.length) {
			throw new IllegalStateException("a datum of " + data.length + " bytes ended after " + filled);
		}
		return data;
	}
}
