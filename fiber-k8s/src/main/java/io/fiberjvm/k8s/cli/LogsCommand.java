package io.fiberjvm.k8s.cli;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.util.concurrent.Callable;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.LogWatch;
import io.fabric8.kubernetes.client.dsl.PodResource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code fiber logs}: a master or job pod's output. */
@Command(name = "logs", mixinStandardHelpOptions = true, description = "Prints a master or job pod's output.")
final class LogsCommand implements Callable<Integer> {

	@Mixin
	ClusterOptions cluster;

	@Spec
	CommandSpec spec;

	@Option(names = {"-f", "--follow"}, description = "Keep printing until the pod's container ends.")
	boolean follow;

	@Parameters(paramLabel = "POD", description = "The pod, as fiber ps lists it.")
	String podName;

	@Override
	public Integer call() {
		PrintWriter out = spec.commandLine().getOut();
		try (KubernetesClient client = cluster.connect()) {
			String namespace = cluster.namespace(client);
			PodResource resource = client.pods().inNamespace(namespace).withName(podName);
			Pod pod = resource.get();
			if (pod == null) {
				throw new CliException("no pod " + podName + " in namespace " + namespace + " (fiber ps lists them)");
			}
			String container = pod.getSpec().getContainers().get(0).getName();
			if (!follow) {
				out.print(resource.inContainer(container).getLog());
				out.flush();
				return 0;
			}
			OutputStream sink = new WriterSink(out);
			try (LogWatch logs = resource.inContainer(container).watchLog(sink)) {
				logs.onClose().toCompletableFuture().join();
			}
			out.flush();
			return 0;
		}
	}
}
