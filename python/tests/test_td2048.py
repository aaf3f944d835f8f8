"""Tests of the td2048 package, run by `go test ./python` against a fresh
native library (TD2048_LIB) and command (TD2048_CMD)."""

import copy
import gc
import inspect
import json
import os
import random
import signal
import subprocess
import struct
import sys
import tempfile
import threading
import unittest

import td2048
from td2048 import _board

np = _board.np
CMD = os.environ.get("TD2048_CMD")
TMP = os.environ.get("TD2048_TMP") or tempfile.mkdtemp()
HERE = os.path.dirname(os.path.abspath(__file__))


def sh(*args):
    return subprocess.run([CMD] + [str(a) for a in args], capture_output=True, text=True, check=True).stdout


def tolist(b):
    return [list(map(int, r)) for r in b]


def random_boards(n, seed, top=11):
    """Boards with tiles up to 2^top, a third of the cells empty."""
    rng = random.Random(seed)
    return [[[0 if rng.random() < 0.35 else 2 ** rng.randint(1, top) for _ in range(4)] for _ in range(4)] for _ in range(n)]


def slide_left(row):
    """RULES.md section 1 for one row slid left: the test's oracle."""
    tiles = [t for t in row if t]
    out, reward, i = [], 0, 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1]:
            out.append(2 * tiles[i])
            reward += 2 * tiles[i]
            i += 2
        else:
            out.append(tiles[i])
            i += 1
    return out + [0] * (4 - len(out)), reward


def oracle(board, d):
    """The after-state and reward of direction d (0 up, 1 right, 2 down, 3 left)."""
    b = [list(r) for r in board]
    # Turn the board so that d is a left slide, slide, turn back.
    def rot(m):  # clockwise
        return [list(r) for r in zip(*m[::-1])]
    turns = {3: 0, 0: 3, 1: 2, 2: 1}[d]
    for _ in range(turns):
        b = rot(b)
    rows = [slide_left(r) for r in b]
    b, reward = [r for r, _ in rows], sum(x for _, x in rows)
    for _ in range((4 - turns) % 4):
        b = rot(b)
    return b, reward


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


class Nets:
    """Two tiny networks, trained once: by the command and by Python."""
    done = False

    @classmethod
    def get(cls):
        if not cls.done:
            cls.cmd_file = os.path.join(TMP, "cmd.td2048")
            cls.py_file = os.path.join(TMP, "py.td2048")
            args = ["--network", "2x4", "--episodes", "300", "--every", "100", "--threads", "1", "--seed", "7", "--log", "none"]
            cls.cmd_out = sh("train", *args, "--save", cls.cmd_file)
            cls.events = []
            cls.result = td2048.train(network="2x4", episodes=300, every=100, threads=1, seed=7, log="none",
                                      save=cls.py_file, progress=cls.events.append)
            cls.done = True
        return cls


