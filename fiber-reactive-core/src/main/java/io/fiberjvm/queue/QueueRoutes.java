package io.fiberjvm.queue;

/** Route names of the queue service: {@code fiber.queue/<queue id>/<operation>}. */
final class QueueRoutes {

	static final String PREFIX = "fiber.queue/";
	static final String PUT = "put";
	static final String SEND = "send";
	static final String RECEIVE = "receive";
	static final String SIZE = "size";
	static final String CLOSE = "close";

	private QueueRoutes() {
	}

	static String route(String queueId, String operation) {
		return PREFIX + queueId + "/" + operation;
	}
}
