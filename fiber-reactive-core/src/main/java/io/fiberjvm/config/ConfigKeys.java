package io.fiberjvm.config;

import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.Placement;
import io.fiberjvm.codec.ShippedValues;

/**
 * Every configuration key Fiber knows, with its type, default and meaning.
 *
 * <p>A key that is not listed here is an error wherever it appears. The README's
 * configuration table is this list.
 */
public final class ConfigKeys {

	private static final Map<String, ConfigKey<?>> ALL = new LinkedHashMap<>();

	/** RSocket frames carry a 24-bit length. */
	private static final long MAX_FRAME = 0xFF_FFFFL;

	/** A value lives in one byte array, with room left for the frame around it. */
	private static final long MAX_VALUE = ShippedValues.DEFAULT_MAX_VALUE_SIZE;

	/** Which backend runs job-backed processes; empty picks the available one with the highest priority. */
	public static final ConfigKey<String> BACKEND = register(new ConfigKey<>("backend", "string", "",
			"Backend for job-backed processes (local, kubernetes); empty picks the available one with the highest priority (kubernetes inside a cluster, where KUBERNETES_SERVICE_HOST is set).",
			ConfigKeys::word));

	/** Which transport carries messages; empty picks the one with the highest priority. */
	public static final ConfigKey<String> TRANSPORT = register(new ConfigKey<>("transport", "string", "",
			"Transport between processes (rsocket); empty picks the one on the classpath with the highest priority.",
			ConfigKeys::word));

	/** The address the parent listens on for its children. */
	public static final ConfigKey<String> HOST = register(new ConfigKey<>("host", "string", "127.0.0.1",
			"Address the parent listens on for its children: loopback by default, every interface (0.0.0.0) when the backend runs jobs on other machines and this key is not set. Not passed to children on other machines.",
			ConfigKeys::nonEmpty));

	/** The address others are told to reach this runtime at. */
	public static final ConfigKey<String> ADVERTISE_HOST = register(new ConfigKey<>("advertise-host", "string", "",
			"Address children and peers are told to reach this runtime at; empty means host, or this machine's own address (a pod's IP) when host is a wildcard. Not passed to children.",
			text -> text.trim()));

	/** The port the parent listens on; 0 picks a free one. */
	public static final ConfigKey<Integer> PORT = register(new ConfigKey<>("port", "int", "0",
			"Port the parent listens on; 0 picks a free port.",
			text -> ValueParsers.intIn(text, 0, 65535)));

	/** The largest frame a connection accepts or sends. */
	public static final ConfigKey<Long> MAX_FRAME_SIZE = register(new ConfigKey<>("max-frame-size", "size", "8Mi",
			"Largest frame a connection sends or accepts, at most 16777215 bytes; a larger payload travels as fragments of at most this size (and 960 KiB), and a larger frame is refused and the offending connection closed.",
			text -> ValueParsers.sizeIn(text, 1024, MAX_FRAME)));

	/** The largest value that may travel between processes. */
	public static final ConfigKey<Long> MAX_VALUE_SIZE = register(new ConfigKey<>("max-value-size", "size", "2046Mi",
			"Largest value (encoded) that may travel between processes, at most 2046 MiB: a pool argument or result, queue item, manager argument or result, ring value, shared value; a larger one is refused at the call that sends it.",
			text -> ValueParsers.sizeIn(text, 1024, MAX_VALUE)));

	/** How often a connection proves it is alive. */
	public static final ConfigKey<Duration> KEEPALIVE_INTERVAL = register(new ConfigKey<>("keepalive-interval", "duration", "1s",
			"How often each connection sends a keep-alive frame.",
			ConfigKeys::positiveDuration));

	/** How long a silent connection lives before its peer is declared dead. */
	public static final ConfigKey<Duration> KEEPALIVE_TIMEOUT = register(new ConfigKey<>("keepalive-timeout", "duration", "20s",
			"A peer silent for this long is declared dead and its connection closed.",
			ConfigKeys::positiveDuration));

