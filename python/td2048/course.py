"""The course's loop in Python: train a network (or load one), then play
games through the course's environment with the course's agent.

    python3 -m td2048.course                      # train 10,000 episodes into course.td2048, play 10 games
    python3 -m td2048.course --episodes 100000    # the course's full run (about a minute a core)
    python3 -m td2048.course --load 2048.bin --depth 2 --games 100
"""

import argparse
import os
import sys

import td2048


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m td2048.course", description=__doc__.split("\n\n")[0])
    ap.add_argument("--load", help="weights to play with (td2048's, the course demo's 2048.bin or TDL2048+'s .w); "
                                   "default: train them into --save first")
    ap.add_argument("--save", default="course.td2048", help="where to train when --load is not given")
    ap.add_argument("--episodes", type=int, default=10000, help="episodes to train")
    ap.add_argument("--network", default="4x6", help="the network to train (td2048 help networks)")
    ap.add_argument("--games", type=int, default=10, help="games to play")
    ap.add_argument("--depth", type=int, default=1, help="search depth of the agent (1: greedy)")
    ap.add_argument("--seed", type=int, default=None, help="seed of the training and of the games")
    a = ap.parse_args(argv)
    path = a.load
    if path is None:
        path = a.save
        if os.path.exists(path):
            print("playing with %s (delete it to train again)" % path)
        else:
            td2048.train(episodes=a.episodes, network=a.network, save=path, every=max(a.episodes // 10, 1), seed=a.seed,
                         log="none")
    with td2048.load(path) as net:
        agent = td2048.Agent(net, depth=a.depth)
        env = td2048.Env(seed=a.seed)
        best = 0
        for game in range(1, a.games + 1):
            state, score, done = env.reset(), 0, False
            while not done:
                state, score, done, info = env.step(agent.get_action(state, score))
            top = max(max(row) for row in state)
            best = max(best, top)
            print("game %d: score %d, largest tile %d" % (game, score, top))
        print("largest tile of %d games: %d" % (a.games, best))
    return 0


if __name__ == "__main__":
    sys.exit(main())
