package io.fiberjvm.k8s;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import com.google.cloud.tools.jib.api.Containerizer;
import com.google.cloud.tools.jib.api.Jib;
import com.google.cloud.tools.jib.api.TarImage;
import com.google.cloud.tools.jib.api.buildplan.AbsoluteUnixPath;
import com.google.cloud.tools.jib.api.buildplan.FileEntriesLayer;
import com.google.cloud.tools.jib.api.buildplan.ImageFormat;

/**
 * An image of a JVM's classpath on a base image tarball, built with Jib's library in the layout Jib's plugins give a
 * program: jars under {@code /app/libs}, each classes directory under {@code /app/classes/N}, and the classpath they
 * make written to {@code /app/jib-classpath-file}, which the Kubernetes backend's jobs read by default
 * ({@code -cp @/app/jib-classpath-file}).
 */
final class ClasspathImage {

	static final String CLASSPATH_FILE = "/app/jib-classpath-file";

	private ClasspathImage() {
	}

	/**
	 * Writes the image {@code name} of {@code classpath} on {@code base} (a tarball as {@code docker save} writes it) to
	 * {@code out}, a tarball in the same format; {@code work} holds what Jib caches between builds.
	 */
	static void build(Path base, String name, List<Path> classpath, Path out, Path work) throws Exception {
		Objects.requireNonNull(base, "base");
		FileEntriesLayer.Builder libs = FileEntriesLayer.builder().setName("libraries");
		FileEntriesLayer.Builder classes = FileEntriesLayer.builder().setName("classes");
		List<String> inImage = new ArrayList<>();
		Set<String> jarNames = new HashSet<>();
		int directories = 0;
		for (Path entry : classpath) {
			if (Files.isDirectory(entry)) {
				String where = "/app/classes/" + directories++;
				classes.addEntryRecursive(entry, AbsoluteUnixPath.get(where));
				inImage.add(where);
			}
			else if (Files.isRegularFile(entry)) {
				String jar = entry.getFileName().toString();
				// Two jars of one name (a module's jar and its test jar's namesake) keep apart.
				String unique = jarNames.add(jar) ? jar : inImage.size() + "-" + jar;
				libs.addEntry(entry, AbsoluteUnixPath.get("/app/libs/" + unique));
				inImage.add("/app/libs/" + unique);
			}
		}
		Files.createDirectories(work);
		Path listing = work.resolve("jib-classpath-file");
		Files.writeString(listing, String.join(":", inImage));
		classes.addEntry(listing, AbsoluteUnixPath.get(CLASSPATH_FILE));
		Files.createDirectories(out.getParent());
		Jib.from(TarImage.at(base))
				.setFormat(ImageFormat.Docker)
				.addFileEntriesLayer(libs.build())
				.addFileEntriesLayer(classes.build())
				.containerize(Containerizer.to(TarImage.at(out).named(name))
						.setOfflineMode(true)
						.setBaseImageLayersCache(work.resolve("base-cache"))
						.setApplicationLayersCache(work.resolve("application-cache")));
	}

	/** This JVM's classpath, as its class loader reads it. */
	static List<Path> ownClasspath() {
		List<Path> entries = new ArrayList<>();
		for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
			if (!entry.isBlank()) {
				entries.add(Path.of(entry));
			}
		}
		return entries;
	}
}
