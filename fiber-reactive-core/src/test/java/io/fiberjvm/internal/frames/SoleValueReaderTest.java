package io.fiberjvm.internal.frames;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.IntUnaryOperator;

import org.junit.jupiter.api.Test;

import io.fiberjvm.codec.CodecException;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.transport.InboundReader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A chunk, results frame, manager's call or answer read as its bytes arrive: a large sole array goes straight into its array, anything else
 * is what decoding the whole frame makes, in runs cut anywhere.
 */
class SoleValueReaderTest {

	private final ShippedValues values = new ShippedValues(List.of());
	private final double[] weights = new Random(3).doubles(100_000).toArray();

	private static List<IntUnaryOperator> cuts() {
		Random random = new Random(11);
		List<IntUnaryOperator> cuts = new ArrayList<>(List.of(run -> 1, run -> 5, run -> 33, run -> 36, run -> 64 * 1024,
				run -> Integer.MAX_VALUE));
		for (int i = 0; i < 8; i++) {
			cuts.add(run -> 1 + random.nextInt(70_000));
		}
		return cuts;
	}

	@Test
	void aLargeArrayAloneInAChunkIsReadIntoItsArrayAsItArrives() {
		byte[] frame = new ChunkFrame(9, null, List.of(), List.of(new ChunkFrame.Task(4,
				ChunkFrame.argument(values, weights, "weights")))).encode();
		for (IntUnaryOperator cut : cuts()) {
			ChunkFrame chunk = InRuns.read(ChunkFrame.reader(values), frame, cut);
			assertThat(chunk.functionId()).isEqualTo(9);
			assertThat(chunk.function()).isNull();
			assertThat(chunk.allow()).isEmpty();
			assertThat(chunk.tasks()).singleElement().satisfies(task -> {
				assertThat(task.id()).isEqualTo(4);
				assertThat(task.arg()).as("no bytes held").isNull();
				assertThat(task.decoded()).isEqualTo(weights);
				assertThat(task.argument(values, "the argument")).isEqualTo(weights);
			});
		}
	}

	@Test
	void aLargeArrayAloneInAChunkThatCarriesItsFunctionIsReadIntoItsArrayAsItArrives() {
		byte[] function = {1, 2, 3, 4, 5};
		byte[] frame = new ChunkFrame(9, function, List.of("a.b.*", "c.D"), List.of(new ChunkFrame.Task(4,
				ChunkFrame.argument(values, weights, "weights")))).encode();
		assertThat(ChunkFrame.decode(frame).tasks().get(0).argument(values, "decoded whole")).isEqualTo(weights);
		for (IntUnaryOperator cut : cuts()) {
			ChunkFrame chunk = InRuns.read(ChunkFrame.reader(values), frame, cut);
			assertThat(chunk.functionId()).isEqualTo(9);
			assertThat(chunk.function()).containsExactly(function);
			assertThat(chunk.allow()).containsExactly("a.b.*", "c.D");
			assertThat(chunk.tasks()).singleElement().satisfies(task -> {
				assertThat(task.id()).isEqualTo(4);
				assertThat(task.arg()).as("no bytes held").isNull();
				assertThat(task.argument(values, "the argument")).isEqualTo(weights);
			});
		}
	}

	@Test
	void aChunkWhoseHeadMisstatesItsSizeIsReadWholeAndRefusedWhenDecoded() {
		for (int said : new int[] {ChunkFrame.ROOM + 1, ChunkFrame.ROOM - 1, 3, -5, Integer.MAX_VALUE}) {
			byte[] frame = new ChunkFrame(9, null, List.of(), List.of(new ChunkFrame.Task(4,
					ChunkFrame.argument(values, weights, "weights")))).encode();
			ByteBuffer.wrap(frame).putInt(FrameHeaderCodec.SIZE, said);
			for (IntUnaryOperator cut : cuts()) {
				assertThatThrownBy(() -> InRuns.read(ChunkFrame.reader(values), frame, cut)).as("said %d", said)
						.isInstanceOf(CodecException.class).hasMessageContaining("malformed task chunk")
						.hasMessageContaining("its head says " + said + " bytes");
			}
		}
	}

	@Test
	void aLargeArrayAloneInAResultsFrameIsReadIntoItsArrayAsItArrives() {
		for (boolean last : new boolean[] {true, false}) {
			byte[] frame = new ResultsFrame(last, 77, List.of(ResultsFrame.answer(5, values, weights, "weights"))).encode();
			for (IntUnaryOperator cut : cuts()) {
				ResultsFrame results = InRuns.read(ResultsFrame.reader(values), frame, cut);
				assertThat(results.lastOfChunk()).isEqualTo(last);
				assertThat(results.elapsedNanos()).isEqualTo(77);
				assertThat(results.answers()).singleElement().satisfies(answer -> {
					assertThat(answer.id()).isEqualTo(5);
					assertThat(answer.failed()).isFalse();
					assertThat(answer.value()).isNull();
					assertThat(answer.result(values, "the result")).isEqualTo(weights);
				});
			}
		}
	}

