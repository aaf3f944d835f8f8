"""The native library (libtd2048, built from the repository's capi
package) loaded with ctypes, and the conversions every part shares."""

import ctypes
import json
import os
import sys

_ERRLEN = 1024
BAD, CLOSED, FAIL = -1, -2, -3


class ClosedError(ValueError):
    """A network, environment or run used after close()."""


_forked = False


def _after_fork():
    global _forked
    _forked = True


def _libpath():
    p = os.environ.get("TD2048_LIB")
    if p:
        return p
    here = os.path.dirname(os.path.abspath(__file__))
    name = {"darwin": "libtd2048.dylib", "win32": "td2048.dll"}.get(sys.platform, "libtd2048.so")
    return os.path.join(here, name)


def _load():
    path = _libpath()
    if not os.path.exists(path):
        raise ImportError(
            "td2048: the native library %s is missing: install the package with "
            "`pip install ./python` from td2048's source (it builds it with Go), or build it with "
            "`go build -buildmode=c-shared -o %s ./capi`" % (path, path))
    lib = ctypes.CDLL(path)
    # The calls of a few microseconds keep the GIL: releasing and taking it
    # again would cost more than the call (a step is about 1 µs).
    quick = ctypes.PyDLL(path)
    i64, u64, i32, p = ctypes.c_int64, ctypes.c_uint64, ctypes.c_int, ctypes.c_void_p
    cp, pcp, dbl = ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_double
    err = [p, i32]
    sigs = {
        "td_free": ([i64], None),
        "td_live": ([], i64),
        "td_free_string": ([p], None),
        "td_env_new": ([cp, u64, i32, i32, p, p] + err, i64),
        "td_env_reset": ([i64, u64, i32], i64),
        "td_env_block": ([i64, p, i32], i64),
        "td_env_state": ([i64], i64),
        "td_env_set": ([i64, p, i64, i32], i64),
        "td_env_clone": ([i64, p, p] + err, i64),
        "td_pack": ([cp, p, i64, i32, p] + err, i64),
        "td_vec_new": ([cp, i64, u64, i32, p] + err, i64),
        "td_vec_reset": ([i64, u64, i32, p, p] + err, i64),
        "td_vec_step": ([i64, p, p, p, p, p, p] + err, i64),
        "td_net_load": ([cp, i32, pcp] + err, i64),
        "td_net_values": ([i64, p, i64, i32, p] + err, i64),
        "td_net_hint": ([i64, u64, i32, i32, dbl, cp, i64, pcp] + err, i64),
        "td_net_best": ([i64, u64, i32, i32, dbl, cp, i64] + err, i64),
        "td_token_new": ([], i64),
        "td_token_cancel": ([i64], None),
        "td_job_wait": ([i64, i32] + err, i64),
        "td_job_stop": ([i64], None),
        "td_job_events": ([i64, pcp] + err, i64),
        "td_job_result": ([i64, pcp] + err, i64),
        "td_train_start": ([cp] + err, i64),
        "td_eval_start": ([i64, cp] + err, i64),
    }
    for name, (args, res) in sigs.items():
        f = getattr(lib, name)
        f.argtypes, f.restype = args, res
    # No argtypes: ctypes then converts the two arguments by their own
    # types (the handle a c_int64 the caller made once, the direction a
    # small int), about a third of a microsecond less a call than argtypes.
    lib.quick_step = quick.td_env_step
    lib.quick_step.restype = i64
    if hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=_after_fork)
    return lib


lib = _load()


def free(h, *keep):
    """Frees handle h (a finalizer's call; keep holds what the library
    writes to until then). Nothing in a forked child: its copy of the Go
    runtime cannot run."""
    if not _forked:
        lib.td_free(h)


def forked():
    return _forked


def check_fork():
    if _forked:
        raise RuntimeError(
            "td2048: this process was forked after td2048 started, and its Go runtime does not survive a fork; "
            "start worker processes with the spawn method: multiprocessing.set_start_method('spawn') "
            "(or multiprocessing.get_context('spawn'))")


class Err:
    """An error buffer for calls: one per object, reused."""

    __slots__ = ("buf", "p")

    def __init__(self):
        self.buf = ctypes.create_string_buffer(_ERRLEN)
        self.p = ctypes.addressof(self.buf)

    def check(self, r):
        if r >= 0:
            return r
        msg = self.buf.value.decode("utf-8", "replace")
        if r == CLOSED:
            raise ClosedError("td2048: " + msg)
        if r == BAD:
            raise ValueError(msg)
        if msg == "stopped":
            raise KeyboardInterrupt
        raise RuntimeError(msg)


def call(name, *args):
    """Calls the library's function name with args and an error buffer of
    its own, raising its error."""
    check_fork()
    e = Err()
    return e.check(getattr(lib, name)(*args, e.p, _ERRLEN))


def take_string(ptr):
    """The string a call handed over at ptr, freed."""
    if not ptr:
        return ""
    try:
        return ctypes.string_at(ptr).decode("utf-8")
    finally:
        lib.td_free_string(ptr)


def call_string(name, *args):
    """Calls name with args and an out-string, returning (result, string)."""
    out = ctypes.c_void_p()
    try:
        r = call(name, *(args + (ctypes.byref(out),)))
    except BaseException:
        take_string(out.value)
        raise
    return r, take_string(out.value)


def call_json(name, *args):
    r, s = call_string(name, *args)
    return r, json.loads(s) if s else None


def live_handles():
    """The library's live objects (for tests of leaks)."""
    return lib.td_live()