	/** How long a child may take to start and connect back. */
	public static final ConfigKey<Duration> START_TIMEOUT = register(new ConfigKey<>("start-timeout", "duration", "60s",
			"How long a job-backed process may take to start and connect back, once placed on a machine, before it is killed and reported failed.",
			ConfigKeys::positiveDuration));

	/** How long a job may wait for a machine to run on. */
	public static final ConfigKey<Duration> PENDING_TIMEOUT = register(new ConfigKey<>("pending-timeout", "duration", "10m",
			"How long a job-backed process may wait to be placed on a machine (a pod the scheduler has not placed, while an autoscaler adds nodes) before it is deleted and reported failed with the scheduler's reason; this wait does not count against start-timeout.",
			ConfigKeys::positiveDuration));

	/** How long a terminated child gets between SIGTERM and SIGKILL. */
	public static final ConfigKey<Duration> TERMINATE_GRACE = register(new ConfigKey<>("terminate-grace", "duration", "3s",
			"How long a terminated job-backed process gets to exit before it is killed; the one child that writes the "
					+ "class-sharing archive as it exits gets 30 s more (class-sharing=false has no such child).",
			ConfigKeys::positiveDuration));

	/** How long a pool worker's JVM whose pool closed waits for the next pool to serve. */
	public static final ConfigKey<Duration> WORKER_IDLE_TIME = register(new ConfigKey<>("worker-idle-time", "duration", "10s",
			"How long a worker JVM whose workers were retired (its pool closed or shrank) stays, idle, for the next worker of this run asking for the same resources, of any pool, which then starts without starting a JVM; 0s ends it with its workers. On the local backend, for pools without GPUs. Closing the Fiber lets idle JVMs exit at once.",
			ConfigKeys::durationOrZero));

	/** How many worker processes of a pool may fail to start in a row before the pool, with no worker, fails its calls. */
	public static final ConfigKey<Integer> WORKER_START_FAILURES = register(new ConfigKey<>("worker-start-failures", "int", "3",
			"How many worker processes of a pool may fail to start in a row (end before a worker connects, other than killed by SIGKILL or SIGTERM; or have no worker connected within start-timeout of their launch), counting those started together, before a pool with no worker fails its waiting and new calls with a WorkerStartException carrying the last start's error and output; the pool goes on starting workers after a growing, jittered delay, and takes calls again once one connects.",
			text -> ValueParsers.intIn(text, 1, 1_000_000)));

	/**
	 * How long a pool task may go on after its deadline interrupted it before its worker's JVM is replaced, and a
	 * manager call before its object is given up as stuck.
	 */
	public static final ConfigKey<Duration> TASK_TIMEOUT_GRACE = register(new ConfigKey<>("task-timeout-grace", "duration", "5s",
			"How long a pool task that ran past its deadline (taskTimeout) may go on after its worker interrupted it; one still running then fails with TaskTimeoutException all the same, and its worker's JVM is replaced, since its thread cannot be stopped. The same for a manager call past its callTimeout: one still running then fails with CallTimeoutException, and its object is given up as stuck until the manager is restarted.",
			ConfigKeys::positiveDuration));

	/** The {@code java} executable for child JVMs. */
	public static final ConfigKey<String> JAVA = register(new ConfigKey<>("java", "path", "",
			"The java executable for child JVMs; empty uses the parent's own (java.home/bin/java).",
			text -> text.trim()));

	/** Extra options for child JVMs. */
	public static final ConfigKey<List<String>> JVM_OPTIONS = register(new ConfigKey<>("jvm-options", "list (spaces)", "",
			"Extra options for child JVMs, separated by spaces (for example -Xmx2g -XX:+UseParallelGC); they come after the children's one default, -Dio.netty.jfr.enabled=false, so they can override it.",
			text -> ValueParsers.splitOn(text, "\\s+")));

	/** Whether a manager runs calls of quick methods on the thread they arrive on. */
	public static final ConfigKey<Boolean> MANAGER_DIRECT_CALLS = register(new ConfigKey<>("manager-direct-calls", "boolean", "true",
			"A manager runs a call straight on its connection's thread, saving two thread hand-offs, when the object is idle, the arguments are under 64 KiB and the method's last 16 runs each took under 50 microseconds; false runs every call on the object's threads (for methods that are mostly quick but may wait for another call to the same manager).",
			ConfigKeys::bool));

