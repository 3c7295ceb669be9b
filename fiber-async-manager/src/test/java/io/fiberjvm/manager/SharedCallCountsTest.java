package io.fiberjvm.manager;

import org.junit.jupiter.api.Test;

import io.fiberjvm.codec.CodecException;
import io.fiberjvm.internal.frames.SharedCallsFrame;

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
		SharedCallsFrame report = SharedCallsFrame.decode(counts.report().encode());
		assertThat(report.calls()).isEqualTo(3);
		assertThat(report.failed()).isEqualTo(1);
		assertThat(report.nanos()).isPositive();
		assertThat(counts.calls()).isEqualTo(3);
	}

	@Test
	void aReportOfTheWrongSizeIsRefusedSayingSo() {
		byte[] cut = java.util.Arrays.copyOf(new SharedCallCounts().report().encode(), 5);
		assertThatThrownBy(() -> SharedCallsFrame.decode(cut)).isInstanceOf(CodecException.class)
				.hasMessageContaining("malformed shared-call report of 5 bytes");
	}
}
