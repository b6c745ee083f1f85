"""Plans: made by a planner or parsed from plan text, their predicted
counts, per-level counts, fingerprint and actions (read through cursors
that close() invalidates, never leaves dangling): as an iterator
(actions()) or a Cursor for a loop of the caller's own (cursor())."""

import contextlib
import ctypes

from . import _checks, _problems
from ._cursors import Cursor, RawCursor, read_buffer
from ._errors import check, error_info
from ._load import lib
from ._problems import Problem
from ._protos import OK
from ._structs import Action, LevelStats, Stats, u64

class Plan:
    """An immutable plan. Free it with close() (or a with block); a closed
    plan raises ValueError("uturn: the plan is closed") when used. Closing
    a plan ends its actions() iterators (their next() raises ValueError);
    closing it during a run that uses it raises ValueError."""

    _free = lib.uturn_plan_free  # kept for __del__ at interpreter exit

    def __init__(self, handle):
        self._handle = handle
        self._cursors = set()
        self._runs = 0

    @classmethod
    def create(cls, prob):
        """uturn_plan_create() for the Problem ``prob`` (slots counted as
        the problem says; Executor.plan() counts them at their real
        cost)."""
        prob_arg = _problems.problem_arg(prob)
        handle, (info, info_ref) = ctypes.c_void_p(), error_info()
        check(lib.uturn_plan_create(prob_arg, None, ctypes.byref(handle),
                                    info_ref), info)
        return cls(handle)

    @classmethod
    def parse(cls, text):
        """uturn_plan_parse() of plan text (a str, or bytes)."""
        if isinstance(text, str):
            data = text.encode()
        elif isinstance(text, (bytes, bytearray, memoryview)):
            data = bytes(text)
        else:
            raise ValueError("uturn: text must be plan text, a str or "
                             "bytes, not %s" % _checks.shown(text))
        handle, (info, info_ref) = ctypes.c_void_p(), error_info()
        check(lib.uturn_plan_parse(data, len(data), None,
                                   ctypes.byref(handle), info_ref), info)
        return cls(handle)

    @property
    def handle(self):
        """The uturn_plan_t pointer, for the raw ``lib`` calls."""
        if not self._handle:
            raise ValueError("uturn: the plan is closed")
        return self._handle

    def stats(self):
        """The predicted counts (Stats), fingerprint and cost included."""
        out = Stats()
        check(lib.uturn_plan_stats(self.handle, ctypes.byref(out)))
        return out

    def problem(self):
        """The problem as the plan resolved it (a Problem of its own: its
        arrays and levels are copies, valid after close())."""
        out = Problem()
        check(lib.uturn_plan_problem(self.handle, ctypes.byref(out)))
        return _problems.detached(out)

    def fingerprint(self):
        """The plan's fingerprint, a 64-bit int (the CLI prints it as 16
        hex digits: "%016x" % plan.fingerprint())."""
        out = u64()
        check(lib.uturn_plan_fingerprint(self.handle, ctypes.byref(out)))
        return out.value

    def level_stats(self, level):
        """The counts of storage level ``level`` (0: memory) as LevelStats;
        its name is a copy, valid after close()."""
        level = _checks.integer("level", level)
        out = LevelStats()
        status = lib.uturn_plan_level_stats(self.handle, level,
                                            ctypes.byref(out))
        if status != OK:
            check(status, note="level was %d; the plan has %d"
                  % (level, self.stats().levels))
        out.name = out.name  # a Python copy, not the plan's memory
        return out

    def levels(self):
        """LevelStats of every storage level, memory first."""
        return [self.level_stats(k) for k in range(self.stats().levels)]

    def _ends(self, what):
        """Raise ValueError for an online plan without max_steps: nothing
        but a cursor's end() ends it, so ``what`` would never return."""
        if self.stats().online and self.problem().max_steps == 0:
            raise ValueError(
                "uturn: %s of an online plan without max_steps never ends "
                "(nothing says the end): walk it with cursor() and say the "
                "end with Cursor.end(), or plan with max_steps=M" % what)

    def walk(self):
        """Validate every action; returns the observed counts. An online
        plan is walked to its max_steps, where its first sweep ends by
        itself (ValueError without one: it would never end)."""
        self._ends("walk()")  # raises if the plan is closed, too
        out, (info, info_ref) = Stats(), error_info()
        check(lib.uturn_plan_walk(self.handle, ctypes.byref(out), info_ref),
              info)
        return out

    def actions(self, batch=256):
        """An iterator over the actions, read through a cursor ``batch``
        (at least 1; reads are of 64 or more) at a time. The arguments and
        the plan are checked here, not at the first next(). An online
        plan's actions() cannot say the end: they end at max_steps
        (ValueError without one; use cursor() to say it)."""
        batch = _checks.integer("batch", batch, "size_t", least=1)
        self._ends("actions()")  # raises if the plan is closed, too
        return self._actions(batch)

    def _actions(self, batch):
        cursor = RawCursor(self)
        buf, count = read_buffer(batch), ctypes.c_size_t()
        try:
            while True:
                cursor.read(buf, count)
                if count.value == 0:
                    return
                for i in range(count.value):
                    cursor.check()  # the plan may close between actions
                    yield Action.from_buffer_copy(buf[i])
        finally:
            cursor.free()

    def cursor(self, batch=256):
        """A Cursor over the actions for a time loop of your own: iterate
        it and perform each action; for an online plan say the end
        (Cursor.end()) right after an advance of the first sweep, give
        sizes in bytes mode (Cursor.set_size()) and read the realised
        counts (Cursor.stats()). Close it (or use a with block) when done;
        closing the plan closes it. ``batch`` (at least 1; reads are of
        64 or more): actions read from the library at a time."""
        batch = _checks.integer("batch", batch, "size_t", least=1)
        return Cursor(self, batch)

    @contextlib.contextmanager
    def in_use(self):
        """The plan is in a run: close() refuses until it returns."""
        handle = self.handle
        self._runs += 1
        try:
            yield handle
        finally:
            self._runs -= 1

    def close(self):
        """Free the plan (and end its actions() iterators). Closing twice
        is fine; closing during a run that uses the plan is ValueError."""
        if self._runs:
            raise ValueError("uturn: the plan is in use by a run, or by a "
                             "trajectory held for further sweeps; close it "
                             "after Executor.run() returns (and after the "
                             "last Executor.sweep() or release())")
        for cursor in list(self._cursors):
            cursor.free()
        if self._handle:
            self._free(self._handle)
            self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_runs", 0) == 0:
            self.close()
