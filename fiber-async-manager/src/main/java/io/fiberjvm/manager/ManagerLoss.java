package io.fiberjvm.manager;

import org.jspecify.annotations.Nullable;

/**
 * Why a manager was lost, and the error its process ended with, when that is how.
 *
 * @param why what happened, in a few words ("it was closed", "its process ended: ...")
 * @param cause the error the process ended with, or null
 */
record ManagerLoss(String why, @Nullable Throwable cause) {

	/** The error a call gets from the manager {@code manager} lost so; {@code what} follows why. */
	ManagerLostException error(String manager, String what) {
		return new ManagerLostException("manager " + manager + " was lost (" + why + ")" + what, cause);
	}
}
