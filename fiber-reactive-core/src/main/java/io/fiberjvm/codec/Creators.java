package io.fiberjvm.codec;

import java.io.Externalizable;
import java.io.Serializable;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;

import org.jspecify.annotations.Nullable;

/**
 * Whether Java serialization can create a class again on reading: what {@code ObjectStreamClass} requires,
 * checked on the sending side, where the program can still be told.
 */
final class Creators {

	private Creators() {
	}

	/** Why reading could not create {@code type}, or null when it can. */
	static @Nullable String missing(Class<?> type) {
		if (type.isArray() || type.isEnum() || type.isRecord() || type.isInterface() || type.isPrimitive()
				|| !Serializable.class.isAssignableFrom(type)) {
			return null;
		}
		if (Externalizable.class.isAssignableFrom(type)) {
			return hasPublicNoArgConstructor(type) ? null
					: "a " + type.getName() + ", which is Externalizable but has no public no-argument constructor: add one";
		}
		Class<?> base = type;
		while (base != null && Serializable.class.isAssignableFrom(base)) {
			base = base.getSuperclass();
		}
		if (base == null || callable(base, type)) {
			return null;
		}
		return "a " + type.getName() + ", which cannot be created again: its first non-serializable superclass "
				+ base.getName() + " has no no-argument constructor it can call; add one, or make " + base.getName()
				+ " implement java.io.Serializable";
	}

	private static boolean hasPublicNoArgConstructor(Class<?> type) {
		try {
			return Modifier.isPublic(type.getConstructor().getModifiers());
		}
		catch (NoSuchMethodException e) {
			return false;
		}
	}

	private static boolean callable(Class<?> base, Class<?> from) {
		Constructor<?> constructor;
		try {
			constructor = base.getDeclaredConstructor();
		}
		catch (NoSuchMethodException e) {
			return false;
		}
		int modifiers = constructor.getModifiers();
		if (Modifier.isPrivate(modifiers)) {
			return false;
		}
		// A package-private constructor serves only subclasses in its own package (and class loader).
		return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers)
				|| (base.getPackageName().equals(from.getPackageName()) && base.getClassLoader() == from.getClassLoader());
	}
}
