package io.fiberjvm.k8s;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

import io.fiberjvm.backend.JobJava;

/**
 * How a {@link KubernetesBackend} is set up.
 *
 * @param namespace where pods go
 * @param image the image for jobs, or empty for the parent pod's
 * @param volumes claims every job mounts, or empty for the parent pod's
 * @param podName the pod this runtime runs in, or empty outside a cluster
 * @param grace how long a deleted pod gets to stop
 * @param imageJava the java executable in the jobs' image, or empty for the parent's when it runs in a pod of the
 *        jobs' image, else {@value #IMAGE_JAVA}
 * @param imageClasspath the classpath in the jobs' image, or empty for the parent's when it runs in a pod of the
 *        jobs' image, else {@value #IMAGE_CLASSPATH}
 */
public record KubernetesSettings(String namespace, String image, List<String> volumes, String podName, Duration grace,
		String imageJava, String imageClasspath) {
	public KubernetesSettings {
		Objects.requireNonNull(namespace, "namespace");
		Objects.requireNonNull(image, "image");
		volumes = List.copyOf(volumes);
		Objects.requireNonNull(podName, "podName");
		Objects.requireNonNull(grace, "grace");
		Objects.requireNonNull(imageJava, "imageJava");
		Objects.requireNonNull(imageClasspath, "imageClasspath");
	}

	/** Settings whose jobs use the image's java and classpath as the defaults say. */
	public KubernetesSettings(String namespace, String image, List<String> volumes, String podName, Duration grace) {
		this(namespace, image, volumes, podName, grace, "", "");
	}

	/** These settings with the java executable and classpath of the jobs' image; empty for the defaults. */
	public KubernetesSettings withImageJava(String java, String classpath) {
		return new KubernetesSettings(namespace, image, volumes, podName, grace, java, classpath);
	}

	/** The java executable of jobs started from outside a pod: the one on the image's {@code PATH}. */
	public static final String IMAGE_JAVA = "java";
	/** The classpath of jobs started from outside a pod: the file Jib writes into the images it builds. */
	public static final String IMAGE_CLASSPATH = "@/app/jib-classpath-file";

	/**
	 * The image's java and classpath: the configured ones, else the parent's when it runs in a pod whose image the jobs
	 * share (no other is configured), else where Jib puts them. The parent's paths outside a cluster are its machine's,
	 * and in another image may not exist.
	 */
	public JobJava jobJava(JobJava parents) {
		boolean parentsImage = !podName.isEmpty() && image.isEmpty();
		String java = !imageJava.isEmpty() ? imageJava : parentsImage ? parents.executable() : IMAGE_JAVA;
		String classpath = !imageClasspath.isEmpty() ? imageClasspath : parentsImage ? parents.classpath() : IMAGE_CLASSPATH;
		return new JobJava(java, classpath);
	}
}
