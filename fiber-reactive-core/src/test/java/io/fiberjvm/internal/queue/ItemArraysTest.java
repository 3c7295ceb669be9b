package io.fiberjvm.internal.queue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fiberjvm.internal.frames.QueueItem;

import static org.assertj.core.api.Assertions.assertThat;

class ItemArraysTest {

	private final ItemArrays arrays = new ItemArrays();

	@Test
	void anArrayGivenBackIsLentAgainForAnItemOfItsSize() {
		assertThat(arrays.take(4096)).as("none kept yet").isNull();
		byte[] first = new byte[4096];
		byte[] second = new byte[4096];
		arrays.giveBack(List.of(QueueItem.of(ByteBuffer.wrap(first)), QueueItem.of(ByteBuffer.wrap(second))));
		assertThat(arrays.take(4096)).as("the last given back first").isSameAs(second);
		assertThat(arrays.take(4096)).isSameAs(first);
		assertThat(arrays.take(4096)).as("none left").isNull();
	}

	@Test
	void anArrayOfAnotherSizeIsNeverLentAndReplacesThoseKept() {
		arrays.giveBack(List.of(QueueItem.of(ByteBuffer.wrap(new byte[4096]))));
		assertThat(arrays.take(8192)).isNull();
		byte[] large = new byte[8192];
		arrays.giveBack(List.of(QueueItem.of(ByteBuffer.wrap(large))));
		assertThat(arrays.take(4096)).as("replaced").isNull();
		assertThat(arrays.take(8192)).isSameAs(large);
	}

	@Test
	void smallArraysAndBuffersWithoutOneAreNotKept() {
		byte[] tiny = new byte[ItemArrays.SMALLEST - 1];
		arrays.giveBack(List.of(QueueItem.of(ByteBuffer.wrap(tiny)), QueueItem.of(ByteBuffer.allocateDirect(4096))));
		assertThat(arrays.take(tiny.length)).isNull();
		assertThat(arrays.take(4096)).isNull();
	}

	@Test
	void atMostItsLimitInBytesIsKept() {
		int size = 1 << 20;
		List<QueueItem> given = new ArrayList<>();
		for (int i = 0; i < ItemArrays.KEPT_BYTES / size + 3; i++) {
			given.add(QueueItem.of(ByteBuffer.wrap(new byte[size])));
		}
		arrays.giveBack(given);
		List<byte[]> lent = new ArrayList<>();
		for (int i = 0; i < given.size(); i++) {
			lent.add(arrays.take(size));
		}
		assertThat(lent.stream().filter(java.util.Objects::nonNull).count()).isEqualTo(ItemArrays.KEPT_BYTES / size);
	}
}