class TestRules(unittest.TestCase):
    def test_rules_vectors(self):
        # RULES.md: 2 2 2 2 left is 4 4 . .; 4 4 8 . left is 8 8 . .
        env = td2048.Env(seed=1, action_order="course")
        for row, want, reward in (([2, 2, 2, 2], [4, 4, 0, 0], 8), ([4, 4, 8, 0], [8, 8, 0, 0], 8)):
            env.board = [row, [0] * 4, [0] * 4, [0] * 4]
            board, score, done, info = env.step(2)  # left
            self.assertEqual(tolist(board)[0][:2], want[:2])
            self.assertEqual(info["reward"], reward)

    def test_400_boards(self):
        """400 random boards, each direction: the library's slide, reward and
        new tile agree with RULES.md's rules."""
        env = td2048.Env(seed=2, action_order="td2048")
        for k, b in enumerate(random_boards(400, 400)):
            for d in range(4):
                env.board, env.score = b, 100
                self.assertEqual(tolist(env.board), b)
                after, reward = oracle(b, d)
                legal = after != b
                self.assertEqual(env.is_move_legal(d), legal, (k, b, d))
                got, score, done, info = env.step(d)
                got = tolist(got)
                self.assertEqual(info["legal"], legal)
                if not legal:
                    self.assertEqual(got, b)
                    self.assertEqual(score, 100)
                    continue
                self.assertEqual(info["reward"], reward, (k, b, d))
                self.assertEqual(score, 100 + reward)
                diff = [(r, c) for r in range(4) for c in range(4) if got[r][c] != after[r][c]]
                self.assertEqual(len(diff), 1, (k, b, d, got, after))
                r, c = diff[0]
                self.assertEqual(after[r][c], 0)
                self.assertIn(got[r][c], (2, 4))
                self.assertEqual(done, all(oracle(got, e)[0] == got for e in range(4)))

    def test_threes_plays_to_the_end(self):
        env = td2048.Env(game="threes", seed=3)
        board, done, n = env.reset(), False, 0
        values = {0, 1, 2, 3} | {3 * 2 ** k for k in range(12)}
        self.assertEqual(sum(1 for r in board for v in r if v), 9)
        rng = random.Random(3)
        while not done:
            legal = env.legal_actions()
            board, score, done, info = env.step(rng.choice(legal))
            self.assertTrue(info["legal"])
            self.assertIn(info["next"], (1, 2, 3))
            self.assertTrue(all(v in values for r in board for v in r))
            n += 1
        self.assertGreater(n, 5)
        self.assertEqual(env.legal_actions(), [])


class TestCourseAPI(unittest.TestCase):
    def test_signatures(self):
        self.assertEqual(list(inspect.signature(td2048.Env.reset).parameters), ["self", "seed"])
        self.assertEqual(list(inspect.signature(td2048.Env.step).parameters), ["self", "action"])
        self.assertEqual(list(inspect.signature(td2048.Env.is_move_legal).parameters), ["self", "action"])
        self.assertEqual(list(inspect.signature(td2048.Agent.get_action).parameters)[:3], ["self", "state", "score"])
        env = td2048.Env()
        board = env.reset()
        self.assertEqual(len(board), 4)
        self.assertTrue(all(len(r) == 4 for r in board))
        self.assertEqual(sum(1 for r in board for v in r if v), 2)
        out = env.step(0)
        self.assertEqual(len(out), 4)
        board, score, done, info = out
        self.assertIsInstance(score, int)
        self.assertIsInstance(done, bool)
        self.assertIsInstance(info, dict)

    def test_copy_false(self):
        a, b = td2048.Env(seed=3), td2048.Env(seed=3, copy=False)
        kept = []
        for i in range(300):  # past the blocks step's new boards come in, and a game's end
            act = (0, 2, 3, 1, 0, 2, 1)[i % 7]
            ba, sa, da, ia = a.step(act)
            bb, sb, db, ib = b.step(act)
            self.assertEqual((tolist(ba), sa, da, ia), (tolist(bb), sb, db, ib))
            kept.append((ba, tolist(ba)))
            if i == 150:
                c = copy.deepcopy(a)  # boards of its own
                self.assertEqual(tolist(c.step(1)[0]), tolist(c.board))
            if da:
                a.reset(), b.reset()
        # Each board step returned is its own: later steps left it as it was.
        self.assertTrue(all(tolist(k) == was for k, was in kept))
        self.assertEqual(len({id(k) for k, _ in kept}), len(kept))

    def test_wide_score(self):
        # A score past the bits step packs it in comes from the info buffer.
        for score in (2**30 - 4, 2**30, 2**40):
            env = td2048.Env(seed=1)
            env.board = [[2, 2, 0, 0], [0] * 4, [0] * 4, [0] * 4]
            env.score = score
            _, s, done, info = env.step(2)
            self.assertEqual((s, info["reward"], info["legal"], done), (score + 4, 4, True, False))
            self.assertEqual(env.score, score + 4)

    def test_action_orders(self):
        # One tile at the bottom left: up and right move it, down and left do not.
        b = [[0] * 4, [0] * 4, [0] * 4, [2, 0, 0, 0]]
        for order, legal in (("course", [1, 0, 0, 1]), ("gymnasium-2048", [1, 1, 0, 0]), ("gym-2048", [0, 1, 1, 0]),
                             ("urdl", [1, 1, 0, 0])):
            env = td2048.Env(action_order=order)
            env.board = b
            self.assertEqual([int(env.is_move_legal(a)) for a in range(4)], legal, order)
        with self.assertRaises(ValueError):
            td2048.Env(action_order="uudl")

    def test_seeds_repeat_and_deepcopy(self):
        a, b = td2048.Env(seed=9), td2048.Env(seed=9)
        for _ in range(3):
            self.assertEqual(tolist(a.reset()), tolist(b.reset()))
        a.step(0)
        c = copy.deepcopy(a)
        self.assertEqual(tolist(c.board), tolist(a.board))
        for act in (0, 3, 1, 2, 0):
            self.assertEqual(tolist(a.step(act)[0]), tolist(c.step(act)[0]))

    def test_course_loop(self):
        net = td2048.load(Nets.get().py_file)
        agent = td2048.Agent(net, depth=1)
        env = td2048.Env(seed=5)
        state, score, done = env.reset(), 0, False
        while not done:
            state, score, done, info = env.step(agent.get_action(state, score))
            self.assertTrue(info["legal"])
        self.assertGreater(score, 0)
        net.close()


    def test_course_module(self):
        import contextlib
        import io
        from td2048 import course
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            course.main(["--episodes", "100", "--network", "2x4", "--games", "2", "--seed", "1",
                         "--save", os.path.join(TMP, "course.td2048")])
        self.assertIn("game 2: score", out.getvalue())
        self.assertIn("100\tavg = ", out.getvalue())


