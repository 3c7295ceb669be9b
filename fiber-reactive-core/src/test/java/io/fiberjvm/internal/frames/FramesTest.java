package io.fiberjvm.internal.frames;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fiberjvm.codec.CodecException;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.transport.Endpoint;
import io.fiberjvm.transport.Outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every frame kind round-trips, and a malformed or misplaced frame is refused saying what was wrong. */
class FramesTest {

	private static List<QueueItem> queued(List<ByteBuffer> items) {
		return items.stream().map(QueueItem::of).toList();
	}

	@Test
	void everyFrameNamesItsKindInItsHeader() {
		assertThat(FrameHeaderCodec.kind(EmptyFrame.encode())).isEqualTo(FrameKind.EMPTY);
		assertThat(FrameHeaderCodec.kind(GrantFrame.encode(3))).isEqualTo(FrameKind.GRANT);
		assertThat(FrameHeaderCodec.kind(DoneFrame.encode())).isEqualTo(FrameKind.DONE);
		assertThatThrownBy(() -> FrameHeaderCodec.kind(new byte[1])).isInstanceOf(CodecException.class)
				.hasMessageContaining("shorter than its 2-byte header");
		assertThatThrownBy(() -> FrameHeaderCodec.kind(new byte[] {99, 0})).isInstanceOf(CodecException.class)
				.hasMessageContaining("starts with 99, which is no frame kind");
		// A frame where another kind belongs: a control message is never taken for data.
		assertThatThrownBy(() -> ItemsFrame.decode(GrantFrame.encode(3))).isInstanceOf(CodecException.class)
				.hasMessageContaining("expected a queue batch, got a queue grant");
		assertThatThrownBy(() -> EmptyFrame.check(DoneFrame.encode())).isInstanceOf(CodecException.class)
				.hasMessageContaining("expected a empty frame, got a ring member's end");
	}

	@Test
	void valuesReadFromAFrameAreViewsOfItsBytesNotCopies() {
		ShippedValues values = new ShippedValues(List.of());
		double[] weights = {1.5, -2.5, 3.5};
		byte[] frame = new ResultsFrame(true, 1, List.of(Answer.of(1, values.write(weights, "weights")), Answer.of(2, null),
				Answer.of(3, values.write(new byte[] {7, 8}, "bytes")), Answer.of(4, values.write(new java.util.ArrayList<>(List.of(1, 2)), "a list"))))
				.encode();
		List<Answer> answers = ResultsFrame.decode(frame).answers();
		assertThat((byte[]) values.read(answers.get(2).value(), "bytes")).containsExactly(7, 8);
		assertThat(values.read(answers.get(3).value(), "a list")).isEqualTo(List.of(1, 2));
		Answer answer = ResultsFrame.decode(frame).answers().get(0);
		assertThat(answer.value().array()).as("the answer's bytes are the frame's").isSameAs(frame);
		assertThat((double[]) values.read(answer.value(), "weights")).containsExactly(weights);
		assertThat(answer.value().position()).as("reading leaves the view as it was").isZero();
		assertThat(values.read(ResultsFrame.decode(frame).answers().get(1).value(), "nothing")).isNull();
		ChunkFrame chunk = ChunkFrame.decode(new ChunkFrame(1, null, List.of(), List.of(ChunkFrame.Task.of(3, values.write("θ", "text")))).encode());
		assertThat(values.read(chunk.tasks().get(0).arg(), "text")).isEqualTo("θ");
	}

