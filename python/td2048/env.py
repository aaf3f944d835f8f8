"""Environments: the course's gym-style Env, a Gymnasium-style GymEnv and
VectorEnv, n games stepped in one call. The rules are td2048's (its
session package); these classes only translate."""

import copy
import ctypes
import os
import weakref

from . import _lib
from ._board import np, Cells, action_order, cells_in, out_board

_Info = ctypes.c_int64 * 7
_STEP = _lib.lib.quick_step  # a step keeps the GIL (_lib)
_BLOCK = 64  # boards a block of Env.step's new arrays holds
_NONE = iter(()).__next__  # no boards: the next call raises StopIteration


def _refuse(*_):
    _lib.check_fork()


if hasattr(os, "register_at_fork"):  # after _lib's, which marks the process forked
    os.register_at_fork(after_in_child=lambda: globals().update(_STEP=_refuse))


class _Game:
    """One game of the library, writing its state to buffers of its own."""

    def __init__(self, game, seed, exps):
        _lib.check_fork()
        self._err = _lib.Err()
        self._buffers()
        self.game = str(game)
        h = self._err.check(_lib.lib.td_env_new(self.game.encode(), seed or 0, seed is not None, 1 if exps else 0,
                                                self._cp, self._ip, self._err.p, 1024))
        self._set_handle(h)

    def _buffers(self):
        self._cells, self._info = Cells(), _Info()
        self._cp, self._ip = ctypes.addressof(self._cells), ctypes.addressof(self._info)
        self._view = np.frombuffer(self._cells, dtype=np.int64).reshape(4, 4) if np is not None else None

    def _board(self, dtype=None):
        if self._view is None:
            return out_board(self._cells)
        return self._view.copy() if dtype is None else self._view.astype(dtype)

    def _set_handle(self, h):
        self._h = h
        self._hc = ctypes.c_int64(h)  # the handle as _STEP takes it
        # The finalizer holds the buffers the library writes until it frees the game.
        self._fin = weakref.finalize(self, _lib.free, h, self._cells, self._info, self._err)

    def _check(self, r):
        if r < 0:
            if r == _lib.CLOSED and not self._fin.alive:
                raise _lib.ClosedError("td2048: the environment is closed")
            self._err.check(r)

    def _reset(self, seed):
        _lib.check_fork()
        self._check(_lib.lib.td_env_reset(self._h, seed or 0, seed is not None))

    def _step(self, d):
        _lib.check_fork()
        self._check(_STEP(self._hc, d))

    def _state(self):
        _lib.check_fork()
        self._check(_lib.lib.td_env_state(self._h))

    def close(self):
        """Frees the game (also done when the object is garbage-collected)."""
        self._fin()

    def __deepcopy__(self, memo):
        c = copy.copy(self)
        c._err = _lib.Err()
        c._boards = _NONE  # Env's boards: the copy's own blocks
        c._buffers()
        c._set_handle(self._err.check(_lib.lib.td_env_clone(self._h, c._cp, c._ip, c._err.p, 1024)))
        return c