class TestGym(unittest.TestCase):
    def test_gym_api(self):
        env = td2048.GymEnv()
        obs, info = env.reset(seed=4)
        obs2, _ = td2048.GymEnv().reset(seed=4)
        self.assertEqual(tolist(obs), tolist(obs2))
        self.assertTrue(all(0 <= v <= 2 for r in obs for v in r))
        self.assertEqual(len(info["action_mask"]), 4)
        out = env.step(int(list(info["action_mask"]).index(1)))
        self.assertEqual(len(out), 5)
        obs, reward, terminated, truncated, info = out
        self.assertIsInstance(reward, float)
        self.assertFalse(truncated)


class TestVector(unittest.TestCase):
    def test_vector_env(self):
        n = 64
        v, w = td2048.VectorEnv(n, seed=11), td2048.VectorEnv(n, seed=11)
        obs, info = v.reset(seed=3)
        obs2, _ = w.reset(seed=3)
        self.assertEqual(list(obs2), list(obs)) if np is None else self.assertTrue((obs == obs2).all())
        rng, ended = random.Random(1), 0
        for step in range(2000):
            acts = [rng.randrange(4) for _ in range(n)]
            o, r, term, trunc, info = v.step(acts)
            o2, r2, term2, _, _ = w.step(acts)
            self.assertEqual(list(r), list(r2))
            for i in range(n):
                if term[i]:
                    ended += 1
                    cells = o[i].ravel() if np is not None else o[16 * i:16 * i + 16]
                    self.assertEqual(sum(1 for c in cells if c), 2)  # a new game, at once
                    self.assertGreater(info["score"][i], 0)
        self.assertGreater(ended, 0)
        with self.assertRaises(ValueError):
            v.step([4] * n)
        with self.assertRaises(ValueError):
            v.step([0] * (n - 1))
        v.close()
        w.close()