	@Test
	void aLargeValueWrittenWithRoomBecomesItsFrameWithoutACopy() {
		ShippedValues values = new ShippedValues(List.of());
		double[] weights = new double[20_000];
		Arrays.setAll(weights, i -> i * 0.5);
		byte[] bytes = values.write(weights, "weights");

		ByteBuffer arg = values.writeAfter(ChunkFrame.ROOM, weights, "weights");
		byte[] chunk = new ChunkFrame(7, null, List.of(), List.of(new ChunkFrame.Task(3, arg))).encode();
		assertThat(chunk).as("the argument's array is the frame").isSameAs(arg.array())
				.isEqualTo(new ChunkFrame(7, null, List.of(), List.of(ChunkFrame.Task.of(3, bytes))).encode());
		ChunkFrame readChunk = ChunkFrame.decode(chunk);
		assertThat(readChunk.functionId()).isEqualTo(7);
		assertThat(readChunk.function()).isNull();
		assertThat(readChunk.tasks().get(0).id()).isEqualTo(3);
		assertThat((double[]) values.read(readChunk.tasks().get(0).arg(), "weights")).containsExactly(weights);
		// A retry is framed in the same array, with its own id.
		assertThat(ChunkFrame.decode(new ChunkFrame(7, null, List.of(), List.of(new ChunkFrame.Task(4, arg))).encode())
				.tasks().get(0).id()).isEqualTo(4);

		ByteBuffer result = values.writeAfter(ResultsFrame.ROOM, weights, "weights");
		byte[] results = new ResultsFrame(true, 99, List.of(new Answer(5, false, result))).encode();
		assertThat(results).isSameAs(result.array())
				.isEqualTo(new ResultsFrame(true, 99, List.of(Answer.of(5, bytes))).encode());
		ResultsFrame readResults = ResultsFrame.decode(results);
		assertThat(readResults.lastOfChunk()).isTrue();
		assertThat(readResults.elapsedNanos()).isEqualTo(99);
		assertThat(readResults.answers().get(0).id()).isEqualTo(5);
		assertThat((double[]) values.read(readResults.answers().get(0).value(), "weights")).containsExactly(weights);

		ByteBuffer answer = values.writeAfter(AnswerFrame.ROOM, weights, "weights");
		byte[] answerFrame = AnswerFrame.encode(new Answer(6, false, answer));
		assertThat(answerFrame).isSameAs(answer.array()).isEqualTo(AnswerFrame.encode(Answer.of(6, bytes)));
		assertThat((double[]) values.read(AnswerFrame.decode(answerFrame).value(), "weights")).containsExactly(weights);
	}

	@Test
	void aValueWithoutItsFramesRoomIsCopiedIntoTheFrame() {
		ShippedValues values = new ShippedValues(List.of());
		double[] weights = new double[20_000];
		ByteBuffer roomy = values.writeAfter(ChunkFrame.ROOM, weights, "weights");
		// The function travels with the chunk, or the task is not alone: its head is not the room's size.
		byte[] shipped = new ChunkFrame(7, new byte[] {1}, List.of("com.acme.*"), List.of(new ChunkFrame.Task(3, roomy))).encode();
		assertThat(shipped).isNotSameAs(roomy.array());
		assertThat(ChunkFrame.decode(shipped).function()).containsExactly(1);
		byte[] two = new ChunkFrame(7, null, List.of(), List.of(new ChunkFrame.Task(3, roomy), ChunkFrame.Task.of(4, null))).encode();
		assertThat(two).isNotSameAs(roomy.array());
		assertThat((double[]) values.read(ChunkFrame.decode(two).tasks().get(0).arg(), "weights")).containsExactly(weights);
		// Room made for another frame, a small value (no room) and an error are copied.
		assertThat(new ResultsFrame(true, 1, List.of(new Answer(1, false, roomy))).encode()).isNotSameAs(roomy.array());
		ByteBuffer small = values.writeAfter(ResultsFrame.ROOM, new double[] {1.5}, "one");
		assertThat(small.position()).isZero();
		assertThat(new ResultsFrame(true, 1, List.of(new Answer(1, false, small))).encode()).isNotSameAs(small.array());
		assertThat(AnswerFrame.decode(AnswerFrame.encode(Answer.failure(2, "boom"))).error()).isEqualTo("boom");
		// A value read from a received frame has the shape of one with room, but is forwarded as a copy.
		byte[] received = AnswerFrame.encode(new Answer(4, false, values.writeAfter(AnswerFrame.ROOM, weights, "weights")));
		byte[] forwarded = AnswerFrame.encode(new Answer(5, false, AnswerFrame.decode(received).value()));
		assertThat(forwarded).isNotSameAs(received);
		assertThat(AnswerFrame.decode(received).id()).as("the received frame is left as it was").isEqualTo(4);
		assertThat(AnswerFrame.decode(forwarded).id()).isEqualTo(5);
		// A read-only view (a retry's argument) is copied too.
		assertThat(new ChunkFrame(7, null, List.of(), List.of(new ChunkFrame.Task(3, roomy.asReadOnlyBuffer()))).encode())
				.isNotSameAs(roomy.array());
		assertThat(AnswerFrame.decode(AnswerFrame.encode(new Answer(3, false, values.writeAfter(AnswerFrame.ROOM, null, "nothing"))))
				.value()).isNull();
	}

