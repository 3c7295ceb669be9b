package io.fiberjvm;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Where a job-backed process may run on a cluster, and how its pod is marked: an immutable spec with copy-on-write
 * setters.
 *
 * <p>The configuration keys {@code node-selector}, {@code tolerations}, {@code affinity}, {@code priority-class},
 * {@code pod-labels}, {@code pod-annotations}, {@code service-account} and {@code pod-template} give every job's; a
 * pool, process, manager or ring given a placement of its own has it laid over those: its node selector, labels and
 * annotations added to (and winning over) theirs, its tolerations added, its affinity, priority class, service account
 * and template in place of theirs. The local backend runs every job on this machine and ignores placement.
 */
public final class Placement {

	private static final Placement NONE = new Placement(Map.of(), List.of(), "", "", Map.of(), Map.of(), "", "");

	private final Map<String, String> nodeSelector;
	private final List<Toleration> tolerations;
	private final String affinity;
	private final String priorityClass;
	private final Map<String, String> labels;
	private final Map<String, String> annotations;
	private final String serviceAccount;
	private final String podTemplate;

	private Placement(Map<String, String> nodeSelector, List<Toleration> tolerations, String affinity, String priorityClass,
			Map<String, String> labels, Map<String, String> annotations, String serviceAccount, String podTemplate) {
		this.nodeSelector = nodeSelector;
		this.tolerations = tolerations;
		this.affinity = affinity;
		this.priorityClass = priorityClass;
		this.labels = labels;
		this.annotations = annotations;
		this.serviceAccount = serviceAccount;
		this.podTemplate = podTemplate;
	}

	/** No placement: the scheduler places the job anywhere, and its pod has only Fiber's own marks. */
	public static Placement none() {
		return NONE;
	}

	/** A taint the job's pod tolerates, as {@code kubectl taint} names one. */
	public record Toleration(String key, String value, String effect) {

		public Toleration {
			Objects.requireNonNull(key, "key");
			Objects.requireNonNull(value, "value");
			Objects.requireNonNull(effect, "effect");
			if (!effect.isEmpty() && !List.of("NoSchedule", "PreferNoSchedule", "NoExecute").contains(effect)) {
				throw new IllegalArgumentException("toleration effect '" + effect
						+ "' is not NoSchedule, PreferNoSchedule or NoExecute (or empty for all three)");
			}
			if (key.isEmpty() && !value.isEmpty()) {
				throw new IllegalArgumentException("a toleration with value '" + value + "' needs a key");
			}
		}

		/**
		 * A toleration as {@code kubectl taint} writes the taint: {@code key=value:Effect}, {@code key:Effect} (any
		 * value), {@code key} (any value, any effect).
		 */
		public static Toleration parse(String text) {
			String rest = text.strip();
			String effect = "";
			int colon = rest.lastIndexOf(':');
			if (colon >= 0) {
				effect = rest.substring(colon + 1);
				rest = rest.substring(0, colon);
			}
			int equals = rest.indexOf('=');
			return equals < 0 ? new Toleration(rest, "", effect) : new Toleration(rest.substring(0, equals), rest.substring(equals + 1), effect);
		}

		/** Whether the toleration matches a taint of its key whatever its value: it names none. */
		public boolean anyValue() {
			return value.isEmpty();
		}
	}

	/** This placement with the node label {@code key} required to be {@code value}. */
	public Placement nodeSelector(String key, String value) {
		return new Placement(with(nodeSelector, key, value, "node selector"), tolerations, affinity, priorityClass, labels,
				annotations, serviceAccount, podTemplate);
	}

	/** This placement tolerating {@code toleration} as well. */
	public Placement toleration(Toleration toleration) {
		Objects.requireNonNull(toleration, "toleration");
		List<Toleration> more = new ArrayList<>(tolerations);
		more.add(toleration);
		return new Placement(nodeSelector, List.copyOf(more), affinity, priorityClass, labels, annotations, serviceAccount, podTemplate);
	}

	/** This placement with {@code affinity}, a Kubernetes {@code Affinity} as JSON or YAML; empty for none. */
	public Placement affinity(String affinity) {
		return new Placement(nodeSelector, tolerations, Objects.requireNonNull(affinity, "affinity").strip(), priorityClass, labels,
				annotations, serviceAccount, podTemplate);
	}

