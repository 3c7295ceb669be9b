package io.fiberjvm.ring;

/** How an all-reduce combines the members' arrays, element by element. */
public enum ReduceOp {
	/** The sum over members. */
	SUM,
	/** The sum over members divided by the ring's size. */
	MEAN
}
