package io.fiberjvm.internal.runtime;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static io.fiberjvm.internal.runtime.SharedClassArchive.Format.AOT_CACHE;
import static io.fiberjvm.internal.runtime.SharedClassArchive.Format.CLASS_DATA;
import static org.assertj.core.api.Assertions.assertThat;

class SharedClassArchiveTest {

	private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

	private static Path jar(Path dir, String name) throws Exception {
		return Files.write(dir.resolve(name), new byte[] {1, 2, 3});
	}

	@Test
	void aDirectoryOnTheClasspathMeansNoArchive(@TempDir Path dir) throws Exception {
		String classpath = jar(dir, "a.jar") + File.pathSeparator + Files.createDirectory(dir.resolve("classes"));
		assertThat(SharedClassArchive.forClasspath(JAVA, List.of(), classpath, CLASS_DATA, dir.resolve("cds"))).isNull();
		String missing = dir.resolve("missing.jar").toString();
		assertThat(SharedClassArchive.forClasspath(JAVA, List.of(), missing, CLASS_DATA, dir.resolve("cds"))).isNull();
	}

	@Test
	void oneChildWritesTheOthersWaitThenAllShare(@TempDir Path dir) throws Exception {
		SharedClassArchive archive = SharedClassArchive.forClasspath(JAVA, List.of(), jar(dir, "a.jar").toString(), CLASS_DATA,
				dir.resolve("cds"));
		SharedClassArchive.Lease writer = archive.lease();
		assertThat(writer.options()).singleElement().asString().startsWith("-XX:ArchiveClassesAtExit=");
		assertThat(archive.lease().options()).as("a second child while the first writes").isEmpty();

		// The child wrote its draft and ended: the parent publishes it.
		Path draft = Path.of(writer.options().get(0).substring("-XX:ArchiveClassesAtExit=".length()));
		Files.write(draft, new byte[] {42});
		writer.release(0);
		assertThat(archive.path()).exists();
		assertThat(draft).doesNotExist();
		assertThat(archive.lease().options()).containsExactly("-XX:SharedArchiveFile=" + archive.path());
	}

	@Test
	void aWriterThatDiedWithoutAnArchiveLetsTheNextChildTry(@TempDir Path dir) throws Exception {
		SharedClassArchive archive = SharedClassArchive.forClasspath(JAVA, List.of(), jar(dir, "a.jar").toString(), CLASS_DATA,
				dir.resolve("cds"));
		SharedClassArchive.Lease writer = archive.lease();
		writer.release(null);
		assertThat(archive.path()).doesNotExist();
		assertThat(archive.lease().options()).singleElement().asString().startsWith("-XX:ArchiveClassesAtExit=");
	}

	@Test
	void aChangedJarGetsAnotherArchive(@TempDir Path dir) throws Exception {
		Path jar = jar(dir, "a.jar");
		Path before = SharedClassArchive.forClasspath(JAVA, List.of(), jar.toString(), CLASS_DATA, dir).path();
		Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() - 60_000));
		Path after = SharedClassArchive.forClasspath(JAVA, List.of(), jar.toString(), CLASS_DATA, dir).path();
		assertThat(after).isNotEqualTo(before);
	}

	@Test
	void anotherJvmOptionGetsAnotherArchive(@TempDir Path dir) throws Exception {
		String jar = jar(dir, "a.jar").toString();
		Path plain = SharedClassArchive.forClasspath(JAVA, List.of(), jar, CLASS_DATA, dir).path();
		Path serial = SharedClassArchive.forClasspath(JAVA, List.of("-XX:+UseSerialGC"), jar, CLASS_DATA, dir).path();
		assertThat(serial).isNotEqualTo(plain);
	}

	@Test
	void theAotCacheIsWrittenAndReadWithItsOwnOptions(@TempDir Path dir) throws Exception {
		SharedClassArchive archive = SharedClassArchive.forClasspath(JAVA, List.of(), jar(dir, "a.jar").toString(),
				AOT_CACHE, dir.resolve("aot"));
		assertThat(archive.path().getFileName().toString()).endsWith(".aot");
		SharedClassArchive.Lease writer = archive.lease();
		assertThat(writer.options()).singleElement().asString().startsWith("-XX:AOTCacheOutput=");
		Files.write(Path.of(writer.options().get(0).substring("-XX:AOTCacheOutput=".length())), new byte[] {42});
		writer.release(0);
		assertThat(archive.lease().options()).containsExactly("-XX:AOTCache=" + archive.path());
	}

	@Test
	void onlyThisJvmsOwnJavaOnJdk25OrLaterGetsTheAotCache(@TempDir Path dir) throws Exception {
		SharedClassArchive.Format own = Runtime.version().feature() >= 25 ? AOT_CACHE
				: CLASS_DATA;
		assertThat(SharedClassArchive.Format.forJava(JAVA)).isEqualTo(own);
		// A java this JVM cannot vouch for (here a file that is no JDK at all) gets what every JDK reads.
		assertThat(SharedClassArchive.Format.forJava(jar(dir, "java").toString())).isEqualTo(CLASS_DATA);
	}

	@Test
	void aWriterKilledOutrightPublishesNothingAndLeavesNothingBehind(@TempDir Path dir) throws Exception {
		SharedClassArchive archive = SharedClassArchive.forClasspath(JAVA, List.of(), jar(dir, "a.jar").toString(),
				AOT_CACHE, dir.resolve("aot"));
		SharedClassArchive.Lease writer = archive.lease();
		assertThat(writer.writes()).isTrue();
		Path draft = Path.of(writer.options().get(0).substring("-XX:AOTCacheOutput=".length()));
		Files.write(draft, new byte[] {42});
		Path config = draft.resolveSibling(draft.getFileName() + ".config");
		Files.write(config, new byte[] {7});
		writer.release(137);
		assertThat(archive.path()).doesNotExist();
		assertThat(draft).doesNotExist();
		assertThat(config).doesNotExist();
		assertThat(archive.lease().writes()).as("the next child writes it again").isTrue();
	}
}
