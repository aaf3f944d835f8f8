"""Networks loaded for play: values of boards, hints, best moves, and
the course's agent."""

import ctypes
import json
import os
import threading
import weakref

from . import _lib
from ._board import np, action_order, cells_in, many_in

_MODES = {"auto": 0, "float32": 1, "16bit": 2}


def load(path, weights="auto", action_order=None):
    """Loads a weights file td2048 reads: its own (``.td2048``), the
    course demo's ``2048.bin`` or TDL2048+'s ``.w``, told apart by
    content. ``weights`` is how they are held: ``"auto"`` as ``td2048
    hint`` and ``eval`` hold them (16-bit where that pays, float32 for a
    network staged by tiles), ``"float32"`` or ``"16bit"``. Moves are
    numbered by ``action_order`` (the course's, 0 up 1 down 2 left 3
    right, by default). Returns a :class:`Network`."""
    if weights not in _MODES:
        raise ValueError("weights %r: want one of %s" % (weights, ", ".join(_MODES)))
    h, info = _lib.call_json("td_net_load", os.fsencode(os.fspath(path)), _MODES[weights])
    return Network(h, info, action_order)


class Network:
    """A network loaded for play (made by :func:`load`).

    Any number of threads may use one network at once. ``close()``
    frees its memory (so does garbage collection, and leaving a ``with``
    block); a closed network raises ``td2048.ClosedError`` (a
    ValueError). Boards are 4x4 arrays of tile values (numpy or nested
    lists); in Threes! pass the next tile as ``next=``."""

    def __init__(self, handle, info, order=None):
        self._h = handle
        self._fin = weakref.finalize(self, _lib.free, handle)
        self.info = info
        self.game = info["game"]
        self.network = info["network"]
        self.learner = info["learner"]
        self.episodes = info["episodes"]
        self._order = action_order(order)
        self._action = {d: a for a, d in enumerate(self._order)}
        self._err = threading.local()

    def __repr__(self):
        state = "closed" if not self._fin.alive else "%d episodes" % self.episodes
        return "<td2048.Network %s %s, %s>" % (self.game, self.network, state)

    def _handle(self):
        if not self._fin.alive:
            raise _lib.ClosedError("td2048: the network is closed")
        return self._h

    def _e(self):
        e = getattr(self._err, "e", None)
        if e is None:
            e = self._err.e = _lib.Err()
        return e

    def close(self):
        """Frees the network's memory; waits for calls under way."""
        self._fin()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _pack1(self, board):
        c = cells_in(board)
        out = ctypes.c_uint64()
        _lib.call("td_pack", self.game.encode(), c, 1, 0, ctypes.byref(out))
        return out.value

    def _next(self, next):
        if self.game == "threes" and next is None:
            return 0
        return int(next or 0)

    def value(self, board, next=None):
        """The network's value of one board (an after-state, for the
        after-state networks td2048 trains by default)."""
        return float(self.values([board], next=next)[0])

    def values(self, boards, next=None, exponents=False):
        """The values of many boards at once: an (n, 4, 4) or (n, 16)
        array of tile values (or a list of boards), or of tile indices
        with ``exponents=True`` (a VectorEnv's observations); returns n
        float32 values (a numpy array, or a list without numpy)."""
        _lib.check_fork()
        h, e = self._handle(), self._e()
        n, buf, ptr = many_in(boards)
        if np is not None:
            packed, out = np.empty(n, np.uint64), np.empty(n, np.float32)
            pp, op = packed.ctypes.data, out.ctypes.data
        else:
            packed, out = (ctypes.c_uint64 * max(n, 1))(), (ctypes.c_float * max(n, 1))()
            pp, op = ctypes.addressof(packed), ctypes.addressof(out)
        if n:
            e.check(_lib.lib.td_pack(self.game.encode(), ptr, n, 1 if exponents else 0, pp, e.p, 1024))
            e.check(_lib.lib.td_net_values(h, pp, n, self._next(next), op, e.p, 1024))
        return out if np is not None else list(out[:n])

    def hint(self, board, depth=1, move_time=None, next=None, search="expectimax", **mcts):
        """Each move of board, as ``td2048 hint --json`` reports it: a dict
        with ``board``, ``moves`` (dir, legal, after, reward, value,
        total; in td2048's order up, right, down, left) and ``best``.
        ``depth`` plies of expectimax (1: greedy); ``move_time`` seconds
        bound the search, deepening from 1 up to ``depth``.
        ``search="mcts"`` searches by Monte Carlo tree search instead, with
        hint's settings as keywords (``iterations=500``,
        ``exploration=1.41``, ``rollout_depth=10``, ``gamma=0.99``, and
        ``seed`` for its random tiles): each move then has ``visits``, its
        ``value`` the mean return, and the dict ``iterations`` and
        ``tree_depth``."""
        b = self._pack1(board)
        mt, st = float(move_time or 0), _search(search, mcts)
        return _interruptible(lambda tok: _lib.call_json("td_net_hint", self._handle(), b, self._next(next), int(depth), mt, st, tok)[1],
                              long=depth > 1 or mt > 0 or search != "expectimax")

    def best_move(self, board, depth=1, move_time=None, next=None, search="expectimax", **mcts):
        """The best action on board (in the network's action order), as
        hint marks it; None when no move is legal. ``search`` and its
        keywords are hint's."""
        b = self._pack1(board)
        mt, st = float(move_time or 0), _search(search, mcts)
        d = _interruptible(lambda tok: _lib.call("td_net_best", self._handle(), b, self._next(next), int(depth), mt, st, tok),
                           long=depth > 1 or mt > 0 or search != "expectimax")
        return None if d == 4 else self._action[d]


def _search(method, mcts):
    """The search settings as the library reads them (JSON)."""
    s = dict(mcts)
    s["search"] = method
    return json.dumps(s).encode()


def _interruptible(f, long):
    """Runs f(token): at once when short or off the main thread, else on a
    worker thread, waiting in small steps so that Ctrl-C stops it."""
    if not long or threading.current_thread() is not threading.main_thread():
        return f(0)
    tok = _lib.lib.td_token_new()
    box = {}

    def work():
        try:
            box["v"] = f(tok)
        except BaseException as e:  # handed to the caller below
            box["e"] = e
    t = threading.Thread(target=work, daemon=True)
    t.start()
    try:
        while t.is_alive():
            t.join(0.05)
    except KeyboardInterrupt:
        _lib.lib.td_token_cancel(tok)
        t.join()
        raise
    finally:
        _lib.lib.td_free(tok)
    if "e" in box:
        raise box["e"]
    return box["v"]


class Agent:
    """The course's agent: ``get_action(state, score)`` returns the best
    action on state by net, searched ``depth`` plies deep (1: greedy),
    within ``move_time`` seconds when given. ``search="mcts"`` plays by
    Monte Carlo tree search, the course's TD-MCTS, with its settings as
    keywords (``iterations=500``, ``exploration=1.41``,
    ``rollout_depth=10``, ``gamma=0.99``, ``seed``)."""

    def __init__(self, net, depth=1, move_time=None, search="expectimax", **mcts):
        self.net, self.depth, self.move_time = net, depth, move_time
        self.search, self.mcts = search, mcts

    def get_action(self, state, score=None, next=None):
        """The best action on state (a 4x4 board of tile values); score is
        the course's argument, not used; next is the next tile in Threes!.
        On a board with no legal move (the game is over) it returns 0."""
        a = self.net.best_move(state, depth=self.depth, move_time=self.move_time, next=next, search=self.search, **self.mcts)
        return 0 if a is None else a  # no legal move: the game is over, any action does

    __call__ = get_action
