package io.fiberjvm.testkit;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

import io.fiberjvm.backend.Backend;
import io.fiberjvm.backend.local.LocalBackendProvider;
import io.fiberjvm.config.FiberConfig;

/** The backend contract on Fiber's local backend, made as a runtime makes it: through its provider. */
class LocalBackendContractTest implements BackendContract {

	@TempDir
	Path dir;

	private final List<Backend> backends = new CopyOnWriteArrayList<>();

	@Override
	public Backend openBackend() {
		FiberConfig config = FiberConfig.resolve(Map.of("log-dir", dir.resolve("logs").toString()), new Properties(), Map.of(), null);
		Backend backend = new LocalBackendProvider().create(config);
		backends.add(backend);
		return backend;
	}

	@AfterEach
	void close() {
		// Closing a backend ends every job it started.
		backends.forEach(Backend::close);
	}
}
