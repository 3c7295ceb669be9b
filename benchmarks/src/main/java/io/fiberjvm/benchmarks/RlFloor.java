package io.fiberjvm.benchmarks;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.rsocket.Payload;
import io.rsocket.RSocket;
import io.rsocket.util.DefaultPayload;
import reactor.core.publisher.Flux;

/**
 * The floor under the RL stepping demo: the same time steps with no Fiber at all, one echo JVM per environment
 * ({@link EchoServerMain}) answering a 64-byte message per step, the size of a CartPole step's answer.
 *
 * <p>The contract: {@code way} is {@code rsocket} (plain RSocket request-response over TCP, the transport the design
 * builds on, {@code block()} per sync call and {@code flatMapSequential} of all steps for async) or {@code raw}
 * (blocking loopback sockets, one thread: sync writes and reads each in turn, async writes to every JVM then reads
 * every answer). After one untimed pass of each mode it prints, as {@code AsyncCartPole} does, {@code sync proxies :
 * STEPS steps x ENVS envs in S s} and the same for async, so {@link RlSteppingHarness} reads both alike.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.fiberjvm.benchmarks.RlFloor rsocket|raw [envs 4] [steps 5000]
 * </pre>
 */
public final class RlFloor {

	private static final Duration WAIT = Duration.ofMinutes(1);

	private RlFloor() {
	}

	/** One way of stepping every environment once. */
	private interface Stepper extends AutoCloseable {

		void syncStep() throws IOException;

		void asyncStep() throws IOException;

		@Override
		void close() throws IOException;
	}

	public static void main(String[] args) throws Exception {
		if (args.length < 1 || !(args[0].equals("rsocket") || args[0].equals("raw"))) {
			System.err.println("usage: RlFloor rsocket|raw [envs 4] [steps 5000]");
			System.exit(2);
		}
		int envs = args.length > 1 ? Integer.parseInt(args[1]) : 4;
		int steps = args.length > 2 ? Integer.parseInt(args[2]) : 5000;
		List<EchoServer> servers = new ArrayList<>();
		try {
			for (int i = 0; i < envs; i++) {
				servers.add(new EchoServer("floor-" + System.nanoTime()));
			}
			try (Stepper stepper = args[0].equals("rsocket") ? new RSocketStepper(servers) : new RawStepper(servers)) {
				pass(stepper, steps, false);
				pass(stepper, steps, true);
				double sync = pass(stepper, steps, false);
				double async = pass(stepper, steps, true);
				String what = args[0].equals("rsocket") ? "plain RSocket request-response" : "blocking loopback sockets";
				System.out.printf(Locale.ROOT, "sync proxies : %d steps x %d envs in %.2f s (%s)%n", steps, envs, sync, what);
				System.out.printf(Locale.ROOT, "async proxies: %d steps x %d envs in %.2f s (%s)%n", steps, envs, async, what);
			}
		}
		finally {
			servers.forEach(EchoServer::close);
		}
	}

	private static double pass(Stepper stepper, int steps, boolean async) throws IOException {
		long start = System.nanoTime();
		for (int t = 0; t < steps; t++) {
			if (async) {
				stepper.asyncStep();
			}
			else {
				stepper.syncStep();
			}
		}
		return (System.nanoTime() - start) / 1e9;
	}

	/** Plain RSocket clients, one per echo JVM. */
	private static final class RSocketStepper implements Stepper {

		private final List<RSocket> clients = new ArrayList<>();
		private final byte[] message = new byte[EchoServerMain.MESSAGE];

		RSocketStepper(List<EchoServer> servers) {
			servers.forEach(server -> clients.add(server.plainRSocket(WAIT)));
		}

		@Override
		public void syncStep() {
			for (RSocket client : clients) {
				Payload answer = client.requestResponse(DefaultPayload.create(message)).block(WAIT);
				if (answer == null) {
					throw new IllegalStateException("an echo JVM answered nothing");
				}
				answer.release();
			}
		}

		@Override
		public void asyncStep() {
			List<Payload> answers = Flux.fromIterable(clients)
					.flatMapSequential(client -> client.requestResponse(DefaultPayload.create(message)))
					.collectList()
					.block(WAIT);
			if (answers == null || answers.size() != clients.size()) {
				throw new IllegalStateException("the echo JVMs gave " + answers + " for " + clients.size() + " requests");
			}
			answers.forEach(Payload::release);
		}

		@Override
		public void close() {
			clients.forEach(RSocket::dispose);
		}
	}

	/** Blocking sockets, one per echo JVM, all on this thread. */
	private static final class RawStepper implements Stepper {

		private final List<Socket> sockets = new ArrayList<>();
		private final List<DataInputStream> ins = new ArrayList<>();
		private final List<OutputStream> outs = new ArrayList<>();
		private final byte[] message = new byte[EchoServerMain.MESSAGE];
		private final byte[] answer = new byte[EchoServerMain.MESSAGE];

		RawStepper(List<EchoServer> servers) throws IOException {
			for (EchoServer server : servers) {
				Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.rawPort);
				socket.setTcpNoDelay(true);
				sockets.add(socket);
				ins.add(new DataInputStream(socket.getInputStream()));
				outs.add(socket.getOutputStream());
			}
		}

		@Override
		public void syncStep() throws IOException {
			for (int i = 0; i < sockets.size(); i++) {
				outs.get(i).write(message);
				outs.get(i).flush();
				ins.get(i).readFully(answer);
			}
		}

		@Override
		public void asyncStep() throws IOException {
			for (OutputStream out : outs) {
				out.write(message);
				out.flush();
			}
			for (DataInputStream in : ins) {
				in.readFully(answer);
			}
		}

		@Override
		public void close() throws IOException {
			for (Socket socket : sockets) {
				socket.close();
			}
		}
	}
}
