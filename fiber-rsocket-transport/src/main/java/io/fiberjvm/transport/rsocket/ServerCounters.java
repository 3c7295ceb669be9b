package io.fiberjvm.transport.rsocket;

import java.util.concurrent.atomic.LongAdder;

/** What one listening server has counted, shared by its connections (adders: many event-loop threads add at once). */
final class ServerCounters {

	final LongAdder accepted = new LongAdder();
	/** Connections that came through the server's Unix domain socket, from peers on its machine. */
	final LongAdder local = new LongAdder();
	final LongAdder rejected = new LongAdder();
	final LongAdder bytesReceived = new LongAdder();
	final LongAdder bytesSent = new LongAdder();
}