class TestNetworks(unittest.TestCase):
    def test_values_equal_hint_json(self):
        nets = Nets.get()
        with td2048.load(nets.cmd_file) as net:
            for k, b in enumerate(random_boards(12, 5, top=9)):
                flat = ",".join(str(v) for r in b for v in r)
                want = json.loads(sh("hint", "--load", nets.cmd_file, "--json", flat))
                self.assertEqual(net.hint(b), want, flat)
                afters = []
                for m in want["moves"]:
                    if m["legal"]:
                        x = int(m["after"], 16)
                        afters.append(([[(2 ** (x >> 4 * (4 * r + c) & 15)) % 2 ** 16 if x >> 4 * (4 * r + c) & 15 else 0
                                         for c in range(4)] for r in range(4)], m["value"]))
                if afters:
                    got = net.values([a for a, _ in afters])
                    for (a, value), g in zip(afters, got):
                        self.assertEqual(float(g), f32(value))
                        self.assertEqual(net.value(a), f32(value))
                best = net.best_move(b)
                if want["best"] is None:
                    self.assertIsNone(best)
                else:
                    self.assertEqual(("up", "down", "left", "right")[best], want["best"])
            deep = json.loads(sh("hint", "--load", nets.cmd_file, "--json", "--depth", "2", "2,4,0,0,0,0,0,0,0,0,8,0,0,0,0,2"))
            self.assertEqual(net.hint([[2, 4, 0, 0], [0] * 4, [0, 0, 8, 0], [0, 0, 0, 2]], depth=2), deep)

    def test_threes_hint_is_the_commands(self):
        f = os.path.join(TMP, "threes.td2048")
        sh("train", "--game", "threes", "--network", "2x4+hint", "--episodes", 50, "--threads", 1, "--seed", 1,
           "--save", f, "--log", "none")
        b = [[1, 2, 3, 0], [0, 3, 0, 0], [6, 0, 0, 0], [0, 0, 0, 12]]
        want = json.loads(sh("hint", "--load", f, "--next", 3, "--json", "1,2,3,0,0,3,0,0,6,0,0,0,0,0,0,12"))
        with td2048.load(f) as net:
            self.assertEqual(net.game, "threes")
            self.assertEqual(net.hint(b, next=3), want)
            self.assertEqual(("up", "down", "left", "right")[net.best_move(b, next=3)], want["best"])
            with self.assertRaises(ValueError):
                net.hint(b)  # Threes! needs the next tile

    def test_every_format(self):
        nets = Nets.get()
        boards = random_boards(100, 9)
        with td2048.load(nets.cmd_file, weights="float32") as net:
            want = list(net.values(boards))
        for ext in ("bin", "w"):
            f = os.path.join(TMP, "course." + ext)
            sh("convert", nets.cmd_file, f)
            with td2048.load(f, weights="float32") as net:
                self.assertEqual(list(net.values(boards)), want, ext)

    def test_train_is_the_commands(self):
        nets = Nets.get()
        text = "".join(e.get("header") or e["text"] for e in nets.events if "text" in e or "header" in e)
        self.assertIn("300\tavg = ", text)
        self.assertTrue(text.startswith("td2048 train\ngame = 2048\nnetwork = 2x4 "), text)
        self.assertTrue(nets.cmd_out.startswith(text.replace(nets.py_file, nets.cmd_file)), (text, nets.cmd_out))  # bit for bit
        self.assertEqual(nets.result["done"], 300)
        boards = random_boards(400, 6)
        with td2048.load(nets.cmd_file, weights="float32") as a, td2048.load(nets.py_file, weights="float32") as b:
            self.assertEqual(list(a.values(boards)), list(b.values(boards)))

    def test_evaluate_is_the_commands(self):
        nets = Nets.get()
        with td2048.load(nets.py_file) as net:
            st = td2048.evaluate(net, games=30, seed=4, threads=1)
        out = sh("eval", "--load", nets.py_file, "--games", 30, "--seed", 4, "--threads", 1)
        self.assertEqual(st["games"], 30)
        self.assertIn(st["text"], out)
        self.assertEqual(set(st["reach"]) >= {"64"}, True)

    def test_mcts_is_the_commands(self):
        nets = Nets.get()
        b = [[2, 4, 0, 0], [0] * 4, [0, 0, 8, 0], [0, 0, 0, 2]]
        want = json.loads(sh("hint", "--load", nets.cmd_file, "--json", "--threads", 1, "--search", "mcts",
                             "--iterations", 300, "--rollout-depth", 3, "2,4,0,0,0,0,0,0,0,0,8,0,0,0,0,2"))
        with td2048.load(nets.cmd_file) as net:
            got = net.hint(b, search="mcts", iterations=300, rollout_depth=3)
            self.assertEqual(got, want)
            self.assertEqual(sum(m.get("visits", 0) for m in got["moves"]), got["iterations"])
            agent = td2048.Agent(net, search="mcts", iterations=300, rollout_depth=3)
            self.assertEqual(("up", "down", "left", "right")[agent.get_action(b, 0)], want["best"])
            st = td2048.evaluate(net, games=2, seed=4, threads=1, search="mcts", iterations=50)
            out = sh("eval", "--load", nets.cmd_file, "--games", 2, "--seed", 4, "--threads", 1, "--search", "mcts", "--iterations", 50)
            self.assertIn(st["text"], out)
            self.assertTrue(st["search"].startswith("MCTS, 50 iterations a move"), st["search"])
            for bad in ({"iterations": 0}, {"gamma": 2.0}, {"nosuch": 1}):
                with self.assertRaises(ValueError):
                    net.hint(b, search="mcts", **bad)
            with self.assertRaises(ValueError):
                net.hint(b, iterations=10)  # needs search="mcts", as hint's flag does
            with self.assertRaises(ValueError):
                td2048.evaluate(net, games=2, search="mcts", iterations=0)

    def test_resume(self):
        f = os.path.join(TMP, "resume.td2048")
        td2048.train(network="2x4", episodes=100, every=50, threads=1, seed=3, save=f, log="none", quiet=True)
        res = td2048.train(resume=f, episodes=200, quiet=True)
        self.assertEqual((res["done"], res["total"]), (200, 200))


