"""Boards in and out: 4x4 arrays (numpy where present, else lists of
rows) of tile values or tile indices, checked and handed to the library."""

import ctypes
import os

try:
    import numpy as np
except ImportError:  # numpy is used where present, never required
    np = None
if os.environ.get("TD2048_NO_NUMPY"):  # the tests' run without numpy
    np = None

Cells = ctypes.c_int64 * 16

# The directions of the library: 0 up, 1 right, 2 down, 3 left.
_LETTERS = {"u": 0, "r": 1, "d": 2, "l": 3}

#: Action orders in use, by name: each is the directions of actions 0..3.
ACTION_ORDERS = {
    "course": "udlr",          # the course's Game2048Env: 0 up, 1 down, 2 left, 3 right
    "gymnasium-2048": "urdl",  # gymnasium-2048: 0 up, 1 right, 2 down, 3 left
    "jumanji": "urdl",
    "pgx": "urdl",
    "td2048": "urdl",          # td2048's own order (hint, the command)
    "gym-2048": "lurd",        # gym-2048: 0 left, 1 up, 2 right, 3 down
}


def action_order(order):
    """The directions (0 up, 1 right, 2 down, 3 left) of actions 0..3 for
    an order given by name ("course"), by letters ("udlr") or as a
    sequence of direction names or letters."""
    if order is None:
        order = "course"
    letters = ACTION_ORDERS.get(order, order) if isinstance(order, str) else order
    try:
        dirs = tuple(_LETTERS[str(x)[0].lower()] for x in letters)
    except (KeyError, IndexError, TypeError):
        dirs = ()
    if len(dirs) != 4 or len(set(dirs)) != 4:
        raise ValueError("action_order %r: want one of %s, or the four directions in action order, like 'udlr'"
                         % (order, ", ".join(sorted(ACTION_ORDERS))))
    return dirs


def _flat(board, what="board"):
    """The 16 cells of one board as a list of ints, checked for shape."""
    if np is not None and isinstance(board, np.ndarray):
        if board.shape not in ((4, 4), (16,)):
            raise ValueError("%s: want a 4x4 array of tiles, got shape %s" % (what, board.shape))
        if board.dtype.kind == "f" and not np.all(np.mod(board, 1) == 0):
            raise ValueError("%s: tiles are whole numbers" % what)
        return [int(x) for x in board.reshape(16)]
    try:
        rows = list(board)
    except TypeError:
        raise ValueError("%s: want a 4x4 array of tiles, not %s" % (what, type(board).__name__)) from None
    if len(rows) == 4 and all(_is_seq(r) for r in rows):
        rows = [list(r) for r in rows]
        if any(len(r) != 4 for r in rows):
            raise ValueError("%s: want 4 rows of 4 tiles, got rows of %s" % (what, [len(r) for r in rows]))
        cells = [c for r in rows for c in r]
    elif len(rows) == 16 and not any(_is_seq(r) for r in rows):
        cells = rows
    else:
        raise ValueError("%s: want a 4x4 array of tiles (4 rows of 4), got %d rows" % (what, len(rows)))
    out = []
    for c in cells:
        if isinstance(c, bool) or not isinstance(c, int) and not (hasattr(c, "__index__") or float(c).is_integer()):
            raise ValueError("%s: tile %r is not a whole number" % (what, c))
        out.append(int(c))
    return out


def _is_seq(x):
    return hasattr(x, "__len__") and not isinstance(x, (str, bytes))


def cells_in(board, what="board"):
    """One board as the library's 16 int64 cells."""
    return Cells(*_flat(board, what))


def out_board(cells, dtype=None):
    """A board out: 4x4 numpy array where numpy is present, else lists."""
    if np is not None:
        a = np.frombuffer(cells, dtype=np.int64).reshape(4, 4)
        return a.astype(dtype) if dtype is not None else a.copy()
    return [list(cells[4 * r:4 * r + 4]) for r in range(4)]


def many_in(boards):
    """Many boards as (n, contiguous int64 buffer, pointer)."""
    if np is not None:
        a = boards if isinstance(boards, np.ndarray) else np.asarray(boards)
        if a.ndim == 3 and a.shape[1:] == (4, 4) or a.ndim == 2 and a.shape[1] == 16:
            if a.dtype.kind == "f" and not np.all(np.mod(a, 1) == 0):
                raise ValueError("boards: tiles are whole numbers")
            a = np.ascontiguousarray(a, dtype=np.int64).reshape(-1, 16)
            return len(a), a, a.ctypes.data
        if a.ndim in (2, 3) and a.shape[-2:] == (4, 4) or a.ndim == 1 and a.shape == (16,):
            pass
        raise ValueError("boards: want n boards of 4x4 tiles, shape (n, 4, 4) or (n, 16), got shape %s" % (a.shape,))
    flat = []
    items = list(boards)
    if items and len(items) % 16 == 0 and all(isinstance(c, int) for c in items):
        flat = items  # boards of 16 cells one after another (a VectorEnv's observations)
    for i, b in enumerate(items if not flat else ()):
        flat.extend(_flat(b, "board %d" % i))
    buf = (ctypes.c_int64 * max(len(flat), 1))(*flat)
    return len(flat) // 16, buf, ctypes.addressof(buf)
