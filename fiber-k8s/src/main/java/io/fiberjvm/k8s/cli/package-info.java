/**
 * The {@code fiber} command line (picocli): {@code run}, {@code ps}, {@code logs} and {@code cp} against a cluster.
 */
@NullMarked
package io.fiberjvm.k8s.cli;

import org.jspecify.annotations.NullMarked;
