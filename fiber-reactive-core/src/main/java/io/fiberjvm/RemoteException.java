package io.fiberjvm;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.jspecify.annotations.Nullable;

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
	private final @Nullable String remoteMessage;

	public RemoteException(String remoteType, @Nullable String remoteMessage, StackTraceElement[] trace, @Nullable RemoteException cause) {
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
	public @Nullable String remoteMessage() {
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
	 * Like {@link #encode(Throwable)}, but at most {@code maxBytes} long in UTF-8: when the full text is
	 * longer, causes are dropped first, then trace frames, then the end of the message, so the error
	 * still fits a frame and still says what it was.
	 */
	public static String encode(Throwable error, int maxBytes) {
		String full = encode(error);
		if (utf8Length(full) <= maxBytes) {
			return full;
		}
		Wire wire = Wire.of(error, 0);
		String message = wire.message();
		for (int frames : new int[] {64, 16, 4, 0}) {
			for (int keep : new int[] {4096, 512, 64}) {
				@Nullable String cut = message == null || message.length() <= keep ? message : message.substring(0, keep) + "... (cut)";
				List<String[]> all = wire.trace() == null ? List.of() : wire.trace();
				List<String[]> trace = all.subList(0, Math.min(frames, all.size()));
				try {
					String text = MARKER + JSON.writeValueAsString(new Wire(wire.type(), cut, trace, null));
					if (utf8Length(text) <= maxBytes) {
						return text;
					}
				}
				catch (IOException e) {
					break;
				}
			}
		}
		String bare = wire.type();
		return bare.length() <= maxBytes ? bare : bare.substring(0, Math.max(0, maxBytes));
	}

	private static int utf8Length(String text) {
		return text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
	}

	/**
	 * Reads what {@link #encode} wrote; any other text becomes a {@code RemoteException} of
	 * unknown type with that text as its message, so nothing the peer said is lost.
	 */
	public static RemoteException decode(@Nullable String text) {
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
	record Wire(String type, @Nullable String message, @Nullable List<String[]> trace, @Nullable Wire cause) {

		static Wire of(Throwable t, int depth) {
			List<String[]> frames = new ArrayList<>();
			for (StackTraceElement e : t.getStackTrace()) {
				frames.add(new String[] {e.getClassName(), e.getMethodName(), e.getFileName(), Integer.toString(e.getLineNumber())});
			}
			String type = t instanceof RemoteException r ? r.remoteType() : t.getClass().getName();
			@Nullable String message = t instanceof RemoteException r ? r.remoteMessage() : t.getMessage();
			@Nullable Wire cause = t.getCause() != null && t.getCause() != t && depth < 16 ? of(t.getCause(), depth + 1) : null;
			return new Wire(type, message, frames, cause);
		}

		RemoteException toException() {
			List<String[]> frames = trace == null ? List.of() : trace;
			StackTraceElement[] elements = new StackTraceElement[frames.size()];
			for (int i = 0; i < elements.length; i++) {
				String[] f = frames.get(i);
				elements[i] = new StackTraceElement(f[0], f[1], f[2], Integer.parseInt(f[3]));
			}
			return new RemoteException(type, message, elements, cause == null ? null : cause.toException());
		}
	}
}
