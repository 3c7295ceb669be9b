package io.fiberjvm.internal.runtime;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

import org.jspecify.annotations.Nullable;

/**
 * How a child JVM is started so that it loads what this program loads: the class path, the options that go with
 * it, and the class it starts, which runs {@link WorkerMain}.
 *
 * <p>When Fiber was loaded by the JDK's application class loader ({@code java -cp}, {@code java -jar}, an IDE,
 * {@code mvn exec:exec}, surefire, jshell's {@code --class-path}), a child gets the JVM's class path, then the
 * module path's jars for a program on the module path, and starts {@code WorkerMain}. A launcher that loads the
 * program through a class loader of its own ({@code mvn exec:java}, whose JVM's class path is Maven's, or a
 * {@code java.system.class.loader}, which the child is given too) is followed: the file URLs of that loader and of
 * each loader between it and the JDK's come first, then the JVM's class path. A Spring Boot executable jar, whose nested jars no class path can name, starts its
 * children through its own {@code PropertiesLauncher} with {@code loader.main} naming {@code WorkerMain}. Any other
 * loader that does not say where its classes are, or names something other than files, leaves a child nothing to
 * load: the launch then carries a {@link #refusal}, which the runtime raises when it opens unless its backend
 * starts jobs from a class path of its own (an image's).
 *
 * @param classpath the child's {@code -cp}
 * @param options JVM options the class path needs, before the configured ones (which win)
 * @param mainClass the class the child starts
 * @param refusal why no child could load this program, or null when one can
 */
record ChildLaunch(String classpath, List<String> options, String mainClass, @Nullable String refusal) {

	/** Spring Boot's launchers that take a main class from {@code loader.main}: 3.2 and later, then earlier. */
	private static final List<String> BOOT_LAUNCHERS = List.of("org.springframework.boot.loader.launch.PropertiesLauncher",
			"org.springframework.boot.loader.PropertiesLauncher");

	ChildLaunch {
		Objects.requireNonNull(classpath, "classpath");
		options = List.copyOf(options);
		Objects.requireNonNull(mainClass, "mainClass");
	}

	/** {@code WorkerMain} started from {@code classpath}; an empty one is the working directory, as it is to a JVM. */
	private static ChildLaunch direct(String classpath, List<String> options) {
		return new ChildLaunch(classpath.isEmpty() ? "." : classpath, options, WorkerMain.class.getName(), null);
	}

	/** The JDK's application class loader: the system class loader's, or the ancestor a custom one delegates to. */
	static ClassLoader jdkApplicationLoader() {
		ClassLoader system = ClassLoader.getSystemClassLoader();
		for (ClassLoader loader = system; loader != null; loader = loader.getParent()) {
			if (loader.getClass().getName().equals("jdk.internal.loader.ClassLoaders$AppClassLoader")) {
				return loader;
			}
		}
		return system;
	}

	/**
	 * How to start children of a program whose Fiber classes {@code fiber} loaded.
	 *
	 * @param jdk the JDK's application class loader, which loads the class path ({@link #jdkApplicationLoader()})
	 * @param properties this JVM's system properties: {@code java.class.path}, {@code jdk.module.path},
	 *        {@code java.system.class.loader}, and Spring Boot's {@code loader.*}
	 */
	static ChildLaunch of(ClassLoader fiber, ClassLoader jdk, Properties properties) {
		String jvmClasspath = properties.getProperty("java.class.path", "");
		Set<ClassLoader> jvms = new HashSet<>();
		for (ClassLoader loader = jdk; loader != null; loader = loader.getParent()) {
			jvms.add(loader);
		}
		String customLoader = properties.getProperty("java.system.class.loader");
		List<String> options = customLoader == null ? List.of() : List.of("-Djava.system.class.loader=" + customLoader);
		Set<String> entries = new LinkedHashSet<>();
		for (ClassLoader loader = fiber; loader != null && !jvms.contains(loader); loader = loader.getParent()) {
			if (loader.getClass().getName().startsWith("org.springframework.boot.loader.")) {
				return springBoot(jdk, jvmClasspath, properties);
			}
			if (!(loader instanceof URLClassLoader urls)) {
				return refused(jvmClasspath, "Fiber's classes were loaded by " + loader.getClass().getName()
						+ ", a class loader that does not say where its classes are");
			}
			for (URL url : urls.getURLs()) {
				String file = file(url);
				if (file == null) {
					return refused(jvmClasspath, "Fiber's classes were loaded by " + loader.getClass().getName() + " from " + url
							+ ", which is not a file a child JVM could put on its class path");
				}
				entries.add(file);
			}
		}
		if (!jvmClasspath.isEmpty()) {
			// An empty entry is the working directory, to a JVM as to its child.
			for (String entry : jvmClasspath.split(File.pathSeparator, -1)) {
				entries.add(entry.isEmpty() ? "." : entry);
			}
		}
		entries.addAll(modulePathAsClasspath(properties.getProperty("jdk.module.path", "")));
		return direct(String.join(File.pathSeparator, new ArrayList<>(entries)), options);
	}