	@Test
	void aLargeArrayInAManagersAnswerIsReadIntoItsArrayAsItArrives() {
		byte[] frame = AnswerFrame.encode(AnswerFrame.answer(6, values, weights, "weights"));
		for (IntUnaryOperator cut : cuts()) {
			Object read = InRuns.read(managerReader(), frame, cut);
			assertThat(read).isInstanceOfSatisfying(Answer.class, answer -> {
				assertThat(answer.id()).isEqualTo(6);
				assertThat(answer.failed()).isFalse();
				assertThat(answer.value()).as("no bytes held").isNull();
				assertThat(answer.result(values, "the result")).isEqualTo(weights);
			});
		}
	}

	@Test
	void everyOtherFrameFromAManagerGoesWhole() {
		List<byte[]> frames = List.of(
				AnswerFrame.encode(Answer.of(2, values.write(7, "x"))),
				AnswerFrame.encode(Answer.failure(2, "x".repeat(100_000))),
				AnswerFrame.encode(Answer.of(2, values.write(new ArrayList<>(List.of(new byte[200_000])), "a list"))),
				ReadyFrame.encode("y".repeat(100_000)));
		assertReadWhole(managerReader(), frames);
	}

	@Test
	void aLargeArrayAloneInACallIsReadIntoItsArrayAsItArrives() {
		List<String> types = List.of("double[]");
		for (String method : List.of("setWeights", "m".repeat(3_000), "pesé")) {
			byte[] frame = new CallFrame(CallFrame.Mode.CALL_MANY, 8, 2, method, types, List.of(values.writeAfter(
					CallFrame.room(method, types), weights, "weights"))).encode();
			assertThat(CallFrame.decode(frame).argument(0, values, "decoded whole")).isEqualTo(weights);
			for (IntUnaryOperator cut : cuts()) {
				assertThat(InRuns.read(callReader(), frame, cut)).isInstanceOfSatisfying(CallFrame.class, call -> {
					assertThat(call.mode()).isEqualTo(CallFrame.Mode.CALL_MANY);
					assertThat(call.id()).isEqualTo(8);
					assertThat(call.object()).isEqualTo(2);
					assertThat(call.name()).isEqualTo(method);
					assertThat(call.parameterTypes()).isEqualTo(types);
					assertThat(call.args()).as("no bytes held").containsExactly((ByteBuffer) null);
					assertThat(call.argument(0, values, "the argument")).isEqualTo(weights);
				});
			}
		}
	}

	@Test
	void aLargeArrayAloneInACreationIsReadIntoItsArrayAsItArrives() {
		String type = "org.example.Policy";
		byte[] frame = new CallFrame(CallFrame.Mode.CREATE, 3, 9, type, List.of(), List.of(values.writeAfter(
				CallFrame.room(type, List.of()), weights, "weights"))).encode();
		assertThat(InRuns.read(callReader(), frame, run -> 4096)).isInstanceOfSatisfying(CallFrame.class, call -> {
			assertThat(call.mode()).isEqualTo(CallFrame.Mode.CREATE);
			assertThat(call.name()).isEqualTo(type);
			assertThat(call.argument(0, values, "the argument")).isEqualTo(weights);
		});
	}

	@Test
	void everyOtherFrameDownAManagersSessionGoesWhole() {
		byte[] big = new byte[200_000];
		List<byte[]> frames = List.of(
				// Small.
				new CallFrame(CallFrame.Mode.CALL, 1, 1, "step", List.of("int"), List.of(ByteBuffer.wrap(values.write(1, "x")))).encode(),
				// Large, in two arguments.
				new CallFrame(CallFrame.Mode.CALL, 1, 1, "m", List.of(), List.of(ByteBuffer.wrap(values.write(weights, "w")),
						ByteBuffer.wrap(values.write(weights, "w")))).encode(),
				// Large, Java-serialized.
				new CallFrame(CallFrame.Mode.CREATE, 1, 1, "a.B", List.of(), List.of(ByteBuffer.wrap(values.write(
						new ArrayList<>(List.of(big)), "a list")))).encode(),
				// Large, with a head too long to be read first.
				new CallFrame(CallFrame.Mode.CALL, 1, 1, "m".repeat(70_000), List.of(), List.of(values.writeAfter(
						CallFrame.room("m".repeat(70_000), List.of()), weights, "w"))).encode(),
				new DemandFrame(3, 100).encode());
		assertReadWhole(callReader(), frames);
	}

