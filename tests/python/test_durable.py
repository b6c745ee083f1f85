"""Durable runs from Python (unittest, numpy; exits 77, a skip, without
numpy).

ctest runs this as `python_durable`. A run of an Allen-Cahn model with
durable points is killed with SIGKILL at a random callback in a child
process and resumed in a new one; the resumed gradient must equal, bit
for bit, a hand-written adjoint that keeps every state (independent of
uturn). Also: a stop on request (Durable.stop() from a callback, as a
signal handler would), durable_inspect and durable_remove, and what the
binding refuses.
"""
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import unittest

try:
    import numpy as np
except ImportError:
    print("skipped: numpy is not installed (python3-numpy)")
    sys.exit(77)

import uturn
from test_numpy import step, step_bar  # the same Allen-Cahn step

GRID, STEPS = 32, 120


def start():
    grid = np.arange(GRID) / GRID
    return 0.6 * np.sin(2 * np.pi * grid) + 0.3 * np.cos(6 * np.pi * grid)


def reference():
    """The gradient with every state kept, by hand."""
    xs = [start()]
    for _ in range(STEPS):
        xs.append(step(xs[-1]))
    bar = xs[STEPS].copy()
    for i in range(STEPS - 1, -1, -1):
        bar = step_bar(xs[i], bar)
    return bar


class Model:
    """In place, with the adjoint state (xbar and J) in one array."""

    def __init__(self, kill_at=0, stop_at=0, durable=None, tag="allen-cahn"):
        self.x = start()
        self.tag = tag
        self.adj = np.zeros(GRID + 1)  # xbar, then J
        self.calls = self.forwards = 0
        self.kill_at, self.stop_at, self.durable = kill_at, stop_at, durable

    def tick(self):
        self.calls += 1
        if self.calls == self.kill_at:
            os.kill(os.getpid(), signal.SIGKILL)

    def forward(self, i):
        self.tick()
        self.x[:] = step(self.x)
        self.forwards += 1
        if self.forwards % 9 == 0:
            self.durable.point()
        if self.forwards == self.stop_at:
            self.durable.stop()

    def turn(self):
        self.tick()
        self.adj[:GRID] = self.x
        self.adj[GRID] = 0.5 * float(np.dot(self.x, self.x))

    def adjoint(self, i):
        self.tick()
        self.adj[:GRID] = step_bar(self.x, self.adj[:GRID])

    def run(self, directory, mode):
        self.durable = uturn.Durable(directory, tag=self.tag,
                                     mode=mode)
        plan = uturn.Plan.create(uturn.problem(STEPS, slots=5))
        with uturn.Executor() as ex:
            return ex.run(plan, self.x, self.forward, self.turn,
                          self.adjoint, durable=self.durable,
                          adjoint_state=self.adj)


def child(directory, kill_at, out):
    """A run in its own process: its gradient and counts into out."""
    m = Model(kill_at=int(kill_at))
    observed, report = m.run(directory, "auto")
    np.save(out, np.concatenate([m.adj[:GRID], [m.forwards,
                                 report.resumed_forward_steps,
                                 observed.forward_steps]]))


