package io.fiberjvm.queue;

/**
 * An item from {@link FiberQueue#receiveManualAck(int)}, with the acknowledgement left to the receiver.
 *
 * <p>Call {@link #ack()} once the work on the item is done, from any thread, in any order. The host
 * forgets items in the order they were handed out: an item acknowledged while an earlier one is still
 * open is counted once the earlier one is acknowledged too. Items not yet counted when the consumer
 * cancels, fails or dies go back to the queue.
 *
 * @param <T> the type of the item
 */
public interface Delivery<T> {

	/** The item. */
	T value();

	/** Marks the item done; calling it again does nothing. */
	void ack();
}
