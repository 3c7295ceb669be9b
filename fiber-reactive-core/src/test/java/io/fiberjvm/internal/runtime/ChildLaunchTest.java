package io.fiberjvm.internal.runtime;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChildLaunchTest {

	private static final ClassLoader SYSTEM = ClassLoader.getSystemClassLoader();

	@TempDir
	Path dir;

	private static Properties classpath(String classpath) {
		Properties properties = new Properties();
		properties.setProperty("java.class.path", classpath);
		return properties;
	}

	private static String path(String... entries) {
		return String.join(File.pathSeparator, entries);
	}

	@Test
	void fiberOnTheJvmsOwnClassPathGivesChildrenThatClassPath() {
		String jvm = path("/app/classes", "/app/lib/a.jar");
		assertThat(ChildLaunch.of(SYSTEM, SYSTEM, classpath(jvm)))
				.isEqualTo(new ChildLaunch(jvm, List.of(), WorkerMain.class.getName(), null));
	}

	@Test
	void anEmptyClassPathEntryStaysTheWorkingDirectory() {
		assertThat(ChildLaunch.of(SYSTEM, SYSTEM, classpath(path("", "/app/a.jar", "/app/a.jar", ""))).classpath())
				.isEqualTo(path(".", "/app/a.jar"));
	}

	@Test
	void aLauncherOwnLoaderIsFollowedToItsFilesAheadOfTheJvmsClassPath() throws Exception {
		Path classes = dir.resolve("classes");
		Path jar = dir.resolve("lib.jar");
		try (URLClassLoader outer = new URLClassLoader(new URL[] {jar.toUri().toURL()}, SYSTEM);
				URLClassLoader program = new URLClassLoader(new URL[] {classes.toUri().toURL(), jar.toUri().toURL()}, outer)) {
			// As under mvn exec:java: the JVM's class path is Maven's own launcher.
			ChildLaunch launch = ChildLaunch.of(program, SYSTEM, classpath("/usr/share/maven/boot/plexus-classworlds.jar"));
			assertThat(launch.classpath()).isEqualTo(path(classes.toString(), jar.toString(),
					"/usr/share/maven/boot/plexus-classworlds.jar"));
			assertThat(launch.mainClass()).isEqualTo(WorkerMain.class.getName());
			assertThat(launch.refusal()).isNull();
		}
	}

	@Test
	void aCustomSystemLoaderIsFollowedToItsFilesAndGivenToTheChild() throws Exception {
		Path jar = dir.resolve("agent.jar");
		Properties properties = classpath("/app/a.jar");
		properties.setProperty("java.system.class.loader", "com.example.CustomLoader");
		// Fiber loaded by the JDK's loader the custom one delegates to: the JVM's class path.
		ChildLaunch delegated = ChildLaunch.of(SYSTEM, SYSTEM, properties);
		assertThat(delegated.classpath()).isEqualTo("/app/a.jar");
		assertThat(delegated.options()).containsExactly("-Djava.system.class.loader=com.example.CustomLoader");
		// Fiber loaded by the custom loader itself: its files first.
		try (URLClassLoader custom = new URLClassLoader(new URL[] {jar.toUri().toURL()}, SYSTEM)) {
			assertThat(ChildLaunch.of(custom, SYSTEM, properties).classpath()).isEqualTo(path(jar.toString(), "/app/a.jar"));
		}
	}

	@Test
	void aProgramOnTheModulePathGivesChildrenItsModulesAfterTheClassPath() throws Exception {
		Path mods = Files.createDirectories(dir.resolve("mods"));
		Files.write(Files.createDirectories(mods.resolve("app")).resolve("module-info.class"), new byte[0]);
		Path exploded = Files.createDirectories(dir.resolve("exploded"));
		Files.write(exploded.resolve("module-info.class"), new byte[0]);
		Properties properties = classpath("/app/extra.jar");
		properties.setProperty("jdk.module.path", path(mods.toString(), "/app/b.jar", exploded.toString()));
		assertThat(ChildLaunch.of(SYSTEM, SYSTEM, properties).classpath()).isEqualTo(path("/app/extra.jar",
				mods + File.separator + "*", mods.resolve("app").toString(), "/app/b.jar", exploded.toString()));
	}

	@Test
	void aRefusalWithNoClassPathStandsForTheWorkingDirectoryABackendIsGiven() {
		ClassLoader opaque = new ClassLoader("layer", SYSTEM) {
		};
		ChildLaunch launch = ChildLaunch.of(opaque, SYSTEM, classpath(""));
		assertThat(launch.classpath()).isEqualTo(".");
		assertThatThrownBy(() -> launch.on(".")).isInstanceOf(IllegalStateException.class);
	}

	@Test
	void aLoaderOfNestedJarsIsRefusedUnlessTheBackendStartsJobsFromAClassPathOfItsOwn() throws Exception {
		URL nested = new URL("jar:file:/app/app.jar!/BOOT-INF/lib/fiber.jar!/");
		try (URLClassLoader nestedJars = new URLClassLoader(new URL[] {nested}, SYSTEM)) {
			ChildLaunch launch = ChildLaunch.of(nestedJars, SYSTEM, classpath("/app/app.jar"));
			assertThat(launch.refusal()).contains("BOOT-INF/lib/fiber.jar")
					.contains("not a file a child JVM could put on its class path")
					.contains("java -cp");
			assertThatThrownBy(() -> launch.on("/app/app.jar")).isInstanceOf(IllegalStateException.class)
					.hasMessage(launch.refusal());
			// An image's class path: the job starts WorkerMain from it, whatever this JVM's loader.
			assertThat(launch.on("@/app/jib-classpath-file"))
					.isEqualTo(new ChildLaunch("@/app/jib-classpath-file", List.of(), WorkerMain.class.getName(), null));
		}
	}

	@Test
	void aLoaderThatDoesNotSayWhereItsClassesAreIsRefused() {
		ClassLoader opaque = new ClassLoader("opaque", SYSTEM) {
		};
		assertThat(ChildLaunch.of(opaque, SYSTEM, classpath("/app/app.jar")).refusal())
				.contains("does not say where its classes are")
				.contains("mvn exec:exec");
	}

	@Test
	void aLaunchOnTheClassPathItWasMadeForIsKept() {
		ChildLaunch boot = new ChildLaunch("/app/app.jar", List.of("-Dloader.main=" + WorkerMain.class.getName()),
				"org.springframework.boot.loader.launch.PropertiesLauncher", null);
		assertThat(boot.on("/app/app.jar")).isSameAs(boot);
	}
}