	@Test
	void chunksAndResultsRoundTrip() {
		ChunkFrame chunk = new ChunkFrame(7, new byte[] {1, 2}, List.of("com.acme.*"),
				List.of(ChunkFrame.Task.of(1, new byte[] {9}), ChunkFrame.Task.of(2, null)));
		ChunkFrame back = ChunkFrame.decode(chunk.encode());
		assertThat(back.functionId()).isEqualTo(7);
		assertThat(back.function()).containsExactly(1, 2);
		assertThat(back.allow()).containsExactly("com.acme.*");
		assertThat(back.tasks()).hasSize(2);
		assertThat(back.tasks().get(0).arg()).isEqualTo(java.nio.ByteBuffer.wrap(new byte[] {9}));
		assertThat(back.tasks().get(1).arg()).isNull();
		assertThat(ChunkFrame.decode(new ChunkFrame(8, null, List.of(), List.of()).encode()).function()).isNull();

		ResultsFrame results = new ResultsFrame(true, 1234, List.of(
				Answer.of(1, new byte[] {5}), new Answer(2, true, java.nio.ByteBuffer.wrap(new byte[] {6}))));
		ResultsFrame read = ResultsFrame.decode(results.encode());
		assertThat(read.lastOfChunk()).isTrue();
		assertThat(read.elapsedNanos()).isEqualTo(1234);
		assertThat(read.answers().get(0).value()).isEqualTo(java.nio.ByteBuffer.wrap(new byte[] {5}));
		assertThat(read.answers().get(1).failed()).isTrue();
		assertThat(ResultsFrame.decode(new ResultsFrame(false, 0, List.of()).encode()).lastOfChunk()).isFalse();
	}

	@Test
	void malformedFramesAreRefusedWithWhatWasWrong() {
		byte[] good = new ResultsFrame(true, 1, List.of(Answer.of(1, new byte[10]))).encode();
		assertThatThrownBy(() -> ResultsFrame.decode(Arrays.copyOf(good, good.length - 3)))
				.isInstanceOf(CodecException.class).hasMessageContaining("malformed result frame");
		byte[] longer = Arrays.copyOf(good, good.length + 1);
		assertThatThrownBy(() -> ResultsFrame.decode(longer)).isInstanceOf(CodecException.class).hasMessageContaining("left over");
		assertThatThrownBy(() -> ChunkFrame.decode(new byte[] {FrameKind.CHUNK.code(), 0, 0})).isInstanceOf(CodecException.class)
				.hasMessageContaining("malformed task chunk");
		byte[] hugeCount = new ResultsFrame(true, 1, List.of()).encode();
		hugeCount[hugeCount.length - 1] = 0x7f;
		assertThatThrownBy(() -> ResultsFrame.decode(hugeCount)).isInstanceOf(CodecException.class).hasMessageContaining("count");
		byte[] flag = new ResultsFrame(true, 1, List.of(Answer.of(1, null))).encode();
		flag[2 + 8 + 4 + 8] = 7;
		assertThatThrownBy(() -> ResultsFrame.decode(flag)).isInstanceOf(CodecException.class).hasMessageContaining("an answer flag of 7");
	}

	@Test
	void elementsAreReadAsViewsOfTheirFrameAndANullOneIsRefused() {
		byte[] frame = ElementsFrame.of(9, List.of(new byte[] {1, 2}, new byte[] {3})).encode();
		ElementsFrame read = ElementsFrame.decode(frame);
		assertThat(read.call()).isEqualTo(9);
		assertThat(read.elements()).containsExactly(ByteBuffer.wrap(new byte[] {1, 2}), ByteBuffer.wrap(new byte[] {3}));
		assertThat(read.elements().get(1).array()).as("an element read is a view of its frame").isSameAs(frame);
		byte elements = FrameKind.ELEMENTS.code();
		assertThatThrownBy(() -> ElementsFrame.decode(new byte[] {elements, 0, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 1, -1, -1, -1, -1}))
				.isInstanceOf(CodecException.class).hasMessageContaining("a null element");
	}