	@Test
	void aCallWhoseHeadMisstatesItsSizeIsReadWholeAndRefusedWhenDecoded() {
		int room = CallFrame.room("m", List.of());
		for (int said : new int[] {room + 1, room - 1, 3, 0, -5, Integer.MAX_VALUE}) {
			byte[] frame = new CallFrame(CallFrame.Mode.CALL, 8, 2, "m", List.of(), List.of(values.writeAfter(
					room, weights, "weights"))).encode();
			ByteBuffer.wrap(frame).putInt(FrameHeaderCodec.SIZE, said);
			for (IntUnaryOperator cut : cuts()) {
				Object read = InRuns.read(callReader(), frame, cut);
				assertThat(read).as("said %d", said).isEqualTo(frame);
				assertThatThrownBy(() -> CallFrame.decode((byte[]) read)).isInstanceOf(CodecException.class)
						.hasMessageContaining("malformed").hasMessageContaining("its head says " + said + " bytes");
			}
		}
	}

	@Test
	void aLargeArrayInARingMessageIsReadIntoItsArrayAsItArrives() {
		byte[] frame = MessageFrame.value(12, 3, 2, values.writeAfter(MessageFrame.ROOM, weights, "weights"));
		for (IntUnaryOperator cut : cuts()) {
			MessageFrame message = InRuns.read(MessageFrame.reader(values), frame, cut);
			assertThat(List.of(message.seq(), message.step(), message.from())).containsExactly(12, 3, 2);
			assertThat(message.bytes()).as("no bytes held").isNull();
			assertThat(message.value(values, "the value")).isEqualTo(weights);
		}
	}

	@Test
	void everyOtherRingMessageIsWhatDecodingItWholeMakes() {
		List<byte[]> frames = List.of(
				// An all-reduce chunk, large and small.
				MessageFrame.chunk(1, 0, 1, 200_000, out -> out.put(new byte[200_000])).toArray(),
				MessageFrame.chunk(1, 1, 1, 8, out -> out.putDouble(2.5)).toArray(),
				// A large value that is no array, a small one and a null one.
				MessageFrame.value(2, 0, 1, values.writeAfter(MessageFrame.ROOM, new ArrayList<>(List.of(new byte[200_000])), "a list")),
				MessageFrame.value(2, 0, 1, values.writeAfter(MessageFrame.ROOM, 7, "seven")),
				MessageFrame.value(2, 0, 1, null));
		for (byte[] frame : frames) {
			MessageFrame whole = MessageFrame.decode(frame);
			for (IntUnaryOperator cut : cuts()) {
				MessageFrame read = InRuns.read(MessageFrame.reader(values), frame, cut);
				assertThat(List.of(read.seq(), read.step(), read.from(), read.isValue()))
						.isEqualTo(List.of(whole.seq(), whole.step(), whole.from(), whole.isValue()));
				assertThat(read.decoded()).isNull();
				assertThat(read.bytes()).isEqualTo(whole.bytes());
			}
		}
	}

	@Test
	void aLargeSharedArrayIsReadIntoItsArrayAsItArrivesAndAnythingElseComesWhole() {
		byte[] frame = ValueFrame.encode(values.writeAfter(ValueFrame.ROOM, weights, "weights"));
		byte[] list = ValueFrame.encode(values.writeAfter(ValueFrame.ROOM, new ArrayList<>(List.of(new byte[200_000])), "a list"));
		for (IntUnaryOperator cut : cuts()) {
			assertThat(InRuns.read(unwrapped(ValueFrame.reader(values)), frame, cut)).isEqualTo(weights);
			assertThat(InRuns.read(unwrapped(ValueFrame.reader(values)), list, cut)).isEqualTo(list);
		}
	}

	/** Asserts that {@code reader} hands each of {@code frames} on whole, in runs cut anywhere. */
	private static void assertReadWhole(InboundReader<Object> reader, List<byte[]> frames) {
		for (byte[] frame : frames) {
			for (IntUnaryOperator cut : cuts()) {
				assertThat(InRuns.read(reader, frame, cut)).isInstanceOfSatisfying(byte[].class,
						whole -> assertThat(whole).isEqualTo(frame));
			}
		}
	}

	/** A manager host's reader that gives a call read as it arrived, or a frame whole. */
	private InboundReader<Object> callReader() {
		return unwrapped(CallFrame.reader(values));
	}

	/** A manager's reader that gives an answer read as it arrived, or a frame whole. */
	private InboundReader<Object> managerReader() {
		return unwrapped(AnswerFrame.reader(values));
	}

	/** What {@code reader} makes of each frame: the message read as it arrived, or the frame's bytes. */
	private static <T> InboundReader<Object> unwrapped(InboundReader<Arrived<T>> reader) {
		return reader.map(arrived -> arrived.read() != null ? arrived.read() : arrived.whole());
	}

