"""Loads Python Fiber for the benchmark scripts beside this file, on its local backend, or says why not.

Usage, from a script in this directory (sys.path[0] is the script's directory):

    import python_fiber
    fiber = python_fiber.load_or_skip()   # prints "# skipped: REASON" and exits 0 when Python Fiber is missing

The skip line is the protocol the Java harnesses read: a column whose script printed "# skipped: ..."
is reported as skipped, with that reason, instead of as a failure. Standard library only.
"""

import os
import sys

SKIP_PREFIX = "# skipped: "
HOW_TO_PROVIDE = ("install Python Fiber 0.2.1 so that `python3 -c 'import fiber'` works "
                  "(`python3 -m pip install fiber==0.2.1` where a package index has it)")


def load():
    """Python Fiber's module, configured for its local backend (child processes on this machine), or None and why."""
    # Set before the import: Fiber reads its configuration from the environment when it is imported, and its
    # child processes inherit the environment. The local backend listens and connects on 127.0.0.1.
    os.environ["FIBER_BACKEND"] = "local"
    try:
        import fiber
    except Exception as error:  # an ImportError, or a broken install failing as it loads
        return None, "Python Fiber cannot be imported by %s (%s: %s): %s" % (
            sys.executable, type(error).__name__, error, HOW_TO_PROVIDE)
    return fiber, None


def load_or_skip():
    """Python Fiber's module; when it cannot be loaded, prints the skip line and ends the script with status 0."""
    fiber, reason = load()
    if fiber is None:
        skip(reason)
    return fiber


def skip(reason):
    """Prints the skip line the harnesses read (they repeat it on stderr), then exits with status 0."""
    print(SKIP_PREFIX + reason, flush=True)
    sys.exit(0)


def version(fiber):
    """Python Fiber's version, for the '#' line each script prints about what ran."""
    return getattr(fiber, "__version__", "unknown")
