"""Records episodes of gymnasium's CartPole-v1 for CartPoleTest, which replays them step for step.

Run with gymnasium importable (gymnasium 1.2.3 made the recorded file):

    python3 record_cartpole_v1.py > ../resources/io/fiberjvm/examples/rl/cartpole-v1.txt

Each episode is a line "episode <seed>" and its starting state, then one line per step: the action, the state
after it (x, x_dot, theta, theta_dot as float64, in Python's float.hex form), the observation gymnasium returned
(the state as float32, in float.hex form), and whether the step terminated and truncated the episode. Actions
come from a balancing rule with a seeded share of random pushes, so episodes run from a few steps to the
500-step limit.
"""
import random
import sys

import gymnasium as gym


def hexes(values):
    return " ".join(float(v).hex() for v in values)


def main():
    print("# gymnasium " + gym.__version__ + ", CartPole-v1")
    for seed, noise in [(0, 1.0), (1, 1.0), (2, 0.5), (3, 0.3), (7, 0.0), (9, 0.0)]:
        env = gym.make("CartPole-v1")
        obs, _ = env.reset(seed=seed)
        rng = random.Random(seed)
        print("episode " + str(seed) + " " + hexes(env.unwrapped.state))
        while True:
            x, x_dot, theta, theta_dot = env.unwrapped.state
            if rng.random() < noise:
                action = rng.randrange(2)
            else:
                action = 1 if theta + 0.5 * theta_dot + 0.01 * x + 0.1 * x_dot > 0 else 0
            obs, reward, terminated, truncated, _ = env.step(action)
            print(str(action) + " " + hexes(env.unwrapped.state) + " " + hexes(obs) + " "
                  + str(int(terminated)) + " " + str(int(truncated)))
            if terminated or truncated:
                break
        env.close()
    sys.stdout.flush()


if __name__ == "__main__":
    main()
