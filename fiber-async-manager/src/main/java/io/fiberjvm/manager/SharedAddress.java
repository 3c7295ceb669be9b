package io.fiberjvm.manager;

import io.fiberjvm.runtime.RuntimeContext;

/**
 * What a shared-object handle needs to reach its manager, and the runtime of the process holding it.
 *
 * @param manager the manager's name
 * @param address where the manager serves its shared objects, {@code host:port}
 * @param prefix the manager's shared-object routes' prefix
 * @param runtime the runtime the handle works through
 */
record SharedAddress(String manager, String address, String prefix, RuntimeContext runtime) {
}
