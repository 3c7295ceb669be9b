package io.fiberjvm.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.fiberjvm.config.ConfigKey;
import io.fiberjvm.config.ConfigKeys;

import static org.assertj.core.api.Assertions.assertThat;

/** The README's configuration table is the list of keys the code knows: same keys, types and defaults. */
class DocumentationTest {

	private static final Pattern ROW = Pattern.compile("^\\| `([a-z-]+)` \\| ([^|]+) \\| ([^|]+) \\|", Pattern.MULTILINE);

	@Test
	void readmeConfigurationTableMatchesConfigKeys() throws IOException {
		String readme = Files.readString(Path.of("..", "README.md"));
		Matcher m = ROW.matcher(readme.substring(readme.indexOf("## Configuration")));
		List<String> documented = new java.util.ArrayList<>();
		while (m.find()) {
			String name = m.group(1);
			documented.add(name);
			ConfigKey<?> key = ConfigKeys.byName(name);
			assertThat(key).as("README documents key '%s', which the code does not know", name).isNotNull();
			assertThat(m.group(2).trim()).as("type of %s", name).isEqualTo(key.type());
			String defaultText = m.group(3).trim();
			String expected = key.defaultValue().isEmpty() ? "(empty)" : "`" + key.defaultValue() + "`";
			assertThat(defaultText).as("default of %s", name).isEqualTo(expected);
		}
		assertThat(documented).containsExactlyElementsOf(ConfigKeys.all().stream().map(ConfigKey::name).toList());
	}
}