	@Test
	void aBatchWrittenWhereTheTransportSendsFromIsTheFrameItsArrayIs() {
		List<ByteBuffer> items = List.of(ByteBuffer.wrap(new byte[] {1, 2, 3}).position(1), ByteBuffer.allocate(0),
				ByteBuffer.allocateDirect(2).put(0, (byte) 9));
		Outbound frame = ItemsFrame.frame(queued(items));
		ByteBuffer target = ByteBuffer.allocateDirect(frame.size() + 3).position(3);
		frame.writeTo(target);
		assertThat(target.position()).as("it wrote its size").isEqualTo(3 + frame.size());
		byte[] written = new byte[frame.size()];
		target.get(3, written);
		assertThat(written).isEqualTo(ItemsFrame.frame(queued(items)).toArray());
		assertThat(ItemsFrame.decode(written)).containsExactly(ByteBuffer.wrap(new byte[] {2, 3}), ByteBuffer.allocate(0),
				ByteBuffer.wrap(new byte[] {9, 0}));
		assertThat(items).as("writing moves no item's position").extracting(ByteBuffer::position).containsExactly(1, 0, 0);
		boolean[] released = new boolean[1];
		ItemsFrame.frame(queued(items), () -> released[0] = true).released();
		assertThat(released[0]).as("its maker hears when the transport lets its items go").isTrue();
	}

	@Test
	void queueBatchesRoundTripAndMalformedOnesAreNamed() {
		List<ByteBuffer> items = List.of(ByteBuffer.wrap(new byte[] {1}), ByteBuffer.allocate(0), ByteBuffer.wrap(new byte[] {2, 3}));
		byte[] batch = ItemsFrame.frame(queued(items)).toArray();
		List<ByteBuffer> read = ItemsFrame.decode(batch);
		assertThat(read).containsExactlyElementsOf(items);
		assertThat(read.get(2).array()).as("an item read is a view of its frame").isSameAs(batch);
		assertThat(items).as("encoding moves no item's position").allSatisfy(item -> assertThat(item.position()).isZero());
		assertThat(ItemsFrame.decodeOne(ItemsFrame.frame(List.of(QueueItem.of(ByteBuffer.wrap(new byte[] {4})))).toArray())).isEqualTo(ByteBuffer.wrap(new byte[] {4}));
		byte items1 = FrameKind.ITEMS.code();
		assertThatThrownBy(() -> ItemsFrame.decode(new byte[] {items1, 0, 0, 0, 0, 5})).isInstanceOf(CodecException.class)
				.hasMessageContaining("claims 5 items");
		assertThatThrownBy(() -> ItemsFrame.decode(new byte[] {items1, 0, 0, 0, 0, 1, 0, 0, 0, 9, 1})).isInstanceOf(CodecException.class)
				.hasMessageContaining("a length of 9 with 1 bytes left");
		assertThatThrownBy(() -> ItemsFrame.decode(new byte[] {items1, 0, 0, 0, 0, 0, 7})).isInstanceOf(CodecException.class)
				.hasMessageContaining("left over after the queue batch");
		assertThatThrownBy(() -> CreditFrame.decode(Arrays.copyOf(new CreditFrame(1, 2, 5).encode(), 10)))
				.isInstanceOf(CodecException.class).hasMessageContaining("cut short");
		assertThat(CreditFrame.decode(new CreditFrame(3, 4, Long.MAX_VALUE).encode())).isEqualTo(new CreditFrame(3, 4, Long.MAX_VALUE));
		assertThatThrownBy(() -> CreditFrame.decode(new CreditFrame(-1, 0, 0).encode())).isInstanceOf(CodecException.class)
				.hasMessageContaining("a credit of -1");
		assertThat(GrantFrame.decode(GrantFrame.encode(512))).isEqualTo(512);
		assertThat(CountFrame.decode(CountFrame.encode(-7))).isEqualTo(-7);
	}

