"""td2048 from Python: the course's 2048 and Threes! environments,
n-tuple networks, expectimax search and TD training, run by td2048's
native library (Go, loaded with ctypes; numpy used where present, never
required).

    import td2048
    env = td2048.Env()                       # the course's Game2048Env API
    net = td2048.load("weights.td2048")      # or 2048.bin, or a TDL2048+ .w
    agent = td2048.Agent(net, depth=2)
    state = env.reset(); done = False
    while not done:
        state, score, done, info = env.step(agent.get_action(state, 0))

A process that forked after td2048 started cannot use it in the child
(the Go runtime does not survive a fork): start worker processes with
multiprocessing's "spawn" method.
"""

from ._lib import ClosedError, live_handles as _live_handles
from ._board import ACTION_ORDERS
from .env import Env, GymEnv, VectorEnv
from .network import Agent, Network, load
from .runs import evaluate, train

__all__ = ["ACTION_ORDERS", "Agent", "ClosedError", "Env", "GymEnv", "Network", "VectorEnv",
           "evaluate", "load", "train"]
__version__ = "0.1.0"