	/** Whether child JVMs share a class-data archive. */
	public static final ConfigKey<Boolean> CLASS_SHARING = register(new ConfigKey<>("class-sharing", "boolean", "true",
			"Child JVMs share one archive of the classes they load when the classpath is made of jars only, which takes a third to a half off their start: the JDK's AOT cache when the children run this JVM's own java and it is JDK 25 or later, a class-data archive (AppCDS) otherwise; the first child writes it to java.io.tmpdir/fiber-cds.",
			ConfigKeys::bool));

	/** Extra classes that values and functions may contain, as ObjectInputFilter patterns. */
	public static final ConfigKey<List<String>> SERIAL_ALLOW = register(new ConfigKey<>("serial-allow", "list (commas)", "",
			"Extra classes that values and shipped functions may contain, beside the JDK's value types, Fiber's own and the program's packages, as ObjectInputFilter patterns (com.acme.*, com.acme.**).",
			ValueParsers::serialPatterns));

	/** The program's own package trees, whose classes travel between processes without being listed. */
	public static final ConfigKey<List<String>> PROGRAM_PACKAGES = register(new ConfigKey<>("program-packages", "list (commas)", "",
			"The program's own classes, which values and functions may contain without serial-allow, as ObjectInputFilter patterns; empty means the package tree of the class that opened the Fiber (its first two names: com.acme.**).",
			ValueParsers::serialPatterns));

	/** The GPU device ids the local backend hands out. */
	public static final ConfigKey<List<String>> LOCAL_GPUS = register(new ConfigKey<>("local-gpus", "list (commas)", "",
			"GPU device ids the local backend hands out through CUDA_VISIBLE_DEVICES (for example 0,1); empty means none.",
			text -> ValueParsers.splitOn(text, ",")));

	/** Whether connections between processes use TLS. */
	public static final ConfigKey<String> TLS = register(new ConfigKey<>("tls", "string", "auto",
			"TLS 1.3 on connections between the run's processes over the network, with a certificate every process derives from the run's secret: auto (on when the backend runs jobs on other machines or this runtime listens beyond loopback, off otherwise), on, or off; a program that joins a run (Fiber.joinRun) sets it as the run does. Connections through a machine's local sockets never use it.",
			text -> ValueParsers.oneOf(text, "tls", "auto", "on", "off")));

	/** Where the local backend writes child output. */
	public static final ConfigKey<Path> LOG_DIR = register(new ConfigKey<>("log-dir", "path", "",
			"Directory for the output of local job-backed processes; empty uses java.io.tmpdir/fiber-logs.",
			text -> Path.of(text.trim())));

	/** The Kubernetes namespace job pods go to. */
	public static final ConfigKey<String> NAMESPACE = register(new ConfigKey<>("namespace", "string", "",
			"Kubernetes namespace for job pods; empty means the parent pod's own (or the kubeconfig's), else default.",
			ConfigKeys::dnsLabel));

	/** The container image of job pods. */
	public static final ConfigKey<String> IMAGE = register(new ConfigKey<>("image", "string", "",
			"Container image for job pods; empty uses the parent pod's image.",
			text -> text.trim()));

	/** The java executable in the job image. */
	public static final ConfigKey<String> IMAGE_JAVA = register(new ConfigKey<>("image-java", "string", "",
			"The java executable in job pods' image; empty uses the parent's own when the parent runs in a pod, else java on the image's PATH.",
			text -> text.trim()));

	/** The classpath in the job image. */
	public static final ConfigKey<String> IMAGE_CLASSPATH = register(new ConfigKey<>("image-classpath", "string", "",
			"The classpath of job pods' JVMs: entries joined with ':', or @file naming a file that lists them; empty uses the parent's own when the parent runs in a pod, else @/app/jib-classpath-file (what Jib writes into the images it builds).",
			text -> text.trim()));