	/** This placement with the pod's priority class; empty for the cluster's default. */
	public Placement priorityClass(String name) {
		return new Placement(nodeSelector, tolerations, affinity, Objects.requireNonNull(name, "name").strip(), labels, annotations,
				serviceAccount, podTemplate);
	}

	/** This placement with the pod label {@code key=value}. */
	public Placement label(String key, String value) {
		return new Placement(nodeSelector, tolerations, affinity, priorityClass, with(labels, key, value, "label"), annotations,
				serviceAccount, podTemplate);
	}

	/** This placement with the pod annotation {@code key=value}. */
	public Placement annotation(String key, String value) {
		return new Placement(nodeSelector, tolerations, affinity, priorityClass, labels, with(annotations, key, value, "annotation"),
				serviceAccount, podTemplate);
	}

	/** This placement with the pod's service account; empty for the parent pod's. */
	public Placement serviceAccount(String name) {
		return new Placement(nodeSelector, tolerations, affinity, priorityClass, labels, annotations,
				Objects.requireNonNull(name, "name").strip(), podTemplate);
	}

	/** This placement with a pod template file (YAML or JSON of a Pod) merged into every job pod; empty for none. */
	public Placement podTemplate(String file) {
		return new Placement(nodeSelector, tolerations, affinity, priorityClass, labels, annotations, serviceAccount,
				Objects.requireNonNull(file, "file").strip());
	}

	/** {@code over} laid over this placement, as the class comment says. */
	public Placement with(Placement over) {
		Objects.requireNonNull(over, "over");
		List<Toleration> both = new ArrayList<>(tolerations);
		both.addAll(over.tolerations);
		return new Placement(merged(nodeSelector, over.nodeSelector), List.copyOf(both), or(over.affinity, affinity),
				or(over.priorityClass, priorityClass), merged(labels, over.labels), merged(annotations, over.annotations),
				or(over.serviceAccount, serviceAccount), or(over.podTemplate, podTemplate));
	}

	public Map<String, String> nodeSelector() {
		return nodeSelector;
	}

	public List<Toleration> tolerations() {
		return tolerations;
	}

	/** The affinity as JSON or YAML; empty for none. */
	public String affinity() {
		return affinity;
	}

	/** The priority class; empty for the cluster's default. */
	public String priorityClass() {
		return priorityClass;
	}

	public Map<String, String> labels() {
		return labels;
	}

	public Map<String, String> annotations() {
		return annotations;
	}

	/** The service account; empty for the parent pod's. */
	public String serviceAccount() {
		return serviceAccount;
	}

	/** The pod template file; empty for none. */
	public String podTemplate() {
		return podTemplate;
	}

	/** Whether nothing is set. */
	public boolean isNone() {
		return equals(NONE);
	}

	private static Map<String, String> with(Map<String, String> map, String key, String value, String what) {
		Objects.requireNonNull(key, "key");
		Objects.requireNonNull(value, "value");
		if (key.isBlank()) {
			throw new IllegalArgumentException("a " + what + " needs a key (got '" + key + "=" + value + "')");
		}
		Map<String, String> copy = new LinkedHashMap<>(map);
		copy.put(key.strip(), value.strip());
		return java.util.Collections.unmodifiableMap(copy);
	}

	private static Map<String, String> merged(Map<String, String> under, Map<String, String> over) {
		if (over.isEmpty()) {
			return under;
		}
		Map<String, String> copy = new LinkedHashMap<>(under);
		copy.putAll(over);
		return java.util.Collections.unmodifiableMap(copy);
	}

	private static String or(String first, String second) {
		return first.isEmpty() ? second : first;
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof Placement that && nodeSelector.equals(that.nodeSelector) && tolerations.equals(that.tolerations)
				&& affinity.equals(that.affinity) && priorityClass.equals(that.priorityClass) && labels.equals(that.labels)
				&& annotations.equals(that.annotations) && serviceAccount.equals(that.serviceAccount) && podTemplate.equals(that.podTemplate);
	}

	@Override
	public int hashCode() {
		return Objects.hash(nodeSelector, tolerations, affinity, priorityClass, labels, annotations, serviceAccount, podTemplate);
	}

	@Override
	public String toString() {
		return "Placement[nodeSelector=" + nodeSelector + ", tolerations=" + tolerations + ", affinity=" + (affinity.isEmpty() ? "" : "…")
				+ ", priorityClass=" + priorityClass + ", labels=" + labels + ", annotations=" + annotations + ", serviceAccount="
				+ serviceAccount + ", podTemplate=" + podTemplate + "]";
	}
}
