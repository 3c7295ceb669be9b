package io.fiberjvm.backend;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.fiberjvm.ResourceSpec;

/**
 * What a backend needs to start one job: an immutable spec with copy-on-write setters.
 *
 * <p>The command is complete (for a child JVM: the java executable, its options, classpath, main class
 * and arguments). The local backend ignores the image; the Kubernetes backend runs the command in it.
 */
public final class JobSpec {

	/**
	 * The environment variable that carries the run's secret to a job: a backend that can keep secrets out of
	 * plain sight (a Kubernetes Secret) keeps this one there.
	 */
	public static final String SECRET_ENV = "FIBER_RUN_SECRET";

	private final String name;
	private final String image;
	private final List<String> command;
	private final Map<String, String> environment;
	private final ResourceSpec resources;
	private final List<String> volumes;
	private final Map<String, String> labels;

	private JobSpec(String name, String image, List<String> command, Map<String, String> environment,
			ResourceSpec resources, List<String> volumes, Map<String, String> labels) {
		this.name = name;
		this.image = image;
		this.command = command;
		this.environment = environment;
		this.resources = resources;
		this.volumes = volumes;
		this.labels = labels;
	}

	/** A spec that runs {@code command} under the name {@code name}. */
	public static JobSpec of(String name, List<String> command) {
		Objects.requireNonNull(name, "name");
		if (!name.matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?") || name.length() > 63) {
			throw new IllegalArgumentException("job name '" + name
					+ "' must be lower-case letters, digits, '-' or '.', start and end with a letter or digit, at most 63 long");
		}
		if (Objects.requireNonNull(command, "command").isEmpty()) {
			throw new IllegalArgumentException("command must not be empty");
		}
		return new JobSpec(name, "", List.copyOf(command), Map.of(), ResourceSpec.NONE, List.of(), Map.of());
	}

	public String name() {
		return name;
	}

	/** The container image; empty means the backend's default (the parent's own, on Kubernetes). */
	public String image() {
		return image;
	}

	public List<String> command() {
		return command;
	}

	/** Environment variables added to the job's own. */
	public Map<String, String> environment() {
		return environment;
	}

	public ResourceSpec resources() {
		return resources;
	}

	/** Volume claims to mount, by name. */
	public List<String> volumes() {
		return volumes;
	}

	public Map<String, String> labels() {
		return labels;
	}

	public JobSpec withImage(String image) {
		return new JobSpec(name, Objects.requireNonNull(image, "image"), command, environment, resources, volumes, labels);
	}

	public JobSpec withCommand(List<String> command) {
		return new JobSpec(name, image, List.copyOf(command), environment, resources, volumes, labels);
	}

	/** This spec with {@code variables} added to its environment, replacing equal names. */
	public JobSpec withEnvironment(Map<String, String> variables) {
		Map<String, String> copy = new LinkedHashMap<>(environment);
		copy.putAll(variables);
		return new JobSpec(name, image, command, Map.copyOf(copy), resources, volumes, labels);
	}

	public JobSpec withResources(ResourceSpec resources) {
		return new JobSpec(name, image, command, environment, Objects.requireNonNull(resources, "resources"), volumes, labels);
	}

	public JobSpec withVolume(String claim) {
		List<String> copy = new ArrayList<>(volumes);
		copy.add(Objects.requireNonNull(claim, "claim"));
		return new JobSpec(name, image, command, environment, resources, List.copyOf(copy), labels);
	}

	public JobSpec withLabel(String key, String value) {
		Map<String, String> copy = new LinkedHashMap<>(labels);
		copy.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
		return new JobSpec(name, image, command, environment, resources, volumes, Map.copyOf(copy));
	}

	@Override
	public String toString() {
		// The environment may hold credentials: list names only.
		return "JobSpec[name=" + name + ", image=" + image + ", command=" + command + ", env=" + environment.keySet()
				+ ", resources=" + resources + ", volumes=" + volumes + ", labels=" + labels + "]";
	}
}
