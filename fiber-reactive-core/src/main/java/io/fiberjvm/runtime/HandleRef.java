package io.fiberjvm.runtime;

import java.io.Serializable;

/**
 * What a runtime-bound object (a queue's handle, a shared object's) is while it travels: serialized in its
 * place ({@code writeReplace}), and replaced by {@link #resolve} when a runtime's {@link RuntimeContext#values()}
 * reads it, so the object read is bound to the reading runtime.
 */
public interface HandleRef extends Serializable {

	/** The object this stands for, bound to {@code reader}, the runtime reading it. */
	Object resolve(RuntimeContext reader);
}
