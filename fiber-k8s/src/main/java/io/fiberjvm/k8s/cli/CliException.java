package io.fiberjvm.k8s.cli;

/** A mistake the user can fix, reported as one line without a stack trace. */
final class CliException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	CliException(String message) {
		super(message);
	}
}
