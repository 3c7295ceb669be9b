package io.fiberjvm.k8s.cli;

import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.util.concurrent.TimeoutException;

import io.fabric8.kubernetes.client.KubernetesClientException;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/**
 * The {@code fiber} command line: runs a program on a Kubernetes cluster and looks after it
 * ({@code run}, {@code ps}, {@code logs}, {@code cp}).
 *
 * <p>Exit codes: 0 on success; with {@code run --attach}, the program's own; 1 when the cluster refuses
 * or cannot be reached; 2 for a usage mistake.
 */
@Command(name = "fiber", mixinStandardHelpOptions = true, version = "fiber 0.1.0",
		description = "Runs Fiber programs on a Kubernetes cluster.",
		subcommands = {RunCommand.class, PsCommand.class, LogsCommand.class, CopyCommand.class})
public final class FiberCli implements Runnable {

	@CommandLine.Spec
	CommandLine.Model.CommandSpec spec;

	@Override
	public void run() {
		throw new CommandLine.ParameterException(spec.commandLine(), "a command is needed: run, ps, logs or cp");
	}

	public static void main(String[] args) {
		// The command line says what went wrong itself; SLF4J's note that no logger is bound is noise here.
		if (System.getProperty("slf4j.internal.verbosity") == null) {
			System.setProperty("slf4j.internal.verbosity", "ERROR");
		}
		System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
	}

	/** Runs the command line {@code args}, writing to {@code out} and {@code err}; returns the exit code. */
	public static int execute(String[] args, PrintWriter out, PrintWriter err) {
		CommandLine line = new CommandLine(new FiberCli());
		line.setOut(out);
		line.setErr(err);
		line.setExecutionExceptionHandler((e, commandLine, parsed) -> {
			Object options = commandLine.getMixins().get("cluster");
			String server = options instanceof ClusterOptions cluster ? cluster.masterUrl : null;
			commandLine.getErr().println("fiber " + commandLine.getCommandName() + ": " + explain(e, server));
			commandLine.getErr().flush();
			return e instanceof CliException ? 2 : 1;
		});
		return line.execute(args);
	}

	/** One line that says what went wrong and what to do. */
	static String explain(Throwable e, @Nullable String server) {
		if (e instanceof CliException) {
			return String.valueOf(e.getMessage());
		}
		if (e instanceof KubernetesClientException k) {
			Throwable tls = find(k, javax.net.ssl.SSLException.class);
			if (tls != null) {
				return "TLS with the API server" + (server != null ? " at " + server : "") + " failed (" + tls.getMessage()
						+ "). Check the kubeconfig's certificate authority and client certificate.";
			}
			Throwable cause = unreachable(k);
			if (k.getCode() <= 0 && cause != null) {
				return "no Kubernetes cluster is reachable" + (server != null ? " at " + server : "") + " (" + cause.getClass().getSimpleName()
						+ (cause.getMessage() != null ? ": " + cause.getMessage() : "")
						+ "). Point --kubeconfig or KUBECONFIG at a cluster's kubeconfig, or run inside a cluster.";
			}
			String message = k.getStatus() != null && k.getStatus().getMessage() != null ? k.getStatus().getMessage() : k.getMessage();
			return "the Kubernetes API refused: " + message + (k.getCode() > 0 ? " (HTTP " + k.getCode() + ")" : "")
					+ (k.getCode() == 403 ? ". Apply fiber-k8s/rbac.yaml and run as its service account." : "");
		}
		return e.toString();
	}

	private static @Nullable Throwable find(Throwable e, Class<? extends Throwable> type) {
		for (Throwable cause = e; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
			if (type.isInstance(cause)) {
				return cause;
			}
		}
		return null;
	}

	/** The cause that says the cluster could not be reached, or null. */
	private static @Nullable Throwable unreachable(Throwable e) {
		for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
			if (cause instanceof ConnectException || cause instanceof UnknownHostException
					|| cause instanceof UnresolvedAddressException || cause instanceof TimeoutException
					|| cause instanceof java.io.IOException) {
				return cause;
			}
		}
		return null;
	}
}