class Env(_Game):
    """The course's environment (its Game2048Env's API, old gym style).

    ``reset()`` returns the board, ``step(action)`` returns ``(board,
    score, done, info)`` with ``score`` the game's score so far, and
    ``is_move_legal(action)`` says whether a slide changes the board. The
    board is a 4x4 array of tile values (0 for empty; a numpy array when
    numpy is present, else a list of rows). Actions are the course's by
    default, 0 up, 1 down, 2 left, 3 right; ``action_order=`` takes
    another order by name (``"gymnasium-2048"``, ``"gym-2048"``,
    ``"jumanji"``, ``"pgx"``, ``"td2048"``) or by letters (``"urdl"``).

    ``game="threes"`` plays Threes! (tile values 1, 2, 3, 6, ...; the
    next tile is ``info["next"]`` and ``env.next``). ``seed=`` makes the
    games repeat: game k of an environment of seed s is the same game
    wherever it is played. A slide that changes nothing is not a move:
    as in the course's environment the board stays as it was
    (``info["legal"]`` is False), or with ``strict=True`` it raises
    ValueError. An action outside 0..3 raises ValueError.

    ``step`` and ``reset`` return a new array each time (``step``'s are
    views of blocks of 64 boards, written there directly: a board kept
    alone keeps its block's 8 KB); with
    ``copy=False`` (and numpy) they return the environment's own array,
    which the next step overwrites, as the course's environment returns
    its ``self.board``: faster, for code that copies what it keeps.

    An environment is one game: use it from one thread at a time.

    ``env.board`` and ``env.score`` can be set (the course's TD-MCTS
    template sets them on a ``copy.deepcopy`` of the environment); the
    tiles that follow come from a fresh seed.
    """

    def __init__(self, game="2048", seed=None, action_order=None, strict=False, copy=True):
        super().__init__(game, seed, False)
        self._copy = copy and self._view is not None
        self._boards = _NONE  # the boards of the block the library writes steps to
        self._order = _order_of(action_order)
        self._dirs = dict(enumerate(self._order))
        self._threes = self.game == "threes"
        self.strict = strict
        self.action_space = _Discrete(4)
        self.reset()

    def reset(self, seed=None):
        """Starts a new game and returns its board."""
        self._reset(seed)
        return self._board()

    def step(self, action):
        """Plays action; returns (board, score, done, info)."""
        try:
            d = self._dirs[action]
        except (KeyError, TypeError):
            raise ValueError("action %r: want 0, 1, 2 or 3" % (action,)) from None
        if self._copy:
            # The board goes straight to a new array: the next of a block
            # of them (views of one numpy array of _BLOCK boards), which
            # the library writes in turn.
            try:
                v = self._boards()
            except StopIteration:
                v = self._new_block()
        else:
            v = self._view  # None without numpy
        r = _STEP(self._hc, d)
        # r: reward, legal, over, the legal moves, the next tile and the score, packed
        if r >> 62:  # an error (negative), or a value too wide to pack
            if r < 0:
                self._boards = _NONE  # the library and this may no longer agree on the next board
            self._check(r)
            r = r & ~0xFFFFFF | self._info[0]  # a value too wide to pack: from info
            score = self._info[1]
        else:
            score = r >> 32
        legal = r & 0x1000000 != 0
        if not legal and self.strict:
            raise ValueError("action %r (%s) changes nothing on this board" % (action, _NAMES[d]))
        info = {"reward": r & 0xFFFFFF, "legal": legal}
        if self._threes:
            info["next"] = r >> 30 & 3
        if v is None:
            v = out_board(self._cells)
        return v, score, r & 0x2000000 != 0, info

    def _new_block(self):
        """Gives the library a new block of boards to write the steps to
        and returns its first board."""
        b = np.empty((_BLOCK, 4, 4), dtype=np.int64)
        self._boards = _NONE
        self._check(_lib.lib.td_env_block(self._h, b.__array_interface__["data"][0], _BLOCK))
        self._boards = iter(b).__next__  # its views keep b alive
        return self._boards()

    def _dir(self, action):
        try:
            return self._dirs[action]
        except (KeyError, TypeError):
            raise ValueError("action %r: want 0, 1, 2 or 3" % (action,)) from None

    def is_move_legal(self, action):
        """Whether the slide of action changes the board."""
        self._state()
        return bool(self._info[3] >> self._dir(action) & 1)

    def legal_actions(self):
        """The legal actions, in action order."""
        self._state()
        return [a for a, d in enumerate(self._order) if self._info[3] >> d & 1]

    def is_game_over(self):
        """Whether no slide is legal."""
        self._state()
        return bool(self._info[2])

    @property
    def board(self):
        """The board (a copy): 4x4 tile values."""
        self._state()
        return self._board()

    @board.setter
    def board(self, b):
        self._set(b, self.score)

    @property
    def score(self):
        """The game's score: the sum of its rewards (Threes!: the board's value)."""
        self._state()
        return self._info[1]

    @score.setter
    def score(self, s):
        self._set(self.board, s)

    @property
    def next(self):
        """The next tile of a Threes! game (0 in 2048)."""
        self._state()
        return self._info[4]

    def _set(self, board, score, next=None):
        _lib.check_fork()
        if next is None:
            next = self.next
        self._check(_lib.lib.td_env_set(self._h, cells_in(board), int(score), int(next)))

    def render(self, mode="human"):
        """Prints the board (returns it as text with mode="ansi")."""
        b = self.board
        text = "\n".join(" ".join("%5s" % (v or ".") for v in row) for row in b) + "\nscore %d\n" % self.score
        if mode == "ansi":
            return text
        print(text)


