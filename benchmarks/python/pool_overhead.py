#!/usr/bin/env python3
"""The multiprocessing.Pool column of PoolOverheadHarness: wall time of sleep tasks on a process pool.

Usage: pool_overhead.py [--runs 3] [--processes 5] TASKS:SECONDS [TASKS:SECONDS ...]
(with no configuration, the paper's five: 5:1 50:0.1 500:0.01 5000:0.001 50000:0.0001).

For each configuration: one warm-up pass, then RUNS timed passes of pool.map(task, range(TASKS)),
where each task is time.sleep(SECONDS). One pool serves every configuration, as one FiberPool does
on the Java side. Prints to stdout one comment line (starting with '#') saying the Python version
and start method, then one line per configuration:

    tasks,seconds_per_task,mean_wall_seconds,min_wall_seconds,max_wall_seconds

Progress goes to stderr. Standard library only.
"""

import argparse
import functools
import multiprocessing
import sys
import time

PAPER_CONFIGURATIONS = ["5:1", "50:0.1", "500:0.01", "5000:0.001", "50000:0.0001"]


def sleep_task(seconds, item):
    """One task: sleep, then hand the item back (so map returns something, as on the Java side)."""
    time.sleep(seconds)
    return item


def parse_configuration(text):
    tasks, seconds = text.split(":")
    return int(tasks), float(seconds)


def timed_pass(pool, tasks, seconds):
    task = functools.partial(sleep_task, seconds)
    start = time.perf_counter()
    # No chunksize: Pool.map's default splits the input into about 4 chunks per process
    # (chunksize = ceil(tasks / (4 * processes))), which is what a user who does not tune it gets.
    results = pool.map(task, range(tasks))
    wall = time.perf_counter() - start
    if len(results) != tasks:
        raise RuntimeError("pool.map returned %d results for %d tasks" % (len(results), tasks))
    return wall


def main():
    parser = argparse.ArgumentParser(description="multiprocessing.Pool overhead on sleep tasks")
    parser.add_argument("--runs", type=int, default=3, help="timed passes per configuration, after one warm-up")
    parser.add_argument("--processes", type=int, default=5, help="worker processes in the pool")
    parser.add_argument("configurations", nargs="*", default=PAPER_CONFIGURATIONS,
                        help="TASKS:SECONDS, e.g. 500:0.01 for 500 tasks of 10 ms")
    args = parser.parse_args()
    configurations = [parse_configuration(c) for c in args.configurations]

    print("# python %s, start method %s, %d processes, %d runs" % (
        sys.version.split()[0], multiprocessing.get_start_method(), args.processes, args.runs), flush=True)
    with multiprocessing.Pool(args.processes) as pool:
        for tasks, seconds in configurations:
            timed_pass(pool, tasks, seconds)
            walls = [timed_pass(pool, tasks, seconds) for _ in range(args.runs)]
            mean = sum(walls) / len(walls)
            print("multiprocessing: %d x %gs: %s" % (tasks, seconds, ", ".join("%.3f" % w for w in walls)),
                  file=sys.stderr, flush=True)
            print("%d,%r,%.6f,%.6f,%.6f" % (tasks, seconds, mean, min(walls), max(walls)), flush=True)


if __name__ == "__main__":
    main()
