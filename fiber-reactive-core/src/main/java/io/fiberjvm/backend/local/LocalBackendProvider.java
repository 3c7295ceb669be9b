package io.fiberjvm.backend.local;

import java.nio.file.Path;

import io.fiberjvm.backend.Backend;
import io.fiberjvm.backend.BackendProvider;
import io.fiberjvm.config.ConfigKeys;
import io.fiberjvm.config.FiberConfig;

/** Provides the {@link LocalBackend}; always available, with a low priority so a cluster backend wins in a cluster. */
public final class LocalBackendProvider implements BackendProvider {

	@Override
	public String name() {
		return "local";
	}

	@Override
	public int priority() {
		return 0;
	}

	@Override
	public Backend create(FiberConfig config) {
		Path logDir = config.get(ConfigKeys.LOG_DIR);
		if (logDir.toString().isEmpty()) {
			logDir = Path.of(System.getProperty("java.io.tmpdir"), "fiber-logs");
		}
		return new LocalBackend(logDir, config.get(ConfigKeys.TERMINATE_GRACE), config.get(ConfigKeys.LOCAL_GPUS));
	}
}
