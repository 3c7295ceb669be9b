package io.fiberjvm.it;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With a classpath of jars, the first child writes a class-data archive and the next children map it.
 * The test jars up its own class directories, so the parent JVM runs from jars only.
 */
class ClassSharingTest {

	@Test
	void firstChildWritesTheArchiveAndLaterChildrenShareIt(@TempDir Path dir) throws Exception {
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
		Path tmp = Files.createDirectories(dir.resolve("tmp"));
		try (ChildJvm parent = ChildJvm.start(ClassSharingParent.class, Map.of(), String.join(File.pathSeparator, jars),
				List.of("-Djava.io.tmpdir=" + tmp))) {
			String first = parent.awaitLine("CHILD 0 options");
			String second = parent.awaitLine("CHILD 1 options");
			String third = parent.awaitLine("CHILD 2 options");
			parent.awaitLine("DONE");
			assertThat(first).contains("-XX:ArchiveClassesAtExit=" + tmp.resolve("fiber-cds"));
			assertThat(second).contains("-XX:SharedArchiveFile=" + tmp.resolve("fiber-cds"));
			assertThat(third).contains("-XX:SharedArchiveFile=" + tmp.resolve("fiber-cds"));
		}
		try (Stream<Path> archives = Files.list(tmp.resolve("fiber-cds"))) {
			List<Path> files = archives.toList();
			assertThat(files).hasSize(1);
			assertThat(files.get(0).toString()).endsWith(".jsa");
			assertThat(Files.size(files.get(0))).isPositive();
		}
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
