package io.fiberjvm.worker;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.fiberjvm.FiberRunnable;
import io.fiberjvm.codec.CodecException;
import io.fiberjvm.codec.JavaSerialization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ShippedTargetTest {

	/** Counts its runs in a static, so the test can see the child-side copy ran. */
	static final AtomicInteger RUNS = new AtomicInteger();

	@Test
	void aLambdaTravelsAndRuns() {
		int add = 3;
		ShippedTarget shipped = ShippedTarget.ofObject(() -> RUNS.addAndGet(add), List.of());
		assertThat(shipped.allow()).containsExactly("io.fiberjvm.worker.*");
		int before = RUNS.get();
		shipped.materialize(List.of()).run();
		assertThat(RUNS.get()).isEqualTo(before + 3);
	}

	@Test
	void aCaptureOutsideTheAllowListFailsWhenShipped() {
		AtomicInteger captured = new AtomicInteger();
		assertThatThrownBy(() -> ShippedTarget.ofObject(captured::incrementAndGet, List.of()))
				.isInstanceOf(CodecException.class)
				.hasMessageContaining("java.util.concurrent.atomic.AtomicInteger");
	}

	@Test
	void theReceiverUsesItsOwnAllowListNotTheSenders() {
		AtomicInteger captured = new AtomicInteger();
		FiberRunnable target = captured::incrementAndGet;
		byte[] bytes = JavaSerialization.allowing(List.of("java.util.concurrent.atomic.*")).write(target);
		// A sender that claims a broad allow-list gets nowhere: "*" is not a package name.
		ShippedTarget sneaky = new ShippedTarget(null, bytes, List.of("*"));
		assertThatThrownBy(() -> sneaky.materialize(List.of()))
				.isInstanceOf(CodecException.class).hasMessageContaining("'*'");
		ShippedTarget limits = new ShippedTarget(null, bytes, List.of("java.lang.*;maxdepth=100000"));
		assertThatThrownBy(() -> limits.materialize(List.of())).isInstanceOf(CodecException.class);
		// Naming another package is allowed, but only this process's own serial-allow admits AtomicInteger.
		ShippedTarget plain = new ShippedTarget(null, bytes, List.of("io.fiberjvm.worker.*"));
		assertThatThrownBy(() -> plain.materialize(List.of()))
				.isInstanceOf(CodecException.class).hasMessageContaining("AtomicInteger");
		plain.materialize(List.of("java.util.concurrent.atomic.*")).run();
		assertThat(captured.get()).isZero(); // the copy ran, not this object
	}

	@Test
	void aClassTargetIsCreatedOnlyWhenItIsARunnable() {
		assertThatThrownBy(() -> new ShippedTarget(String.class.getName(), null, List.of()).materialize(List.of()))
				.isInstanceOf(CodecException.class).hasMessageContaining("not a Runnable");
		assertThatThrownBy(() -> new ShippedTarget("no.such.Target", null, List.of()).materialize(List.of()))
				.isInstanceOf(CodecException.class).hasMessageContaining("no.such.Target");
	}
}