_NAMES = ("up", "right", "down", "left")


def _order_of(order):
    return action_order(order)


class _Discrete:
    """A stand-in for gym's Discrete(n) space: n, sample(), contains()."""

    def __init__(self, n):
        self.n = n

    def sample(self):
        import random
        return random.randrange(self.n)

    def contains(self, x):
        return isinstance(x, int) and 0 <= x < self.n


try:
    import gymnasium as _gym
    _GymBase = _gym.Env
except ImportError:  # Gymnasium is optional
    _gym = None
    _GymBase = object


class GymEnv(_GymBase):
    """The same game with Gymnasium's API.

    ``reset(seed=None, options=None)`` returns ``(obs, info)``; ``step``
    returns ``(obs, reward, terminated, truncated, info)``. The
    observation is the board's tile indices (2048's exponents: 0 empty,
    1 for 2, 11 for 2048) as a 4x4 uint8 array; ``info["action_mask"]``
    holds 1 for each legal action. A slide that changes nothing gives
    reward 0 and leaves the board. Actions follow ``action_order=`` (the
    course's by default). When Gymnasium is importable this class is a
    ``gymnasium.Env`` and is registered as ``td2048/2048-v0`` and
    ``td2048/Threes-v0``.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game="2048", action_order=None, render_mode=None):
        self._g = _Game(game, None, True)
        self._order = _order_of(action_order)
        self.render_mode = render_mode
        if _gym is not None:
            from gymnasium import spaces
            self.observation_space = spaces.Box(0, 15, shape=(4, 4), dtype=np.uint8)
            self.action_space = spaces.Discrete(4)
        else:
            self.action_space = _Discrete(4)

    def _obs(self):
        return self._g._board(np.uint8 if np is not None else None)

    def _infodict(self):
        i = self._g._info
        d = {"action_mask": _mask(i[3], self._order), "score": i[1], "legal": bool(i[5])}
        if self._g.game == "threes":
            d["next"] = i[4]
        return d

    def reset(self, seed=None, options=None):
        """Starts a new game (of that seed, when given); returns (obs, info)."""
        self._g._reset(seed)
        return self._obs(), self._infodict()

    def step(self, action):
        """Plays action; returns (obs, reward, terminated, truncated, info)."""
        try:
            d = self._order[action]
        except (IndexError, TypeError):
            raise ValueError("action %r: want 0, 1, 2 or 3" % (action,)) from None
        self._g._step(d)
        i = self._g._info
        return self._obs(), float(i[0]), bool(i[2]), False, self._infodict()

    def render(self):
        """The board's tile indices as text."""
        self._g._state()
        c = self._g._cells
        return "\n".join(" ".join("%2d" % c[4 * r + k] for k in range(4)) for r in range(4))

    def close(self):
        """Frees the game."""
        self._g.close()


def _mask(bits, order):
    m = [bits >> d & 1 for d in order]
    return np.array(m, dtype=np.int8) if np is not None else m


if _gym is not None:
    for _id, _game in (("td2048/2048-v0", "2048"), ("td2048/Threes-v0", "threes")):
        if _id not in _gym.registry:
            _gym.register(id=_id, entry_point="td2048.env:GymEnv", kwargs={"game": _game})


