package io.fiberjvm;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * An exception thrown in another process, carried here with its type, message and stack trace.
 *
 * <p>The remote class may not exist in this process, so it is not re-created: {@link #remoteType()}
 * names it, {@link #getStackTrace()} is the remote trace, and the remote cause chain becomes the
 * cause chain of this exception.
 */
public final class RemoteException extends FiberException {

	private static final long serialVersionUID = 1L;
	private static final ObjectMapper JSON = new ObjectMapper().setSerializationInclusion(JsonInclude.Include.NON_NULL);
	private static final String MARKER = "fiber-remote-error:";

	private final String remoteType;
	private final String remoteMessage;

	public RemoteException(String remoteType, String remoteMessage, StackTraceElement[] trace, RemoteException cause) {
		super(remoteType + (remoteMessage == null ? "" : ": " + remoteMessage), cause);
		this.remoteType = remoteType;
		this.remoteMessage = remoteMessage;
		setStackTrace(trace);
	}

	/** The fully qualified class name of the exception in the remote process. */
	public String remoteType() {
		return remoteType;
	}

	/** The remote exception's own message, possibly {@code null}. */
	public String remoteMessage() {
		return remoteMessage;
	}

	/** Text that {@link #decode} turns back into a {@code RemoteException} with the same type, message and trace. */
	public static String encode(Throwable error) {
		try {
			return MARKER + JSON.writeValueAsString(Wire.of(error, 0));
		}
		catch (IOException e) {
			return String.valueOf(error);
		}
	}

	/**
	 * Reads what {@link #encode} wrote; any other text becomes a {@code RemoteException} of
	 * unknown type with that text as its message, so nothing the peer said is lost.
	 */
	public static RemoteException decode(String text) {
		if (text != null && text.startsWith(MARKER)) {
			try {
				return JSON.readValue(text.substring(MARKER.length()), Wire.class).toException();
			}
			catch (IOException | RuntimeException e) {
				// fall through: show the raw text rather than lose it (a malformed trace frame is a RuntimeException)
			}
		}
		return new RemoteException("unknown", text, new StackTraceElement[0], null);
	}

	/** The wire shape of one exception and its causes. */
	record Wire(String type, String message, List<String[]> trace, Wire cause) {

		static Wire of(Throwable t, int depth) {
			List<String[]> frames = new ArrayList<>();
			for (StackTraceElement e : t.getStackTrace()) {
				frames.add(new String[] {e.getClassName(), e.getMethodName(), e.getFileName(), Integer.toString(e.getLineNumber())});
			}
			String type = t instanceof RemoteException r ? r.remoteType() : t.getClass().getName();
			String message = t instanceof RemoteException r ? r.remoteMessage() : t.getMessage();
			Wire cause = t.getCause() != null && t.getCause() != t && depth < 16 ? of(t.getCause(), depth + 1) : null;
			return new Wire(type, message, frames, cause);
		}

		RemoteException toException() {
			StackTraceElement[] elements = new StackTraceElement[trace == null ? 0 : trace.size()];
			for (int i = 0; i < elements.length; i++) {
				String[] f = trace.get(i);
				elements[i] = new StackTraceElement(f[0], f[1], f[2], Integer.parseInt(f[3]));
			}
			return new RemoteException(type, message, elements, cause == null ? null : cause.toException());
		}
	}
}
