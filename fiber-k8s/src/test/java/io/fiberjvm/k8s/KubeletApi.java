package io.fiberjvm.k8s;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * The part of a kubelet's HTTPS API the API server proxies to: {@code /containerLogs/{ns}/{pod}/{container}}
 * (with {@code follow=true}) and {@code /exec/{ns}/{pod}/{container}} over a WebSocket speaking the
 * {@code v4.channel.k8s.io} protocol (channel 0 stdin, 1 stdout, 2 stderr, 3 the exit status). Written
 * here because the JDK's HTTP server cannot switch protocols.
 */
final class KubeletApi implements AutoCloseable {

	private static final String WEBSOCKET_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
	private static final String PROTOCOL = "v4.channel.k8s.io";

	/** What the API needs from the node: a pod's process, output and environment. */
	interface Pods {
		/** The pod's container, or null when it does not run here. */
		NodeAgent.RunningPod find(String namespace, String pod);
	}

	private final Pods pods;
	private final java.util.Set<Socket> logStreams = java.util.concurrent.ConcurrentHashMap.newKeySet();
	private final ServerSocket server;
	private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
		Thread t = new Thread(r, "kubelet-api");
		t.setDaemon(true);
		return t;
	});

	KubeletApi(Pods pods, Path dir) throws Exception {
		this.pods = pods;
		this.server = selfSignedTls(dir).getServerSocketFactory().createServerSocket(0, 50, InetAddress.getLoopbackAddress());
		threads.execute(this::accept);
	}

	int port() {
		return server.getLocalPort();
	}

	private void accept() {
		while (!server.isClosed()) {
			try {
				Socket socket = server.accept();
				threads.execute(() -> serve(socket));
			}
			catch (IOException closed) {
				return;
			}
		}
	}

	private void serve(Socket socket) {
		try (socket) {
			InputStream in = socket.getInputStream();
			OutputStream out = socket.getOutputStream();
			List<String> head = readHead(in);
			if (head.isEmpty()) {
				return;
			}
			String[] requestLine = head.get(0).split(" ");
			String target = requestLine.length > 1 ? requestLine[1] : "/";
			Map<String, String> headers = new LinkedHashMap<>();
			for (String line : head.subList(1, head.size())) {
				int colon = line.indexOf(':');
				if (colon > 0) {
					headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
				}
			}
			String path = target.contains("?") ? target.substring(0, target.indexOf('?')) : target;
			Map<String, List<String>> query = query(target.contains("?") ? target.substring(target.indexOf('?') + 1) : "");
			String[] parts = path.split("/");
			NodeAgent.RunningPod pod = parts.length >= 4 ? pods.find(parts[2], parts[3]) : null;
			if (pod == null || !(parts[1].equals("containerLogs") || parts[1].equals("exec"))) {
				respond(out, "404 Not Found", "no such container here: " + path);
				return;
			}
			if (parts[1].equals("containerLogs")) {
				String since = first(query, "sinceTime");
				logStreams.add(socket);
				try {
					logs(socket, pod, "true".equals(first(query, "follow")), "true".equals(first(query, "timestamps")),
							since == null ? null : java.time.Instant.parse(since));
				}
				finally {
					logStreams.remove(socket);
				}
			}
			else {
				exec(in, out, headers, pod, query);
			}
		}
		catch (IOException | RuntimeException e) {
			// the peer went away
		}
	}

	/**
	 * The container's log from the stored, stamped lines: with their instants or without, from
	 * {@code since} on, and (following) as it grows until the container has ended or the stream is cut.
	 */
	private static void logs(Socket socket, NodeAgent.RunningPod pod, boolean follow, boolean timestamps, java.time.Instant since)
			throws IOException {
		OutputStream out = socket.getOutputStream();
		out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
		try (InputStream log = Files.newInputStream(pod.log())) {
			ByteArrayOutputStream line = new ByteArrayOutputStream();
			byte[] buffer = new byte[8192];
			boolean lastLook = false;
			while (true) {
				int n = log.read(buffer);
				if (n > 0) {
					for (int i = 0; i < n; i++) {
						if (buffer[i] == '\n') {
							String stamped = line.toString(StandardCharsets.UTF_8);
							line.reset();
							if (since == null || !ContainerLog.instantOf(stamped).isBefore(since)) {
								out.write(((timestamps ? stamped : ContainerLog.textOf(stamped)) + "\n").getBytes(StandardCharsets.UTF_8));
							}
						}
						else {
							line.write(buffer[i]);
						}
					}
					out.flush();
					continue;
				}
				if (lastLook) {
					return;
				}
				if (!follow || !pod.process().isAlive() || socket.isClosed()) {
					// One last read after the exit, then the stream ends.
					lastLook = true;
					continue;
				}
				pod.process().waitFor(50, TimeUnit.MILLISECONDS);
			}
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}

	/** Cuts every log stream being served. */
	void breakLogStreams() {
		for (Socket socket : logStreams) {
			try {
				socket.close();
			}
			catch (IOException ignored) {
				// closed already
			}
		}
	}

	private void exec(InputStream in, OutputStream out, Map<String, String> headers, NodeAgent.RunningPod pod,
			Map<String, List<String>> query) throws IOException {
		String key = headers.get("sec-websocket-key");
		String offered = headers.getOrDefault("sec-websocket-protocol", "");
		if (key == null || !List.of(offered.split("\\s*,\\s*")).contains(PROTOCOL)) {
			respond(out, "400 Bad Request", "exec needs a WebSocket offering " + PROTOCOL + ", got protocols '" + offered + "'");
			return;
		}
		List<String> command = query.getOrDefault("command", List.of());
		if (command.isEmpty()) {
			respond(out, "400 Bad Request", "no command");
			return;
		}
		out.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: "
				+ accept(key) + "\r\nSec-WebSocket-Protocol: " + PROTOCOL + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
		out.flush();
		Frames frames = new Frames(out);
		Process process;
		try {
			ProcessBuilder builder = new ProcessBuilder(pod.enter(command));
			builder.environment().putAll(pod.environment());
			process = builder.start();
		}
		catch (IOException e) {
			frames.send(3, status(126, "cannot run " + command + ": " + e.getMessage()));
			frames.close();
			return;
		}
		boolean stdin = "1".equals(first(query, "input")) || "true".equals(first(query, "stdin"));
		if (!stdin) {
			process.getOutputStream().close();
		}
		threads.execute(() -> readClient(in, frames, process, stdin));
		var stdout = threads.submit(() -> pump(process.getInputStream(), frames, 1));
		var stderr = threads.submit(() -> pump(process.getErrorStream(), frames, 2));
		try {
			int code = process.waitFor();
			stdout.get();
			stderr.get();
			frames.send(3, status(code, "command terminated with non-zero exit code: exit status " + code));
			frames.close();
		}
		catch (Exception e) {
			process.destroyForcibly();
		}
	}

	/** Client frames: channel 0 goes to the process's stdin; a close frame ends stdin. */
	private static void readClient(InputStream in, Frames frames, Process process, boolean stdin) {
		int channel = -1;
		try (OutputStream toProcess = process.getOutputStream()) {
			while (true) {
				int b0 = in.read();
				int b1 = in.read();
				if (b0 < 0 || b1 < 0) {
					return;
				}
				int opcode = b0 & 0x0F;
				long length = b1 & 0x7F;
				if (length == 126) {
					length = (in.read() << 8) | in.read();
				}
				else if (length == 127) {
					length = 0;
					for (int i = 0; i < 8; i++) {
						length = (length << 8) | in.read();
					}
				}
				byte[] mask = (b1 & 0x80) != 0 ? in.readNBytes(4) : null;
				byte[] payload = in.readNBytes((int) length);
				if (mask != null) {
					for (int i = 0; i < payload.length; i++) {
						payload[i] ^= mask[i % 4];
					}
				}
				if (opcode == 8) {
					return;
				}
				if (opcode == 9) {
					frames.write(0xA, payload);
					continue;
				}
				if (opcode == 1 || opcode == 2) {
					// A message's first byte is its channel; a continuation frame (opcode 0) goes on the same one.
					channel = payload.length > 0 ? payload[0] : -1;
					if (channel == 0 && stdin) {
						toProcess.write(payload, 1, payload.length - 1);
						toProcess.flush();
					}
				}
				else if (opcode == 0 && channel == 0 && stdin) {
					toProcess.write(payload);
					toProcess.flush();
				}
			}
		}
		catch (IOException e) {
			// the client or the process went away
		}
	}

	private static Void pump(InputStream from, Frames frames, int channel) throws IOException {
		byte[] buffer = new byte[16 * 1024];
		int n;
		while ((n = from.read(buffer)) > 0) {
			byte[] chunk = new byte[n];
			System.arraycopy(buffer, 0, chunk, 0, n);
			frames.send(channel, chunk);
		}
		return null;
	}

	/** The status a kubelet reports on channel 3. */
	private static byte[] status(int code, String message) {
		String json = code == 0 ? "{\"metadata\":{},\"status\":\"Success\"}"
				: "{\"metadata\":{},\"status\":\"Failure\",\"message\":\"" + message.replace("\"", "'")
						+ "\",\"reason\":\"NonZeroExitCode\",\"details\":{\"causes\":[{\"reason\":\"ExitCode\",\"message\":\""
						+ code + "\"}]}}";
		return json.getBytes(StandardCharsets.UTF_8);
	}

	/** Unmasked server frames, one writer at a time. */
	private static final class Frames {
		private final OutputStream out;

		Frames(OutputStream out) {
			this.out = out;
		}

		void send(int channel, byte[] data) throws IOException {
			byte[] payload = new byte[data.length + 1];
			payload[0] = (byte) channel;
			System.arraycopy(data, 0, payload, 1, data.length);
			write(2, payload);
		}

		synchronized void write(int opcode, byte[] payload) throws IOException {
			ByteArrayOutputStream frame = new ByteArrayOutputStream(payload.length + 10);
			frame.write(0x80 | opcode);
			if (payload.length < 126) {
				frame.write(payload.length);
			}
			else if (payload.length < 65536) {
				frame.write(126);
				frame.write(payload.length >>> 8);
				frame.write(payload.length & 0xFF);
			}
			else {
				frame.write(127);
				for (int i = 7; i >= 0; i--) {
					frame.write((int) (((long) payload.length >>> (8 * i)) & 0xFF));
				}
			}
			frame.write(payload);
			out.write(frame.toByteArray());
			out.flush();
		}

		void close() throws IOException {
			write(8, new byte[] {0x03, (byte) 0xE8});
		}
	}

	private static List<String> readHead(InputStream in) throws IOException {
		List<String> lines = new ArrayList<>();
		StringBuilder line = new StringBuilder();
		int c;
		while ((c = in.read()) >= 0) {
			if (c == '\n') {
				String text = line.toString().replaceAll("\r$", "");
				if (text.isEmpty()) {
					return lines;
				}
				lines.add(text);
				line.setLength(0);
			}
			else {
				line.append((char) c);
			}
		}
		return lines;
	}

	private static Map<String, List<String>> query(String text) {
		Map<String, List<String>> query = new LinkedHashMap<>();
		for (String pair : text.split("&")) {
			if (pair.isEmpty()) {
				continue;
			}
			int eq = pair.indexOf('=');
			String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
			String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
			query.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
		}
		return query;
	}

	private static String first(Map<String, List<String>> query, String name) {
		List<String> values = query.get(name);
		return values == null || values.isEmpty() ? null : values.get(0);
	}

	private static void respond(OutputStream out, String status, String body) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		out.write(("HTTP/1.1 " + status + "\r\nContent-Type: text/plain\r\nContent-Length: " + bytes.length
				+ "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
		out.write(bytes);
		out.flush();
	}

	private static String accept(String key) {
		try {
			byte[] digest = MessageDigest.getInstance("SHA-1").digest((key + WEBSOCKET_GUID).getBytes(StandardCharsets.US_ASCII));
			return Base64.getEncoder().encodeToString(digest);
		}
		catch (java.security.NoSuchAlgorithmException e) {
			throw new IllegalStateException(e);
		}
	}

	/** A key pair for the kubelet API, made by the JDK's keytool; the API server does not check it. */
	private static SSLContext selfSignedTls(Path dir) throws Exception {
		Path store = dir.resolve("kubelet.p12");
		Files.deleteIfExists(store);
		Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
		Process p = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "kubelet", "-keyalg", "EC",
				"-groupname", "secp256r1", "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1", "-validity", "2",
				"-keystore", store.toString(), "-storetype", "PKCS12", "-storepass", "node-agent", "-keypass", "node-agent")
				.redirectErrorStream(true).start();
		String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (p.waitFor() != 0) {
			throw new IllegalStateException("keytool failed: " + output);
		}
		KeyStore keys = KeyStore.getInstance("PKCS12");
		try (InputStream in = Files.newInputStream(store)) {
			keys.load(in, "node-agent".toCharArray());
		}
		KeyManagerFactory managers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
		managers.init(keys, "node-agent".toCharArray());
		SSLContext tls = SSLContext.getInstance("TLS");
		tls.init(managers.getKeyManagers(), null, null);
		return tls;
	}

	@Override
	public void close() {
		try {
			server.close();
		}
		catch (IOException ignored) {
			// already closed
		}
		threads.shutdownNow();
	}
}
