package io.fiberjvm.internal.queue;

import reactor.core.publisher.Mono;

import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.internal.frames.CountFrame;
import io.fiberjvm.internal.frames.CreditFrame;
import io.fiberjvm.internal.frames.EmptyFrame;
import io.fiberjvm.internal.frames.GrantFrame;
import io.fiberjvm.internal.frames.ItemsFrame;
import io.fiberjvm.internal.frames.QueueItem;
import io.fiberjvm.transport.InboundReader;
import io.fiberjvm.transport.Routes;

/**
 * The routes a queue's host serves its queue on, {@code fiber.queue-<id>/<operation>}: size, close and closed are
 * request-responses; send and receive are request-channels; put is either, a large one a channel of one frame.
 */
final class QueueRoutes {

	static final String PUT = "put";
	static final String SEND = "send";
	static final String RECEIVE = "receive";
	static final String SIZE = "size";
	static final String CLOSE = "close";
	static final String CLOSED = "closed";

	private QueueRoutes() {
	}

	/** The prefix the queue {@code queueId} is served under. */
	static String prefix(String queueId) {
		return "fiber.queue-" + queueId + "/";
	}

	static String route(String queueId, String operation) {
		return prefix(queueId) + operation;
	}

	/**
	 * The routes of {@code host}'s queue; a consumer's batch is split into frames of about half {@code maxFrameSize}
	 * (a larger item alone), and a producer's items that are arrays of numbers or bytes are read into them as
	 * {@code values} reads them.
	 */
	static Routes of(QueueHost host, String queueId, int maxFrameSize, ShippedValues values) {
		String prefix = prefix(queueId);
		int batchLimit = Math.max(1024, maxFrameSize / 2);
		return Routes.empty()
				.withResponse(prefix + PUT, frame -> Mono.defer(() -> host.put(QueueItem.of(ItemsFrame.decodeOne(frame))))
						.thenReturn(EmptyFrame.encode()))
				// A large put: its item read as it arrives, into its array when it is one of numbers or bytes.
				.withChannel(prefix + PUT, ItemsFrame.reader(values), frames -> frames.take(2).collectList()
						.flatMap(puts -> host.put(ItemsFrame.one(puts)))
						.thenReturn(EmptyFrame.encode()))
				.withResponse(prefix + SIZE, frame -> Mono.defer(() -> {
					EmptyFrame.check(frame);
					return host.size().map(CountFrame::encode);
				}))
				.withResponse(prefix + CLOSE, frame -> Mono.defer(() -> {
					EmptyFrame.check(frame);
					return host.close();
				}).thenReturn(EmptyFrame.encode()))
				.withResponse(prefix + CLOSED, frame -> Mono.defer(() -> {
					EmptyFrame.check(frame);
					return host.closed();
				}).thenReturn(EmptyFrame.encode()))
				.withChannel(prefix + SEND, ItemsFrame.reader(values), frames -> host.send(frames, kept -> { }).map(GrantFrame::encode))
				// A batch may be written after its session ended and its items went back to the queue, one to a consumer
				// here that changes its array: such a frame goes to a receiver that has finished, which drops it.
				.withWrittenChannel(prefix + RECEIVE, InboundReader.bytes(), frames -> host.receive(frames.map(CreditFrame::decode))
						.concatMapIterable(batch -> ItemsFrame.split(batch, batchLimit))
						.map(ItemsFrame::frame));
	}
}
