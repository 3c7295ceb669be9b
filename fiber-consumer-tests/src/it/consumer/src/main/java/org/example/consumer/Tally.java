package org.example.consumer;

/** A running total, hosted in a manager. */
public class Tally {

	private int total;

	public int add(int amount) {
		total += amount;
		return total;
	}
}
