package io.fiberjvm.internal.queue;

import java.util.List;
import java.util.function.Consumer;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.fiberjvm.RemoteException;
import io.fiberjvm.codec.CodecException;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.internal.frames.CountFrame;
import io.fiberjvm.internal.frames.CreditFrame;
import io.fiberjvm.internal.frames.EmptyFrame;
import io.fiberjvm.internal.frames.GrantFrame;
import io.fiberjvm.internal.frames.ItemsFrame;
import io.fiberjvm.internal.frames.QueueItem;
import io.fiberjvm.queue.QueueClosedException;
import io.fiberjvm.transport.Connection;
import io.fiberjvm.transport.InboundReader;
import io.fiberjvm.transport.Outbound;
import io.fiberjvm.transport.UnknownRouteException;

/** A queue whose host is another process: each operation is a request on the connection to it. */
final class RemoteChannel implements QueueChannel {

	private final Mono<Connection> connection;
	private final String queueId;
	private final ShippedValues values;

	/** A channel to queue {@code queueId} over {@code connection}, whose items' arrays {@code values} reads as they arrive. */
	RemoteChannel(Mono<Connection> connection, String queueId, ShippedValues values) {
		this.connection = connection;
		this.queueId = queueId;
		this.values = values;
	}

	private String route(String operation) {
		return QueueRoutes.route(queueId, operation);
	}

	@Override
	public Mono<Void> put(QueueItem item) {
		Outbound put = ItemsFrame.put(item);
		// A small put is two frames; a large one is read where it arrives, sent with the request that opens its channel
		// (or, over 4 MiB, in parts the transport sends as they are taken).
		return connection.flatMap(c -> put.size() < ShippedValues.ROOMY
						? c.requestResponse(route(QueueRoutes.PUT), put.toArray())
						: c.requestChannel(route(QueueRoutes.PUT), put, Flux.empty(), InboundReader.bytes()).next())
				.switchIfEmpty(Mono.error(() -> new CodecException("the host of queue " + queueId
						+ " answered a put with nothing")))
				.doOnNext(EmptyFrame::check)
				.onErrorMap(RemoteChannel::local)
				.then();
	}

	@Override
	public Flux<Long> send(Flux<List<QueueItem>> batches, Consumer<List<QueueItem>> sent) {
		return connection.flatMapMany(c -> c.requestChannel(route(QueueRoutes.SEND),
						batches.map(batch -> ItemsFrame.frame(batch, () -> sent.accept(batch)))))
				.map(GrantFrame::decode)
				.onErrorMap(RemoteChannel::local);
	}

	@Override
	public Flux<List<QueueItem>> receive(Flux<CreditFrame> credits) {
		return connection.flatMapMany(c -> c.requestChannel(route(QueueRoutes.RECEIVE),
				credits.map(credit -> Outbound.of(credit.encode())), ItemsFrame.reader(values)))
				.onErrorMap(RemoteChannel::local);
	}

	@Override
	public boolean emitsOutsideLock() {
		return true;
	}

	@Override
	public Mono<Integer> size() {
		return connection.flatMap(c -> c.requestResponse(route(QueueRoutes.SIZE), EmptyFrame.encode()))
				.map(frame -> (int) CountFrame.decode(frame))
				.onErrorMap(RemoteChannel::local);
	}

	@Override
	public Mono<Void> close() {
		return request(QueueRoutes.CLOSE);
	}

	/** Its host answers once the queue has closed; a queue it no longer serves has closed and been drained. */
	@Override
	public Mono<Void> closed() {
		return request(QueueRoutes.CLOSED).onErrorResume(RemoteChannel::unserved, error -> Mono.empty());
	}

	private Mono<Void> request(String operation) {
		return connection.flatMap(c -> c.requestResponse(route(operation), EmptyFrame.encode()))
				.doOnNext(EmptyFrame::check)
				.onErrorMap(RemoteChannel::local)
				.then();
	}

	private static boolean unserved(Throwable error) {
		return error instanceof UnknownRouteException
				|| error instanceof RemoteException remote && remote.remoteType().equals(UnknownRouteException.class.getName());
	}

	/** The host's "closed" travels as a remote error; callers catch the local type. */
	private static Throwable local(Throwable error) {
		if (error instanceof RemoteException remote && remote.remoteType().equals(QueueClosedException.class.getName())) {
			return new QueueClosedException(String.valueOf(remote.remoteMessage()));
		}
		return error;
	}
}
