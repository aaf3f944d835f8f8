"""Speed figures of the td2048 package, side by side in one run:

    python3 python/bench.py [--net /path/4x6.td2048] [--train]

1. Env.step against a course-style numpy environment (the kind of
   Game2048Env the course hands out, written here as the baseline);
2. VectorEnv steps a second on one thread;
3. Network.values boards a second on one thread (with --net: the course's
   4x6 network);
4. with --train: td2048.train of --episodes episodes against the command
   (--cmd) doing the same, alternating runs, medians.
"""

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import td2048  # noqa: E402

try:
    import numpy as np
except ImportError:
    sys.exit("bench.py needs numpy (the baseline environment is numpy's)")


class CourseStyleEnv:
    """The baseline: a numpy 2048 environment written as the course's
    Game2048Env is (a row or column at a time: compress, merge, compress;
    a random tile from numpy's empty cells; the end tested cell by cell),
    for the comparison only."""

    size = 4

    def __init__(self):
        self.board = np.zeros((4, 4), dtype=int)
        self.score = 0
        self.reset()

    def reset(self):
        self.board = np.zeros((self.size, self.size), dtype=int)
        self.score = 0
        self.add_random_tile()
        self.add_random_tile()
        return self.board

    def add_random_tile(self):
        empty = list(zip(*np.where(self.board == 0)))
        if empty:
            x, y = random.choice(empty)
            self.board[x, y] = 2 if random.random() < 0.9 else 4

    def compress(self, row):
        new_row = row[row != 0]
        return np.pad(new_row, (0, self.size - len(new_row)), mode="constant")

    def merge(self, row):
        for i in range(self.size - 1):
            if row[i] == row[i + 1] and row[i] != 0:
                row[i] *= 2
                row[i + 1] = 0
                self.score += row[i]
        return row

    def slide(self, line):
        return self.compress(self.merge(self.compress(line)))

    def move_left(self):
        moved = False
        for i in range(self.size):
            original = self.board[i].copy()
            self.board[i] = self.slide(self.board[i])
            moved |= not np.array_equal(original, self.board[i])
        return moved

    def move_right(self):
        moved = False
        for i in range(self.size):
            original = self.board[i].copy()
            self.board[i] = self.slide(self.board[i][::-1])[::-1]
            moved |= not np.array_equal(original, self.board[i])
        return moved

    def move_up(self):
        moved = False
        for j in range(self.size):
            original = self.board[:, j].copy()
            self.board[:, j] = self.slide(self.board[:, j])
            moved |= not np.array_equal(original, self.board[:, j])
        return moved

    def move_down(self):
        moved = False
        for j in range(self.size):
            original = self.board[:, j].copy()
            self.board[:, j] = self.slide(self.board[::-1, j])[::-1]
            moved |= not np.array_equal(original, self.board[:, j])
        return moved

    def is_game_over(self):
        if np.any(self.board == 0):
            return False
        for i in range(self.size):
            for j in range(self.size - 1):
                if self.board[i, j] == self.board[i, j + 1] or self.board[j, i] == self.board[j + 1, i]:
                    return False
        return True

    def step(self, action):
        assert action in (0, 1, 2, 3), "Invalid action"
        moved = (self.move_up, self.move_down, self.move_left, self.move_right)[action]()
        if moved:
            self.add_random_tile()
        return self.board, self.score, self.is_game_over(), {}


def per_second(f, seconds):
    """Runs f() (which returns the units it did) for about seconds of this
    process's CPU time; units a CPU second (so that other work on the
    machine does not count against it)."""
    n, t0 = 0, time.process_time()
    while True:
        n += f()
        t = time.process_time() - t0
        if t >= seconds:
            return n / t


def env_rate(env, seconds, steps=1000):
    def run():
        done = False
        for i in range(steps):
            if done:
                env.reset()
            _, _, done, _ = env.step(i & 3)
        return steps
    env.reset()
    return per_second(run, seconds)


