/**
 * Managers: job-backed processes that host objects. {@link io.fiberjvm.manager.AsyncManager} returns
 * proxies of async interfaces whose methods return {@code Mono} or {@code Flux}.
 */
@NullMarked
package io.fiberjvm.manager;

import org.jspecify.annotations.NullMarked;
