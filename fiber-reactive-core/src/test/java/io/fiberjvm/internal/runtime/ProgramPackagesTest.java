package io.fiberjvm.internal.runtime;

import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import io.fiberjvm.config.ConfigKeys;
import io.fiberjvm.config.FiberConfig;

import static org.assertj.core.api.Assertions.assertThat;

class ProgramPackagesTest {

	@Test
	void theTreeIsThePackagesFirstTwoNames() {
		assertThat(ProgramPackages.treeOf(java.util.concurrent.ConcurrentHashMap.class)).isEqualTo("java.util.**");
		assertThat(ProgramPackages.treeOf(ProgramPackagesTest.class)).isEqualTo("io.fiberjvm.**");
		assertThat(ProgramPackages.treeOf(String.class)).isEqualTo("java.lang.**");
	}

	@Test
	void theProgramIsTheFirstCallerOutsideFibersOwnClassesAndItsChildrenInheritIt() {
		// This test class is not in Fiber's own jar or directory, so it is the program.
		FiberConfig decided = ProgramPackages.decide(FiberConfig.defaults());

		assertThat(decided.get(ConfigKeys.PROGRAM_PACKAGES)).containsExactly("io.fiberjvm.**");
		assertThat(decided.sourceOf(ConfigKeys.PROGRAM_PACKAGES)).contains(ProgramPackagesTest.class.getName());
		assertThat(decided.toChildEnvironment()).containsEntry("FIBER_PROGRAM_PACKAGES", "io.fiberjvm.**");
	}

	@Test
	void packagesTheProgramNamesAreKept() {
		FiberConfig named = FiberConfig.resolve(Map.of("program-packages", "com.acme.**"), new Properties(), Map.of(), null);

		assertThat(ProgramPackages.decide(named).get(ConfigKeys.PROGRAM_PACKAGES)).isEqualTo(List.of("com.acme.**"));
	}
}
