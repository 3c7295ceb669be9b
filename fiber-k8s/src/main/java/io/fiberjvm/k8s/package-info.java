/**
 * The Kubernetes backend (pods through fabric8) and the {@code fiber} command line. Empty until its
 * own issue; the module exists so the build has its final shape.
 */
package io.fiberjvm.k8s;
