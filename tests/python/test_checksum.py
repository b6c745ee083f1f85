"""A file level's checksum from Python: a damaged byte anywhere in a state
stops the run (unittest, Debian's python3-numpy; exits 77, a skip,
without numpy).

ctest runs this as `python_checksum` with UTURN_LIBRARY at the build
tree's libuturn and PYTHONPATH at bindings/python. States are numpy
uint8 arrays of 1, 17, 64 and 4099 bytes; the plan (plan text, so which
state is restored when is known) keeps every state on a file level. From
inside the first adjoint callback, the test finds x_3 in the run's slots
file by its bytes at a slot boundary (<uturn.h>: slots start at multiples
of 16 and take the stride, uturn.Executor.slot_bytes) and flips its
first, a middle or its last byte. The run must raise uturn.Error with
UTURN_E_IO naming x_3, the file and the checksum, overlapped and
synchronous, through the state and through save/load, and no adjoint may
see a state other than its own. The truth is the model's own formula for
every state, x_i[j] = 1 + 29 i + 7 j (mod 256).
"""
import os
import shutil
import sys
import tempfile
import time
import unittest

try:
    import numpy as np
except ImportError:
    print("skipped: numpy is not installed (python3-numpy)")
    sys.exit(77)

import uturn

E_IO = 9  # <uturn.h>
STEPS, VICTIM = 10, 3  # x_3 is restored six restores after the damage
SIZES = (1, 17, 64, 4099)


def state(step, size):
    """x_step of the model, from its formula."""
    j = np.arange(size, dtype=np.int64)
    return ((1 + 29 * step + 7 * j) % 256).astype(np.uint8)


def all_on_disk():
    """Store x_i in disk slot 1 + i on the way up, restore each on the way
    down; memory's one slot stays unused."""
    lines = ["uturn-plan 2", "steps %d" % STEPS, "slots %d" % (STEPS + 1),
             "level mem 1 0 0", "level disk %d 1 1" % STEPS]
    for i in range(STEPS):
        lines += ["store %d %d" % (i, i + 1), "advance %d %d" % (i, i + 1)]
    lines.append("turn")
    for i in reversed(range(STEPS)):
        lines += ["restore %d %d" % (i, i + 1), "reverse %d" % i,
                  "free %d" % (i + 1)]
    return uturn.Plan.parse("\n".join(lines) + "\n")


class Model:
    """x_{i+1} = x_i + 29 (bytes, mod 256); the first adjoint damages
    byte ``pos`` of x_VICTIM in the run's file (``pos`` None: no damage)."""

    def __init__(self, size, parent, stride, pos):
        self.size, self.parent, self.stride, self.pos = size, parent, stride, pos
        self.x = state(0, size)
        self.adjoints, self.wrong, self.path = 0, 0, None

    def forward(self, step):
        self.x += np.uint8(29)

    def turn(self):
        pass

    def adjoint(self, step):
        self.adjoints += 1
        if not np.array_equal(self.x, state(step, self.size)):
            self.wrong += 1
        if self.pos is not None and self.path is None:
            self.damage()

    def save(self, step, dst):
        dst[:] = self.x.tobytes()

    def load(self, step, src):
        self.x[:] = np.frombuffer(src, dtype=np.uint8)

    def damage(self):
        runs = [e for e in os.listdir(self.parent) if e.startswith("uturn-")]
        assert len(runs) == 1, runs
        self.path = os.path.join(self.parent, runs[0], "slots")
        fd = os.open(self.path, os.O_RDWR)
        try:
            at = self.find(fd) + self.pos
            byte = os.pread(fd, 1, at)[0] ^ 0xA5
            assert os.pwrite(fd, bytes([byte]), at) == 1
        finally:
            os.close(fd)

    def find(self, fd):
        """The slot holding x_VICTIM's bytes (an overlapped write may still
        be on its way: polled for a few seconds)."""
        want = state(VICTIM, self.size).tobytes()
        for _ in range(500):
            data = os.pread(fd, os.fstat(fd).st_size, 0)
            found = [at for at in range(0, len(data), self.stride)
                     if data[at:at + self.size] == want]
            assert len(found) <= 1, found
            if found:
                return found[0]
            time.sleep(0.01)
        raise AssertionError("x_%d is not in %s" % (VICTIM, self.path))


def positions(size):
    """The first, a middle and the last byte."""
    return sorted({0, size // 2, size - 1})


class Checksum(unittest.TestCase):
    def run_model(self, ex, plan, model, save_load):
        if save_load:
            return ex.run(plan, None, model.forward, model.turn,
                          model.adjoint, save=model.save, load=model.load,
                          state_bytes=model.size)
        return ex.run(plan, model.x, model.forward, model.turn, model.adjoint)

    def one(self, size, pos, synchronous, save_load):
        parent = tempfile.mkdtemp(prefix="uturn-py-sum-")
        self.addCleanup(shutil.rmtree, parent, True)
        storage = uturn.file_storage(parent, synchronous=synchronous)
        with uturn.Executor(levels=[storage]) as ex, all_on_disk() as plan:
            model = Model(size, parent, ex.slot_bytes(size), pos)
            with self.assertRaises(uturn.Error) as cm:
                self.run_model(ex, plan, model, save_load)
            error = cm.exception
            self.assertIsNotNone(model.path, "the damage was never made")
            self.assertEqual(error.status, E_IO, str(error))
            self.assertEqual(error.report.failed_step, VICTIM, str(error))
            for word in ["checkpoint x_%d " % VICTIM, model.path,
                         "checksum mismatch"]:
                self.assertIn(word, str(error))
            self.assertEqual(model.wrong, 0, "an adjoint saw a damaged state")
            self.assertEqual(model.adjoints, STEPS - 1 - VICTIM)
            self.assertEqual(os.listdir(parent), [])
            model = Model(size, parent, ex.slot_bytes(size), None)
            self.run_model(ex, plan, model, save_load)
            self.assertEqual((model.adjoints, model.wrong), (STEPS, 0))

    def every_case(self, synchronous):
        for size in SIZES:
            for pos in positions(size):
                for save_load in (False, True):
                    with self.subTest(size=size, pos=pos,
                                      save_load=save_load):
                        self.one(size, pos, synchronous, save_load)

    def test_an_overlapped_run_stops_at_a_damaged_byte_anywhere(self):
        self.every_case(False)

    def test_a_synchronous_run_stops_at_a_damaged_byte_anywhere(self):
        self.every_case(True)


if __name__ == "__main__":
    unittest.main()