	@Test
	void aBatchIsSplitSoNoFrameOutgrowsTheLimit() {
		List<ByteBuffer> items = List.of(ByteBuffer.allocate(100), ByteBuffer.allocate(100), ByteBuffer.allocate(100), ByteBuffer.allocate(500));
		List<List<QueueItem>> batches = ItemsFrame.split(queued(items), 230);
		assertThat(batches).extracting(List::size).containsExactly(2, 1, 1);
		assertThat(batches.subList(0, 2)).allSatisfy(batch -> assertThat(ItemsFrame.frame(batch).toArray().length).isLessThanOrEqualTo(230));
	}

	@Test
	void sharedValueFetchesAndDropsRoundTrip() {
		FetchFrame fetch = FetchFrame.decode(new FetchFrame("v12", "10.0.0.2:7000").encode());
		assertThat(fetch).isEqualTo(new FetchFrame("v12", "10.0.0.2:7000"));
		assertThat(DropFrame.decode(DropFrame.encode("v12"))).isEqualTo("v12");
		assertThatThrownBy(() -> FetchFrame.decode(DropFrame.encode("v12"))).isInstanceOf(CodecException.class)
				.hasMessageContaining("shared value drop");
	}

	@Test
	void callsAndAnswersRoundTrip() {
		CallFrame call = new CallFrame(CallFrame.Mode.CALL_MANY, 7, 3, "step", List.of("int"),
				Arrays.asList(ByteBuffer.wrap(new byte[] {1}), null));
		CallFrame back = CallFrame.decode(call.encode());
		assertThat(back.mode()).isEqualTo(CallFrame.Mode.CALL_MANY);
		assertThat(back.id()).isEqualTo(7);
		assertThat(back.object()).isEqualTo(3);
		assertThat(back.name()).isEqualTo("step");
		assertThat(back.parameterTypes()).containsExactly("int");
		assertThat(back.args().get(0)).isEqualTo(ByteBuffer.wrap(new byte[] {1}));
		assertThat(back.args().get(1)).isNull();
		Answer answer = AnswerFrame.decode(AnswerFrame.encode(new Answer(7, true, java.nio.ByteBuffer.wrap(new byte[] {2}))));
		assertThat(answer.failed()).isTrue();
		assertThat(Answer.failure(3, "boom").error()).isEqualTo("boom");
		assertThat(ReadyFrame.decode(ReadyFrame.encode("10.0.0.1:4000"))).isEqualTo("10.0.0.1:4000");
		assertThat(SharedCallsFrame.decode(new SharedCallsFrame(3, 1, 99).encode())).isEqualTo(new SharedCallsFrame(3, 1, 99));
	}

	@Test
	void aCallCarriesItsDeadlineAndANegativeOneIsRefused() {
		assertThat(CallFrame.decode(new CallFrame(CallFrame.Mode.CALL, 1, 2, "step", List.of(), List.of()).encode()).timeoutNanos()).isZero();
		CallFrame timed = new CallFrame(CallFrame.Mode.CREATE, 4, 5, 1_500_000_000L, "a.Sim", List.of("int"),
				List.of(ByteBuffer.wrap(new byte[] {1, 2})));
		CallFrame back = CallFrame.decode(timed.encode());
		assertThat(back.timeoutNanos()).isEqualTo(1_500_000_000L);
		assertThat(back.mode()).isEqualTo(CallFrame.Mode.CREATE);
		assertThat(back.object()).isEqualTo(5);
		assertThat(back.name()).isEqualTo("a.Sim");
		assertThatThrownBy(() -> new CallFrame(CallFrame.Mode.CALL, 1, 1, -1, "m", List.of(), List.of()))
				.isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0 (none) or positive");
		byte[] frame = new CallFrame(CallFrame.Mode.CALL, 1, 1, 5, "m", List.of(), List.of()).encode();
		// The deadline follows the header, the head's size, the id and the object.
		java.nio.ByteBuffer.wrap(frame).putLong(FrameHeaderCodec.SIZE + 4 + 16, -7);
		assertThatThrownBy(() -> CallFrame.decode(frame)).isInstanceOf(CodecException.class).hasMessageContaining("its timeout is -7 ns");
	}

