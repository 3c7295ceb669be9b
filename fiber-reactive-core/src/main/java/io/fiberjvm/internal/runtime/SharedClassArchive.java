package io.fiberjvm.internal.runtime;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

/**
 * One archive of the classes child JVMs load, shared by every child of a classpath: the JDK's AOT cache
 * where the children run JDK 25 or later, a dynamic class-data archive (AppCDS) before; it takes a third
 * to a half off a child's start.
 *
 * <p>The first child is started with the option that has it write the archive to a private name as it
 * exits; the parent then moves it into place atomically, and later children map it. The archive's name
 * is a hash of the java executable, the children's JVM options and every classpath jar's path, size and
 * modification time, so a changed jar, JDK or option gets a new archive. The JDK only archives classes
 * from jars: a classpath with a directory on it gets no archive.
 */
final class SharedClassArchive {

	/** How the JDK of the children writes and reads the archive. */
	enum Format {
		/** JDK 13 and later: a dynamic class-data archive of the classes loaded. */
		CLASS_DATA("-XX:ArchiveClassesAtExit=", "-XX:SharedArchiveFile=", ".jsa"),
		/** JDK 25 and later: classes loaded and linked, with their method profiles. */
		AOT_CACHE("-XX:AOTCacheOutput=", "-XX:AOTCache=", ".aot");

		private final String write;
		private final String read;
		private final String suffix;

		Format(String write, String read, String suffix) {
			this.write = write;
			this.read = read;
			this.suffix = suffix;
		}

		/**
		 * The format children started with {@code java} use: the AOT cache when {@code java} is this JVM's
		 * own and it is JDK 25 or later; otherwise the class-data archive, which every supported JDK has.
		 */
		static Format forJava(String java) {
			if (Runtime.version().feature() < 25) {
				return CLASS_DATA;
			}
			try {
				Path own = Path.of(System.getProperty("java.home"), "bin", "java").toRealPath();
				return own.equals(Path.of(java).toRealPath()) ? AOT_CACHE : CLASS_DATA;
			}
			catch (IOException e) {
				return CLASS_DATA;
			}
		}
	}

	/**
	 * The exit codes of a child that ended through the JVM's own exit, which writes the archive whole: its target
	 * returned, its target threw, or SIGTERM.
	 */
	private static final Set<Integer> CLEAN_EXITS = Set.of(0, 1, 128 + 15);

	/**
	 * How much longer than the terminate grace a child writing the archive has to exit before it is killed: an AOT
	 * cache of a worker's classes takes about 3 s to write on 2 cores, a large classpath's more.
	 */
	static final Duration WRITE_TIME = Duration.ofSeconds(30);

	private final Path archive;
	private final Format format;
	private final AtomicBoolean writing = new AtomicBoolean();
	private final AtomicLong attempts = new AtomicLong();

	private SharedClassArchive(Path archive, Format format) {
		this.archive = archive;
		this.format = format;
	}

	/**
	 * The archive for children started with {@code java}, {@code jvmOptions} and {@code classpath}, in
	 * {@code format}, kept in {@code dir}; {@code null} when the classpath holds anything but jars.
	 */
	static @Nullable SharedClassArchive forClasspath(String java, List<String> jvmOptions, String classpath, Format format,
			Path dir) {
		try {
			MessageDigest digest = MessageDigest.getInstance("SHA-256");
			update(digest, Path.of(java));
			for (String option : jvmOptions) {
				digest.update((option + "\n").getBytes(StandardCharsets.UTF_8));
			}
			for (String entry : classpath.split(File.pathSeparator)) {
				Path jar = Path.of(entry);
				if (entry.isEmpty() || !Files.isRegularFile(jar) || !entry.endsWith(".jar")) {
					return null;
				}
				update(digest, jar);
			}
			String name = HexFormat.of().formatHex(digest.digest(), 0, 12) + format.suffix;
			return new SharedClassArchive(dir.resolve(name), format);
		}
		catch (IOException | NoSuchAlgorithmException e) {
			return null;
		}
	}

	private static void update(MessageDigest digest, Path file) throws IOException {
		digest.update(file.toAbsolutePath().toString().getBytes(StandardCharsets.UTF_8));
		if (Files.exists(file)) {
			digest.update(Long.toString(Files.size(file)).getBytes(StandardCharsets.UTF_8));
			digest.update(Long.toString(Files.getLastModifiedTime(file).toMillis()).getBytes(StandardCharsets.UTF_8));
		}
	}

	/** Where the archive is, or will be. */
	Path path() {
		return archive;
	}

	/**
	 * The JVM options for the next child: map the archive if it exists; otherwise have this child write
	 * it, unless another child is writing it already.
	 */
	Lease lease() {
		if (Files.isRegularFile(archive)) {
			return new Lease(List.of(format.read + archive), null);
		}
		if (writing.compareAndSet(false, true)) {
			Path draft = archive.resolveSibling(archive.getFileName() + "." + ProcessHandle.current().pid() + "-"
					+ attempts.incrementAndGet() + ".tmp");
			try {
				Files.createDirectories(archive.getParent());
			}
			catch (IOException e) {
				writing.set(false);
				return new Lease(List.of(), null);
			}
			return new Lease(List.of(format.write + draft), draft);
		}
		return new Lease(List.of(), null);
	}

	/** The options one child was started with; {@link #release()} once it has ended. */
	final class Lease {

		private final List<String> options;
		private final @Nullable Path draft;

		private Lease(List<String> options, @Nullable Path draft) {
			this.options = options;
			this.draft = draft;
		}

		List<String> options() {
			return options;
		}

		/** Whether this child writes the archive, as it exits. */
		boolean writes() {
			return draft != null;
		}

		/**
		 * After the child ended with {@code exitCode} (null when unknown, or when it never started): publishes the
		 * archive it wrote, if it wrote one and ended through the JVM's own exit. A child killed outright or aborted
		 * may have stopped in the middle of writing it.
		 */
		void release(@Nullable Integer exitCode) {
			if (draft == null) {
				return;
			}
			boolean endedItself = exitCode != null && CLEAN_EXITS.contains(exitCode);
			try {
				if (endedItself && Files.isRegularFile(draft) && Files.size(draft) > 0) {
					try {
						Files.move(draft, archive, StandardCopyOption.ATOMIC_MOVE);
					}
					catch (AtomicMoveNotSupportedException e) {
						Files.move(draft, archive, StandardCopyOption.REPLACE_EXISTING);
					}
				}
			}
			catch (IOException e) {
				// Another run published the same archive first, or the disk refused: children run without it.
			}
			finally {
				try {
					Files.deleteIfExists(draft);
					// The JDK's AOT cache is made from a configuration file beside it, left behind when its maker was killed.
					Files.deleteIfExists(draft.resolveSibling(draft.getFileName() + ".config"));
				}
				catch (IOException ignored) {
					// a stale draft only costs disk space
				}
				writing.set(false);
			}
		}
	}
}
