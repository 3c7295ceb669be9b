/**
 * The local backend: each job is a child process on this machine, its output in a file, its status from the
 * process's own exit. Found as {@link io.fiberjvm.backend.local.LocalBackendProvider}.
 */
@NullMarked
package io.fiberjvm.backend.local;

import org.jspecify.annotations.NullMarked;
