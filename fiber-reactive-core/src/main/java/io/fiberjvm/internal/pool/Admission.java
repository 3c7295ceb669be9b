package io.fiberjvm.internal.pool;

/** What a pool's fleet says of a worker whose session arrives. */
enum Admission {
	/** It is one of the pool's workers and takes tasks now. */
	ADMITTED,
	/** It was retired while its process started: its session ends at once. */
	RETIRED,
	/** No such worker (retired and gone, never started, or the pool was terminated). */
	UNKNOWN
}
