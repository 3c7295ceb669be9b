#!/usr/bin/env python3
"""The Python columns of FastPathHarness: three fast-path probes on Python Fiber or on multiprocessing.

Usage: fast_path.py PROBE [--library fiber|multiprocessing] [--runs 3] [--warmups 3] [options]

Probes (--library picks Python Fiber, on its local backend, or multiprocessing; the default is fiber):
  pool-start  [--workers 8]    seconds from creating a pool of WORKERS until every worker has answered a
                               task: rounds of 4 x WORKERS tasks (chunk size 1, each sleeping 1 ms and
                               answering its process id) until WORKERS distinct ids have answered; a new
                               pool each run, none before the timing (--warmups does not apply)
  queue-echo  [--round-trips 10000] [--warmups 3]
                               a 64-byte item put on queue A, taken by a child process that puts it on
                               queue B, taken by the parent: p50 and p99 of the round trip in microseconds
                               (fiber.SimpleQueue or multiprocessing.SimpleQueue); the same child serves
                               every pass, each warm-up pass is ROUND_TRIPS round trips too
  noop        [--workers 2] [--tasks 200000] [--chunksize 1000] [--warmup-seconds 20]
                               no-op tasks per second: pool.map(noop, range(TASKS), chunksize=CHUNKSIZE)
                               on a pool of WORKERS; the first pass of the new pool is reported apart
                               (first_pass_tasks_per_second), then untimed passes until WARMUPS passes and
                               WARMUP_SECONDS seconds have gone, then the timed runs

Prints to stdout one comment line (starting with '#') saying what ran, then one line per timed run:

    probe,run,metric,value          e.g. queue-echo,1,p50_us,412.3 and queue-echo,1,p99_us,980.1

with metrics seconds (pool-start), p50_us and p99_us (queue-echo), tasks_per_second and
first_pass_tasks_per_second (noop). With
--library fiber and no Python Fiber to import, prints instead the one line "# skipped: REASON" and exits
with status 0. Progress goes to stderr. Standard library only (plus Python Fiber for its columns).
"""

import argparse
import math
import multiprocessing
import os
import sys
import time

ITEM = b"x" * 64


def pid_after_a_millisecond(_):
    """A pool-start task: long enough that one worker cannot take a whole round before the others are up."""
    time.sleep(0.001)
    return os.getpid()


def noop(item):
    return item


def echo(inbox, outbox):
    """The queue-echo child: hands each item back until it takes None."""
    while True:
        item = inbox.get()
        outbox.put(item)
        if item is None:
            return


def percentile(sorted_values, fraction):
    """The nearest-rank percentile of an ascending list."""
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[rank - 1]


def report(probe, run, metric, value):
    print("%s,%d,%s,%.6g" % (probe, run, metric, value), flush=True)


def pool_start(lib, args):
    per_round = 4 * args.workers
    for run in range(1, args.runs + 1):
        start = time.perf_counter()
        pool = lib.Pool(args.workers)
        answered = set()
        rounds = 0
        try:
            while len(answered) < args.workers:
                if time.perf_counter() - start > args.timeout:
                    raise RuntimeError("only %d of %d pool workers answered within %d s" % (
                        len(answered), args.workers, args.timeout))
                answered.update(pool.map(pid_after_a_millisecond, range(per_round), 1))
                rounds += 1
            seconds = time.perf_counter() - start
        finally:
            pool.terminate()
            pool.join()
        print("pool-start run %d: %d workers answered after %.3f s (%d rounds)" % (run, args.workers, seconds, rounds),
              file=sys.stderr, flush=True)
        report("pool-start", run, "seconds", seconds)


def queue_echo(lib, args):
    inbox, outbox = lib.SimpleQueue(), lib.SimpleQueue()
    child = lib.Process(target=echo, args=(inbox, outbox), name="echo")
    child.start()
    try:
        for warmup in range(args.warmups):
            echo_pass(inbox, outbox, args.round_trips)
        for run in range(1, args.runs + 1):
            micros = sorted(echo_pass(inbox, outbox, args.round_trips))
            p50, p99 = percentile(micros, 0.50), percentile(micros, 0.99)
            print("queue-echo run %d: p50 %.1f us, p99 %.1f us over %d round trips" % (run, p50, p99, len(micros)),
                  file=sys.stderr, flush=True)
            report("queue-echo", run, "p50_us", p50)
            report("queue-echo", run, "p99_us", p99)
        inbox.put(None)
        outbox.get()
        child.join(30)
    finally:
        if child.exitcode is None:
            child.terminate()
            child.join(30)


