/**
 * Fiber's plumbing, public only because Java packages make it so: the modules of this project use it;
 * programs must not. Nothing here is API, and any of it may change in any release.
 */
@NullMarked
package io.fiberjvm.internal;

import org.jspecify.annotations.NullMarked;
