package io.fiberjvm.internal.runtime;

import org.junit.jupiter.api.Test;

import io.fiberjvm.ProcessFailedException;

import static org.assertj.core.api.Assertions.assertThat;

class ProcessEndingsTest {

	@Test
	void aProcessKilledForMemoryIsSaidToBeWithItsLimit() {
		ProcessFailedException oom = new ProcessFailedException("sim", 137, "process 'sim' (job sim-r1-1) was killed for memory "
				+ "(OOMKilled) at its limit of 256Mi; its output ends with:\nstep 41", null, true);
		assertThat(ProcessEndings.describe(137, oom)).isEqualTo("it was killed for memory (OOMKilled) at its limit of 256Mi (exit code 137)");
	}

	@Test
	void anyOtherEndIsItsExitCode() {
		assertThat(ProcessEndings.describe(1, new ProcessFailedException("sim", 1, "process 'sim' exited with code 1", null)))
				.isEqualTo("it exited with code 1");
		assertThat(ProcessEndings.describe(0, null)).isEqualTo("it exited with code 0");
	}
}
