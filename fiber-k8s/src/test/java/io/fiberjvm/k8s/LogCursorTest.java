package io.fiberjvm.k8s;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A followed log opened again after a break delivers each line once. */
class LogCursorTest {

	private static final List<String> LOG = List.of("2026-11-23T05:00:00.100Z a", "2026-11-23T05:00:01.200Z b",
			"2026-11-23T05:00:01.200Z b", "2026-11-23T05:00:01.100Z d", "2026-11-23T05:00:02Z e", "2026-11-23T05:00:02.5Z f");

	private static List<String> read(LogCursor cursor, List<String> stamped) {
		List<String> delivered = new ArrayList<>();
		for (String line : stamped) {
			String text = cursor.accept(line);
			if (text != null) {
				delivered.add(text);
			}
		}
		return delivered;
	}

	/** What a kubelet sends from {@code since} on: the log's lines at or after it, in the log's order. */
	private static List<String> from(String since, List<String> log) {
		return log.stream().filter(line -> since == null || !Instant.parse(line.substring(0, line.indexOf(' ')))
				.isBefore(Instant.parse(since))).toList();
	}

	@Test
	void aStreamOpenedAgainDeliversOnlyWhatCameAfterTheLastLineDelivered() {
		LogCursor cursor = new LogCursor();
		assertThat(cursor.since()).isNull();
		assertThat(read(cursor, LOG.subList(0, 3))).containsExactly("a", "b", "b");
		// A second before the last line's second, so a line stamped a little earlier is not missed.
		assertThat(cursor.since()).isEqualTo("2026-11-23T05:00:00Z");
		cursor.reopened();
		assertThat(read(cursor, from(cursor.since(), LOG).subList(0, 5))).containsExactly("d", "e");
		cursor.reopened();
		assertThat(read(cursor, from(cursor.since(), LOG))).containsExactly("f");
		cursor.reopened();
		assertThat(read(cursor, from(cursor.since(), LOG))).isEmpty();
	}

	@Test
	void aStreamOpenedAgainAfterTheLogWasRotatedLosesNothingItStillHas() {
		LogCursor cursor = new LogCursor();
		assertThat(read(cursor, LOG.subList(0, 4))).containsExactly("a", "b", "b", "d");
		cursor.reopened();
		// Rotated: the current file starts after the first "b".
		assertThat(read(cursor, LOG.subList(2, 6))).containsExactly("e", "f");
	}

	@Test
	void withinOneStreamALineStampedEarlierIsStillDelivered() {
		LogCursor cursor = new LogCursor();
		assertThat(read(cursor, List.of("2026-11-23T05:00:03Z out", "2026-11-23T05:00:02.9Z err", "2026-11-23T05:00:03.1Z out2")))
				.containsExactly("out", "err", "out2");
	}

	@Test
	void anEmptyLineKeepsItsPlace() {
		LogCursor cursor = new LogCursor();
		assertThat(read(cursor, List.of("2026-11-23T05:00:00Z ", "2026-11-23T05:00:00.5Z"))).containsExactly("", "");
	}

	@Test
	void whatIsNotALogLineIsRefusedShowingIt() {
		LogCursor cursor = new LogCursor();
		assertThatThrownBy(() -> cursor.accept("{\"kind\":\"Status\",\"message\":\"pods \\\"x\\\" not found\"}"))
				.hasMessageStartingWith("the API server sent this instead of a log line: {\"kind\":\"Status\"");
		assertThatThrownBy(() -> LogCursor.check("404 page not found")).hasMessageContaining("404 page not found");
		LogCursor.check("2026-11-23T05:00:00Z half a li");
	}

	@Test
	void aLogsLinesEndAtNewlinesOnly() {
		assertThat(KubernetesJob.lines("")).isEmpty();
		assertThat(KubernetesJob.lines("a\n\n\nb\r\nbar 1\rbar 2\n")).containsExactly("a", "", "", "b", "bar 1\rbar 2");
		assertThat(KubernetesJob.lines("no newline")).containsExactly("no newline");
	}
}
