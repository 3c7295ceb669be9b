/**
 * The Kubernetes backend: each job-backed process is a pod ({@link io.fiberjvm.k8s.PodTemplate}) whose
 * status one informer reads ({@link io.fiberjvm.k8s.PodStatuses}), the run's secret in a Secret of its own
 * ({@link io.fiberjvm.k8s.RunSecret}), logs followed through the API server, the run's status in a ConfigMap
 * for {@code fiber ps}. Found as {@link io.fiberjvm.k8s.KubernetesBackendProvider}.
 */
@NullMarked
package io.fiberjvm.k8s;

import org.jspecify.annotations.NullMarked;
