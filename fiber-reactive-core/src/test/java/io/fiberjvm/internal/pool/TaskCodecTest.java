package io.fiberjvm.internal.pool;

import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import io.fiberjvm.FiberFunction;
import io.fiberjvm.RemoteException;
import io.fiberjvm.codec.CodecException;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.internal.LargeDecoding;
import io.fiberjvm.internal.frames.Answer;
import io.fiberjvm.internal.frames.ChunkFrame;
import io.fiberjvm.pool.TaskFailedException;
import io.fiberjvm.pool.WorkerLostException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A pool's tasks on their way out and back: functions once, arguments and results within a frame's limits. */
class TaskCodecTest {

	private static final int FRAME = 64 * 1024;

	private final TaskCodec pool = new TaskCodec(new ShippedValues(List.of()), FRAME);
	private final TaskCodec worker = new TaskCodec(new ShippedValues(List.of()), FRAME);

	@Test
	void anArgumentTravelsOutAndItsResultBack() {
		FiberFunction<Integer, Integer> square = x -> x * x;
		ShippedFunction shipped = pool.ship(square, square.getClass());
		assertThat(pool.ship(square, square.getClass())).as("shipped once per function object").isSameAs(shipped);
		TaskName name = new TaskName("map", 3, shipped);
		java.nio.ByteBuffer argument = pool.argument(7, name);

		Object result = worker.readFunction(shipped.bytes, List.of(shipped.allow)).apply(worker.readArgument(new ChunkFrame.Task(1, argument)));
		Answer answer = worker.result(11, result);
		assertThat(answer.id()).isEqualTo(11);
		StepVerifier.create(complete(shipped, name, new Outcome("w1", answer, null))).expectNext(49).verifyComplete();
		StepVerifier.create(complete(shipped, name, new Outcome("w1", worker.result(12, null), null))).verifyComplete();
	}