	/**
	 * This launch, checked against the class path a backend starts jobs from: the program's own, where a refusal
	 * stands ({@link IllegalStateException}); another (an image's), started straight into {@code WorkerMain}.
	 */
	ChildLaunch on(String backendClasspath) {
		if (backendClasspath.equals(classpath)) {
			if (refusal != null) {
				throw new IllegalStateException(refusal);
			}
			return this;
		}
		return direct(backendClasspath, List.of());
	}

	/**
	 * A module path's entries as class path entries: jars and exploded modules as they are, a directory of modules
	 * as all of its jars and each exploded module in it.
	 */
	private static List<String> modulePathAsClasspath(String modulePath) {
		List<String> entries = new ArrayList<>();
		for (String entry : modulePath.split(File.pathSeparator)) {
			if (entry.isEmpty()) {
				continue;
			}
			Path path = Path.of(entry);
			if (!Files.isDirectory(path) || Files.exists(path.resolve("module-info.class"))) {
				entries.add(entry);
				continue;
			}
			entries.add(entry + File.separator + "*");
			try (java.util.stream.Stream<Path> inside = Files.list(path)) {
				inside.filter(module -> Files.exists(module.resolve("module-info.class"))).sorted()
						.forEach(module -> entries.add(module.toString()));
			}
			catch (IOException e) {
				// Its jars are still named above.
			}
		}
		return entries;
	}

	/**
	 * Children of a Spring Boot executable jar: the jar's {@code PropertiesLauncher} with {@code loader.main} naming
	 * {@code WorkerMain}, and the parent's other {@code loader.*} settings (an added {@code loader.path}, say).
	 */
	private static ChildLaunch springBoot(ClassLoader jdk, String jvmClasspath, Properties properties) {
		String started = mainClassOf(jvmClasspath);
		if (started != null && started.endsWith("WarLauncher")) {
			return refused(jvmClasspath, "Fiber's classes were loaded from the Spring Boot war " + jvmClasspath
					+ ", whose launcher takes no other main class");
		}
		for (String launcher : BOOT_LAUNCHERS) {
			if (jdk.getResource(launcher.replace('.', '/') + ".class") != null) {
				List<String> options = new ArrayList<>();
				for (String name : new java.util.TreeSet<>(properties.stringPropertyNames())) {
					// loader.args would put the program's arguments in front of the child's.
					if (name.startsWith("loader.") && !name.equals("loader.main") && !name.equals("loader.args")) {
						options.add("-D" + name + "=" + properties.getProperty(name));
					}
				}
				options.add("-Dloader.main=" + WorkerMain.class.getName());
				return new ChildLaunch(jvmClasspath, options, launcher, null);
			}
		}
		return refused(jvmClasspath, "Fiber's classes were loaded by Spring Boot's class loader, but neither of its launchers "
				+ "that take a main class (" + String.join(", ", BOOT_LAUNCHERS) + ") is in " + jvmClasspath);
	}

	/** The {@code Main-Class} of the jar that is the whole of {@code classpath}, or null. */
	private static @Nullable String mainClassOf(String classpath) {
		if (classpath.contains(File.pathSeparator) || !Files.isRegularFile(Path.of(classpath))) {
			return null;
		}
		try (JarFile jar = new JarFile(classpath)) {
			Manifest manifest = jar.getManifest();
			return manifest == null ? null : manifest.getMainAttributes().getValue("Main-Class");
		}
		catch (IOException e) {
			return null;
		}
	}

	private static @Nullable String file(URL url) {
		if (!url.getProtocol().equals("file")) {
			return null;
		}
		try {
			return Path.of(url.toURI()).toString();
		}
		catch (URISyntaxException | IllegalArgumentException e) {
			return null;
		}
	}

	private static ChildLaunch refused(String jvmClasspath, String why) {
		return new ChildLaunch(jvmClasspath.isEmpty() ? "." : jvmClasspath, List.of(), WorkerMain.class.getName(), why + ". A job-backed process is a new JVM "
				+ "that loads the program's classes from its class path, so the program must be launched with them on the "
				+ "JVM's own class path: java -cp, java -jar of a jar whose dependencies are on its Class-Path or shaded in, "
				+ "a Spring Boot executable jar, mvn exec:exec with -classpath %classpath, or mvn exec:java.");
	}
}
