package io.fiberjvm.backend.local;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.test.StepVerifier;

class OutputTailTest {

	private static void append(Path file, String text) {
		try {
			Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
		}
		catch (java.io.IOException e) {
			throw new java.io.UncheckedIOException(e);
		}
	}

	@Test
	void followsLinesAsTheyAreWrittenJoinsPartialLinesAndEndsAfterTheJobWithTheLastBytes(@TempDir Path dir) throws Exception {
		Path file = dir.resolve("job.log");
		Files.writeString(file, "one\ntw");
		AtomicBoolean ended = new AtomicBoolean();
		StepVerifier.create(OutputTail.follow(file, ended::get))
				.expectNext("one")
				.then(() -> append(file, "o\r\nthr"))
				.expectNext("two")
				.then(() -> {
					append(file, "ee\nno newline at the end");
					ended.set(true);
				})
				.expectNext("three", "no newline at the end")
				.expectComplete()
				.verify(Duration.ofSeconds(30));
	}

	@Test
	void aFileThatCannotBeReadIsAClearError(@TempDir Path dir) {
		StepVerifier.create(OutputTail.follow(dir.resolve("missing.log"), () -> true))
				.expectErrorSatisfies(e -> org.assertj.core.api.Assertions.assertThat(e).hasMessageContaining("cannot follow the output in")
						.hasMessageContaining("missing.log"))
				.verify(Duration.ofSeconds(30));
	}
}
