package io.fiberjvm.codec;

import java.net.URL;

import org.jspecify.annotations.Nullable;

/**
 * Where a class was loaded from, as far as another JVM is concerned: a class file in a directory or a jar, which a
 * JVM started with the same class path loads too, or only this JVM's memory (a class typed into jshell, one a
 * library generated), which no other JVM can load.
 */
final class ClassOrigin {

	private ClassOrigin() {
	}

	/** Looked up once per class: a resource lookup walks the class path. */
	private static final ClassValue<@Nullable String> UNLOADABLE = new ClassValue<>() {
		@Override
		protected @Nullable String computeValue(Class<?> type) {
			return find(type);
		}
	};

	/** Why another JVM could not load {@code type} from its class path, or null when it could. */
	static @Nullable String unloadableElsewhere(Class<?> type) {
		return UNLOADABLE.get(type);
	}

	private static @Nullable String find(Class<?> type) {
		ClassLoader loader = type.getClassLoader();
		// The JDK's own classes are in every JVM; a lambda's hidden class travels as the SerializedLambda it writes.
		if (type.isPrimitive() || loader == null || loader == ClassLoader.getPlatformClassLoader() || type.isHidden()) {
			return null;
		}
		URL file = loader.getResource(type.getName().replace('.', '/') + ".class");
		// jrt: the JDK's own modules that the application loader loads (jdk.attach, jdk.jdi), in every child's java too.
		if (file != null && (file.getProtocol().equals("file") || file.getProtocol().equals("jar") || file.getProtocol().equals("jrt"))) {
			return null;
		}
		String where = type.getName().startsWith("REPL.") ? "typed into jshell (as is every lambda typed there)"
				: "made in this JVM's memory by " + loader.getClass().getName();
		return "a " + type.getName() + ", a class " + where + ", which another JVM cannot load: define what travels "
				+ "(a lambda's enclosing class included) in a compiled class on the class path, and pass that";
	}
}
