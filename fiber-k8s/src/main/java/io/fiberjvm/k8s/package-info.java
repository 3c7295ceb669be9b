/**
 * The Kubernetes backend (pods through fabric8) and the {@code fiber} command line. So far: the pod
 * template a job-backed process runs in ({@link io.fiberjvm.k8s.PodTemplate}) and how its status reads
 * ({@link io.fiberjvm.k8s.PodStatuses}), and the Secret its pods read the run's secret from
 * ({@link io.fiberjvm.k8s.RunSecret}); the backend itself, the
 * test node agent and the command line come with the rest of their issue.
 */
package io.fiberjvm.k8s;
