package io.fiberjvm.internal.runtime;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class SharedClassArchiveTest {

	private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

	private static Path jar(Path dir, String name) throws Exception {
		return Files.write(dir.resolve(name), new byte[] {1, 2, 3});
	}

	@Test
	void aDirectoryOnTheClasspathMeansNoArchive(@TempDir Path dir) throws Exception {
		String classpath = jar(dir, "a.jar") + File.pathSeparator + Files.createDirectory(dir.resolve("classes"));
		assertThat(SharedClassArchive.forClasspath(JAVA, classpath, dir.resolve("cds"))).isNull();
		assertThat(SharedClassArchive.forClasspath(JAVA, dir.resolve("missing.jar").toString(), dir.resolve("cds"))).isNull();
	}

	@Test
	void oneChildWritesTheOthersWaitThenAllShare(@TempDir Path dir) throws Exception {
		SharedClassArchive archive = SharedClassArchive.forClasspath(JAVA, jar(dir, "a.jar").toString(), dir.resolve("cds"));
		SharedClassArchive.Lease writer = archive.lease();
		assertThat(writer.options()).singleElement().asString().startsWith("-XX:ArchiveClassesAtExit=");
		assertThat(archive.lease().options()).as("a second child while the first writes").isEmpty();

		// The child wrote its draft and ended: the parent publishes it.
		Path draft = Path.of(writer.options().get(0).substring("-XX:ArchiveClassesAtExit=".length()));
		Files.write(draft, new byte[] {42});
		writer.release();
		assertThat(archive.path()).exists();
		assertThat(draft).doesNotExist();
		assertThat(archive.lease().options()).containsExactly("-XX:SharedArchiveFile=" + archive.path());
	}

	@Test
	void aWriterThatDiedWithoutAnArchiveLetsTheNextChildTry(@TempDir Path dir) throws Exception {
		SharedClassArchive archive = SharedClassArchive.forClasspath(JAVA, jar(dir, "a.jar").toString(), dir.resolve("cds"));
		SharedClassArchive.Lease writer = archive.lease();
		writer.release();
		assertThat(archive.path()).doesNotExist();
		assertThat(archive.lease().options()).singleElement().asString().startsWith("-XX:ArchiveClassesAtExit=");
	}

	@Test
	void aChangedJarGetsAnotherArchive(@TempDir Path dir) throws Exception {
		Path jar = jar(dir, "a.jar");
		Path before = SharedClassArchive.forClasspath(JAVA, jar.toString(), dir).path();
		Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() - 60_000));
		Path after = SharedClassArchive.forClasspath(JAVA, jar.toString(), dir).path();
		assertThat(after).isNotEqualTo(before);
	}
}