	/** Persistent volume claims every job pod mounts. */
	public static final ConfigKey<List<String>> VOLUMES = register(new ConfigKey<>("volumes", "list (commas)", "",
			"Persistent volume claims mounted in every job pod, where the parent mounts them (else under /persistent/); empty mounts the parent pod's claims.",
			text -> ValueParsers.splitOn(text, ",").stream().map(ConfigKeys::dnsLabel).toList()));

	/** The pod this runtime runs in. */
	public static final ConfigKey<String> POD_NAME = register(new ConfigKey<>("pod-name", "string", "",
			"The pod this runtime runs in, which owns its job pods (deleting it deletes them) and lends them its image and claims; empty reads HOSTNAME inside a cluster. Not passed to children.",
			ConfigKeys::dnsLabel));

	/** Node labels every job pod requires. */
	public static final ConfigKey<Map<String, String>> NODE_SELECTOR = register(new ConfigKey<>("node-selector", "pairs (k=v,...)", "",
			"Node labels every job pod requires (its nodeSelector), as key=value pairs joined with commas.",
			text -> ValueParsers.pairs(text, "node-selector")));

	/** Taints every job pod tolerates. */
	public static final ConfigKey<List<Placement.Toleration>> TOLERATIONS = register(new ConfigKey<>("tolerations", "list (commas)", "",
			"Taints every job pod tolerates, as kubectl taint writes them: key=value:Effect, key:Effect (any value) or key (any value and effect).",
			text -> ValueParsers.splitOn(text, ",").stream().map(Placement.Toleration::parse).toList()));

	/** Every job pod's affinity. */
	public static final ConfigKey<String> AFFINITY = register(new ConfigKey<>("affinity", "JSON", "",
			"Every job pod's affinity: a Kubernetes Affinity as JSON (nodeAffinity, podAffinity, podAntiAffinity).",
			text -> text.trim()));

	/** Every job pod's priority class. */
	public static final ConfigKey<String> PRIORITY_CLASS = register(new ConfigKey<>("priority-class", "string", "",
			"Every job pod's priority class; empty uses the cluster's default.",
			ConfigKeys::dnsLabel));

	/** Labels every job pod carries. */
	public static final ConfigKey<Map<String, String>> POD_LABELS = register(new ConfigKey<>("pod-labels", "pairs (k=v,...)", "",
			"Labels every job pod carries besides Fiber's own, as key=value pairs joined with commas.",
			text -> ValueParsers.pairs(text, "pod-labels")));

	/** Annotations every job pod carries. */
	public static final ConfigKey<Map<String, String>> POD_ANNOTATIONS = register(new ConfigKey<>("pod-annotations", "pairs (k=v,...)", "",
			"Annotations every job pod carries, as key=value pairs joined with commas.",
			text -> ValueParsers.pairs(text, "pod-annotations")));

	/** Every job pod's service account. */
	public static final ConfigKey<String> SERVICE_ACCOUNT = register(new ConfigKey<>("service-account", "string", "",
			"Every job pod's service account; empty uses the parent pod's.",
			ConfigKeys::dnsLabel));

	/** A pod every job pod is made from. */
	public static final ConfigKey<String> POD_TEMPLATE = register(new ConfigKey<>("pod-template", "path", "",
			"A Pod as YAML or JSON that every job pod is made from: its metadata, spec and containers (the worker is the container named worker, else the first) are kept where Fiber sets nothing. Not passed to children on other machines.",
			text -> text.trim()));

	/** Where the Kubernetes backend finds its cluster. */
	public static final ConfigKey<String> KUBECONFIG = register(new ConfigKey<>("kubeconfig", "path", "",
			"Kubeconfig file the Kubernetes backend uses; empty uses the pod's service account inside a cluster, else KUBECONFIG or ~/.kube/config. Not passed to children.",
			text -> text.trim()));

	public static final ConfigKey<Path> RUNS_DIR = register(new ConfigKey<>("runs-dir", "path", "",
			"Directory where a program's runtime keeps its run's status for `fiber ps --local` (a JSON file per run, written when it changes, looked at every second from a second after open, deleted on close); empty uses java.io.tmpdir/fiber-runs.",
			text -> Path.of(text.trim())));

