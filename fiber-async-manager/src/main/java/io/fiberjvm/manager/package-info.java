/**
 * Managers: job-backed processes that host shared objects, and {@code AsyncManager} proxies whose
 * methods return {@code Mono}. Empty until its own issue; the module exists so the build has its final shape.
 */
package io.fiberjvm.manager;
