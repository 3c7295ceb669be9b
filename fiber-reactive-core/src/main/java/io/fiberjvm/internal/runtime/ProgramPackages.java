package io.fiberjvm.internal.runtime;

import java.security.CodeSource;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.config.ConfigKeys;
import io.fiberjvm.config.FiberConfig;

/**
 * The program's own package tree, which the run's allow-list admits without {@code serial-allow}: taken from
 * the class that opened the runtime, unless {@code program-packages} names it.
 */
final class ProgramPackages {

	private static final @Nullable CodeSource FIBER = FiberRuntime.class.getProtectionDomain().getCodeSource();

	private ProgramPackages() {
	}

	/** {@code config} with {@code program-packages} set for the whole run, when it is not set already. */
	static FiberConfig decide(FiberConfig config) {
		Objects.requireNonNull(config, "config");
		if (!config.get(ConfigKeys.PROGRAM_PACKAGES).isEmpty()) {
			return config;
		}
		Optional<Class<?>> program = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
				.walk(frames -> frames.<Class<?>>map(StackWalker.StackFrame::getDeclaringClass)
						.filter(ProgramPackages::isProgram).findFirst());
		return program.map(type -> config.with(ConfigKeys.PROGRAM_PACKAGES, treeOf(type), "the class that opened the Fiber, "
				+ type.getName())).orElse(config);
	}

	/** The pattern for the tree {@code type} belongs to: its package's first two names ({@code com.acme.**}). */
	static String treeOf(Class<?> type) {
		String pkg = type.getPackageName();
		if (pkg.isEmpty()) {
			// The unnamed package has no pattern of its own: the class and its nested classes.
			return type.getName() + "*";
		}
		String[] names = pkg.split("\\.");
		return names.length == 1 ? names[0] + ".**" : names[0] + "." + names[1] + ".**";
	}

	/** Where calls come from that are not the program's: the JDK, and the runtimes of JVM languages and test tools. */
	private static final List<String> NOT_PROGRAM = List.of("java.", "javax.", "jdk.", "sun.", "com.sun.", "groovy.",
			"org.codehaus.groovy.", "clojure.", "kotlin.", "scala.", "org.junit.", "junit.", "org.apache.maven.");

	/**
	 * Whether {@code type} is the program's: not the JDK's or a language runtime's, and not Fiber's own (which
	 * lives in {@code io.fiberjvm} and in Fiber's jar; a program's classes in one shaded jar with Fiber count).
	 */
	private static boolean isProgram(Class<?> type) {
		String name = type.getName();
		if (NOT_PROGRAM.stream().anyMatch(name::startsWith)) {
			return false;
		}
		if (!name.startsWith("io.fiberjvm.")) {
			return true;
		}
		CodeSource source = type.getProtectionDomain().getCodeSource();
		return source == null || FIBER == null || !Objects.equals(source.getLocation(), FIBER.getLocation());
	}
}
