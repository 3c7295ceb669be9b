package io.fiberjvm.internal.pool;

/**
 * How errors name a task ({@code "element 17 of map(com.acme.Sim::lambda)"}), kept as parts so the text
 * is only made when an error needs it.
 *
 * @param call the pool call ({@code map}, {@code apply}, ...)
 * @param index the element's position in the input, or -1 for a call of one task
 */
record TaskName(String call, long index, ShippedFunction function) {

	@Override
	public String toString() {
		return index < 0 ? call + "(" + function + ")" : "element " + index + " of " + call + "(" + function + ")";
	}
}