	@Test
	void aFunctionThatThrowsFailsItsTaskWithTheRemoteError() {
		FiberFunction<Integer, Integer> fn = x -> x;
		ShippedFunction shipped = pool.ship(fn, fn.getClass());
		TaskName name = new TaskName("apply", -1, shipped);
		Answer failed = worker.failure(4, new IllegalStateException("no such simulator"));
		StepVerifier.create(complete(shipped, name, new Outcome("w2", failed, null)))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOfSatisfying(TaskFailedException.class, failure -> {
					assertThat(failure.worker()).isEqualTo("w2");
					assertThat(failure.task()).startsWith("apply(");
					assertThat(failure.remote().remoteType()).isEqualTo(IllegalStateException.class.getName());
					assertThat(failure).hasMessageContaining("no such simulator");
				}))
				.verify();
		WorkerLostException lost = new WorkerLostException(name.toString(), "w2", "it was killed");
		StepVerifier.create(complete(shipped, name, new Outcome("w2", null, lost))).expectErrorMatches(e -> e == lost).verify();
	}

	@Test
	void whatCannotTravelIsRefusedNamingIt() {
		FiberFunction<Integer, Integer> fn = x -> x;
		ShippedFunction shipped = pool.ship(fn, fn.getClass());
		TaskName name = new TaskName("map", 9, shipped);
		assertThat(pool.argument(new byte[FRAME * 3], name).remaining()).as("a frame does not limit a value").isEqualTo(FRAME * 3 + 1);
		assertThatThrownBy(() -> pool.argument(new Object(), name)).isInstanceOf(CodecException.class)
				.hasMessageContaining("the argument of task element 9").hasMessageContaining("not Serializable");

		TaskCodec small = new TaskCodec(new ShippedValues(List.of(), null, 4096), FRAME);
		assertThatThrownBy(() -> small.argument(new byte[4096], name)).isInstanceOf(CodecException.class)
				.hasMessageContaining("the argument of task element 9 of map(").hasMessageContaining("max-value-size");
		byte[] captured = new byte[8192];
		FiberFunction<Integer, Integer> heavy = x -> x + captured.length;
		assertThatThrownBy(() -> small.ship(heavy, heavy.getClass())).isInstanceOf(CodecException.class)
				.hasMessageContaining("max-value-size");
		assertThatThrownBy(() -> small.result(1, new double[1024])).isInstanceOf(CodecException.class)
				.hasMessageContaining("the result").hasMessageContaining("max-value-size");
		assertThatThrownBy(() -> small.result(1, new java.util.ArrayList<>(java.util.Collections.nCopies(2000, "word"))))
				.as("a serialized value is stopped as it outgrows the limit").isInstanceOf(CodecException.class)
				.hasMessageContaining("max-value-size");
		assertThat(worker.failure(1, new RuntimeException("x".repeat(FRAME))).valueBytes()).isLessThan(FRAME);
	}

	@Test
	void aResultThatCannotBeReadFailsItsOwnTaskNamingIt() {
		FiberFunction<Integer, Integer> fn = x -> x;
		ShippedFunction shipped = pool.ship(fn, fn.getClass());
		TaskName name = new TaskName("map", 2, shipped);
		Answer unreadable = Answer.of(5, new byte[] {1, 0, 0});
		StepVerifier.create(complete(shipped, name, new Outcome("w1", unreadable, null)))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(CodecException.class)
						.hasMessageContaining("the result of element 2 of map(").hasMessageContaining("int takes 4 bytes"))
				.verify();
		Answer remote = Answer.failure(6, RemoteException.encode(new IllegalArgumentException("bad"), 1024));
		assertThat(remote.failed()).isTrue();
	}

	@Test
	void aLargeResultThatArrivesOnAConnectionsThreadIsReadOffItAndAnUnreadableOneFailsItsCaller() {
		FiberFunction<double[], double[]> fn = x -> x;
		ShippedFunction shipped = pool.ship(fn, fn.getClass());
		TaskName name = new TaskName("apply", -1, shipped);
		Scheduler connectionLike = Schedulers.newParallel("connection-like", 1);
		try {
			double[] large = new double[LargeDecoding.LARGE / 8 + 1];
			large[large.length - 1] = 42;
			Answer answer = worker.result(3, large);
			StepVerifier.create(complete(shipped, name, new Outcome("w1", answer, null))
					.map(result -> Thread.currentThread().getName() + ":" + ((double[]) result)[large.length - 1])
					.subscribeOn(connectionLike))
					.assertNext(seen -> assertThat(seen).startsWith("boundedElastic").endsWith(":42.0"))
					.verifyComplete();
			byte[] unreadable = new byte[LargeDecoding.LARGE + 3];
			unreadable[0] = 1;
			StepVerifier.create(complete(shipped, name, new Outcome("w1", Answer.of(4, unreadable), null))
					.subscribeOn(connectionLike))
					.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(CodecException.class).hasMessageContaining("the result of apply("))
					.verify(java.time.Duration.ofSeconds(20));
		}
		finally {
			connectionLike.dispose();
		}
	}

	@Test
	void aFunctionCacheAndItsTwinStayInStep() {
		FunctionCache<Boolean> parent = new FunctionCache<>();
		FunctionCache<String> workerCache = new FunctionCache<>();
		Random random = new Random(1);
		for (int i = 0; i < 20_000; i++) {
			long id = random.nextInt(400);
			boolean known = parent.get(id) != null;
			if (!known) {
				parent.put(id, Boolean.TRUE);
				workerCache.put(id, "fn" + id);
			}
			else {
				assertThat(workerCache.get(id)).as("worker holds %d", id).isEqualTo("fn" + id);
			}
		}
	}

	@Test
	void aLargeArgumentsArrayIsReusedOnlyOnceItsOnlyAttemptIsAnswered() {
		TaskCodec roomy = new TaskCodec(new ShippedValues(List.of()), 16 << 20);
		FiberFunction<double[], Integer> length = v -> v.length;
		ShippedFunction shipped = roomy.ship(length, length.getClass());
		TaskName name = new TaskName("apply", 0, shipped);
		Answer answered = Answer.of(1, worker.values().write(3, "three"));
		Answer failed = Answer.failure(1, RemoteException.encode(new IllegalStateException("no"), 1000));
		double[] weights = new double[300_000];

		java.nio.ByteBuffer retried = roomy.argument(weights, name);
		completeOn(roomy, new Task(1, shipped, retried, name, 2, 0, true, ANSWERED), answered);
		java.nio.ByteBuffer failing = roomy.argument(weights, name);
		completeOn(roomy, new Task(2, shipped, failing, name, 1, 0, true, ANSWERED), failed);
		java.nio.ByteBuffer fresh = roomy.argument(weights, name);
		assertThat(fresh.array()).as("a second attempt's or a failed task's argument may be sent again")
				.isNotSameAs(retried.array()).isNotSameAs(failing.array());

		Answer unreadable = Answer.of(1, new byte[] {99});
		completeOn(roomy, new Task(3, shipped, fresh, name, 1, 0, true, ANSWERED), unreadable);
		assertThat(roomy.argument(weights, name).array()).as("a result that cannot be read may be retried")
				.isNotSameAs(fresh.array());

		completeOn(roomy, new Task(4, shipped, fresh, name, 1, 0, true, ANSWERED), answered);
		assertThat(roomy.argument(weights, name).array()).as("answered on its only attempt: nothing reads it again")
				.isSameAs(fresh.array());
	}

	private static final TaskSink ANSWERED = new TaskSink() {
		@Override
		public void success(@org.jspecify.annotations.Nullable Object value) {
		}

		@Override
		public void error(Throwable error) {
		}
	};

	private static void completeOn(TaskCodec codec, Task task, Answer answer) {
		codec.complete(task, new Outcome("w1", answer, null));
	}

	private Mono<Object> complete(ShippedFunction shipped, TaskName name, Outcome outcome) {
		return Mono.create(sink -> pool.complete(new Task(1, shipped, null, name, 1, 0, true, TaskSink.of(sink)), outcome));
	}
}
