package io.fiberjvm.internal.queue;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;

import reactor.core.Disposable;
import reactor.core.publisher.Operators;
import reactor.core.publisher.Sinks;

import io.fiberjvm.internal.frames.CreditFrame;
import io.fiberjvm.internal.frames.QueueItem;

/** One consumer session of a queue's host: what it may take, what it holds unacknowledged, and its share. Guarded by the host's lock. */
final class QueueConsumer {

	final Sinks.Many<List<QueueItem>> batches = Sinks.many().unicast().onBackpressureBuffer();
	final ArrayDeque<QueueItem> handedOut = new ArrayDeque<>();
	long handedBytes;
	long heldBytes = QueueHost.PREFETCH_BYTES;
	long credit;
	/** Items handed to it, counted from the least served when it joined. */
	long served;
	/** When it last acknowledged an item, or began holding items, in {@link FairShares#now()}'s milliseconds. */
	long lastAck = FairShares.now();
	Disposable upstream = () -> { };

	/** Whether it may be handed an item now: it has credit, and holds less than it said it would. */
	boolean canTake() {
		return credit > 0 && (handedOut.isEmpty() || handedBytes < heldBytes);
	}

	/** Hands it {@code item}, at {@code now}. */
	void hand(QueueItem item, long now) {
		if (handedOut.isEmpty()) {
			lastAck = now;
		}
		credit--;
		served++;
		handedOut.add(item);
		handedBytes += item.size();
	}

	/** Takes in its control frame, at {@code now}: the items it acknowledged are no longer held; returns how many. */
	long acknowledge(CreditFrame control, long now) {
		long acked = Math.min(control.acknowledged(), handedOut.size());
		for (long i = 0; i < acked; i++) {
			handedBytes -= handedOut.remove().size();
		}
		if (acked > 0) {
			lastAck = now;
		}
		credit = Operators.addCap(credit, control.credit());
		heldBytes = control.heldBytes();
		return acked;
	}

	/** Puts what it holds unacknowledged back at the front of {@code waiting}, in the order handed out; returns how many. */
	int giveBack(ArrayDeque<QueueItem> waiting) {
		int held = handedOut.size();
		for (Iterator<QueueItem> it = handedOut.descendingIterator(); it.hasNext();) {
			waiting.addFirst(it.next());
		}
		handedOut.clear();
		handedBytes = 0;
		return held;
	}
}
