#!/usr/bin/env python3
"""A Python column of PoolOverheadHarness: wall time of sleep tasks on a process pool.

Usage: pool_overhead.py [--library multiprocessing|fiber] [--chunksize default|N] [--runs 3] [--processes 5]
                        TASKS:SECONDS [TASKS:SECONDS ...]
(with no configuration, the paper's five: 5:1 50:0.1 500:0.01 5000:0.001 50000:0.0001).

--library picks the pool: multiprocessing.Pool (the default) or Python Fiber's fiber.Pool, on its local
backend (worker processes on this machine). --chunksize is what pool.map gets: "default" leaves it to the
library (multiprocessing: about 4 chunks per process; Python Fiber: 32 tasks a chunk), a number fixes it.

For each configuration: one warm-up pass, then RUNS timed passes of pool.map(task, range(TASKS)),
where each task is time.sleep(SECONDS). One pool serves every configuration, as one FiberPool does
on the Java side. Prints to stdout one comment line (starting with '#') saying the library, Python
version, start method and chunk size, then one line per configuration:

    tasks,seconds_per_task,mean_wall_seconds,min_wall_seconds,max_wall_seconds

With --library fiber and no Python Fiber to import, prints instead the one line
"# skipped: REASON" and exits with status 0. Progress goes to stderr. Standard library only (plus
Python Fiber for its column).
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
    try:
        tasks, seconds = text.split(":")
        tasks, seconds = int(tasks), float(seconds)
    except ValueError:
        raise SystemExit("pool_overhead.py: a configuration is TASKS:SECONDS, like 500:0.01; not '%s'" % text)
    if tasks < 1 or seconds <= 0:
        raise SystemExit("pool_overhead.py: a configuration needs at least one task of positive seconds; not '%s'" % text)
    return tasks, seconds


def parse_chunksize(text):
    if text == "default":
        return None
    if text.isdigit() and int(text) >= 1:
        return int(text)
    raise argparse.ArgumentTypeError("--chunksize is 'default' or a whole number of at least 1; not '%s'" % text)


def timed_pass(pool, tasks, seconds, chunksize):
    task = functools.partial(sleep_task, seconds)
    start = time.perf_counter()
    # chunksize None is each library's own default: multiprocessing splits the input into about 4 chunks
    # per process (ceil(tasks / (4 * processes))), Python Fiber cuts chunks of 32 tasks.
    results = pool.map(task, range(tasks), chunksize)
    wall = time.perf_counter() - start
    if len(results) != tasks:
        raise RuntimeError("pool.map returned %d results for %d tasks" % (len(results), tasks))
    return wall


def open_pool(library, processes):
    """The pool and a description of it for the '#' line."""
    if library == "fiber":
        sys.dont_write_bytecode = True  # no __pycache__ left in the repository's benchmarks/python
        import python_fiber  # only here: the pool's workers run this file again without its directory on sys.path
        fiber = python_fiber.load_or_skip()
        return fiber.Pool(processes), "Python Fiber %s fiber.Pool, local backend" % python_fiber.version(fiber)
    return multiprocessing.Pool(processes), "multiprocessing.Pool, start method %s" % multiprocessing.get_start_method()


def main():
    parser = argparse.ArgumentParser(description="process pool overhead on sleep tasks")
    parser.add_argument("--library", choices=["multiprocessing", "fiber"], default="multiprocessing",
                        help="multiprocessing.Pool or Python Fiber's fiber.Pool")
    parser.add_argument("--chunksize", type=parse_chunksize, default=None,
                        help="'default' (the library's own) or tasks per chunk")
    parser.add_argument("--runs", type=int, default=3, help="timed passes per configuration, after one warm-up")
    parser.add_argument("--processes", type=int, default=5, help="worker processes in the pool")
    parser.add_argument("configurations", nargs="*", default=PAPER_CONFIGURATIONS,
                        help="TASKS:SECONDS, e.g. 500:0.01 for 500 tasks of 10 ms")
    args = parser.parse_args()
    if args.runs < 1 or args.processes < 1:
        parser.error("--runs and --processes must be at least 1")
    configurations = [parse_configuration(c) for c in args.configurations]

    pool, about = open_pool(args.library, args.processes)
    print("# python %s, %s, %d processes, chunk size %s, %d runs" % (
        sys.version.split()[0], about, args.processes, args.chunksize or "default", args.runs), flush=True)
    try:
        for tasks, seconds in configurations:
            timed_pass(pool, tasks, seconds, args.chunksize)
            walls = [timed_pass(pool, tasks, seconds, args.chunksize) for _ in range(args.runs)]
            mean = sum(walls) / len(walls)
            print("%s: %d x %gs: %s" % (args.library, tasks, seconds, ", ".join("%.3f" % w for w in walls)),
                  file=sys.stderr, flush=True)
            print("%d,%r,%.6f,%.6f,%.6f" % (tasks, seconds, mean, min(walls), max(walls)), flush=True)
    finally:
        pool.terminate()


if __name__ == "__main__":
    main()
