package io.fiberjvm.spi;

/**
 * A provider found with {@link java.util.ServiceLoader}: it has a name to be chosen by and a
 * priority to be preferred by.
 *
 * <p>When configuration names no provider, the available one with the highest priority wins.
 */
public interface Prioritized {

	/** The name configuration uses to choose this provider, for example {@code local}. */
	String name();

	/** Larger wins when nothing is chosen by name. */
	int priority();

	/** Whether this provider can work here (a Kubernetes backend outside a cluster cannot). */
	default boolean isAvailable() {
		return true;
	}
}