class TestBadInputs(unittest.TestCase):
    def test_errors(self):
        nets = Nets.get()
        net = td2048.load(nets.py_file)
        env = td2048.Env()
        cases = [
            (lambda: net.value([[2, 4], [0, 0]]), "4x4"),
            (lambda: net.value([[3, 0, 0, 0]] + [[0] * 4] * 3), "power of two"),
            (lambda: net.values([[[2] * 4] * 3]), "4x4"),
            (lambda: env.step(7), "want 0, 1, 2 or 3"),
            (lambda: env.step("up"), "want 0, 1, 2 or 3"),
            (lambda: td2048.train(alpha=5, episodes=1, save=os.path.join(TMP, "x.td2048")), "--alpha"),
            (lambda: td2048.train(bogus=1), "unknown setting"),
            (lambda: td2048.train(episodes="many"), "--episodes"),
            (lambda: td2048.load(os.path.join(TMP, "missing.td2048")), "not found"),
            (lambda: td2048.load(nets.py_file, weights="half"), "weights"),
            (lambda: td2048.Env(game="chess"), "unknown game"),
            (lambda: td2048.VectorEnv(0), "num_envs"),
            (lambda: net.hint([[2, 0, 0, 0]] + [[0] * 4] * 3, depth=0), "depth"),
            (lambda: net.hint([[0] * 4] * 4), "empty board"),
            (lambda: net.best_move([[0] * 4] * 4), "empty board"),
        ]
        for f, msg in cases:
            with self.assertRaises(ValueError) as cm:
                f()
            self.assertIn(msg, str(cm.exception))
            self.assertEqual(len(str(cm.exception).splitlines()), 1)
        strict = td2048.Env(strict=True)
        strict.board = [[0] * 4, [0] * 4, [0] * 4, [2, 0, 0, 0]]
        with self.assertRaises(ValueError):
            strict.step(1)  # down changes nothing
        env.close()
        with self.assertRaises(td2048.ClosedError):
            env.step(0)
        net.close()
        net.close()  # twice is harmless
        with self.assertRaises(td2048.ClosedError):
            net.value([[0] * 4] * 4)
        with self.assertRaises(td2048.ClosedError):
            td2048.evaluate(net, games=1)


