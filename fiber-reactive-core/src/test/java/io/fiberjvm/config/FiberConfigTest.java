package io.fiberjvm.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Resolution of {@link FiberConfig} from its four sources plus defaults. Every test passes its
 * sources to {@link FiberConfig#resolve} directly: the real system properties and environment are
 * never read or changed.
 */
class FiberConfigTest {

	@TempDir
	Path dir;

	private static Properties props(String... keyValues) {
		Properties p = new Properties();
		for (int i = 0; i < keyValues.length; i += 2) {
			p.setProperty(keyValues[i], keyValues[i + 1]);
		}
		return p;
	}

	private Path file(String... lines) throws IOException {
		Path f = dir.resolve(FiberConfig.FILE_NAME);
		Files.write(f, List.of(lines), StandardCharsets.UTF_8);
		return f;
	}

	// ---- defaults -------------------------------------------------------------------------

	@Test
	void defaultsGiveEveryKeyItsDocumentedValue() {
		FiberConfig config = FiberConfig.defaults();

		assertThat(config.get(ConfigKeys.BACKEND)).isEmpty();
		assertThat(config.get(ConfigKeys.TRANSPORT)).isEmpty();
		assertThat(config.get(ConfigKeys.HOST)).isEqualTo("127.0.0.1");
		assertThat(config.get(ConfigKeys.PORT)).isZero();
		assertThat(config.get(ConfigKeys.MAX_FRAME_SIZE)).isEqualTo(8L * 1024 * 1024);
		assertThat(config.get(ConfigKeys.KEEPALIVE_INTERVAL)).isEqualTo(Duration.ofSeconds(1));
		assertThat(config.get(ConfigKeys.KEEPALIVE_TIMEOUT)).isEqualTo(Duration.ofSeconds(20));
		assertThat(config.get(ConfigKeys.START_TIMEOUT)).isEqualTo(Duration.ofSeconds(60));
		assertThat(config.get(ConfigKeys.TERMINATE_GRACE)).isEqualTo(Duration.ofSeconds(3));
		assertThat(config.get(ConfigKeys.JAVA)).isEmpty();
		assertThat(config.get(ConfigKeys.JVM_OPTIONS)).isEmpty();
		assertThat(config.get(ConfigKeys.SERIAL_ALLOW)).isEmpty();
		assertThat(config.get(ConfigKeys.LOCAL_GPUS)).isEmpty();
		assertThat(config.get(ConfigKeys.LOG_DIR).toString()).isEmpty();
		for (ConfigKey<?> key : ConfigKeys.all()) {
			assertThat(config.sourceOf(key)).as(key.name()).isEqualTo("default");
		}
		assertThat(config.toChildEnvironment()).isEmpty();
	}

	@Test
	void withSetsOneKeyForChildrenAndRefusesABadValueNamingTheKey() {
		FiberConfig base = FiberConfig.defaults();
		FiberConfig set = base.with(ConfigKeys.SERIAL_ALLOW, "com.acme.*", "a test");

		assertThat(set.get(ConfigKeys.SERIAL_ALLOW)).containsExactly("com.acme.*");
		assertThat(set.sourceOf(ConfigKeys.SERIAL_ALLOW)).isEqualTo("a test");
		assertThat(set.toChildEnvironment()).containsEntry("FIBER_SERIAL_ALLOW", "com.acme.*");
		assertThat(base.get(ConfigKeys.SERIAL_ALLOW)).as("the original is unchanged").isEmpty();
		assertThatThrownBy(() -> base.with(ConfigKeys.SERIAL_ALLOW, "not a pattern!", "a test"))
				.isInstanceOf(ConfigException.class).hasMessageContaining("serial-allow").hasMessageContaining("a test");
	}

	@Test
	void emptySourcesAndAMissingFileAreTheDefaults() {
		FiberConfig config = FiberConfig.resolve(Map.of(), new Properties(), Map.of(), dir.resolve("does-not-exist"));
		assertThat(config.get(ConfigKeys.PORT)).isZero();
		assertThat(config.sourceOf(ConfigKeys.PORT)).isEqualTo("default");
		assertThat(config.toChildEnvironment()).isEmpty();
	}

	@Test
	void nullSourcesAreRejected() {
		assertThatThrownBy(() -> FiberConfig.resolve(null, new Properties(), Map.of(), null))
				.isInstanceOf(NullPointerException.class);
		assertThatThrownBy(() -> FiberConfig.resolve(Map.of(), null, Map.of(), null))
				.isInstanceOf(NullPointerException.class);
		assertThatThrownBy(() -> FiberConfig.resolve(Map.of(), new Properties(), null, null))
				.isInstanceOf(NullPointerException.class);
	}

	// ---- precedence ---------------------------------------------------------------------

	@Test
	void builderBeatsSystemPropertiesBeatsEnvironmentBeatsFileBeatsDefault() throws IOException {
		Path f = file("port=1004");
		Map<String, String> builder = Map.of("port", "1001");
		Properties sys = props("fiber.port", "1002");
		Map<String, String> env = Map.of("FIBER_PORT", "1003");

		FiberConfig all = FiberConfig.resolve(builder, sys, env, f);
		assertThat(all.get(ConfigKeys.PORT)).isEqualTo(1001);
		assertThat(all.sourceOf(ConfigKeys.PORT)).contains("builder");

		FiberConfig noBuilder = FiberConfig.resolve(Map.of(), sys, env, f);
		assertThat(noBuilder.get(ConfigKeys.PORT)).isEqualTo(1002);
		assertThat(noBuilder.sourceOf(ConfigKeys.PORT)).isEqualTo("system property fiber.port");

		FiberConfig envAndFile = FiberConfig.resolve(Map.of(), new Properties(), env, f);
		assertThat(envAndFile.get(ConfigKeys.PORT)).isEqualTo(1003);
		assertThat(envAndFile.sourceOf(ConfigKeys.PORT)).isEqualTo("environment variable FIBER_PORT");

		FiberConfig fileOnly = FiberConfig.resolve(Map.of(), new Properties(), Map.of(), f);
		assertThat(fileOnly.get(ConfigKeys.PORT)).isEqualTo(1004);
		assertThat(fileOnly.sourceOf(ConfigKeys.PORT)).contains("file").contains(f.toString()).contains("port");

		FiberConfig none = FiberConfig.resolve(Map.of(), new Properties(), Map.of(), null);
		assertThat(none.get(ConfigKeys.PORT)).isZero();
		assertThat(none.sourceOf(ConfigKeys.PORT)).isEqualTo("default");
	}

	@Test
	void precedenceIsPerKeySoSourcesCombine() throws IOException {
		Path f = file("host=file.example", "keepalive-timeout=7s", "max-frame-size=1Mi", "backend=fromfile");
		Map<String, String> env = Map.of("FIBER_KEEPALIVE_TIMEOUT", "8s", "FIBER_MAX_FRAME_SIZE", "2Mi",
				"FIBER_BACKEND", "fromenv");
		Properties sys = props("fiber.max-frame-size", "3Mi", "fiber.backend", "fromsys");
		Map<String, String> builder = Map.of("backend", "frombuilder");

		FiberConfig config = FiberConfig.resolve(builder, sys, env, f);

		assertThat(config.get(ConfigKeys.HOST)).isEqualTo("file.example");
		assertThat(config.get(ConfigKeys.KEEPALIVE_TIMEOUT)).isEqualTo(Duration.ofSeconds(8));
		assertThat(config.get(ConfigKeys.MAX_FRAME_SIZE)).isEqualTo(3L << 20);
		assertThat(config.get(ConfigKeys.BACKEND)).isEqualTo("frombuilder");
		assertThat(config.get(ConfigKeys.PORT)).isZero();
	}

	@Test
	void aChildsIdentityPropertiesAreNotConfiguration() {
		// Every job-backed process sets these for its log lines; a runtime it opens must still resolve.
		FiberConfig config = FiberConfig.resolve(Map.of(), props("fiber.run", "k2x9a", "fiber.process", "pi-0-k2x9a-1"), Map.of(), null);
		assertThat(config.toChildEnvironment()).isEmpty();
	}

	@Test
	void otherEnvironmentVariablesAndSystemPropertiesAreIgnored() {
		FiberConfig config = FiberConfig.resolve(Map.of(),
				props("java.version", "17", "fiberish", "x", "user.home", "/home/x"),
				Map.of("PATH", "/usr/bin", "HOME", "/root", "fiber_port", "99", "XFIBER_PORT", "98"), null);
		assertThat(config.get(ConfigKeys.PORT)).isZero();
		assertThat(config.toChildEnvironment()).isEmpty();
	}

	@Test
	void runSecretInTheEnvironmentIsWiringNotAnError() {
		FiberConfig config = FiberConfig.resolve(Map.of(), new Properties(),
				Map.of("FIBER_RUN_SECRET", "s3cr3t", "FIBER_PORT", "4000"), null);
		assertThat(config.get(ConfigKeys.PORT)).isEqualTo(4000);
		assertThat(config.toChildEnvironment()).doesNotContainKey("FIBER_RUN_SECRET");
		assertThat(config.toString()).doesNotContain("s3cr3t");
	}

	// ---- unknown keys -------------------------------------------------------------------

	@Test
	void unknownKeyFromTheBuilderNamesKeyAndSource() {
		ConfigException e = catchThrowableOfType(
				() -> FiberConfig.resolve(Map.of("max-frame", "1Mi"), new Properties(), Map.of(), null), ConfigException.class);
		assertThat(e.key()).isEqualTo("max-frame");
		assertThat(e.getMessage()).contains("'max-frame'").contains("builder").contains("max-frame-size");
	}

	@Test
	void unknownKeyFromSystemPropertiesNamesKeyAsWrittenAndSource() {
		ConfigException e = catchThrowableOfType(
				() -> FiberConfig.resolve(Map.of(), props("fiber.prot", "1"), Map.of(), null), ConfigException.class);
		assertThat(e.key()).isEqualTo("fiber.prot");
		assertThat(e.getMessage()).contains("'fiber.prot'").contains("system properties");
	}

	@Test
	void unknownKeyFromTheEnvironmentNamesVariableAndSource() {
		ConfigException e = catchThrowableOfType(
				() -> FiberConfig.resolve(Map.of(), new Properties(), Map.of("FIBER_PROT", "1"), null), ConfigException.class);
		assertThat(e.key()).isEqualTo("FIBER_PROT");
		assertThat(e.getMessage()).contains("'FIBER_PROT'").contains("environment");
	}

	@Test
	void unknownKeyFromTheFileNamesKeyAndFile() throws IOException {
		Path f = file("# a comment", "port=1", "colour=blue");
		ConfigException e = catchThrowableOfType(
				() -> FiberConfig.resolve(Map.of(), new Properties(), Map.of(), f), ConfigException.class);
		assertThat(e.key()).isEqualTo("colour");
		assertThat(e.getMessage()).contains("'colour'").contains("file").contains(f.toString());
	}

	@Test
	void aKeyOneOrTwoEditsAwayIsSuggestedAsItsSourceWritesKeys() throws IOException {
		assertThatThrownBy(() -> FiberConfig.resolve(Map.of("max-frame-sise", "1Mi"), new Properties(), Map.of(), null))
				.hasMessageContaining("did you mean 'max-frame-size'?");
		assertThatThrownBy(() -> FiberConfig.resolve(Map.of(), props("fiber.prot", "1"), Map.of(), null))
				.hasMessageContaining("did you mean 'fiber.port'?");
		assertThatThrownBy(() -> FiberConfig.resolve(Map.of(), new Properties(), Map.of("FIBER_START_TIMOUT", "1s"), null))
				.hasMessageContaining("did you mean 'FIBER_START_TIMEOUT'?");
		// A key in another source's form is the same key.
		assertThatThrownBy(() -> FiberConfig.resolve(Map.of(), new Properties(), Map.of(), file("FIBER_PORT=1")))
				.hasMessageContaining("did you mean 'port'?");
		assertThatThrownBy(() -> FiberConfig.resolve(Map.of(), new Properties(), Map.of(), file("fiber.start-timeout=1s")))
				.hasMessageContaining("did you mean 'start-timeout'?");
	}

	@Test
	void aNameFarFromEveryKeyGetsNoGuessButTheKnownKeys() throws IOException {
		ConfigException e = catchThrowableOfType(
				() -> FiberConfig.resolve(Map.of(), new Properties(), Map.of(), file("colour=blue")), ConfigException.class);
		assertThat(e.getMessage()).doesNotContain("did you mean").contains("known keys: [").contains("max-frame-size");
	}

	@Test
	void editsCountLettersLeftOutAddedChangedOrSwapped() {
		assertThat(KeySuggestion.edits("port", "port")).isZero();
		assertThat(KeySuggestion.edits("prot", "port")).isEqualTo(1);
		assertThat(KeySuggestion.edits("pot", "port")).isEqualTo(1);
		assertThat(KeySuggestion.edits("portt", "port")).isEqualTo(1);
		assertThat(KeySuggestion.edits("bort", "port")).isEqualTo(1);
		assertThat(KeySuggestion.edits("brot", "port")).isEqualTo(2);
		assertThat(KeySuggestion.edits("colour", "port")).isEqualTo(KeySuggestion.MAX_EDITS + 1);
		assertThat(KeySuggestion.nearest("hots", java.util.List.of("host", "hosts-file", "port"))).containsExactly("host");
		assertThat(KeySuggestion.nearest("pxrt", java.util.List.of("port", "part", "pt"))).containsExactly("port", "part");
	}

	@Test
	void fileUsesCanonicalNamesNotPropertyOrEnvironmentNames() throws IOException {
		Path prefixed = file("fiber.port=1");
		assertThatThrownBy(() -> FiberConfig.resolve(Map.of(), new Properties(), Map.of(), prefixed))
				.isInstanceOf(ConfigException.class)
				.hasMessageContaining("'fiber.port'");

		Path envStyle = file("FIBER_PORT=1");
		assertThatThrownBy(() -> FiberConfig.resolve(Map.of(), new Properties(), Map.of(), envStyle))
				.isInstanceOf(ConfigException.class)
				.hasMessageContaining("'FIBER_PORT'");
	}

	@Test
	void unreadableFileIsAConfigExceptionNamingTheFile() throws IOException {
		Path f = file("port=\\uZZZZ");
		ConfigException e = catchThrowableOfType(
				() -> FiberConfig.resolve(Map.of(), new Properties(), Map.of(), f), ConfigException.class);
		assertThat(e.key()).isEqualTo(f.toString());
		assertThat(e.getMessage()).contains(f.toString());
	}

	// ---- bad values ---------------------------------------------------------------------

	@Test
	void badPortInTheEnvironmentNamesKeyVariableAndValue() {
		ConfigException e = catchThrowableOfType(
				() -> FiberConfig.resolve(Map.of(), new Properties(), Map.of("FIBER_PORT", "abc"), null), ConfigException.class);
		assertThat(e.key()).isEqualTo("port");
		assertThat(e.getMessage()).contains("'port'").contains("environment variable FIBER_PORT").contains("abc");
		assertThat(e.getCause()).isInstanceOf(IllegalArgumentException.class);
	}

	@Test
	void portOutsideItsRangeIsRefused() {
		assertThatThrownBy(() -> FiberConfig.resolve(Map.of("port", "65536"), new Properties(), Map.of(), null))
				.isInstanceOf(ConfigException.class)
				.hasMessageContaining("65536").hasMessageContaining("builder");
		assertThatThrownBy(() -> FiberConfig.resolve(Map.of("port", "-1"), new Properties(), Map.of(), null))
				.isInstanceOf(ConfigException.class);
		assertThat(FiberConfig.resolve(Map.of("port", "65535"), new Properties(), Map.of(), null).get(ConfigKeys.PORT))
				.isEqualTo(65535);
	}

	@Test
	void frameSizeOverTheRSocketLimitInTheFileNamesKeyFileAndLimit() throws IOException {
		Path f = file("max-frame-size=17Mi");
		ConfigException e = catchThrowableOfType(
				() -> FiberConfig.resolve(Map.of(), new Properties(), Map.of(), f), ConfigException.class);
		assertThat(e.key()).isEqualTo("max-frame-size");
		assertThat(e.getMessage()).contains("'max-frame-size'").contains("file").contains(f.toString())
				.contains("17Mi").contains("16777215");
	}

	@Test
	void frameSizeLimitsAreInclusive() {
		assertThat(FiberConfig.resolve(Map.of("max-frame-size", "16777215"), new Properties(), Map.of(), null)
				.get(ConfigKeys.MAX_FRAME_SIZE)).isEqualTo(16_777_215L);
		assertThat(FiberConfig.resolve(Map.of("max-frame-size", "1Ki"), new Properties(), Map.of(), null)
				.get(ConfigKeys.MAX_FRAME_SIZE)).isEqualTo(1024L);
		assertThatThrownBy(() -> FiberConfig.resolve(Map.of("max-frame-size", "16Mi"), new Properties(), Map.of(), null))
				.isInstanceOf(ConfigException.class);
		assertThatThrownBy(() -> FiberConfig.resolve(Map.of("max-frame-size", "1023"), new Properties(), Map.of(), null))
				.isInstanceOf(ConfigException.class);
	}

	@Test
	void zeroKeepaliveTimeoutFromASystemPropertyNamesKeyAndProperty() {
		ConfigException e = catchThrowableOfType(
				() -> FiberConfig.resolve(Map.of(), props("fiber.keepalive-timeout", "0s"), Map.of(), null), ConfigException.class);
		assertThat(e.key()).isEqualTo("keepalive-timeout");
		assertThat(e.getMessage()).contains("'keepalive-timeout'").contains("system property fiber.keepalive-timeout")
				.contains("0s");
	}

	@Test
	void negativeIsoDurationIsRefused() {
		assertThatThrownBy(() -> FiberConfig.resolve(Map.of("start-timeout", "PT-5S"), new Properties(), Map.of(), null))
				.isInstanceOf(ConfigException.class)
				.hasMessageContaining("start-timeout");
	}

	@Test
	void durationTooLargeForJavaIsABadValueNotACrash() {
		ConfigException e = catchThrowableOfType(() -> FiberConfig.resolve(Map.of(), new Properties(),
				Map.of("FIBER_START_TIMEOUT", "9223372036854775807h"), null), ConfigException.class);
		assertThat(e).isNotNull();
		assertThat(e.key()).isEqualTo("start-timeout");
		assertThat(e.getMessage()).contains("FIBER_START_TIMEOUT");
	}

	@Test
	void badSerialAllowPatternFromTheBuilderNamesKeyAndPattern() {
		ConfigException e = catchThrowableOfType(() -> FiberConfig.resolve(
				Map.of("serial-allow", "com.acme.*, com acme"), new Properties(), Map.of(), null), ConfigException.class);
		assertThat(e.key()).isEqualTo("serial-allow");
		assertThat(e.getMessage()).contains("'serial-allow'").contains("builder").contains("'com acme'");
	}

	@Test
	void badBackendNameAndBlankHostAreRefused() {
		assertThatThrownBy(() -> FiberConfig.resolve(Map.of(), new Properties(), Map.of("FIBER_BACKEND", "k8s!"), null))
				.isInstanceOf(ConfigException.class)
				.hasMessageContaining("'backend'").hasMessageContaining("FIBER_BACKEND");
		assertThatThrownBy(() -> FiberConfig.resolve(Map.of("host", "  "), new Properties(), Map.of(), null))
				.isInstanceOf(ConfigException.class)
				.hasMessageContaining("'host'");
	}

	// ---- parsed values ------------------------------------------------------------------

	@ParameterizedTest
	@CsvSource({
			"250ms, 250",
			"5s, 5000",
			"2m, 120000",
			"1h, 3600000",
			"PT1M, 60000",
			"PT0.5S, 500",
			"10 s, 10000",
			"3S, 3000",
	})
	void durationsInEveryAcceptedForm(String text, long millis) {
		FiberConfig config = FiberConfig.resolve(Map.of("keepalive-interval", text), new Properties(), Map.of(), null);
		assertThat(config.get(ConfigKeys.KEEPALIVE_INTERVAL)).isEqualTo(Duration.ofMillis(millis));
	}

	@ParameterizedTest
	@CsvSource({
			"4096, 4096",
			"64Ki, 65536",
			"15MiB, 15728640",
			"2k, 2048",
			"1KB, 1024",
			"16383Ki, 16776192",
	})
	void sizesInEveryAcceptedForm(String text, long bytes) {
		FiberConfig config = FiberConfig.resolve(Map.of(), props("fiber.max-frame-size", text), Map.of(), null);
		assertThat(config.get(ConfigKeys.MAX_FRAME_SIZE)).isEqualTo(bytes);
	}

	@Test
	void listsPathsAndNamesAreParsed() throws IOException {
		Path f = file("jvm-options=-Xmx2g   -XX:+UseParallelGC", "local-gpus=0, 1 ,2", "log-dir=" + dir.resolve("logs"),
				"serial-allow=com.acme.Task, com.acme.*, com.acme.**, !com.acme.Bad", "backend=Local");
		FiberConfig config = FiberConfig.resolve(Map.of(), new Properties(), Map.of(), f);

		assertThat(config.get(ConfigKeys.JVM_OPTIONS)).containsExactly("-Xmx2g", "-XX:+UseParallelGC");
		assertThat(config.get(ConfigKeys.LOCAL_GPUS)).containsExactly("0", "1", "2");
		assertThat(config.get(ConfigKeys.LOG_DIR)).isEqualTo(dir.resolve("logs"));
		assertThat(config.get(ConfigKeys.SERIAL_ALLOW))
				.containsExactly("com.acme.Task", "com.acme.*", "com.acme.**", "!com.acme.Bad");
		assertThat(config.get(ConfigKeys.BACKEND)).isEqualTo("local");
	}

	@Test
	void environmentNamesMapToCanonicalNames() {
		FiberConfig config = FiberConfig.resolve(Map.of(), new Properties(),
				Map.of("FIBER_MAX_FRAME_SIZE", "64Ki", "FIBER_KEEPALIVE_INTERVAL", "250ms", "FIBER_LOCAL_GPUS", "3"), null);
		assertThat(config.get(ConfigKeys.MAX_FRAME_SIZE)).isEqualTo(65536L);
		assertThat(config.get(ConfigKeys.KEEPALIVE_INTERVAL)).isEqualTo(Duration.ofMillis(250));
		assertThat(config.get(ConfigKeys.LOCAL_GPUS)).containsExactly("3");
		assertThat(config.sourceOf(ConfigKeys.MAX_FRAME_SIZE)).isEqualTo("environment variable FIBER_MAX_FRAME_SIZE");
	}

	// ---- child environment --------------------------------------------------------------

	@Test
	void childEnvironmentHasEveryNonDefaultValueButNeverThePort() throws IOException {
		Path f = file("log-dir=/var/log/fiber");
		FiberConfig config = FiberConfig.resolve(
				Map.of("port", "7000", "max-frame-size", "4Mi"),
				props("fiber.host", "0.0.0.0"),
				Map.of("FIBER_KEEPALIVE_TIMEOUT", "10s", "FIBER_RUN_SECRET", "s3cr3t", "FIBER_PORT", "7001"),
				f);

		assertThat(config.toChildEnvironment()).containsOnly(
				Map.entry("FIBER_MAX_FRAME_SIZE", "4Mi"),
				Map.entry("FIBER_HOST", "0.0.0.0"),
				Map.entry("FIBER_KEEPALIVE_TIMEOUT", "10s"),
				Map.entry("FIBER_LOG_DIR", "/var/log/fiber"));
	}

	@Test
	void whatNamesThisProcessAloneIsNotHandedToChildren() {
		FiberConfig config = FiberConfig.resolve(
				Map.of("port", "7000", "advertise-host", "10.1.2.3", "pod-name", "master-0", "kubeconfig", "/home/me/.kube/config",
						"namespace", "team-a", "image", "registry.example/app:1"),
				new Properties(), Map.of(), null);

		assertThat(config.toChildEnvironment()).containsOnly(
				Map.entry("FIBER_NAMESPACE", "team-a"),
				Map.entry("FIBER_IMAGE", "registry.example/app:1"));
	}

	@Test
	void childEnvironmentResolvesToTheSameValuesInTheChild() {
		FiberConfig parent = FiberConfig.resolve(
				Map.of("max-frame-size", "4Mi", "jvm-options", "-Xmx1g -Xss2m", "serial-allow", "com.acme.**",
						"local-gpus", "0,1", "keepalive-interval", "PT2S", "port", "5555"),
				new Properties(), Map.of(), null);

		Map<String, String> childEnv = new HashMap<>(parent.toChildEnvironment());
		childEnv.put("FIBER_RUN_SECRET", "x");
		childEnv.put("PATH", "/usr/bin");
		FiberConfig child = FiberConfig.resolve(Map.of(), new Properties(), childEnv, null);

		for (ConfigKey<?> key : ConfigKeys.all()) {
			if (key == ConfigKeys.PORT) {
				continue;
			}
			assertThat((Object) child.get(key)).as(key.name()).isEqualTo(parent.get(key));
		}
		assertThat(child.get(ConfigKeys.PORT)).isZero();
	}

	@Test
	void explicitValueEqualToTheDefaultIsStillHandedToTheChild() {
		FiberConfig config = FiberConfig.resolve(Map.of("host", "127.0.0.1"), new Properties(), Map.of(), null);
		assertThat(config.toChildEnvironment()).containsExactly(Map.entry("FIBER_HOST", "127.0.0.1"));
		assertThat(config.sourceOf(ConfigKeys.HOST)).contains("builder");
	}

	@Test
	void childEnvironmentIsACopy() {
		FiberConfig config = FiberConfig.resolve(Map.of("host", "a.example"), new Properties(), Map.of(), null);
		config.toChildEnvironment().put("FIBER_HOST", "b.example");
		assertThat(config.toChildEnvironment()).containsEntry("FIBER_HOST", "a.example");
	}
}
