package io.fiberjvm.backend;

import java.util.Objects;

/**
 * The java executable and classpath a job's JVM starts with.
 *
 * <p>On this machine they are the parent's own. A job that runs from an image (a pod) needs the image's: the parent's
 * paths mean nothing there when the parent runs elsewhere, a laptop for instance.
 *
 * @param executable the java executable: a path, or a name found on the job's {@code PATH}
 * @param classpath the value of {@code -cp}: entries joined with the path separator, or {@code @file} naming a file
 *        that holds them (the java launcher reads it)
 */
public record JobJava(String executable, String classpath) {

	public JobJava {
		Objects.requireNonNull(executable, "executable");
		Objects.requireNonNull(classpath, "classpath");
		if (executable.isBlank()) {
			throw new IllegalArgumentException("a job's java executable is blank: name a path or a command on the job's PATH");
		}
		if (classpath.isBlank()) {
			throw new IllegalArgumentException("a job's classpath is blank: give the jars and directories its classes are in");
		}
	}
}
