package io.fiberjvm.internal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class BulkCopyTest {

	/** Two and a half pieces, so a copy takes three steps and the last is short. */
	private static final int LENGTH = BulkCopy.PIECE * 5 / 2 + 3;

	private static byte[] bytes() {
		byte[] bytes = new byte[LENGTH];
		for (int i = 0; i < bytes.length; i++) {
			bytes[i] = (byte) (i * 31);
		}
		return bytes;
	}

	@Test
	void aCopyOfBytesHasRoomInFrontWhateverItsSize() {
		byte[] src = bytes();
		byte[] small = BulkCopy.copyOf(src, 5, 100, 3);
		assertThat(small).hasSize(103).startsWith(0, 0, 0);
		assertThat(Arrays.copyOfRange(small, 3, 103)).isEqualTo(Arrays.copyOfRange(src, 5, 105));
		byte[] large = BulkCopy.copyOf(src, 7, LENGTH - 7, 2);
		assertThat(large).hasSize(LENGTH - 5).startsWith(0, 0);
		assertThat(Arrays.copyOfRange(large, 2, large.length)).isEqualTo(Arrays.copyOfRange(src, 7, LENGTH));
		assertThat(BulkCopy.copyOf(src, 0, 0, 1)).containsExactly(0);
	}

	@Test
	void bytesCopyWholeAcrossPiecesAndMoveOnlyWhatIsSaid() {
		byte[] src = bytes();
		ByteBuffer dst = ByteBuffer.allocate(LENGTH + 10).position(4);
		BulkCopy.put(dst, src, 0, LENGTH);
		assertThat(dst.position()).isEqualTo(LENGTH + 4);
		assertThat(Arrays.copyOfRange(dst.array(), 4, LENGTH + 4)).isEqualTo(src);

		ByteBuffer view = ByteBuffer.wrap(src, 7, LENGTH - 7);
		ByteBuffer into = ByteBuffer.allocate(LENGTH);
		BulkCopy.put(into, view);
		assertThat(view.position()).as("the source's position does not move").isEqualTo(7);
		assertThat(into.position()).isEqualTo(LENGTH - 7);
		assertThat(Arrays.copyOf(into.array(), LENGTH - 7)).isEqualTo(Arrays.copyOfRange(src, 7, LENGTH));

		byte[] back = new byte[LENGTH];
		ByteBuffer from = ByteBuffer.wrap(src);
		BulkCopy.get(from, back, 0, LENGTH);
		assertThat(from.position()).isEqualTo(LENGTH);
		assertThat(back).isEqualTo(src);

		byte[] shifted = new byte[LENGTH + 2];
		BulkCopy.copy(src, 0, shifted, 2, LENGTH);
		assertThat(Arrays.copyOfRange(shifted, 2, LENGTH + 2)).isEqualTo(src);
	}

	@Test
	void arraysOfNumbersGoLittleEndianAndLeaveTheBufferWhereItWas() {
		double[] doubles = new double[LENGTH / 8];
		Arrays.setAll(doubles, i -> i * 0.5);
		ByteBuffer buffer = ByteBuffer.allocate(1 + doubles.length * 8).position(1);
		BulkCopy.put(buffer, doubles);
		assertThat(buffer.position()).isEqualTo(1);
		assertThat(buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN).getDouble(1 + 8 * (doubles.length - 1)))
				.isEqualTo(doubles[doubles.length - 1]);
		double[] read = new double[doubles.length];
		BulkCopy.get(buffer, read, 0, read.length);
		assertThat(read).isEqualTo(doubles);

		long[] longs = new long[LENGTH / 8];
		Arrays.setAll(longs, i -> i * 3L);
		int[] ints = new int[LENGTH / 4];
		Arrays.setAll(ints, i -> -i);
		float[] floats = new float[LENGTH / 4];
		for (int i = 0; i < floats.length; i++) {
			floats[i] = i / 4f;
		}
		ByteBuffer l = ByteBuffer.allocate(longs.length * 8);
		ByteBuffer n = ByteBuffer.allocate(ints.length * 4);
		ByteBuffer f = ByteBuffer.allocate(floats.length * 4);
		BulkCopy.put(l, longs);
		BulkCopy.put(n, ints);
		BulkCopy.put(f, floats);
		long[] longsBack = new long[longs.length];
		int[] intsBack = new int[ints.length];
		float[] floatsBack = new float[floats.length];
		BulkCopy.get(l, longsBack, 0, longsBack.length);
		BulkCopy.get(n, intsBack, 0, intsBack.length);
		BulkCopy.get(f, floatsBack, 0, floatsBack.length);
		assertThat(longsBack).isEqualTo(longs);
		assertThat(intsBack).isEqualTo(ints);
		assertThat(floatsBack).isEqualTo(floats);
		assertThat(n.order(ByteOrder.LITTLE_ENDIAN).getInt(4)).isEqualTo(-1);
	}

	@Test
	void anArrayOfBytesOrNumbersIsCopiedInPiecesAndAnyOtherRefused() {
		double[] doubles = new double[BulkCopy.PIECE / 8 * 2 + 5];
		Arrays.setAll(doubles, i -> i * 0.5);
		for (Object array : new Object[] {doubles, new byte[] {1, 2}, new float[] {1.5f}, new int[] {3}, new long[] {4L}, new long[0]}) {
			Object copy = BulkCopy.copyOfArray(array);
			assertThat(copy).isEqualTo(array).isNotSameAs(array).hasSameClassAs(array);
		}
		for (Object other : new Object[] {new short[1], new char[1], new boolean[1], new String[1], "text"}) {
			org.assertj.core.api.Assertions.assertThatThrownBy(() -> BulkCopy.copyOfArray(other))
					.isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no array of bytes, floats, ints, doubles or longs");
		}
	}
}