def echo_pass(inbox, outbox, round_trips):
    """Microseconds of each of `round_trips` round trips, one item in flight at a time."""
    micros = []
    clock = time.perf_counter
    for _ in range(round_trips):
        start = clock()
        inbox.put(ITEM)
        item = outbox.get()
        micros.append((clock() - start) * 1e6)
        if item != ITEM:
            raise RuntimeError("the echo child answered %r instead of the item it was given" % (item,))
    return micros


def noop_throughput(lib, args):
    items = range(args.tasks)
    pool = lib.Pool(args.workers)
    try:
        start = time.perf_counter()
        pool.map(noop, items, args.chunksize)
        report("noop", 1, "first_pass_tasks_per_second", args.tasks / (time.perf_counter() - start))
        warmups = 1
        while warmups < args.warmups or time.perf_counter() - start < args.warmup_seconds:
            pool.map(noop, items, args.chunksize)
            warmups += 1
        for run in range(1, args.runs + 1):
            start = time.perf_counter()
            results = pool.map(noop, items, args.chunksize)
            seconds = time.perf_counter() - start
            if len(results) != args.tasks:
                raise RuntimeError("pool.map returned %d results for %d tasks" % (len(results), args.tasks))
            print("noop run %d: %d tasks in %.3f s" % (run, args.tasks, seconds), file=sys.stderr, flush=True)
            report("noop", run, "tasks_per_second", args.tasks / seconds)
    finally:
        pool.terminate()
        pool.join()


PROBES = {"pool-start": pool_start, "queue-echo": queue_echo, "noop": noop_throughput}


def at_least_one(text):
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError("must be a whole number of at least 1, not '%s'" % text)
    return int(text)


def parse_args():
    parser = argparse.ArgumentParser(description="fast-path probes on Python Fiber or multiprocessing")
    parser.add_argument("probe", choices=sorted(PROBES))
    parser.add_argument("--library", choices=["fiber", "multiprocessing"], default="fiber")
    parser.add_argument("--runs", type=at_least_one, default=3, help="timed runs")
    parser.add_argument("--warmups", type=int, default=3, help="untimed passes first (queue-echo, noop)")
    parser.add_argument("--workers", type=at_least_one, default=None, help="pool size (pool-start 8, noop 2)")
    parser.add_argument("--round-trips", type=at_least_one, default=10000, help="queue-echo round trips per pass")
    parser.add_argument("--tasks", type=at_least_one, default=200000, help="noop tasks per pass")
    parser.add_argument("--chunksize", type=at_least_one, default=1000, help="noop tasks per chunk")
    parser.add_argument("--warmup-seconds", type=float, default=20.0,
                        help="noop: untimed passes go on until this many seconds have gone")
    parser.add_argument("--timeout", type=at_least_one, default=300, help="pool-start: seconds before giving up")
    args = parser.parse_args()
    if args.warmups < 0:
        parser.error("--warmups must be 0 or more, not %d" % args.warmups)
    if not args.warmup_seconds >= 0:
        parser.error("--warmup-seconds must be 0 or more, not %s" % args.warmup_seconds)
    if args.workers is None:
        args.workers = 8 if args.probe == "pool-start" else 2
    return args


def main():
    args = parse_args()
    if args.library == "fiber":
        # Only here: Python Fiber's children run this file again by its path, without its directory on sys.path.
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        sys.dont_write_bytecode = True  # no __pycache__ left in the repository's benchmarks/python
        import python_fiber
        lib = python_fiber.load_or_skip()
        about = "Python Fiber %s, local backend" % python_fiber.version(lib)
    else:
        lib = multiprocessing
        about = "multiprocessing, start method %s" % multiprocessing.get_start_method()
    print("# %s: python %s, %s, %d runs" % (args.probe, sys.version.split()[0], about, args.runs), flush=True)
    status = 0
    try:
        PROBES[args.probe](lib, args)
    except Exception as error:
        print("fast_path.py %s (%s): %s: %s" % (args.probe, args.library, type(error).__name__, error),
              file=sys.stderr, flush=True)
        status = 1
    sys.exit(status)


if __name__ == "__main__":
    main()