	@Test
	void malformedCallsAndAnswersAreRefusedSayingWhatWasWrong() {
		byte[] good = new CallFrame(CallFrame.Mode.CALL, 1, 1, "m", List.of(), List.of(ByteBuffer.allocate(8))).encode();
		assertThatThrownBy(() -> CallFrame.decode(Arrays.copyOf(good, good.length - 2)))
				.isInstanceOf(CodecException.class).hasMessageContaining("malformed manager call");
		byte[] unknown = good.clone();
		unknown[1] = 9;
		assertThatThrownBy(() -> CallFrame.decode(unknown)).isInstanceOf(CodecException.class).hasMessageContaining("unknown call mode 9");
		assertThatThrownBy(() -> AnswerFrame.decode(new byte[] {FrameKind.ANSWER.code(), 0, 0, 1})).isInstanceOf(CodecException.class)
				.hasMessageContaining("malformed manager answer");
		assertThatThrownBy(() -> SharedCallsFrame.decode(new byte[] {FrameKind.SHARED_CALLS.code(), 0, 1, 2, 3}))
				.isInstanceOf(CodecException.class).hasMessageContaining("malformed shared-call report of 5 bytes");
	}

	@Test
	void processTargetsAndOutcomesRoundTrip() {
		TargetFrame target = TargetFrame.decode(new TargetFrame(List.of("com.acme.*"), new byte[] {1, 2, 3}).encode());
		assertThat(target.allow()).containsExactly("com.acme.*");
		assertThat(target.target()).containsExactly(1, 2, 3);
		assertThat(OutcomeFrame.decode(new OutcomeFrame(null).encode()).error()).isNull();
		assertThat(OutcomeFrame.decode(new OutcomeFrame("{\"type\":\"x\"}").encode()).error()).isEqualTo("{\"type\":\"x\"}");
		EmptyFrame.check(EmptyFrame.encode());
		assertThatThrownBy(() -> EmptyFrame.check(new byte[] {FrameKind.EMPTY.code(), 0, 1})).isInstanceOf(CodecException.class)
				.hasMessageContaining("left over");
	}

	@Test
	void joinsRostersAndMessagesRoundTrip() {
		JoinFrame join = new JoinFrame(3, new Endpoint("10.0.0.7", 4100), 0);
		assertThat(JoinFrame.decode(join.encode())).isEqualTo(join);
		RosterFrame roster = new RosterFrame(List.of(new Endpoint("10.0.0.1", 1), new Endpoint("10.0.0.2", 2)), 29500);
		assertThat(RosterFrame.decode(roster.encode())).isEqualTo(roster);

		ShippedValues values = new ShippedValues(List.of());
		double[] weights = new double[20_000];
		Arrays.setAll(weights, i -> i * 0.25);
		ByteBuffer roomy = values.writeAfter(MessageFrame.ROOM, weights, "weights");
		byte[] large = MessageFrame.value(7, 1, 2, roomy);
		assertThat(large).as("the value's array is the frame").isSameAs(roomy.array());
		MessageFrame message = MessageFrame.decode(large);
		assertThat(List.of(message.seq(), message.step(), message.from())).containsExactly(7, 1, 2);
		assertThat(message.isValue()).isTrue();
		assertThat((double[]) message.value(values, "weights")).containsExactly(weights);
		assertThat(message.bytes().array()).as("the value's bytes are a view of the frame").isSameAs(large);

		MessageFrame small = MessageFrame.decode(MessageFrame.value(3, 0, 0, ByteBuffer.wrap(values.write("θ", "text"))));
		assertThat(small.value(values, "text")).isEqualTo("θ");
		MessageFrame none = MessageFrame.decode(MessageFrame.value(4, 0, 1, values.writeAfter(MessageFrame.ROOM, null, "nothing")));
		assertThat(none.isValue()).isTrue();
		assertThat(none.bytes()).isNull();
		assertThat(none.value(values, "nothing")).isNull();

		byte[] chunk = MessageFrame.chunk(5, 2, 1, 3, out -> out.put(new byte[] {9, 8, 7})).toArray();
		MessageFrame read = MessageFrame.decode(chunk);
		assertThat(List.of(read.seq(), read.step(), read.from())).containsExactly(5, 2, 1);
		assertThat(read.isValue()).isFalse();
		assertThat(read.chunk().remaining()).isEqualTo(3);
		assertThat(read.chunk().get(0)).isEqualTo((byte) 9);
		// A collective called in another order on one member: a chunk is not a value, nor a value a chunk.
		assertThatThrownBy(() -> read.value(values, "the broadcast value")).isInstanceOf(CodecException.class)
				.hasMessageContaining("an all-reduce chunk").hasMessageContaining("the broadcast value belongs");
		assertThatThrownBy(small::chunk).isInstanceOf(CodecException.class).hasMessageContaining("where an all-reduce chunk belongs");
	}

