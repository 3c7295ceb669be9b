package io.fiberjvm.queue;

import reactor.core.publisher.Mono;

import io.fiberjvm.codec.Codec;
import io.fiberjvm.transport.Connection;
import io.fiberjvm.transport.Endpoint;

/** A queue context with no network: every queue is hosted and used in this process. */
final class InProcessContext implements QueueContext {

	private final QueueService queues = new QueueService(this);
	private final io.fiberjvm.config.FiberConfig config = io.fiberjvm.config.FiberConfig.resolve(java.util.Map.of(),
			new java.util.Properties(), java.util.Map.of(), null);
	private final io.fiberjvm.codec.ShippedValues values = new io.fiberjvm.codec.ShippedValues(java.util.List.of());

	@Override
	public io.fiberjvm.config.FiberConfig config() {
		return config;
	}

	@Override
	public io.fiberjvm.codec.ShippedValues values() {
		return values;
	}

	@Override
	public Endpoint localAddress() {
		return new Endpoint("127.0.0.1", 9);
	}

	@Override
	public Mono<Connection> connectionTo(Endpoint endpoint) {
		return Mono.error(new IllegalStateException("no network in this test"));
	}

	@Override
	public Mono<Connection> dedicatedConnectionTo(Endpoint endpoint) {
		return connectionTo(endpoint);
	}

	@Override
	public Codec codec() {
		return Codec.smile();
	}

	@Override
	public int maxFrameSize() {
		return 1 << 20;
	}

	@Override
	public QueueService queues() {
		return queues;
	}
}
