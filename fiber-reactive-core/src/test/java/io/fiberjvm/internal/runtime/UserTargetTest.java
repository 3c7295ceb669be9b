package io.fiberjvm.internal.runtime;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.fiberjvm.FiberRunnable;
import io.fiberjvm.codec.CodecException;
import io.fiberjvm.codec.ShippedValues;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UserTargetTest {

	/** Counts its runs in a static, so the test can see the child-side copy ran. */
	static final AtomicInteger RUNS = new AtomicInteger();

	private static final ShippedValues PLAIN = new ShippedValues(List.of());

	@Test
	void aLambdaTravelsAndRuns() {
		int add = 3;
		UserTarget shipped = UserTarget.ofObject(() -> RUNS.addAndGet(add), PLAIN);
		assertThat(shipped.allow()).containsExactly("io.fiberjvm.internal.runtime.*");
		int before = RUNS.get();
		shipped.materialize(PLAIN).run();
		assertThat(RUNS.get()).isEqualTo(before + 3);
	}

	@Test
	void aCaptureOutsideTheAllowListFailsWhenShipped() {
		AtomicInteger captured = new AtomicInteger();
		assertThatThrownBy(() -> UserTarget.ofObject(captured::incrementAndGet, PLAIN))
				.isInstanceOf(CodecException.class)
				.hasMessageContaining("java.util.concurrent.atomic.AtomicInteger");
	}

	@Test
	void theReceiverUsesItsOwnAllowListNotTheSenders() {
		AtomicInteger captured = new AtomicInteger();
		FiberRunnable target = captured::incrementAndGet;
		byte[] bytes = new ShippedValues(List.of("java.util.concurrent.atomic.*")).writeFunction(target, "the target");
		// A sender that claims a broad allow-list gets nowhere: "*" is not a package name.
		UserTarget sneaky = new UserTarget(null, bytes, List.of("*"));
		assertThatThrownBy(() -> sneaky.materialize(PLAIN))
				.isInstanceOf(CodecException.class).hasMessageContaining("'*'");
		UserTarget limits = new UserTarget(null, bytes, List.of("java.lang.*;maxdepth=100000"));
		assertThatThrownBy(() -> limits.materialize(PLAIN)).isInstanceOf(CodecException.class);
		// Naming another package is allowed, but only this process's own serial-allow admits AtomicInteger.
		UserTarget plain = new UserTarget(null, bytes, List.of("io.fiberjvm.internal.runtime.*"));
		assertThatThrownBy(() -> plain.materialize(PLAIN))
				.isInstanceOf(CodecException.class).hasMessageContaining("AtomicInteger");
		plain.materialize(new ShippedValues(List.of("java.util.concurrent.atomic.*"))).run();
		assertThat(captured.get()).isZero(); // the copy ran, not this object
	}

	@Test
	void aClassTargetIsCreatedOnlyWhenItIsARunnable() {
		assertThatThrownBy(() -> new UserTarget(String.class.getName(), null, List.of()).materialize(PLAIN))
				.isInstanceOf(CodecException.class).hasMessageContaining("not a Runnable");
		assertThatThrownBy(() -> new UserTarget("no.such.Target", null, List.of()).materialize(PLAIN))
				.isInstanceOf(CodecException.class).hasMessageContaining("no.such.Target");
	}
}
