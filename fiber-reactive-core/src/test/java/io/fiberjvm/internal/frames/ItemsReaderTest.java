package io.fiberjvm.internal.frames;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.fiberjvm.codec.CodecException;
import io.fiberjvm.transport.InboundAssembly;
import io.fiberjvm.transport.InboundReader;

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

	private static List<ByteBuffer> readInRuns(byte[] frame, java.util.function.IntUnaryOperator cuts) {
		return InRuns.read(ItemsFrame.reader(), frame, cuts);
	}

	@Test
	void itemsReadInRunsCutAnywhereAreTheItemsOfTheFrameEachInAnArrayOfItsOwn() {
		List<ByteBuffer> items = List.of(item(3, 1), item(0, 0), item(5000, 2), item(1, 3), item(70_000, 4));
		byte[] frame = ItemsFrame.encode(items);
		Random random = new Random(17);
		List<List<ByteBuffer>> reads = new ArrayList<>();
		reads.add(readInRuns(frame, run -> 1));
		reads.add(readInRuns(frame, run -> frame.length));
		for (int cut = 2; cut < 12; cut++) {
			int size = cut;
			reads.add(readInRuns(frame, run -> size));
		}
		for (int i = 0; i < 20; i++) {
			reads.add(readInRuns(frame, run -> 1 + random.nextInt(9000)));
		}
		assertThat(reads).allSatisfy(read -> {
			assertThat(read).isEqualTo(ItemsFrame.decode(frame));
			assertThat(read).allSatisfy(each -> {
				assertThat(each.arrayOffset()).isZero();
				assertThat(each.array()).hasSize(each.remaining());
			});
		});
		assertThat(InboundReader.read(ItemsFrame.reader(), ItemsFrame.encode(List.of()))).isEmpty();
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
		InboundAssembly<List<ByteBuffer>> assembly = ItemsFrame.reader().begin(6);
		assertThatThrownBy(() -> assembly.take(ByteBuffer.wrap(new byte[] {ITEMS, 0, 0, 0, 0, 0, 1})))
				.isInstanceOf(CodecException.class).hasMessageContaining("it gave more than its 6 bytes");
	}
}
