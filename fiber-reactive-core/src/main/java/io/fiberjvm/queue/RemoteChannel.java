package io.fiberjvm.queue;

import java.util.List;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.fiberjvm.RemoteException;
import io.fiberjvm.transport.Connection;

/** A queue whose host is another process: each operation is a request on the connection to it. */
final class RemoteChannel implements QueueChannel {

	private final Mono<Connection> connection;
	private final String queueId;

	RemoteChannel(Mono<Connection> connection, String queueId) {
		this.connection = connection;
		this.queueId = queueId;
	}

	private String route(String operation) {
		return QueueRoutes.route(queueId, operation);
	}

	@Override
	public Mono<Void> put(byte[] item) {
		return connection.flatMap(c -> c.requestResponse(route(QueueRoutes.PUT), item)).onErrorMap(RemoteChannel::local).then();
	}

	@Override
	public Flux<Long> send(Flux<List<byte[]>> batches) {
		return connection.flatMapMany(c -> c.requestChannel(route(QueueRoutes.SEND), batches.map(Batches::encode)))
				.map(frame -> Batches.decodeLongs(frame, 1)[0])
				.onErrorMap(RemoteChannel::local);
	}

	@Override
	public Flux<List<byte[]>> receive(Flux<long[]> controls) {
		return connection.flatMapMany(c -> c.requestChannel(route(QueueRoutes.RECEIVE), controls.map(Batches::encodeLongs)))
				.map(Batches::decode)
				.onErrorMap(RemoteChannel::local);
	}

	@Override
	public boolean emitsOutsideLock() {
		return true;
	}

	@Override
	public Mono<Integer> size() {
		return connection.flatMap(c -> c.requestResponse(route(QueueRoutes.SIZE), new byte[0]))
				.map(frame -> (int) Batches.decodeLongs(frame, 1)[0])
				.onErrorMap(RemoteChannel::local);
	}

	@Override
	public Mono<Void> close() {
		return connection.flatMap(c -> c.requestResponse(route(QueueRoutes.CLOSE), new byte[0])).onErrorMap(RemoteChannel::local).then();
	}

	/** The host's "closed" travels as a remote error; callers catch the local type. */
	private static Throwable local(Throwable error) {
		if (error instanceof RemoteException remote && remote.remoteType().equals(QueueClosedException.class.getName())) {
			return new QueueClosedException(remote.remoteMessage());
		}
		return error;
	}
}
