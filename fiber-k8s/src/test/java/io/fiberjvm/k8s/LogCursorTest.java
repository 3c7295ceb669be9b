package io.fiberjvm.k8s;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A followed log opened again after a break delivers each line once. */
class LogCursorTest {

	private static List<String> read(LogCursor cursor, String... stamped) {
		List<String> delivered = new ArrayList<>();
		for (String line : stamped) {
			String text = cursor.accept(line);
			if (text != null) {
				delivered.add(text);
			}
		}
		return delivered;
	}

	@Test
	void aStreamOpenedAgainSkipsWhatWasDeliveredIncludingLinesOfTheSameInstant() {
		LogCursor cursor = new LogCursor();
		assertThat(cursor.since()).isNull();
		assertThat(read(cursor, "2026-11-23T05:00:00.100Z a", "2026-11-23T05:00:01.200Z b", "2026-11-23T05:00:01.200Z c"))
				.containsExactly("a", "b", "c");
		// Opened again from the last line's second: the server sends from 05:00:01 on.
		assertThat(cursor.since()).isEqualTo("2026-11-23T05:00:01Z");
		cursor.reopened();
		assertThat(read(cursor, "2026-11-23T05:00:01.000Z earlier", "2026-11-23T05:00:01.200Z b",
				"2026-11-23T05:00:01.200Z c", "2026-11-23T05:00:01.200Z d", "2026-11-23T05:00:02Z e"))
				.containsExactly("d", "e");
		cursor.reopened();
		assertThat(read(cursor, "2026-11-23T05:00:02Z e", "2026-11-23T05:00:02.5Z f")).containsExactly("f");
	}

	@Test
	void anEmptyLineKeepsItsPlace() {
		LogCursor cursor = new LogCursor();
		assertThat(read(cursor, "2026-11-23T05:00:00Z ", "2026-11-23T05:00:00.5Z")).containsExactly("", "");
	}

	@Test
	void whatIsNotALogLineIsRefusedShowingIt() {
		LogCursor cursor = new LogCursor();
		assertThatThrownBy(() -> cursor.accept("{\"kind\":\"Status\",\"message\":\"pods \\\"x\\\" not found\"}"))
				.hasMessageStartingWith("the API server sent this instead of a log line: {\"kind\":\"Status\"");
	}
}