	public static final ConfigKey<String> CHILD_LOGS = register(new ConfigKey<>("child-logs", "file or parent", "file",
			"Where the output of job-backed processes goes: file keeps it in a file per process (read with logs()); parent also logs each line, as it is written, through the parent's SLF4J logger fiber.child.<process name> at INFO, with the child's identity in the MDC.",
			ConfigKeys::childLogs));

	private ConfigKeys() {
	}

	private static String childLogs(String text) {
		String value = text.trim().toLowerCase(Locale.ROOT);
		if (!value.equals("file") && !value.equals("parent")) {
			throw new IllegalArgumentException("'" + text + "' is not file or parent");
		}
		return value;
	}

	/** Every key, in documentation order. */
	public static List<ConfigKey<?>> all() {
		return Collections.unmodifiableList(new ArrayList<>(ALL.values()));
	}

	/** The key with this canonical name, or {@code null}. */
	public static @Nullable ConfigKey<?> byName(String name) {
		return ALL.get(name);
	}

	private static <T> ConfigKey<T> register(ConfigKey<T> key) {
		ALL.put(key.name(), key);
		return key;
	}

	private static String word(String text) {
		String t = text.trim().toLowerCase(Locale.ROOT);
		if (!t.isEmpty() && !t.matches("[a-z][a-z0-9-]*")) {
			throw new IllegalArgumentException("'" + text + "' is not a name (letters, digits and dashes)");
		}
		return t;
	}

	/** A Kubernetes object name (RFC 1123 label), or empty. */
	private static String dnsLabel(String text) {
		String t = text.trim();
		if (!t.isEmpty() && (t.length() > 253 || !t.matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?"))) {
			throw new IllegalArgumentException("'" + text + "' is not a Kubernetes name (lower-case letters, digits, '-' and '.')");
		}
		return t;
	}

	private static boolean bool(String text) {
		return switch (text.trim().toLowerCase(Locale.ROOT)) {
			case "true", "yes", "on" -> true;
			case "false", "no", "off" -> false;
			default -> throw new IllegalArgumentException("'" + text + "' is not true or false");
		};
	}

	private static String nonEmpty(String text) {
		if (text.isBlank()) {
			throw new IllegalArgumentException("it must not be empty");
		}
		return text.trim();
	}

	private static final Pattern SIMPLE_DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h)", Pattern.CASE_INSENSITIVE);

	/**
	 * Parses {@code 250ms}, {@code 5s}, {@code 2m}, {@code 1h} or ISO-8601 ({@code PT5S}).
	 *
	 * @throws IllegalArgumentException naming the text when it is not a duration
	 */
	public static Duration parseDuration(String text) {
		String t = text.trim();
		Matcher m = SIMPLE_DURATION.matcher(t);
		if (m.matches()) {
			try {
				long n = Long.parseLong(m.group(1));
				return switch (m.group(2).toLowerCase(Locale.ROOT)) {
					case "ms" -> Duration.ofMillis(n);
					case "s" -> Duration.ofSeconds(n);
					case "m" -> Duration.ofMinutes(n);
					default -> Duration.ofHours(n);
				};
			}
			catch (ArithmeticException | NumberFormatException e) {
				throw new IllegalArgumentException("'" + text + "' is too long a duration");
			}
		}
		try {
			return Duration.parse(t);
		}
		catch (DateTimeParseException e) {
			throw new IllegalArgumentException("'" + text + "' is not a duration (examples: 250ms, 5s, 2m, PT1M)");
		}
	}

	private static Duration positiveDuration(String text) {
		Duration d = parseDuration(text);
		if (d.isNegative() || d.isZero()) {
			throw new IllegalArgumentException("'" + text + "' must be longer than zero");
		}
		return d;
	}

	private static Duration durationOrZero(String text) {
		Duration d = parseDuration(text);
		if (d.isNegative()) {
			throw new IllegalArgumentException("'" + text + "' must not be negative");
		}
		return d;
	}

}
