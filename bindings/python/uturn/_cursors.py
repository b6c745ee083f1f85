"""Cursors over a plan's actions: the raw handle that Plan.close() frees
first (a cursor must not outlive its plan), and Cursor, the public one,
for a time loop of the caller's own: it hands out one action at a time
and, for an online plan, is told the end (end()), each state's size in
bytes mode (set_size()) and gives the realised counts (stats())."""

import ctypes

from . import _checks
from ._errors import Error, check
from ._load import lib
from ._protos import (E_INFEASIBLE, E_INVALID_ARG, E_NOMEM, E_UNSUPPORTED, NONE,
                      OK)
from ._structs import Action, Stats

CLOSED_WHILE_READING = (
    "uturn: the plan was closed while its actions() were being read; "
    "read them all first (list(plan.actions())), or close the plan after "
    "the loop")

CLOSED_UNDER_CURSOR = (
    "uturn: the cursor is closed (its plan was closed, or close() was "
    "called): close the plan after the loop that uses its cursor")

STOPPED_EARLY = (
    "uturn: the online plan stopped before its end was said (the step "
    "count is still unknown): a state's size was missing or did not fit. "
    "In bytes mode (a byte budget alone) give set_size(0, nbytes) before "
    "the first action and set_size(k, nbytes) right after each advance "
    "k-1 k of the first sweep, before asking for the next action; the plan "
    "cannot go on")


# What uturn_cursor_read() returns, with no action, for an online plan
# that stopped before its end was said.
STOPPED_STATUSES = (E_INVALID_ARG, E_INFEASIBLE, E_NOMEM)

# The fewest actions a read asks for, whatever the batch: with room for
# fewer than its generator writes at once (4 in 0.2), uturn_cursor_read()
# on an online plan returns no action after an advance of the first
# sweep, which reads as the end of the plan. The cursor's own buffer
# holds 64.
LEAST_READ = 64


def read_buffer(batch):
    """An array of Action for reads of ``batch`` actions (at least
    LEAST_READ)."""
    return (Action * max(batch, LEAST_READ))()


class RawCursor:
    """A uturn_cursor_t of a plan, registered with the plan so that
    Plan.close() frees it first. ``closed`` is the message of the
    ValueError that using it after that raises."""

    _free = lib.uturn_cursor_free  # kept for interpreter exit

    def __init__(self, plan, closed=CLOSED_WHILE_READING):
        handle = ctypes.c_void_p()
        check(lib.uturn_cursor_create(plan.handle, None,
                                      ctypes.byref(handle)))
        self._handle = handle
        self._plan = plan
        self._closed = closed
        plan._cursors.add(self)

    @property
    def handle(self):
        """The uturn_cursor_t pointer; ValueError once it is freed."""
        self.check()
        return self._handle

    def check(self):
        """Raise ValueError once the plan has closed the cursor."""
        if not self._handle:
            raise ValueError(self._closed)

    def read(self, buf, count):
        """Read up to len(buf) actions into buf; count gets how many. A
        read of nothing is the end, or an online plan that stopped before
        its end was said (its status, which the callers tell apart by the
        step count, is not raised here)."""
        status = lib.uturn_cursor_read(self.handle, buf, len(buf),
                                       ctypes.byref(count))
        if count.value != 0 or status not in STOPPED_STATUSES:
            check(status)

    def free(self):
        """Free the cursor (once) and forget it in its plan."""
        if self._handle:
            self._free(self._handle)
            self._handle = None
            self._plan._cursors.discard(self)