	@Test
	void sharedValuesTravelInTheirOwnFrame() {
		ShippedValues values = new ShippedValues(List.of());
		double[] weights = new double[20_000];
		Arrays.setAll(weights, i -> i - 3.0);
		ByteBuffer roomy = values.writeAfter(ValueFrame.ROOM, weights, "weights");
		byte[] frame = ValueFrame.encode(roomy);
		assertThat(frame).as("the value's array is the frame").isSameAs(roomy.array());
		assertThat((double[]) values.read(ValueFrame.decode(frame), "weights")).containsExactly(weights);
		byte[] small = ValueFrame.encode(ByteBuffer.wrap(values.write(List.of(1, 2), "a list")));
		assertThat(values.read(ValueFrame.decode(small), "a list")).isEqualTo(List.of(1, 2));
		assertThatThrownBy(() -> ValueFrame.decode(new byte[] {FrameKind.VALUE.code(), 0})).isInstanceOf(CodecException.class)
				.hasMessageContaining("malformed shared value of 2 bytes: no value");
		assertThatThrownBy(() -> ValueFrame.decode(DropFrame.encode("v1"))).isInstanceOf(CodecException.class)
				.hasMessageContaining("expected a shared value, got a shared value drop");
	}

	@Test
	void malformedRingFramesAreClearErrors() {
		assertThatThrownBy(() -> MessageFrame.decode(new byte[] {FrameKind.MESSAGE.code(), 0, 0, 0, 0, 1, 0}))
				.isInstanceOf(CodecException.class).hasMessageContaining("malformed ring message of 7 bytes");
		assertThatThrownBy(() -> MessageFrame.decode(MessageFrame.chunk(-1, 0, 0, 0, out -> { }).toArray()))
				.isInstanceOf(CodecException.class).hasMessageContaining("collective -1");
		byte[] nullNotValue = MessageFrame.value(1, 0, 0, null);
		nullNotValue[1] = (byte) MessageFrame.NULL;
		assertThatThrownBy(() -> MessageFrame.decode(nullNotValue)).isInstanceOf(CodecException.class)
				.hasMessageContaining("flags 2");
		byte[] nullWithBytes = Arrays.copyOf(MessageFrame.value(1, 0, 0, null), MessageFrame.ROOM + 1);
		assertThatThrownBy(() -> MessageFrame.decode(nullWithBytes)).isInstanceOf(CodecException.class)
				.hasMessageContaining("a null value with 1 bytes");
		byte[] unknownFlag = MessageFrame.value(1, 0, 0, null);
		unknownFlag[1] = 4;
		assertThatThrownBy(() -> MessageFrame.decode(unknownFlag)).isInstanceOf(CodecException.class)
				.hasMessageContaining("flags 100 it does not know");
		byte[] join = new JoinFrame(1, new Endpoint("h", 1), 0).encode();
		assertThatThrownBy(() -> JoinFrame.decode(Arrays.copyOf(join, join.length - 1))).isInstanceOf(CodecException.class)
				.hasMessageContaining("malformed ring join");
		byte[] badAddress = FrameWriter.of(FrameKind.ROSTER, 0, 4 + FrameWriter.sizeOf(FrameWriter.utf8(List.of("no-port"))))
				.putInt(1).putTexts(FrameWriter.utf8(List.of("no-port"))).array();
		assertThatThrownBy(() -> RosterFrame.decode(badAddress)).isInstanceOf(CodecException.class)
				.hasMessageContaining("malformed ring roster").hasMessageContaining("'no-port' is not host:port");
	}