def env_race(envs, seconds, rounds):
    """Steps a second of each environment in envs (name -> (env, steps a
    turn)), in alternating turns of seconds / rounds each: the median
    rate of each, and the median over the rounds of each one's rate to
    the first's (the machine's speed drifts; a round's ratio does not)."""
    rates = {name: [] for name in envs}
    for _ in range(rounds):
        for name, (env, steps) in envs.items():
            rates[name].append(env_rate(env, seconds / rounds, steps))
    first = next(iter(envs))
    return {name: (statistics.median(r), statistics.median(x / b for x, b in zip(r, rates[first])))
            for name, r in rates.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--net", default=None, help="a 4x6 network for values (default: a new 4x6 one trained 1 episode)")
    ap.add_argument("--weights", default="auto", help="how load holds the network's weights: auto, float32 or 16bit")
    ap.add_argument("--seconds", type=float, default=3, help="time for each figure")
    ap.add_argument("--env-rounds", type=int, default=9, help="alternating rounds of the Env.step race")
    ap.add_argument("--envs", type=int, default=4096, help="games in the vector environment")
    ap.add_argument("--batch", type=int, default=65536, help="boards a values call")
    ap.add_argument("--train", action="store_true", help="also time td2048.train against the command")
    ap.add_argument("--episodes", type=int, default=100000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cmd", default="td2048", help="the td2048 command for --train")
    a = ap.parse_args()
    print("python %s, numpy %s, one thread%s; rates per CPU second of this process" % (
        sys.version.split()[0], np.__version__, "" if os.cpu_count() == 1 else " of %d CPUs" % os.cpu_count()))

    race = env_race({"base": (CourseStyleEnv(), 200), "ours": (td2048.Env(), 5000),
                     "own": (td2048.Env(copy=False), 5000)}, 3 * a.seconds, a.env_rounds)
    (base, _), (ours, x), (own, xown) = race["base"], race["ours"], race["own"]
    print("Env.step              %10.0f steps/s   course-style numpy env %8.0f steps/s   %.0fx" % (ours, base, x))
    print("Env(copy=False).step  %10.0f steps/s   (the env's own board array, as the course's env returns it)   %.0fx"
          % (own, xown))
    print("   (medians of %d alternating rounds; the ratio is the median of the rounds' ratios)" % a.env_rounds)

    v = td2048.VectorEnv(a.envs, seed=1)
    v.reset()
    acts = np.random.default_rng(1).integers(0, 4, size=(64, a.envs), dtype=np.int64)

    def vsteps():
        for k in range(64):
            v.step(acts[k])
        return 64 * a.envs
    print("VectorEnv(%d).step  %10.0f steps/s" % (a.envs, per_second(vsteps, a.seconds)))

    path = a.net
    if path is None:
        path = os.path.join(tempfile.mkdtemp(), "zero4x6.td2048")
        td2048.train(network="4x6", episodes=1, save=path, log="none", quiet=True)
    net = td2048.load(path, weights=a.weights)
    vec = td2048.VectorEnv(a.batch, seed=2)
    obs, info = vec.reset()
    rng = np.random.default_rng(3)
    for _ in range(300):  # boards of games under way: random legal moves
        obs, _, _, _, info = vec.step(np.argmax(info["action_mask"] * rng.random((a.batch, 4)), axis=1))
    tiles = np.where(obs > 0, 1 << obs.astype(np.int64), 0).reshape(a.batch, 4, 4)
    print("boards for values: %d distinct, largest tile %d" % (len(np.unique(obs.reshape(a.batch, 16), axis=0)), tiles.max()))

    def vals():
        net.values(tiles)
        return a.batch
    print("values(%d boards)  %10.0f boards/s  (%s, %s)" % (a.batch, per_second(vals, a.seconds), net.network,
          "16-bit" if net.info["compact"] else "float32"))
    if a.train:
        train_race(a)


def train_race(a):
    """td2048.train against the command, alternating, each with one
    thread: wall time and CPU time (the command's as a child process's)."""
    import resource
    tmp = tempfile.mkdtemp()
    rows = []
    for r in range(a.rounds):
        c0, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
        subprocess.run([a.cmd, "train", "--episodes", str(a.episodes), "--threads", "1", "--seed", str(r + 1),
                        "--save", os.path.join(tmp, "c%d.td2048" % r), "--log", "none", "--quiet"], check=True,
                       stdout=subprocess.DEVNULL)
        c1, t1 = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
        cmd = (t1 - t0, c1.ru_utime + c1.ru_stime - c0.ru_utime - c0.ru_stime)
        p0, t0 = time.process_time(), time.perf_counter()
        td2048.train(episodes=a.episodes, threads=1, seed=r + 1, save=os.path.join(tmp, "p%d.td2048" % r),
                     log="none", quiet=True)
        py = (time.perf_counter() - t0, time.process_time() - p0)
        rows.append((cmd, py))
        print("round %d: command %.1fs (%.1f CPU s), td2048.train %.1fs (%.1f CPU s)" % (r + 1, cmd[0], cmd[1], py[0], py[1]))
    for k, what in ((0, "wall"), (1, "CPU")):
        mc = statistics.median(c[k] for c, _ in rows)
        mp = statistics.median(p[k] for _, p in rows)
        ratio = statistics.median(p[k] / c[k] for c, p in rows)
        print("train %d episodes, %-4s td2048.train %.1fs   command %.1fs   %.3fx (median of %d alternating rounds' ratios)"
              % (a.episodes, what, mp, mc, ratio, a.rounds))


if __name__ == "__main__":
    main()
