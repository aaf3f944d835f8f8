"""Training runs and evaluations: the command's, run by the library."""

import json
import sys

from . import _lib


def _settings(kw):
    out = {}
    for k, v in kw.items():
        if v is None:
            continue  # not given: the command's default
        if k in ("duration", "checkpoint_gap") and isinstance(v, (int, float)) and not isinstance(v, bool):
            v = "%gs" % v
        out[k] = v
    return json.dumps(out)


class _Job:
    """A long call under way in the library."""

    def __init__(self, handle):
        self.h = handle

    def run(self, on_event, on_interrupt=None):
        """Waits for the end in small steps, handing each event to
        on_event; Ctrl-C (KeyboardInterrupt) stops the job, waits for it
        (a training run saves) and is raised again after on_interrupt."""
        try:
            try:
                while not _lib.call("td_job_wait", self.h, 50):
                    self._drain(on_event)
            except KeyboardInterrupt:
                _lib.lib.td_job_stop(self.h)
                while not _lib.call("td_job_wait", self.h, 50):
                    pass
                self._drain(on_event)
                if on_interrupt is not None:
                    on_interrupt(self._result())
                raise
            self._drain(on_event)
            return self._result()
        finally:
            _lib.lib.td_free(self.h)

    def _drain(self, on_event):
        n, ev = _lib.call_json("td_job_events", self.h)
        for e in ev or ():
            on_event(e)

    def _result(self):
        return _lib.call_json("td_job_result", self.h)[1]


def train(progress=None, quiet=False, **settings):
    """Trains a network as ``td2048 train`` does, with the same settings:
    a keyword per setting, named as in a sweep plan (the flag with ``_``
    for ``-``): ``episodes``, ``alpha``, ``network``, ``game``,
    ``recipe``, ``seed``, ``threads``, ``save``, ``resume``, ``load``,
    ``checkpoint_every``, ``log``, ``plot``, ... (``td2048 train
    --help`` lists them all). Durations are strings like ``"60m"`` or
    seconds. The settings are checked by the command's own checks, so a
    bad value raises ValueError with the command's one-line message.

    The run's header and each finished block are printed as the command
    prints them (nothing with ``quiet=True``), or handed to
    ``progress(event)`` when given: a dict, ``header`` (the header's
    text), or ``block`` (the episodes done), ``text`` (the block as
    printed) and ``record`` (its metrics-log record), or ``warning``.
    Ctrl-C stops the run, which saves as the command does, and raises
    KeyboardInterrupt; continue it with ``train(resume=FILE)``.

    Returns the run's figures: episodes, elapsed seconds, moves, done and
    total episodes of the run, save (the file), log, seed, interrupted,
    limited (stopped by ``duration``)."""
    _lib.check_fork()
    job = _Job(_lib.call("td_train_start", _settings(settings).encode()))

    def show(e):
        if progress is not None:
            progress(e)
        elif quiet:
            return
        elif "header" in e or "text" in e:
            sys.stdout.write(e.get("header") or e["text"])
            sys.stdout.flush()
        elif "warning" in e:
            sys.stderr.write("td2048 train: %s\n" % e["warning"])

    def interrupted(res):
        if res is not None and not quiet:
            sys.stderr.write("interrupted after %d episodes; the run is saved: continue it with "
                             "td2048.train(resume=%r)\n" % (res["done"], res["save"]))
    res = job.run(show, interrupted)
    if not quiet and progress is None:
        print("%d episodes in %.3fs, %s moves/s; saved %s (%d of %d episodes of this run)"
              % (res["episodes"], res["elapsed"], _rate(res["moves"], res["elapsed"]), res["save"],
                 res["done"], res["total"]))
        if res["limited"] and res["done"] < res["total"]:
            print("stopped at duration %s after %d episodes; continue the run with td2048.train(resume=%r)"
                  % (settings.get("duration"), res["done"], res["save"]))
    return res


def _rate(moves, secs):
    r = moves / max(secs, 1e-9)
    return "%.2fM" % (r / 1e6) if r >= 1e6 else "%.0fk" % (r / 1e3) if r >= 1e3 else "%.0f" % r


def evaluate(net, games=1000, depth=1, move_time=None, seed=None, threads=0, quiet=True, **settings):
    """Plays games with net, no learning, as ``td2048 eval`` does, and
    returns the statistics block as a dict: games, avg, max, reach and
    end (tile value -> share of games whose largest tile was at least,
    or exactly, that tile), moves_per_sec, elapsed_s, seed, network,
    game, search (how the moves were searched), and text (the block as
    eval prints it; printed unless quiet).
    ``depth`` plies of expectimax (1: greedy), ``move_time`` seconds a
    move, ``threads`` 0 for all cores (the statistics do not depend on
    it). Every other setting of ``td2048 eval`` is a keyword of its name
    with ``_`` for ``-`` (``search="mcts"``, ``iterations=500``,
    ``interleave=2``, ``downgrade=32768``, ...), checked by the same code:
    a bad value raises ValueError with eval's message. With ``seed`` left
    out, the games are drawn at random, as eval's are. Ctrl-C stops it and
    raises KeyboardInterrupt."""
    _lib.check_fork()
    s = dict(settings)
    s.update({"games": games, "depth": depth, "threads": threads})
    if move_time:
        s["move_time"] = "%rs" % float(move_time)
    if seed is not None:
        s["seed"] = seed
    job = _Job(_lib.call("td_eval_start", net._handle(), json.dumps(s).encode()))
    res = job.run(lambda e: None)
    out = dict(res["record"])
    for k in ("episodes", "alpha"):  # a training block's, not an evaluation's
        out.pop(k, None)
    out["text"], out["moves"], out["search"] = res["text"], res["moves"], res["search"]
    if not quiet:
        sys.stdout.write(out["text"])
    return out
