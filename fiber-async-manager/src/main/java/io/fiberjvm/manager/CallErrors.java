package io.fiberjvm.manager;

import java.time.Duration;
import java.util.Objects;

import io.fiberjvm.RemoteException;

/** What the error a manager answered a call with becomes for its caller: a deadline's errors get types of their own. */
final class CallErrors {

	private CallErrors() {
	}

	/** The caller's error for {@code call}, answered with {@code remote}. */
	static RuntimeException of(RemoteException remote, PendingCalls.Call call) {
		String said = Objects.requireNonNullElse(remote.remoteMessage(), "");
		if (CallWatch.DeadlinePassed.class.getName().equals(remote.remoteType())) {
			return new CallTimeoutException(call.what(), Duration.ofNanos(call.timeoutNanos()), false, said, remote);
		}
		if (CallWatch.GivenUp.class.getName().equals(remote.remoteType())) {
			return new CallTimeoutException(call.what(), Duration.ofNanos(call.timeoutNanos()), true, said, remote);
		}
		if (CallWatch.Stuck.class.getName().equals(remote.remoteType())) {
			return new ObjectStuckException(call.what(), said, remote);
		}
		return remote;
	}
}
