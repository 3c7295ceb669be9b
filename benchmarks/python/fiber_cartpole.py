#!/usr/bin/env python3
"""Python Fiber's twin of the Java example AsyncCartPole: CartPole environments, each in its own manager process.

Usage: fiber_cartpole.py [MANAGERS] [STEPS]          (defaults: 4 managers, 5000 time steps)

Each environment is a CartPole (gymnasium's CartPole-v1 physics, written out below in plain Python) hosted
in its own fiber.managers.AsyncManager, a child process on Python Fiber's local backend. A fixed policy
(push toward the side the pole leans to: 1 if obs[2] + 0.5 * obs[3] > 0 else 0) steps every environment
each time step; an environment whose episode ended is reset. With async proxies a time step issues all
steps, then gets all their results; with sync calls each step is waited for before the next is issued.
One warm-up pass of each mode, then a timed sync pass and a timed async pass, as the Java example does.

Prints to stdout, in the Java example's words:

    4 CartPole environments, each in its own manager process
    sync proxies : 5000 steps x 4 envs in X.XX s, N episodes ended, total reward R
    async proxies: 5000 steps x 4 envs in X.XX s, N episodes ended, total reward R
    async / sync: X.XX

or, when Python Fiber cannot be imported, the one line "# skipped: REASON" (exit status 0).
Standard library plus Python Fiber.
"""

import math
import os
import random
import sys
import time
import traceback

# Python Fiber's child processes run this file again by its path but without its directory on sys.path.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # no __pycache__ left in the repository's benchmarks/python
import python_fiber  # noqa: E402 (needs the line above)

GRAVITY = 9.8
CART_MASS = 1.0
POLE_MASS = 0.1
TOTAL_MASS = CART_MASS + POLE_MASS
HALF_POLE = 0.5  # half the pole's length, metres
POLE_MOMENT = POLE_MASS * HALF_POLE
FORCE = 10.0
TAU = 0.02  # seconds between state updates, Euler integration
MAX_ANGLE = 12 * 2 * math.pi / 360
MAX_POSITION = 2.4
MAX_STEPS = 500  # an episode is truncated here, as CartPole-v1's time limit does


class CartPole:
    """The classic cart-pole: push the cart left (0) or right (1) to keep the pole up; reward 1 a step.

    An episode terminates when the pole tilts past 12 degrees or the cart leaves the track, and is
    truncated after 500 steps. step() answers (observation, reward, terminated, truncated, info) as
    gymnasium's step does; observations are tuples of floats.
    """

    def __init__(self, seed=0):
        self._random = random.Random(seed)
        self._state = None
        self._steps = 0
        self._done = True

    def reset(self):
        """Starts an episode from a small random state; returns the observation."""
        self._state = tuple(self._random.uniform(-0.05, 0.05) for _ in range(4))
        self._steps = 0
        self._done = False
        return self._state

    def step(self, action):
        if action not in (0, 1):
            raise ValueError("a cart-pole action is 0 (left) or 1 (right), not %r" % (action,))
        if self._done:
            raise RuntimeError("the episode is over; reset() before stepping again")
        x, x_dot, theta, theta_dot = self._state
        force = FORCE if action == 1 else -FORCE
        cos = math.cos(theta)
        sin = math.sin(theta)
        temp = (force + POLE_MOMENT * (theta_dot * theta_dot) * sin) / TOTAL_MASS
        theta_acc = (GRAVITY * sin - cos * temp) / (HALF_POLE * (4.0 / 3.0 - POLE_MASS * (cos * cos) / TOTAL_MASS))
        x_acc = temp - POLE_MOMENT * theta_acc * cos / TOTAL_MASS
        x = x + TAU * x_dot
        x_dot = x_dot + TAU * x_acc
        theta = theta + TAU * theta_dot
        theta_dot = theta_dot + TAU * theta_acc
        self._state = (x, x_dot, theta, theta_dot)
        self._steps += 1
        terminated = x < -MAX_POSITION or x > MAX_POSITION or theta < -MAX_ANGLE or theta > MAX_ANGLE
        truncated = self._steps >= MAX_STEPS
        self._done = terminated or truncated
        return self._state, 1.0, terminated, truncated, {}


# At module level, so that the manager processes, which import this file again, find the same registration.
fiber, SKIP_REASON = python_fiber.load()
if fiber is not None:
    from fiber.managers import AsyncManager

    class CartPoleManager(AsyncManager):
        """A manager process hosting CartPole objects; its proxies' calls answer handles to get() later."""

    CartPoleManager.register("CartPole", CartPole)


def policy(observation):
    """Push toward the side the pole is falling to."""
    return 1 if observation[2] + 0.5 * observation[3] > 0 else 0


def run(envs, steps, use_async):
    """Steps every environment `steps` times; returns (seconds, episodes ended, total reward)."""
    observations = [env.reset().get() for env in envs]
    episodes = 0
    reward = 0.0
    start = time.perf_counter()
    for _ in range(steps):
        if use_async:
            handles = [env.step(policy(observation)) for env, observation in zip(envs, observations)]
            results = [handle.get() for handle in handles]
        else:
            results = [env.step(policy(observation)).get() for env, observation in zip(envs, observations)]
        for i, (observation, step_reward, terminated, truncated, _) in enumerate(results):
            reward += step_reward
            if terminated or truncated:
                episodes += 1
                observations[i] = envs[i].reset().get()
            else:
                observations[i] = observation
    return time.perf_counter() - start, episodes, reward


def positive(text, what):
    if not text.isdigit() or int(text) < 1:
        raise SystemExit("fiber_cartpole.py: %s must be a whole number of at least 1, not '%s'" % (what, text))
    return int(text)


def main():
    if len(sys.argv) > 3:
        raise SystemExit("usage: fiber_cartpole.py [MANAGERS] [STEPS]")
    count = positive(sys.argv[1], "MANAGERS") if len(sys.argv) > 1 else 4
    steps = positive(sys.argv[2], "STEPS") if len(sys.argv) > 2 else 5000
    if fiber is None:
        python_fiber.skip(SKIP_REASON)
    managers = []
    status = 0
    try:
        for _ in range(count):
            manager = CartPoleManager()
            manager.start()
            managers.append(manager)
        envs = [manager.CartPole(seed) for seed, manager in enumerate(managers)]
        print("# python %s, Python Fiber %s, local backend" % (sys.version.split()[0], python_fiber.version(fiber)))
        print("%d CartPole environments, each in its own manager process" % len(envs), flush=True)
        # A full pass of each mode first, so that neither pays alone for connections and first calls.
        run(envs, steps, False)
        run(envs, steps, True)
        sync = run(envs, steps, False)
        asynchronous = run(envs, steps, True)
        print("sync proxies : %d steps x %d envs in %.2f s, %d episodes ended, total reward %.0f" % (
            steps, len(envs), sync[0], sync[1], sync[2]))
        print("async proxies: %d steps x %d envs in %.2f s, %d episodes ended, total reward %.0f" % (
            steps, len(envs), asynchronous[0], asynchronous[1], asynchronous[2]))
        print("async / sync: %.2f" % (asynchronous[0] / sync[0]), flush=True)
    except BaseException:
        traceback.print_exc()
        status = 1
    finally:
        # Python Fiber 0.2.1 cannot shut its managers down on Python 3.11 (it calls _finalize_manager without the
        # shutdown_timeout argument 3.11 added), so end the manager processes here and leave without exit handlers.
        for manager in managers:
            manager._process.terminate()
        for manager in managers:
            manager._process.join(10)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)


if __name__ == "__main__":
    main()
