package io.fiberjvm.internal.frames;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.fiberjvm.codec.CodecException;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.transport.InboundAssembly;
import io.fiberjvm.transport.InboundReader;
import io.fiberjvm.transport.Outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A batch of items read as its bytes arrive, in runs cut anywhere, makes what decoding the whole frame makes. */
class ItemsReaderTest {

	private static final byte ITEMS = FrameKind.ITEMS.code();

	private static ByteBuffer item(int size, int seed) {
		byte[] bytes = new byte[size];
		for (int i = 0; i < size; i++) {
			bytes[i] = (byte) (seed + i);
		}
		return ByteBuffer.wrap(bytes);
	}

	private static final ShippedValues VALUES = new ShippedValues(List.of());

	private static List<QueueItem> readInRuns(byte[] frame, java.util.function.IntUnaryOperator cuts) {
		return InRuns.read(ItemsFrame.reader(VALUES), frame, cuts);
	}

	private static List<QueueItem> queued(List<ByteBuffer> items) {
		return items.stream().map(QueueItem::of).toList();
	}

	private static List<ByteBuffer> bytesOf(List<QueueItem> items) {
		return items.stream().map(item -> {
			assertThat(item.array()).as("an item of other bytes than an array's").isNull();
			return java.util.Objects.requireNonNull(item.bytes());
		}).toList();
	}

	/** Runs of one byte, the whole frame, every size up to 11, and 20 random sizes up to 9000. */
	private static List<List<QueueItem>> readInAllRuns(byte[] frame) {
		Random random = new Random(17);
		List<List<QueueItem>> reads = new ArrayList<>();
		reads.add(readInRuns(frame, run -> 1));
		reads.add(readInRuns(frame, run -> frame.length));
		for (int cut = 2; cut < 12; cut++) {
			int size = cut;
			reads.add(readInRuns(frame, run -> size));
		}
		for (int i = 0; i < 20; i++) {
			reads.add(readInRuns(frame, run -> 1 + random.nextInt(9000)));
		}
		return reads;
	}

	@Test
	void itemsReadInRunsCutAnywhereAreTheItemsOfTheFrameEachInAnArrayOfItsOwn() {
		// First bytes that are no tag of an array: 1 an int's, 2 a long's, 3 a double's, 4 a boolean's.
		List<ByteBuffer> items = List.of(item(3, 1), item(0, 0), item(5000, 2), item(1, 3), item(70_000, 4));
		byte[] frame = ItemsFrame.frame(queued(items)).toArray();
		assertThat(readInAllRuns(frame)).allSatisfy(read -> {
			assertThat(bytesOf(read)).isEqualTo(ItemsFrame.decode(frame));
			assertThat(bytesOf(read)).allSatisfy(each -> {
				assertThat(each.arrayOffset()).isZero();
				assertThat(each.array()).hasSize(each.remaining());
			});
		});
		assertThat(InboundReader.read(ItemsFrame.reader(VALUES), ItemsFrame.frame(List.of()).toArray())).isEmpty();
	}

	@Test
	void itemsThatAreArraysOfNumbersOrBytesAreReadIntoThoseArraysAndWriteTheSameBytesBack() {
		Random random = new Random(5);
		byte[] bytes = new byte[4096];
		random.nextBytes(bytes);
		float[] floats = new float[300];
		floats[7] = Float.NaN;
		floats[8] = -2.25f;
		List<Object> arrays = List.of(random.doubles(1001).toArray(), random.ints(256).toArray(), random.longs(2000).toArray(),
				floats, bytes, new byte[ItemsReader.ARRAYS_FROM - 1]);
		// Read as bytes: other values, arrays smaller than ARRAYS_FROM, and an array's tag before bytes that make none.
		byte[] noInts = new byte[ItemsReader.ARRAYS_FROM + 2];
		noInts[0] = VALUES.write(new int[0], "no ints")[0];
		List<Object> others = List.of("text", 7, random.ints(3).toArray(), new byte[0], new double[0], new byte[ItemsReader.ARRAYS_FROM - 2]);
		List<Object> values = new ArrayList<>(arrays);
		values.addAll(others);
		List<QueueItem> items = new ArrayList<>(values.stream().map(value -> QueueItem.of(ByteBuffer.wrap(VALUES.write(value, "an item")))).toList());
		items.add(QueueItem.of(ByteBuffer.wrap(noInts)));
		byte[] frame = ItemsFrame.frame(items).toArray();
		assertThat(readInAllRuns(frame)).allSatisfy(read -> {
			assertThat(read).hasSameSizeAs(items);
			for (int i = 0; i < values.size(); i++) {
				Object value = values.get(i);
				QueueItem item = read.get(i);
				assertThat(item.size()).isEqualTo(items.get(i).size());
				if (i < arrays.size()) {
					assertThat(item.array()).as("item %d", i).isEqualTo(value).isNotSameAs(value);
					assertThat(item.copyOfArray()).isEqualTo(value).isNotSameAs(item.array());
				}
				else {
					assertThat(item.array()).as("item %d", i).isNull();
					assertThat(VALUES.read(item.bytes(), "an item")).isEqualTo(value);
				}
			}
			assertThat(read.get(values.size()).bytes()).isEqualTo(ByteBuffer.wrap(noInts));
			assertThat(ItemsFrame.frame(read).toArray()).as("written back").isEqualTo(frame);
			Outbound written = ItemsFrame.frame(read);
			ByteBuffer target = ByteBuffer.allocateDirect(written.size() + 3).position(3);
			written.writeTo(target);
			assertThat(target.position()).isEqualTo(3 + frame.length);
			assertThat(target.flip().position(3)).as("written back where a transport sends from").isEqualTo(ByteBuffer.wrap(frame));
		});
	}

	@Test
	void aMalformedFrameIsRefusedAsDecodingRefusesIt() {
		byte[][] malformed = {
				{},
				{ITEMS},
				{ITEMS, 0, 0, 0},
				{FrameKind.GRANT.code(), 0, 0, 0, 0, 0},
				{99, 0, 0, 0, 0, 0},
				{ITEMS, 4, 0, 0, 0, 0},
				{ITEMS, 0, 0, 0, 0, 5},
				{ITEMS, 0, 0, 0, 0, 1, 0, 0, 0, 9, 1},
				{ITEMS, 0, 0, 0, 0, 1, -1, -1, -1, -1},
				{ITEMS, 0, 0, 0, 0, 1, 0, 0, 0, 1, 7, 8},
				{ITEMS, 0, 0, 0, 0, 0, 7},
				{ITEMS, 0, -1, -1, -1, -1},
		};
		for (byte[] frame : malformed) {
			String expected = null;
			try {
				ItemsFrame.decode(frame);
			}
			catch (CodecException e) {
				expected = e.getMessage();
			}
			assertThat(expected).as("decoding %s fails", java.util.Arrays.toString(frame)).isNotNull();
			for (int run = 1; run <= Math.max(1, frame.length); run++) {
				int size = run;
				assertThatThrownBy(() -> readInRuns(frame, r -> size)).as("%s in runs of %d", java.util.Arrays.toString(frame), size)
						.isInstanceOf(CodecException.class).hasMessage(expected);
			}
		}
	}

	@Test
	void moreBytesThanTheSizeBegunWithAreRefused() {
		InboundAssembly<List<QueueItem>> assembly = ItemsFrame.reader(VALUES).begin(6);
		assertThatThrownBy(() -> assembly.take(ByteBuffer.wrap(new byte[] {ITEMS, 0, 0, 0, 0, 0, 1})))
				.isInstanceOf(CodecException.class).hasMessageContaining("it gave more than its 6 bytes");
	}
}
