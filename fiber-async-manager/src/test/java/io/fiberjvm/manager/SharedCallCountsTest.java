package io.fiberjvm.manager;

import org.junit.jupiter.api.Test;

import io.fiberjvm.codec.CodecException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SharedCallCountsTest {

	@Test
	void aReportCarriesCallsFailuresAndTime() {
		SharedCallCounts counts = new SharedCallCounts();
		// A millisecond ago, so the summed time is more than zero on any clock.
		long start = System.nanoTime() - 1_000_000;
		counts.served(start, false);
		counts.served(start, true);
		counts.served(start, false);
		long[] report = SharedCallCounts.decode(counts.encode());
		assertThat(report[0]).isEqualTo(3);
		assertThat(report[1]).isEqualTo(1);
		assertThat(report[2]).isPositive();
		assertThat(counts.calls()).isEqualTo(3);
	}

	@Test
	void aReportOfTheWrongSizeIsRefusedSayingSo() {
		assertThatThrownBy(() -> SharedCallCounts.decode(new byte[5])).isInstanceOf(CodecException.class)
				.hasMessage("a shared-call report is 24 bytes, not 5");
		assertThatThrownBy(() -> SharedCallCounts.decode(null)).isInstanceOf(CodecException.class)
				.hasMessageContaining("not 0");
	}
}
