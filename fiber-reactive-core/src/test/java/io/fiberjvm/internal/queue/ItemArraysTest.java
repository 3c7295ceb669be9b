package io.fiberjvm.internal.queue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ItemArraysTest {

	private final ItemArrays arrays = new ItemArrays();

	@Test
	void anArrayGivenBackIsLentAgainForAnItemOfItsSize() {
		byte[] first = arrays.take(4096);
		byte[] second = arrays.take(4096);
		assertThat(second).isNotSameAs(first);
		arrays.giveBack(List.of(ByteBuffer.wrap(first), ByteBuffer.wrap(second)));
		List<byte[]> again = List.of(arrays.take(4096), arrays.take(4096));
		assertThat(again).extracting(array -> (Object) array).containsExactlyInAnyOrder(first, second);
		byte[] fresh = arrays.take(4096);
		assertThat(fresh != first && fresh != second).as("a new array once those kept are lent").isTrue();
	}

	@Test
	void anArrayOfAnotherSizeIsNeverLentAndReplacesThoseKept() {
		byte[] small = arrays.take(4096);
		arrays.giveBack(List.of(ByteBuffer.wrap(small)));
		assertThat(arrays.take(8192)).hasSize(8192);
		byte[] large = new byte[8192];
		arrays.giveBack(List.of(ByteBuffer.wrap(large)));
		assertThat(arrays.take(4096)).isNotSameAs(small).hasSize(4096);
		assertThat(arrays.take(8192)).isSameAs(large);
	}

	@Test
	void smallArraysAndBuffersWithoutOneAreNotKept() {
		byte[] tiny = new byte[ItemArrays.SMALLEST - 1];
		arrays.giveBack(List.of(ByteBuffer.wrap(tiny), ByteBuffer.allocateDirect(4096)));
		assertThat(arrays.take(tiny.length)).isNotSameAs(tiny);
		assertThat(arrays.take(4096)).hasSize(4096);
	}

	@Test
	void atMostItsLimitInBytesIsKept() {
		int size = 1 << 20;
		List<ByteBuffer> given = new ArrayList<>();
		for (int i = 0; i < ItemArrays.KEPT_BYTES / size + 3; i++) {
			given.add(ByteBuffer.wrap(new byte[size]));
		}
		arrays.giveBack(given);
		List<byte[]> lent = new ArrayList<>();
		for (int i = 0; i < given.size(); i++) {
			lent.add(arrays.take(size));
		}
		long reused = lent.stream().filter(array -> given.stream().anyMatch(buffer -> buffer.array() == array)).count();
		assertThat(reused).isEqualTo(ItemArrays.KEPT_BYTES / size);
	}
}
