package io.fiberjvm.config;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConfigKeysTest {

	@Test
	void everyKeyIsListedOnceFindableByNameAndDocumented() {
		List<ConfigKey<?>> all = ConfigKeys.all();
		assertThat(all).contains(ConfigKeys.BACKEND, ConfigKeys.TRANSPORT, ConfigKeys.HOST, ConfigKeys.PORT,
				ConfigKeys.MAX_FRAME_SIZE, ConfigKeys.KEEPALIVE_INTERVAL, ConfigKeys.KEEPALIVE_TIMEOUT,
				ConfigKeys.START_TIMEOUT, ConfigKeys.TERMINATE_GRACE, ConfigKeys.JAVA, ConfigKeys.JVM_OPTIONS,
				ConfigKeys.SERIAL_ALLOW, ConfigKeys.LOCAL_GPUS, ConfigKeys.LOG_DIR);
		Set<String> names = new HashSet<>();
		for (ConfigKey<?> key : all) {
			assertThat(names.add(key.name())).as("duplicate %s", key.name()).isTrue();
			assertThat(ConfigKeys.byName(key.name())).isSameAs(key);
			assertThat(key.name()).matches("[a-z][a-z0-9-]*");
			assertThat(key.description()).isNotBlank();
			assertThat(key.type()).isNotBlank();
			assertThat(key.defaultValue()).as("default of %s", key.name()).isNotNull();
			assertThat(key.toString()).isEqualTo(key.name());
		}
		assertThat(ConfigKeys.byName("no-such-key")).isNull();
		assertThat(ConfigKeys.byName("MAX_FRAME_SIZE")).isNull();
	}

	@Test
	void theListIsReadOnly() {
		assertThatThrownBy(() -> ConfigKeys.all().add(ConfigKeys.PORT)).isInstanceOf(UnsupportedOperationException.class);
	}

	@Test
	void everyDefaultParses() {
		for (ConfigKey<?> key : ConfigKeys.all()) {
			assertThat(key.parse(key.defaultValue())).as(key.name()).isNotNull();
		}
	}

	@Test
	void nameFormsForPropertiesAndEnvironment() {
		assertThat(ConfigKeys.MAX_FRAME_SIZE.name()).isEqualTo("max-frame-size");
		assertThat(ConfigKeys.MAX_FRAME_SIZE.propertyName()).isEqualTo("fiber.max-frame-size");
		assertThat(ConfigKeys.MAX_FRAME_SIZE.environmentName()).isEqualTo("FIBER_MAX_FRAME_SIZE");
		assertThat(ConfigKeys.PORT.environmentName()).isEqualTo("FIBER_PORT");
		assertThat(ConfigKeys.PORT.propertyName()).isEqualTo("fiber.port");
	}

	@ParameterizedTest
	@CsvSource({
			"250ms, PT0.25S",
			"5s, PT5S",
			"2m, PT2M",
			"1h, PT1H",
			"PT1M, PT1M",
			"P1DT1H, PT25H",
			"0s, PT0S",
			"5MS, PT0.005S",
			"' 7 s ', PT7S",
	})
	void parsesDurations(String text, String iso) {
		assertThat(ConfigKeys.parseDuration(text)).isEqualTo(Duration.parse(iso));
	}

	@ParameterizedTest
	@ValueSource(strings = {"", "5", "abc", "5 seconds", "-5s", "1.5s", "5d", "PT"})
	void refusesWhatIsNotADurationNamingTheText(String text) {
		assertThatThrownBy(() -> ConfigKeys.parseDuration(text))
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("'" + text + "'");
	}

	@ParameterizedTest
	@ValueSource(strings = {"9223372036854775807h", "9223372036854775807m", "99999999999999999999s"})
	void durationTooLargeIsAnIllegalArgument(String text) {
		assertThatThrownBy(() -> ConfigKeys.parseDuration(text)).isInstanceOf(IllegalArgumentException.class);
	}

	@ParameterizedTest
	@ValueSource(strings = {"com.acme.Task", "com.acme.*", "com.acme.**", "com.acme*", "!com.acme.Bad", "Outer$Inner", "_x"})
	void acceptsClassPatterns(String pattern) {
		assertThat(ConfigKeys.SERIAL_ALLOW.parse(pattern)).containsExactly(pattern);
	}

	@ParameterizedTest
	@ValueSource(strings = {"*", "**", "com acme", "1com.acme", "com.acme.***", "com/acme/Task", "java.base/*", "maxdepth=5"})
	void refusesWhatIsNotAClassPattern(String pattern) {
		assertThatThrownBy(() -> ConfigKeys.SERIAL_ALLOW.parse("com.ok.*," + pattern))
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("'" + pattern + "'");
	}

	@Test
	void emptyListsAreEmpty() {
		assertThat(ConfigKeys.SERIAL_ALLOW.parse("  ")).isEmpty();
		assertThat(ConfigKeys.LOCAL_GPUS.parse("")).isEmpty();
		assertThat(ConfigKeys.JVM_OPTIONS.parse(" ")).isEmpty();
		assertThat(ConfigKeys.LOCAL_GPUS.parse(" , 0,, 1 ,")).containsExactly("0", "1");
	}
}