class VectorEnv:
    """n games stepped in one call, for agents trained in Python.

    ``reset(seed=None)`` returns ``(obs, info)``; ``step(actions)``
    takes one action per game and returns ``(obs, rewards, terminated,
    truncated, info)``: obs an (n, 4, 4) uint8 array of tile indices
    (2048's exponents), rewards float32, terminated bool (the game ended;
    it was replaced by a new game at once, whose start obs shows),
    truncated all False, and info ``{"score": the score of each game so
    far (of the ended game where terminated), "action_mask": (n, 4)}``.
    The arrays are the environment's own, overwritten by the next call:
    copy what you keep. Without numpy they are ctypes arrays (flat).
    An action outside 0..3 raises ValueError before any game moves; a
    slide that changes nothing gives reward 0 and leaves its board.
    """

    def __init__(self, num_envs, game="2048", seed=None, action_order=None):
        _lib.check_fork()
        self.num_envs = n = int(num_envs)
        self.game = str(game)
        self._err = _lib.Err()
        order = (ctypes.c_int64 * 4)(*_order_of(action_order))
        h = self._err.check(_lib.lib.td_vec_new(self.game.encode(), n, seed or 0, seed is not None, order,
                                                self._err.p, 1024))
        self._h = h
        self._fin = weakref.finalize(self, _lib.free, h)
        if np is not None:
            self._obs = np.zeros((n, 4, 4), np.uint8)
            self._rew = np.zeros(n, np.float32)
            self._done = np.zeros(n, np.bool_)
            self._score = np.zeros(n, np.int64)
            self._mask = np.zeros((n, 4), np.uint8)
            self._trunc = np.zeros(n, np.bool_)
            self._p = [a.ctypes.data for a in (self._obs, self._rew, self._done, self._score, self._mask)]
        else:
            self._obs, self._rew = (ctypes.c_uint8 * (16 * n))(), (ctypes.c_float * n)()
            self._done, self._score = (ctypes.c_uint8 * n)(), (ctypes.c_int64 * n)()
            self._mask, self._trunc = (ctypes.c_uint8 * (4 * n))(), [False] * n
            self._p = [ctypes.addressof(a) for a in (self._obs, self._rew, self._done, self._score, self._mask)]
        self._acts = np.zeros(n, np.int64) if np is not None else (ctypes.c_int64 * n)()
        self._info = {"score": self._score, "action_mask": self._mask}

    def reset(self, seed=None):
        """Starts new games in every slot (seeds drawn from seed, when
        given); returns (obs, info)."""
        _lib.check_fork()
        p = self._p
        self._err.check(_lib.lib.td_vec_reset(self._h, seed or 0, seed is not None, p[0], p[4], self._err.p, 1024))
        return self._obs, self._info

    def step(self, actions):
        """Plays actions[i] in game i; returns (obs, rewards, terminated,
        truncated, info)."""
        _lib.check_fork()
        n = self.num_envs
        if np is not None:
            a = actions
            if not (isinstance(a, np.ndarray) and a.dtype == np.int64 and a.flags.c_contiguous):
                a = np.asarray(actions)
                if a.dtype.kind not in "iub":
                    raise ValueError("actions: want integers 0 to 3, got %s" % a.dtype)
                a = np.ascontiguousarray(a, dtype=np.int64)
            if a.shape != (n,):
                raise ValueError("actions: want one per game, shape (%d,), got %s" % (n, a.shape))
            ap = a.ctypes.data
        else:
            a = list(actions)
            if len(a) != n:
                raise ValueError("actions: want one per game, %d, got %d" % (n, len(a)))
            self._acts[:] = [int(x) for x in a]
            ap = ctypes.addressof(self._acts)
        p = self._p
        self._err.check(_lib.lib.td_vec_step(self._h, ap, p[0], p[1], p[2], p[3], p[4], self._err.p, 1024))
        return self._obs, self._rew, self._done, self._trunc, self._info

    def close(self):
        """Frees the games."""
        self._fin()