class Durable(unittest.TestCase):
    def setUp(self):
        self.parent = tempfile.mkdtemp(prefix="uturn-durable-")
        self.addCleanup(shutil.rmtree, self.parent)
        self.dir = os.path.join(self.parent, "run")

    def spawn(self, kill_at):
        out = os.path.join(self.parent, "out.npy")
        env = dict(os.environ)
        proc = subprocess.run([sys.executable, __file__, "child", self.dir,
                               str(kill_at), out], env=env)
        return proc.returncode, out

    def test_killed_and_resumed_in_new_processes_bitwise(self):
        want = reference()
        rc, out = self.spawn(0)
        self.assertEqual(rc, 0)
        whole = np.load(out)
        self.assertTrue(np.array_equal(whole[:GRID], want))
        planned = int(whole[GRID + 2])
        rng = random.Random(20261202)
        for kill_at in sorted(rng.sample(range(1, planned + STEPS), 5)):
            rc, _ = self.spawn(kill_at)
            self.assertEqual(rc, -signal.SIGKILL, "kill at %d" % kill_at)
            info = uturn.durable_inspect(self.dir)
            done = info.forward_steps if info.has_point else 0
            rc, out = self.spawn(0)
            self.assertEqual(rc, 0)
            got = np.load(out)
            self.assertTrue(np.array_equal(got[:GRID], want),
                            "kill at %d" % kill_at)
            self.assertEqual(int(got[GRID]), planned - done)
            self.assertEqual(int(got[GRID + 1]), done)
            self.assertFalse(os.path.exists(self.dir))

    def test_stop_inspect_resume_and_remove(self):
        m = Model(stop_at=50)
        with self.assertRaises(uturn.Error) as caught:
            m.run(self.dir, "new")
        self.assertEqual(caught.exception.status, uturn.E_STOPPED)
        info = uturn.durable_inspect(self.dir)
        self.assertTrue(info.has_point)
        self.assertEqual(info.forward_steps, 50)
        self.assertEqual(info.tag, b"allen-cahn")
        # point 0 is the directory's own; a numbered point (a rank's part
        # of a run across processes) that is not there: none
        self.assertEqual(uturn.durable_inspect(self.dir, 0).forward_steps, 50)
        self.assertFalse(uturn.durable_inspect(self.dir, 7).has_point)
        with self.assertRaises(ValueError):
            uturn.durable_inspect(self.dir, -1)
        resumed = Model()
        resumed.x[:] = 0.0  # the resume must not depend on it
        resumed.run(self.dir, "resume")
        self.assertTrue(np.array_equal(resumed.adj[:GRID], reference()))
        m = Model(stop_at=30)
        with self.assertRaises(uturn.Error):
            m.run(self.dir, "new")
        uturn.durable_remove(self.dir)
        self.assertFalse(os.path.exists(self.dir))

    def test_show_gives_any_tag_on_one_line(self):
        # a tag is any bytes: `uturn durable show` must not let a newline
        # in it start a line of its own (a script reads the output line by
        # line), nor let a control byte reach the terminal
        cli = os.environ.get("UTURN_CLI")
        if not cli:
            self.fail("UTURN_CLI is not set (ctest sets it)")
        m = Model(stop_at=50, tag="x_0 = a\nsteps 7\\ \x1b[2J")
        with self.assertRaises(uturn.Error):
            m.run(self.dir, "new")
        self.assertEqual(uturn.durable_inspect(self.dir).tag,
                         b"x_0 = a\nsteps 7\\ \x1b[2J")
        out = subprocess.run([cli, "durable", "show", self.dir],
                             capture_output=True, text=True, check=True)
        lines = out.stdout.splitlines()
        self.assertIn("tag            x_0 = a\\x0asteps 7\\\\ \\x1b[2J",
                      lines)
        self.assertEqual([l for l in lines if l.startswith("steps ")],
                         ["steps          %d" % STEPS])
        self.assertNotIn("\x1b", out.stdout)
        uturn.durable_remove(self.dir)

    def test_show_gives_the_directory_on_one_line(self):
        # a directory's name may hold a newline too; show writes nothing
        # in a directory no run made (it had left a lock file there)
        cli = os.environ.get("UTURN_CLI")
        if not cli:
            self.fail("UTURN_CLI is not set (ctest sets it)")
        odd = os.path.join(self.dir, "a\nb\\c")
        os.makedirs(odd)
        out = subprocess.run([cli, "durable", "show", odd],
                             capture_output=True, text=True, check=True)
        lines = out.stdout.splitlines()
        self.assertEqual(lines[0], "directory      " +
                         odd.replace("\\", "\\\\").replace("\n", "\\x0a"))
        self.assertEqual(lines[1:], ["in_use         no",
                                     "point          none"])
        self.assertEqual(os.listdir(odd), [])

    def test_remove_through_a_link_says_the_directory_stays(self):
        # remove through a symbolic link takes the run's files; the
        # directory stays, and the tool says why (it had said "0 other
        # files stay", as if some had)
        cli = os.environ.get("UTURN_CLI")
        if not cli:
            self.fail("UTURN_CLI is not set (ctest sets it)")
        m = Model(stop_at=50)
        with self.assertRaises(uturn.Error):
            m.run(self.dir, "new")
        link = self.dir + "-link"
        os.symlink(self.dir, link)
        try:
            out = subprocess.run([cli, "durable", "remove", link],
                                 capture_output=True, text=True, check=True)
        finally:
            os.unlink(link)
        self.assertEqual(out.stdout,
                         "removed the durable files of %s; the directory, "
                         "now empty, stays (the name is a symbolic link to "
                         "it)\n" % link)
        self.assertEqual(os.listdir(self.dir), [])

    def test_what_the_binding_refuses(self):
        plan = uturn.Plan.create(uturn.problem(STEPS, slots=5))
        m = Model()
        with uturn.Executor() as ex:
            with self.assertRaisesRegex(ValueError, "adjoint_state"):
                ex.run(plan, m.x, m.forward, m.turn, m.adjoint,
                       durable=uturn.Durable(self.dir))
            with self.assertRaisesRegex(ValueError, "durable runs"):
                ex.run(plan, m.x, m.forward, m.turn, m.adjoint,
                       adjoint_state=m.adj)
            # a bad adjoint_state is named as such, with its own fix
            for bad, why in [(np.zeros(2 * m.adj.size)[::2],
                              "not C-contiguous"),
                             (np.zeros(0), "empty")]:
                with self.assertRaises(ValueError) as cm:
                    ex.run(plan, m.x, m.forward, m.turn, m.adjoint,
                           durable=uturn.Durable(self.dir),
                           adjoint_state=bad)
                text = str(cm.exception)
                self.assertIn("adjoint_state is " + why, text)
                self.assertNotIn("save=", text)
            # a resume refused for want of a point leaves nothing behind
            with self.assertRaisesRegex(uturn.Error, "no durable point"):
                ex.run(plan, m.x, m.forward, m.turn, m.adjoint,
                       durable=uturn.Durable(self.dir, mode="resume"),
                       adjoint_state=m.adj)
            self.assertFalse(os.path.exists(self.dir))
        with self.assertRaisesRegex(ValueError, "mode"):
            uturn.Durable(self.dir, mode="sometimes")
        with self.assertRaises(uturn.Error) as caught:
            uturn.durable_inspect(os.path.join(self.parent, "none"))
        self.assertEqual(caught.exception.status, uturn.E_IO)
        for bad in ("5", True, None, [1]):
            with self.assertRaisesRegex(ValueError, "durable interval"):
                uturn.Durable(self.dir, interval=bad)

    def test_a_nul_in_a_path_is_refused_not_cut(self):
        # the directory up to a NUL is another directory: inspect had
        # read, and remove had removed, the run there
        m = Model(stop_at=50)
        with self.assertRaises(uturn.Error):
            m.run(self.dir, "new")
        for call in (uturn.durable_inspect, uturn.durable_remove):
            for bad in (self.dir + "\0junk", os.fsencode(self.dir) + b"\0"):
                with self.assertRaisesRegex(ValueError, "NUL"):
                    call(bad)
            with self.assertRaisesRegex(ValueError, "durable directory"):
                call(None)
        self.assertTrue(uturn.durable_inspect(self.dir).has_point)
        uturn.durable_remove(self.dir)


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "child":
        child(*sys.argv[2:])
        sys.exit(0)
    unittest.main()
