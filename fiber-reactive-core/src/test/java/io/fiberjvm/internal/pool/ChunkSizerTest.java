package io.fiberjvm.internal.pool;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ChunkSizerTest {

	private static final double MS = 1_000_000;

	@Test
	void unknownDurationsGoOneAtATimeWithoutPrefetch() {
		assertThat(ChunkSizer.size(-1, 0, 10_000, 4)).isEqualTo(1);
		assertThat(ChunkSizer.mayPrefetch(-1, 1)).isFalse();
	}

	@Test
	void shortTasksAreBatchedAndLongOnesAreNot() {
		assertThat(ChunkSizer.size(1 * MS, 0, 10_000, 5)).isEqualTo(50);
		assertThat(ChunkSizer.size(0.1 * MS, 0, 100_000, 5)).isEqualTo(500);
		assertThat(ChunkSizer.size(10 * MS, 0, 500, 5)).isEqualTo(5);
		assertThat(ChunkSizer.size(1000 * MS, 0, 5, 5)).isEqualTo(1);
		assertThat(ChunkSizer.mayPrefetch(1 * MS, 50)).isTrue();
		assertThat(ChunkSizer.mayPrefetch(100 * MS, 1)).isFalse();
		assertThat(ChunkSizer.mayPrefetch(1000 * MS, 1)).isFalse();
	}

	@Test
	void noChunkExceedsAFairShareOfWhatIsQueued() {
		// 16 no-op tasks on 4 workers: chunks of 2 (a worker may hold two), never 16 to one.
		assertThat(ChunkSizer.size(1_000, 0, 16, 4)).isEqualTo(2);
		assertThat(ChunkSizer.size(1_000, 0, 1, 4)).isEqualTo(1);
		assertThat(ChunkSizer.size(0, 0, 1_000_000, 1)).isEqualTo(ChunkSizer.MAX_CHUNK);
	}

	@Test
	void aFixedChunkSizeWins() {
		assertThat(ChunkSizer.size(-1, 10, 3, 4)).isEqualTo(10);
	}
}