class TestSafety(unittest.TestCase):
    def test_threads_share_a_network(self):
        net = td2048.load(Nets.get().py_file)
        boards = random_boards(200, 8)
        want = list(net.values(boards))
        errors = []

        def work():
            try:
                for _ in range(20):
                    if list(net.values(boards)) != want:
                        errors.append("values differ")
                    net.best_move(boards[0], depth=2)
            except Exception as e:
                errors.append(e)
        ts = [threading.Thread(target=work) for _ in range(8)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        self.assertEqual(errors, [])
        # Closing while other threads use it: their calls finish or raise ClosedError.
        ts = [threading.Thread(target=work) for _ in range(4)]
        for t in ts:
            t.start()
        net.close()
        for t in ts:
            t.join()
        self.assertTrue(all(isinstance(e, td2048.ClosedError) for e in errors), errors)

    def test_values_of_exponents(self):
        with td2048.load(Nets.get().py_file) as net:
            v = td2048.VectorEnv(8, seed=2)
            obs, _ = v.reset()
            for _ in range(20):
                obs, *_ = v.step([0, 1, 2, 3, 3, 2, 1, 0])
            cells = [int(c) for c in (obs.ravel() if np is not None else obs)]
            tiles = [[[2 ** c if c else 0 for c in cells[16 * k + 4 * r:16 * k + 4 * r + 4]] for r in range(4)] for k in range(8)]
            self.assertEqual(list(net.values(obs if np is not None else obs[:], exponents=True)), list(net.values(tiles)))

    def test_ctrl_c_saves(self):
        f = os.path.join(TMP, "sigint.td2048")
        code = ("import td2048\ntd2048.train(network='2x4', episodes=10**8, every=200, threads=1, seed=1, "
                "save=%r, log='none')\n" % f)
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        line = p.stdout.readline()
        while line and "avg = " not in line:  # the header, then the first block: the run is under way
            line = p.stdout.readline()
        self.assertIn("avg = ", line)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=120)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("KeyboardInterrupt", err)
        self.assertIn("the run is saved", err)
        with td2048.load(f) as net:
            self.assertGreaterEqual(net.episodes, 200)

    def test_gc_frees(self):
        base = td2048._live_handles()
        path = Nets.get().py_file

        def rss():
            with open("/proc/self/statm") as f:
                return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        for i in range(300):
            net = td2048.load(path)
            net.value([[2, 0, 0, 0]] + [[0] * 4] * 3)
            env = td2048.Env()
            env.step(0)
            del net, env
            if i == 50:
                gc.collect()
                start = rss()
        gc.collect()
        self.assertEqual(td2048._live_handles(), base)
        # 250 networks of 512 KiB each would be 125 MiB if kept.
        self.assertLess(rss() - start, 40 << 20)

    @unittest.skipUnless(hasattr(os, "fork"), "no fork")
    def test_fork_refused(self):
        code = ("import os, td2048\nenv = td2048.Env()\npid = os.fork()\n"
                "if pid == 0:\n"
                "    try:\n        env.step(0)\n    except RuntimeError as e:\n"
                "        if 'spawn' not in str(e):\n            os._exit(2)\n    else:\n        os._exit(4)\n"
                "    try:\n        td2048.Env()\n    except RuntimeError as e:\n"
                "        os._exit(0 if 'spawn' in str(e) else 2)\n    os._exit(3)\n"
                "_, st = os.waitpid(pid, 0)\nraise SystemExit(os.waitstatus_to_exitcode(st))\n")
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)


class TestReference(unittest.TestCase):
    def test_reference_is_current(self):
        sys.path.insert(0, os.path.dirname(HERE))
        import gendoc
        path = os.path.join(os.path.dirname(HERE), "..", "docs", "reference", "python.md")
        with open(path) as f:
            self.assertEqual(f.read(), gendoc.render(), "docs/reference/python.md is stale: run python3 python/gendoc.py")


if __name__ == "__main__":
    unittest.main()
