package io.fiberjvm.codec;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import java.util.function.IntUnaryOperator;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** An array read from its compact form in runs cut anywhere, across elements too, is the array written. */
class ArrivingArrayTest {

	private final ShippedValues values = new ShippedValues(List.of());

	/** What {@code value}'s compact form makes when its bytes after the tag come in runs of the sizes {@code cuts} yields. */
	private @Nullable Object readInRuns(Object value, IntUnaryOperator cuts) {
		byte[] bytes = values.write(value, "a value");
		ArrivingArray array = values.arriving(bytes[0], bytes.length - 1);
		if (array == null) {
			return null;
		}
		int at = 1;
		for (int run = 0; at < bytes.length; run++) {
			int length = Math.min(bytes.length - at, Math.max(1, cuts.applyAsInt(run)));
			array.take(ByteBuffer.wrap(bytes, at, length).slice().asReadOnlyBuffer());
			at += length;
		}
		return array.end();
	}

	@Test
	void everyArrayOfNumbersOrBytesReadInRunsCutAnywhereIsTheArrayWritten() {
		Random random = new Random(5);
		double[] doubles = random.doubles(70_001).toArray();
		long[] longs = random.longs(20_003).toArray();
		int[] ints = random.ints(30_007).toArray();
		float[] floats = new float[40_009];
		for (int i = 0; i < floats.length; i++) {
			floats[i] = random.nextFloat();
		}
		byte[] bytes = new byte[90_011];
		random.nextBytes(bytes);
		for (Object value : List.of(doubles, longs, ints, floats, bytes, new double[0])) {
			for (IntUnaryOperator cuts : List.<IntUnaryOperator>of(run -> 1, run -> 3, run -> 7, run -> 9, run -> Integer.MAX_VALUE,
					run -> 1 + random.nextInt(20_000))) {
				assertThat(readInRuns(value, cuts)).isEqualTo(value);
			}
		}
	}

	@Test
	void valuesThatAreNoArrayOrWhoseBytesMakeNoneAreLeftToBeReadWhole() {
		assertThat(readInRuns("text", run -> 1)).isNull();
		assertThat(readInRuns(List.of(1.0, 2.0), run -> 1)).isNull();
		assertThat(readInRuns(42, run -> 1)).isNull();
		byte[] doubles = values.write(new double[] {1, 2}, "doubles");
		assertThat(values.arriving(doubles[0], 15)).as("not a whole number of doubles").isNull();
		assertThat(values.arriving(doubles[0], -1)).isNull();
		assertThatThrownBy(() -> values.read(java.util.Arrays.copyOf(doubles, 16), "cut doubles"))
				.as("read whole, such bytes say why").hasMessageContaining("15 bytes are not a whole number of doubles");
	}

	@Test
	void bytesBeyondTheArrayOrAnArrayCutShortAreRefusedSayingSo() {
		byte[] doubles = values.write(new double[] {1, 2}, "doubles");
		ArrivingArray tooMany = values.arriving(doubles[0], 16);
		assertThat(tooMany).isNotNull();
		tooMany.take(ByteBuffer.allocate(9));
		assertThatThrownBy(() -> tooMany.take(ByteBuffer.allocate(8)))
				.isInstanceOf(IllegalStateException.class).hasMessageContaining("1 bytes too many");

		ArrivingArray short_ = values.arriving(doubles[0], 16);
		assertThat(short_).isNotNull();
		short_.take(ByteBuffer.allocate(12));
		assertThatThrownBy(short_::end).isInstanceOf(IllegalStateException.class).hasMessageContaining("ended after 12 bytes");
	}
}
