package io.fiberjvm.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DataSizeTest {

	@ParameterizedTest
	@CsvSource({
			"0, 0",
			"4096, 4096",
			"4096B, 4096",
			"1k, 1024",
			"1K, 1024",
			"1Ki, 1024",
			"1KB, 1024",
			"1KiB, 1024",
			"64Ki, 65536",
			"16MiB, 16777216",
			"512Mi, 536870912",
			"2g, 2147483648",
			"2Gi, 2147483648",
			"1T, 1099511627776",
			"' 8 Mi ', 8388608",
	})
	void parsesBinaryUnits(String text, long bytes) {
		assertThat(DataSize.parse(text)).isEqualTo(bytes);
	}

	@ParameterizedTest
	@ValueSource(strings = {"", "abc", "-1", "1.5Mi", "12Q", "Mi", "1Pi", "1 Mi B x", "12i", "12ib"})
	void refusesWhatIsNotASizeNamingTheText(String text) {
		assertThatThrownBy(() -> DataSize.parse(text))
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("'" + text + "'");
	}

	@Test
	void largestSizeThatFitsParsesAndOneMoreIsTooLarge() {
		// 8388607 Ti = 2^63 - 2^40, the largest whole number of Ti below Long.MAX_VALUE.
		assertThat(DataSize.parse("8388607Ti")).isEqualTo(8_388_607L << 40);
		assertThatThrownBy(() -> DataSize.parse("8388608Ti"))
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("8388608Ti")
				.hasMessageContaining("too large");
		assertThat(DataSize.parse("8589934591Gi")).isEqualTo(8_589_934_591L << 30);
		assertThatThrownBy(() -> DataSize.parse("8589934592Gi")).isInstanceOf(IllegalArgumentException.class);
	}

	@Test
	void numberTooLargeForALongIsAnIllegalArgument() {
		assertThatThrownBy(() -> DataSize.parse("99999999999999999999"))
				.isInstanceOf(IllegalArgumentException.class);
	}

	@ParameterizedTest
	@CsvSource({
			"0, 0",
			"1, 1",
			"1000, 1000",
			"1024, 1Ki",
			"1536, 1536",
			"65536, 64Ki",
			"8388608, 8Mi",
			"16777215, 16777215",
			"2147483648, 2Gi",
			"1099511627776, 1Ti",
			"1125899906842624, 1024Ti",
	})
	void formatsWithTheLargestExactUnit(long bytes, String text) {
		assertThat(DataSize.format(bytes)).isEqualTo(text);
	}

	@ParameterizedTest
	@ValueSource(longs = {0, 1, 1023, 1024, 65536, 16_777_215, 3L << 30, 5L << 40, 1L << 62})
	void formatThenParseIsTheSameNumber(long bytes) {
		assertThat(DataSize.parse(DataSize.format(bytes))).isEqualTo(bytes);
	}
}
