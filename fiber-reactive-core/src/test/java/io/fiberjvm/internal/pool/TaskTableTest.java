package io.fiberjvm.internal.pool;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import io.fiberjvm.FiberFunction;
import io.fiberjvm.codec.ShippedValues;

import static org.assertj.core.api.Assertions.assertThat;

/** The pending table against a HashMap doing the same: puts, gets and removals in random order, growth, clearing. */
class TaskTableTest {

	private static final ShippedFunction FUNCTION = new ShippedFunction((FiberFunction<Integer, Integer>) x -> x,
			FiberFunction.class, new ShippedValues(List.of()));
	/** A sink nobody completes: the table never calls it. */
	private static final TaskSink NO_SINK = new TaskSink() {
		@Override
		public void success(@Nullable Object value) {
		}

		@Override
		public void error(Throwable error) {
		}
	};

	private static Task task(long id) {
		return new Task(id, FUNCTION, null, new TaskName("map", id, FUNCTION), 1, 0, true, NO_SINK);
	}

	@Test
	void behavesAsAMapOfIdsThroughHundredsOfThousandsOfTurns() {
		Random random = new Random(42);
		TaskTable table = new TaskTable();
		Map<Long, Task> expected = new HashMap<>();
		List<Long> live = new ArrayList<>();
		long nextId = 1;
		for (int step = 0; step < 300_000; step++) {
			int op = random.nextInt(10);
			// Up to a few thousand pending at once, as a session holds: the table grows, then turns over.
			if ((op < 5 && live.size() < 4096) || live.isEmpty()) {
				Task task = task(nextId++);
				table.put(task);
				expected.put(task.id, task);
				live.add(task.id);
			}
			else if (op < 9) {
				// Mostly the oldest, as answers come; now and then any.
				int at = random.nextInt(4) == 0 ? random.nextInt(live.size()) : 0;
				long id = live.remove(at);
				assertThat(table.remove(id)).isSameAs(expected.remove(id));
			}
			else {
				long id = random.nextInt((int) nextId + 10);
				assertThat(table.get(id)).isSameAs(expected.get(id));
				assertThat(table.remove(-id - 1)).isNull();
			}
			if (table.size() != expected.size()) {
				throw new AssertionError("the table holds " + table.size() + " tasks where " + expected.size() + " are left");
			}
		}
		for (Map.Entry<Long, Task> entry : expected.entrySet()) {
			assertThat(table.get(entry.getKey())).isSameAs(entry.getValue());
		}
		assertThat(table.values()).containsExactlyInAnyOrderElementsOf(expected.values());
		table.clear();
		assertThat(table.isEmpty()).isTrue();
		assertThat(table.values()).isEmpty();
		assertThat(table.get(1)).isNull();
	}

	@Test
	void idsThatShareTheirLowBitsAndNegativeOnesAreKeptApart() {
		TaskTable table = new TaskTable();
		Map<Long, Task> expected = new HashMap<>();
		List<Long> ids = new ArrayList<>(List.of(Long.MIN_VALUE, Long.MAX_VALUE, -1L, 0L));
		for (long i = 1; i <= 200; i++) {
			ids.add(i << 32);
			ids.add(-i);
		}
		for (long id : ids) {
			Task task = task(id);
			table.put(task);
			expected.put(id, task);
		}
		Random random = new Random(7);
		while (!ids.isEmpty()) {
			long id = ids.remove(random.nextInt(ids.size()));
			assertThat(table.remove(id)).isSameAs(expected.remove(id));
			for (long left : ids) {
				assertThat(table.get(left)).isSameAs(expected.get(left));
			}
		}
		assertThat(table.isEmpty()).isTrue();
	}

	@Test
	void aSecondPutOfAnIdReplacesTheFirst() {
		TaskTable table = new TaskTable();
		Task first = task(7);
		Task second = task(7);
		table.put(first);
		table.put(second);
		assertThat(table.size()).isEqualTo(1);
		assertThat(table.get(7)).isSameAs(second);
	}
}
