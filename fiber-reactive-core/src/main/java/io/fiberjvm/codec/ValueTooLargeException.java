package io.fiberjvm.codec;

import java.io.IOException;

/** A value whose bytes outgrew the limit while it was being written; the writer turns it into a message. */
final class ValueTooLargeException extends IOException {

	private static final long serialVersionUID = 1L;

	ValueTooLargeException(long limit) {
		super("more than " + limit + " bytes");
	}
}