class Cursor:
    """The actions of a plan, one at a time, for a loop of your own
    (Plan.cursor()). Iterate it (``for action in c``, or next(c)); each
    action is an Action (op, step, step_end, slot) your loop performs:
    advance, store, restore, free, turn, reverse.

    Online plans (the step count unknown): during the first sweep the
    cursor hands out one ``advance i i+1`` at a time, with the stores and
    frees for x_i before it. Right after such an advance (while your loop
    handles it, before it asks for the next action), ``c.end()`` says
    "the live state x_{i+1} is the last": the actions that follow are the
    reversal, planned for the checkpoints held then. ``c.steps`` is None
    until n is known (said, or the plan's max_steps reached), so
    ``c.steps is None`` tells an advance of the first sweep. In bytes
    mode (a byte budget alone) give each state's size as the sweep
    reaches it: ``c.set_size(0, nbytes)`` before the first action, then
    ``c.set_size(k, nbytes)`` after advance k-1 k. ``c.stats()`` gives
    the realised counts: of the actions read from the plan so far (the
    cursor reads up to ``batch`` (at least 64) ahead, in the first sweep
    never past the next advance), of all of them once the iteration has
    ended.

    Close it with close() or a with block; closing its plan closes it
    too. One thread at a time per cursor."""

    def __init__(self, plan, batch):
        stats = plan.stats()
        self._plan = plan
        self._online = stats.online
        self._bytes_mode = (stats.online and stats.slot_bytes == 0
                            and stats.budget_bytes != 0)
        self._raw = RawCursor(plan, CLOSED_UNDER_CURSOR)
        self._buf, self._count = read_buffer(batch), ctypes.c_size_t()
        self._head, self._ended = 0, False
        self._last = None

    @property
    def online(self):
        """True for an online plan's cursor."""
        return self._online

    @property
    def steps(self):
        """n: for an online plan None until it is known (end() said it, or
        the plan's max_steps was reached), then the steps the plan
        reverses; for any other plan its steps."""
        if not self._online:
            return self._plan.stats().steps
        steps = self._cursor_stats().steps
        return None if steps == NONE else steps

    def __iter__(self):
        return self

    def __next__(self):
        """The next action; StopIteration at the end of the plan."""
        self._raw.check()
        if self._head == self._count.value:
            if self._ended:
                raise StopIteration
            self._raw.read(self._buf, self._count)
            self._head = 0
            if self._count.value == 0:
                if self._online and self.steps is None:
                    raise ValueError(STOPPED_EARLY)
                self._ended = True
                raise StopIteration
        action = Action.from_buffer_copy(self._buf[self._head])
        self._head += 1
        self._last = action
        return action

    def _what_came(self):
        """Where the cursor is, for a message."""
        if self._last is None:
            return "no action has been handed out yet"
        return "the last action handed out was `%s`" % self._last

    def end(self):
        """Say that the live state is the last: valid right after the
        cursor handed out an ``advance i i+1`` of an online plan's first
        sweep (then n = i + 1). Raises uturn.Error: UTURN_E_UNSUPPORTED
        for a plan that knows its steps, UTURN_E_INVALID_ARG anywhere
        else (before the first action, after a store or free, during the
        reversal, a second time)."""
        handle = self._raw.handle
        waiting = self._count.value - self._head
        if waiting:
            raise Error(E_INVALID_ARG, note=(
                "end() is valid right after an advance of the first sweep; "
                "%s, and %d more %s from the plan %s to be handed out" % (
                    self._what_came(), waiting,
                    "action read" if waiting == 1 else "actions read",
                    "waits" if waiting == 1 else "wait")))
        status = lib.uturn_cursor_end(handle)
        if status == E_UNSUPPORTED:
            raise Error(status, note=(
                "end() is for online plans (planner \"online\", steps 0); "
                "this plan knows its steps (n = %d)"
                % self._plan.stats().steps))
        if status != OK:
            known = self.steps
            raise Error(status, note=(
                "end() is valid right after the cursor hands out an advance "
                "i i+1 of the first sweep; %s%s" % (
                    self._what_came(),
                    "" if known is None else
                    ", and the end is known already (n = %d)" % known)))

    def set_size(self, step, nbytes):
        """Bytes mode (an online plan with a byte budget alone): the size
        of x_step, the state just reached (x_0 before the first action;
        x_k right after advance k-1 k of the first sweep). Raises
        uturn.Error from the library: UTURN_E_INFEASIBLE when x_0 alone
        does not fit the budget; UTURN_E_INVALID_ARG when step is not the
        state just reached, or the plan is not in bytes mode (the header
        documents UTURN_E_UNSUPPORTED there; the library says
        UTURN_E_INVALID_ARG for an online plan with slots);
        UTURN_E_UNSUPPORTED for a plan that knows its steps."""
        step = _checks.integer("step", step)
        nbytes = _checks.integer("nbytes", nbytes, least=1)
        status = lib.uturn_cursor_set_size(self._raw.handle, step, nbytes)
        if status == OK:
            return
        if not self._bytes_mode:
            note = ("set_size() is for an online plan with a byte budget "
                    "alone (bytes mode: problem(0, planner=\"online\", "
                    "budget_bytes=B)); this plan %s" % (
                        "has uniform slots" if self._online
                        else "knows its steps"))
        elif status == E_INFEASIBLE:
            note = ("x_%d of %d bytes does not fit the budget of %d bytes"
                    % (step, nbytes, self._plan.stats().budget_bytes))
        else:
            note = ("step %d is not the state just reached: give x_0's size "
                    "before the first action, then x_k's right after "
                    "advance k-1 k of the first sweep; %s"
                    % (step, self._what_came()))
        raise Error(status, note=note)

    def stats(self):
        """The realised counts of an online plan (Stats): of the actions
        read so far, with steps UTURN_NONE until n is known. A plan
        that knows its steps has its counts in Plan.stats() (uturn.Error,
        UTURN_E_UNSUPPORTED, here)."""
        status, out = self._stats_status()
        if status == E_UNSUPPORTED:
            raise Error(status, note="this plan knows its steps: its counts "
                        "are Plan.stats()")
        check(status)
        return out

    def _stats_status(self):
        out = Stats()
        return lib.uturn_cursor_stats(self._raw.handle,
                                      ctypes.byref(out)), out

    def _cursor_stats(self):
        status, out = self._stats_status()
        check(status)
        return out

    def close(self):
        """Free the cursor; closing twice is fine."""
        self._raw.free()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        raw = getattr(self, "_raw", None)
        if raw is not None:
            raw.free()

