package io.fiberjvm.manager;

import java.lang.reflect.Method;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class QuickMethodsTest {

	private static final long QUICK = QuickMethods.QUICK_NANOS - 1;

	private static Method method() throws NoSuchMethodException {
		return Object.class.getMethod("hashCode");
	}

	private static void quickRuns(QuickMethods quick, Method method, int runs) {
		for (int i = 0; i < runs; i++) {
			quick.ran(method, QUICK);
		}
	}

	@Test
	void trustComesAfterEnoughQuickRunsInARow() throws Exception {
		QuickMethods quick = new QuickMethods(true);
		Method method = method();
		assertThat(quick.trusted(method)).isFalse();
		quickRuns(quick, method, QuickMethods.TRUST_AFTER - 1);
		assertThat(quick.trusted(method)).isFalse();
		quick.ran(method, QuickMethods.QUICK_NANOS);
		quickRuns(quick, method, QuickMethods.TRUST_AFTER - 1);
		assertThat(quick.trusted(method)).as("a slow run starts the count again").isFalse();
		quickRuns(quick, method, 1);
		assertThat(quick.trusted(method)).isTrue();
		quickRuns(quick, method, 10_000);
		assertThat(quick.trusted(method)).isTrue();
	}

	@Test
	void aTrustedMethodLosesTrustOnASlowRunAndEarnsItAgain() throws Exception {
		QuickMethods quick = new QuickMethods(true);
		Method method = method();
		quickRuns(quick, method, QuickMethods.TRUST_AFTER);
		quick.ran(method, QuickMethods.QUICK_NANOS);
		assertThat(quick.trusted(method)).isFalse();
		quickRuns(quick, method, QuickMethods.TRUST_AFTER);
		assertThat(quick.trusted(method)).as("earned again").isTrue();
	}

	@Test
	void aBarredMethodIsNeverTrustedAgain() throws Exception {
		QuickMethods quick = new QuickMethods(true);
		Method method = method();
		quickRuns(quick, method, QuickMethods.TRUST_AFTER);
		quick.bar(method);
		quickRuns(quick, method, 100);
		assertThat(quick.trusted(method)).isFalse();
	}

	@Test
	void offTrustsNothing() throws Exception {
		QuickMethods quick = new QuickMethods(false);
		Method method = method();
		quickRuns(quick, method, 100);
		assertThat(quick.trusted(method)).isFalse();
	}

	@Test
	void onlyReactorsRefusalToBlockCountsAsBlocking() {
		assertThat(QuickMethods.refusedBlocking(new IllegalStateException(
				"block()/blockFirst()/blockLast() are blocking, which is not supported in thread reactor-tcp-epoll-1"))).isTrue();
		assertThat(QuickMethods.refusedBlocking(new IllegalStateException("other"))).isFalse();
		assertThat(QuickMethods.refusedBlocking(new IllegalStateException())).isFalse();
		assertThat(QuickMethods.refusedBlocking(new RuntimeException("which is not supported in thread x"))).isFalse();
		assertThat(QuickMethods.refusedBlocking(new RuntimeException("wrapped", new IllegalStateException(
				"block()/blockFirst()/blockLast() are blocking, which is not supported in thread reactor-tcp-epoll-1")))).isTrue();
	}
}
