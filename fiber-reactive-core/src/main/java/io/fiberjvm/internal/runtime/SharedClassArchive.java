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
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

/**
 * One JDK class-data archive (dynamic AppCDS) shared by every child JVM of a classpath, which about
 * halves a child's start time.
 *
 * <p>The first child is started with {@code -XX:ArchiveClassesAtExit} and writes the archive to a
 * private name as it exits; the parent then moves it into place atomically, and later children map it
 * with {@code -XX:SharedArchiveFile}. The archive's name is a hash of the java executable and of every
 * classpath jar's path, size and modification time, so a changed jar or JDK gets a new archive. The JDK
 * only archives classes from jars: a classpath with a directory on it gets no archive.
 */
final class SharedClassArchive {

	private final Path archive;
	private final AtomicBoolean writing = new AtomicBoolean();
	private final AtomicLong attempts = new AtomicLong();

	private SharedClassArchive(Path archive) {
		this.archive = archive;
	}

	/**
	 * The archive for children started with {@code java} and {@code classpath}, kept in {@code dir};
	 * {@code null} when the classpath holds anything but jars.
	 */
	static @Nullable SharedClassArchive forClasspath(String java, String classpath, Path dir) {
		try {
			MessageDigest digest = MessageDigest.getInstance("SHA-256");
			update(digest, Path.of(java));
			for (String entry : classpath.split(File.pathSeparator)) {
				Path jar = Path.of(entry);
				if (entry.isEmpty() || !Files.isRegularFile(jar) || !entry.endsWith(".jar")) {
					return null;
				}
				update(digest, jar);
			}
			String name = HexFormat.of().formatHex(digest.digest(), 0, 12) + ".jsa";
			return new SharedClassArchive(dir.resolve(name));
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
			return new Lease(List.of("-XX:SharedArchiveFile=" + archive), null);
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
			return new Lease(List.of("-XX:ArchiveClassesAtExit=" + draft), draft);
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

		/** After the child ended: publishes the archive it wrote, if it wrote one. */
		void release() {
			if (draft == null) {
				return;
			}
			try {
				if (Files.isRegularFile(draft) && Files.size(draft) > 0) {
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
				}
				catch (IOException ignored) {
					// a stale draft only costs disk space
				}
				writing.set(false);
			}
		}
	}
}
