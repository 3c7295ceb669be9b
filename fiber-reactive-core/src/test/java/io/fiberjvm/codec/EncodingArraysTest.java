package io.fiberjvm.codec;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A large value is written into an array given back by the last one of its size, and reads back as itself. */
class EncodingArraysTest {

	private final ShippedValues values = new ShippedValues(List.of());

	private static double[] counting(int n, double from) {
		double[] out = new double[n];
		Arrays.setAll(out, i -> from + i);
		return out;
	}

	@Test
	void anArrayGivenBackIsWrittenOverByTheNextValueOfItsSizeWhichReadsBackAsItself() {
		ByteBuffer first = values.writeAfter(40, counting(200_000, 0), "first");
		values.giveBack(first);
		double[] second = counting(200_000, 7);
		ByteBuffer again = values.writeAfter(40, second, "second");
		assertThat(again.array()).as("the array given back").isSameAs(first.array());
		assertThat(values.read(again, "second")).isEqualTo(second);

		ByteBuffer third = values.writeAfter(40, counting(200_000, 9), "third");
		assertThat(third.array()).as("not given back yet: a new one").isNotSameAs(again.array());
		ByteBuffer otherSize = values.writeAfter(40, counting(200_001, 0), "other");
		assertThat(otherSize.array()).isNotSameAs(again.array()).isNotSameAs(third.array());
	}

	@Test
	void onlyArraysItLentAreTakenBackAndEachOnlyOnce() {
		byte[] mine = new byte[40 + 1 + 8 * 200_000];
		values.giveBack(ByteBuffer.wrap(mine));
		assertThat(values.writeAfter(40, counting(200_000, 0), "value").array()).as("a caller's own array is never written over")
				.isNotSameAs(mine);

		ByteBuffer lent = values.writeAfter(40, counting(200_000, 0), "value");
		values.giveBack(lent);
		values.giveBack(lent);
		ByteBuffer a = values.writeAfter(40, counting(200_000, 1), "a");
		ByteBuffer b = values.writeAfter(40, counting(200_000, 2), "b");
		assertThat(a.array()).isSameAs(lent.array());
		assertThat(b.array()).as("given back twice, lent once").isNotSameAs(lent.array());
		values.giveBack(null);
	}

	@Test
	void smallValuesAndMoreThanTheKeptNumberAreNotKept() {
		ByteBuffer small = values.writeAfter(40, counting(20_000, 0), "small");
		values.giveBack(small);
		assertThat(values.writeAfter(40, counting(20_000, 0), "small").array()).isNotSameAs(small.array());

		ByteBuffer[] many = new ByteBuffer[EncodingArrays.KEPT + 1];
		for (int i = 0; i < many.length; i++) {
			many[i] = values.writeAfter(40, counting(200_000 + i, 0), "value " + i);
		}
		for (ByteBuffer each : many) {
			values.giveBack(each);
		}
		assertThat(values.writeAfter(40, counting(200_000, 3), "the first size").array()).as("the size kept longest made room")
				.isNotSameAs(many[0].array());
		assertThat(values.writeAfter(40, counting(200_000 + EncodingArrays.KEPT, 3), "the last size").array())
				.isSameAs(many[EncodingArrays.KEPT].array());
	}
}
