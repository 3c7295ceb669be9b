package io.fiberjvm.internal.pool;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import reactor.util.concurrent.Queues;

/**
 * The elements of an unordered mapping call submitted and not emitted, which only its drain loop touches, and those of
 * them that ended, in the order they did, which the threads that read their answers add to.
 *
 * @param <R> the elements' result type
 */
final class EndedElements<R> {

	private final Set<MapElement<R>> running = new HashSet<>();
	private final Queue<MapElement<R>> ended = Queues.<MapElement<R>>unboundedMultiproducer().get();

	/** On the drain loop: {@code element} was submitted. */
	void add(MapElement<R> element) {
		running.add(element);
	}

	/** On any thread: {@code element} ended. */
	void ended(MapElement<R> element) {
		ended.offer(element);
	}

	/** On the drain loop: the element that ended first and was not taken yet, no longer running; null when none. */
	@Nullable MapElement<R> nextEnded() {
		MapElement<R> element = ended.poll();
		if (element != null) {
			running.remove(element);
		}
		return element;
	}

	int size() {
		return running.size();
	}

	boolean isEmpty() {
		return running.isEmpty();
	}

	/** On the drain loop, once the call is over: cancels every element under way and forgets them all. */
	/** The elements not emitted, taken out, for the call to cancel; nothing is left. */
	List<MapElement<R>> takeAll() {
		List<MapElement<R>> all = new ArrayList<>(running);
		running.clear();
		ended.clear();
		return all;
	}
}