	@Test
	void flagsAKindDoesNotKnowAndCountsTheRestCannotHoldAreRefused() {
		byte[] grant = GrantFrame.encode(3);
		grant[1] = (byte) 0x80;
		assertThatThrownBy(() -> GrantFrame.decode(grant)).isInstanceOf(CodecException.class)
				.hasMessageContaining("flags 10000000 it does not know");
		byte[] results = new ResultsFrame(true, 1, List.of()).encode();
		results[1] = 5;
		assertThatThrownBy(() -> ResultsFrame.decode(results)).isInstanceOf(CodecException.class).hasMessageContaining("flags 101");
		// A count the frame's remaining bytes cannot hold is refused before anything is allocated for it.
		byte[] call = new CallFrame(CallFrame.Mode.CALL, 1, 1, "m", List.of(), List.of()).encode();
		call[call.length - 1] = 5;
		assertThatThrownBy(() -> CallFrame.decode(call)).isInstanceOf(CodecException.class)
				.hasMessageContaining("a count of 5 arguments with 0 bytes left");
		byte[] put = ItemsFrame.frame(queued(List.of(ByteBuffer.allocate(1), ByteBuffer.allocate(1)))).toArray();
		assertThatThrownBy(() -> ItemsFrame.decodeOne(put)).isInstanceOf(CodecException.class)
				.hasMessageContaining("a put carries one item, not 2");
	}

	@Test
	void aPoolsOrdersToItsWorkerAreChunksWithTheirDeadlineAndCancelsReadByOneReader() {
		ShippedValues values = new ShippedValues(List.of());
		var reader = WorkerOrder.reader(values);
		ChunkFrame chunk = new ChunkFrame(9, 1_500_000_000L, null, List.of(), List.of(ChunkFrame.Task.of(4, new byte[] {1, 2})));
		assertThat(io.fiberjvm.transport.InboundReader.read(reader, chunk.encode())).isInstanceOfSatisfying(ChunkFrame.class, read -> {
			assertThat(read.functionId()).isEqualTo(9);
			assertThat(read.timeoutNanos()).isEqualTo(1_500_000_000L);
			assertThat(read.tasks()).extracting(ChunkFrame.Task::id).containsExactly(4L);
		});
		// A large argument alone in a chunk is read as it arrives, and keeps its chunk's deadline.
		ByteBuffer large = ChunkFrame.argument(values, new double[100_000], "the argument");
		ChunkFrame sole = new ChunkFrame(9, 7, null, List.of(), List.of(new ChunkFrame.Task(5, large)));
		assertThat(io.fiberjvm.transport.InboundReader.read(reader, sole.encode())).isInstanceOfSatisfying(ChunkFrame.class, read -> {
			assertThat(read.timeoutNanos()).isEqualTo(7);
			assertThat(read.tasks().get(0).decoded()).isInstanceOf(double[].class);
		});
		assertThat(io.fiberjvm.transport.InboundReader.read(reader, new CancelFrame(List.of(3L, 8L)).encode()))
				.isEqualTo(new CancelFrame(List.of(3L, 8L)));
		assertThatThrownBy(() -> new ChunkFrame(1, -1, null, List.of(), List.of())).isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("negative");
	}

	@Test
	void aStuckWorkersResultsSayItAloneOrWithALargeAnswer() {
		ResultsFrame stuck = ResultsFrame.decode(new ResultsFrame(false, 0, List.of(Answer.failure(3, "late")), true).encode());
		assertThat(stuck.stuck()).isTrue();
		assertThat(stuck.lastOfChunk()).isFalse();
		assertThat(stuck.answers()).extracting(Answer::id).containsExactly(3L);
		assertThat(ResultsFrame.decode(new ResultsFrame(true, 0, List.of()).encode()).stuck()).isFalse();
	}
}