	@Test
	void everyOtherFrameIsWhatDecodingItWholeMakes() {
		byte[] big = new byte[200_000];
		List<byte[]> chunks = List.of(
				// Small.
				new ChunkFrame(1, null, List.of(), List.of(ChunkFrame.Task.of(2, values.write(3.5, "x")))).encode(),
				// Large, but behind a function too large for a head read first.
				new ChunkFrame(1, new byte[70_000], List.of("a.b.*"), List.of(new ChunkFrame.Task(2,
						ChunkFrame.argument(values, weights, "weights")))).encode(),
				// Large, in two tasks.
				new ChunkFrame(1, null, List.of(), List.of(ChunkFrame.Task.of(2, values.write(weights, "w")),
						ChunkFrame.Task.of(3, values.write(weights, "w")))).encode(),
				// Large, Java-serialized.
				new ChunkFrame(1, null, List.of(), List.of(ChunkFrame.Task.of(2, values.write(
						new ArrayList<>(List.of(big, big)), "a list")))).encode(),
				// Large, a null argument behind a large function.
				new ChunkFrame(1, big, List.of(), List.of(ChunkFrame.Task.of(2, null))).encode());
		for (byte[] frame : chunks) {
			for (IntUnaryOperator cut : cuts()) {
				ChunkFrame read = InRuns.read(ChunkFrame.reader(values), frame, cut);
				assertThat(read.tasks()).allSatisfy(task -> assertThat(task.decoded()).isNull());
				assertThat(read.encode()).as("what decoding it whole makes, written again").isEqualTo(frame);
			}
		}
		List<byte[]> results = List.of(
				new ResultsFrame(true, 1, List.of(Answer.of(2, values.write(7, "x")))).encode(),
				new ResultsFrame(true, 1, List.of(Answer.failure(2, "x".repeat(100_000)))).encode(),
				new ResultsFrame(true, 1, List.of(Answer.of(2, values.write(weights, "w")), Answer.of(3, null))).encode());
		for (byte[] frame : results) {
			for (IntUnaryOperator cut : cuts()) {
				ResultsFrame read = InRuns.read(ResultsFrame.reader(values), frame, cut);
				assertThat(read.answers()).allSatisfy(answer -> assertThat(answer.decoded()).isNull());
				assertThat(read.encode()).as("what decoding it whole makes, written again").isEqualTo(frame);
			}
		}
	}

	@Test
	void aLargeFrameThatIsMalformedIsRefusedAsDecodingItWouldRefuseIt() {
		byte[] frame = new ResultsFrame(true, 1, List.of(ResultsFrame.answer(5, values, weights, "weights"))).encode();
		frame[0] = FrameKind.CHUNK.code();
		assertThatThrownBy(() -> InRuns.read(ChunkFrame.reader(values), frame, run -> 1000))
				.isInstanceOf(CodecException.class).hasMessageContaining("malformed task chunk");
		byte[] chunk = new ChunkFrame(9, null, List.of(), List.of(new ChunkFrame.Task(4,
				ChunkFrame.argument(values, weights, "weights")))).encode();
		assertThatThrownBy(() -> InRuns.read(ResultsFrame.reader(values), chunk, run -> 1000))
				.isInstanceOf(CodecException.class).hasMessageContaining("expected a ");
	}

	@Test
	void aFrameReadAsItArrivedIsNotSentOn() {
		ChunkFrame chunk = new ChunkFrame(1, null, List.of(), List.of(new ChunkFrame.Task(2, null, weights)));
		assertThatThrownBy(chunk::encode).isInstanceOf(IllegalStateException.class).hasMessageContaining("no bytes to send on");
		ResultsFrame results = new ResultsFrame(true, 1, List.of(new Answer(2, false, null, weights)));
		assertThatThrownBy(results::encode).isInstanceOf(IllegalStateException.class).hasMessageContaining("no bytes to send on");
		assertThatThrownBy(() -> new ChunkFrame.Task(2, ByteBuffer.allocate(1), weights)).isInstanceOf(IllegalArgumentException.class);
		assertThatThrownBy(() -> new Answer(2, true, null, weights)).isInstanceOf(IllegalArgumentException.class);
		List<ByteBuffer> none = new ArrayList<>();
		none.add(null);
		CallFrame call = new CallFrame(CallFrame.Mode.CALL, 1, 1, "m", List.of(), none, weights);
		assertThatThrownBy(call::encode).isInstanceOf(IllegalStateException.class).hasMessageContaining("no bytes to send on");
		assertThatThrownBy(() -> new CallFrame(CallFrame.Mode.CALL, 1, 1, "m", List.of(), List.of(), weights))
				.isInstanceOf(IllegalArgumentException.class);
	}
}
