package io.fiberjvm.it;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * With a classpath of jars, the first child writes a class-data archive and the next children map it.
 * The test jars up its own class directories, so the parent JVM runs from jars only.
 */
class ClassSharingTest {

	private static final String OWN_JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
	/** The archive's suffix when the children run this JVM's own java. */
	private static final String OWN_SUFFIX = Runtime.version().feature() >= 25 ? ".aot" : ".jsa";

	@Test
	void firstChildWritesTheArchiveAndLaterChildrenShareIt(@TempDir Path dir) throws Exception {
		// On JDK 25 and later the children share an AOT cache instead (the next test).
		assumeTrue(Runtime.version().feature() < 25, "this JVM is JDK 25 or later");
		List<String> options = childOptions(dir, OWN_JAVA);
		Path tmp = dir.resolve("tmp");
		assertThat(options.get(0)).contains("-XX:ArchiveClassesAtExit=" + tmp.resolve("fiber-cds"));
		assertThat(options.get(1)).contains("-XX:SharedArchiveFile=" + tmp.resolve("fiber-cds"));
		assertThat(options.get(2)).contains("-XX:SharedArchiveFile=" + tmp.resolve("fiber-cds"));
		assertThat(archive(tmp).toString()).endsWith(".jsa");
	}

	@Test
	void onJdk25TheFirstChildWritesAnAotCacheAndLaterChildrenUseIt(@TempDir Path dir) throws Exception {
		Optional<Path> jdk25 = jdk25OrLater();
		assumeTrue(jdk25.isPresent(), "no JDK 25 or later on this machine");
		List<String> options = childOptions(dir, jdk25.get().resolve("bin").resolve("java").toString());
		Path tmp = dir.resolve("tmp");
		assertThat(options.get(0)).contains("-XX:AOTCacheOutput=" + tmp.resolve("fiber-cds"));
		assertThat(options.get(1)).contains("-XX:AOTCache=" + tmp.resolve("fiber-cds"));
		assertThat(options.get(2)).contains("-XX:AOTCache=" + tmp.resolve("fiber-cds"));
		assertThat(archive(tmp).toString()).endsWith(".aot");
	}

	@Test
	void theWorkerJvmThatWritesTheArchiveIsNotKeptForTheNextPoolTheOtherIs(@TempDir Path dir) throws Exception {
		try (ChildJvm parent = startFromJars(dir, OWN_JAVA, ClassSharingPoolParent.class)) {
			List<String> first = List.of(parent.awaitLine("FIRST ").substring("FIRST ".length()).split(" "));
			List<String> second = List.of(parent.awaitLine("SECOND ").substring("SECOND ".length()).split(" "));
			parent.awaitLine("DONE");
			assertThat(first).hasSize(2);
			assertThat(second).hasSize(2);
			// Of the first pool's two JVMs, one wrote the archive and exited with its pool; the other served the next.
			assertThat(second.stream().filter(first::contains)).hasSize(1);
		}
		assertThat(archive(dir.resolve("tmp")).toString()).endsWith(OWN_SUFFIX);
	}

	@Test
	void theChildWritingTheArchiveFinishesItWhenItsFiberClosesThoughItTakesLongerThanTheGrace(@TempDir Path dir) throws Exception {
		try (ChildJvm parent = startFromJars(dir, OWN_JAVA, ClassSharingClosingParent.class)) {
			parent.awaitLine("CLOSING writer");
			parent.awaitLine("DONE");
		}
		// Killed at the grace, or when the close stopped waiting, it would have left no archive: the JDK writes it after the
		// shutdown hooks.
		assertThat(archive(dir.resolve("tmp")).toString()).endsWith(OWN_SUFFIX);
	}

	/** The JVM options of three children started one after the other by a parent run with {@code java} from jars only. */
	private static List<String> childOptions(Path dir, String java) throws Exception {
		try (ChildJvm parent = startFromJars(dir, java, ClassSharingParent.class)) {
			List<String> options = new ArrayList<>();
			for (int i = 0; i < 3; i++) {
				options.add(parent.awaitLine("CHILD " + i + " options"));
			}
			parent.awaitLine("DONE");
			return options;
		}
	}

	/** A parent JVM of {@code java} running {@code main} from jars only, with {@code dir/tmp} as its temporary directory. */
	private static ChildJvm startFromJars(Path dir, String java, Class<?> main) throws IOException {
		String classpath = jarredClasspath(dir);
		Path tmp = Files.createDirectories(dir.resolve("tmp"));
		return ChildJvm.start(java, main, Map.of(), classpath, List.of("-Djava.io.tmpdir=" + tmp));
	}

	/** This test's classpath with its class directories jarred up in {@code dir}, so the JVMs run from jars only. */
	private static String jarredClasspath(Path dir) throws IOException {
		List<String> jars = new ArrayList<>();
		int n = 0;
		for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
			Path path = Path.of(entry);
			if (Files.isDirectory(path)) {
				Path jar = dir.resolve("classes-" + n++ + ".jar");
				jarUp(path, jar);
				jars.add(jar.toString());
			}
			else if (entry.endsWith(".jar")) {
				jars.add(entry);
			}
		}
		return String.join(File.pathSeparator, jars);
	}

	/** The one archive the children left in {@code tmp}, not empty. */
	private static Path archive(Path tmp) throws IOException {
		try (Stream<Path> archives = Files.list(tmp.resolve("fiber-cds"))) {
			List<Path> files = archives.toList();
			assertThat(files).hasSize(1);
			assertThat(Files.size(files.get(0))).isPositive();
			return files.get(0);
		}
	}

	/** A JDK of release 25 or later among this machine's installed JDKs, if there is one. */
	private static Optional<Path> jdk25OrLater() throws IOException {
		Path jvms = Path.of("/usr/lib/jvm");
		if (!Files.isDirectory(jvms)) {
			return Optional.empty();
		}
		try (Stream<Path> homes = Files.list(jvms)) {
			return homes.filter(home -> Files.isExecutable(home.resolve("bin").resolve("java")))
					.filter(home -> feature(home.resolve("release")) >= 25)
					.sorted()
					.findFirst();
		}
	}

	private static int feature(Path release) {
		try {
			for (String line : Files.readAllLines(release)) {
				if (line.startsWith("JAVA_VERSION=")) {
					String version = line.substring("JAVA_VERSION=".length()).replace("\"", "");
					return Integer.parseInt(version.split("[.+-]")[0]);
				}
			}
		}
		catch (IOException | NumberFormatException e) {
			// not a JDK this test can read
		}
		return 0;
	}

	private static void jarUp(Path classes, Path jar) throws IOException {
		try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file);
				Stream<Path> walk = Files.walk(classes)) {
			for (Path p : (Iterable<Path>) walk.filter(Files::isRegularFile)::iterator) {
				out.putNextEntry(new JarEntry(classes.relativize(p).toString().replace(File.separatorChar, '/')));
				Files.copy(p, out);
				out.closeEntry();
			}
		}
	}
}
