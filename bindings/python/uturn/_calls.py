"""Python callbacks behind C function pointers.

Nothing a Python callback does may unwind through the library: every
exception (KeyboardInterrupt too) is caught at the boundary, kept, and the
callback returns non-zero, so that the run stops cleanly and frees what it
holds; once one callback has failed, every later one of the run returns
non-zero at once. The run then raises the kept exception (see outcome()).
"""

import operator
import traceback

from . import _checks
from ._buffers import SlotView

KEPT_VIEW = (
    "the %s callback kept a view of the slot's memory after it returned "
    "(a slice or cast of the memoryview, or np.frombuffer() of it without "
    ".copy()); that memory belongs to the executor, which reuses and frees "
    "it: copy what you need inside the callback (x[:] = np.frombuffer(src, "
    "x.dtype), or np.frombuffer(src, x.dtype).copy())")


def code_of(result):
    """What a Python callback's result tells the library: 0 (continue)
    for None and the integer 0; any other integer that is a C int is
    passed on (the library's message shows it); everything else (bools,
    floats, other integers, strings, ...) is 1, stop."""
    if result is None:
        return 0
    if _checks.is_integer(result):
        n = operator.index(result)
        low, high = _checks.c_int_range()
        if low <= n <= high:
            return n
    return 1


class Calls:
    """The callbacks of one run, as Python sees them: ``raised`` is the
    first exception one raised and ``raised_by`` its name; ``stopped`` the
    first result other than an integer that stopped the run."""

    def __init__(self):
        self.raised = None
        self.raised_by = None
        self.stopped = None

    def fail(self, name, exc):
        """Keep the first exception of the run."""
        if self.raised is None:
            self.raised, self.raised_by = exc, name

    def result(self, result):
        """The code for a callback's result; keeps a stop that is not an
        integer for the message."""
        code = code_of(result)
        if code == 1 and self.stopped is None and not (
                _checks.is_integer(result) and result == 1):
            self.stopped = result
        return code

    def int_call(self, name, fn, *args):
        """fn(*args) for a callback that returns an int to the library."""
        if self.raised is not None:
            return 1
        try:
            return self.result(fn(*args))
        except BaseException as exc:  # raised again after the run
            self.fail(name, exc)
            return 1

    def void_call(self, name, fn, *args):
        """fn(*args) for a callback whose result the library ignores
        (storage drop and close): it runs even after a failure."""
        try:
            fn(*args)
        except BaseException as exc:
            self.fail(name, exc)

    def flag_call(self, name, fn, *args):
        """fn(*args) for a predicate (is_last): 1 when its result is true
        as Python's ``if`` has it (True, a non-zero number, numpy's True),
        0 when it is None or false. An exception is kept and 0 returned:
        the run's next callback then stops it (the library gives a
        predicate no way to stop a run)."""
        if self.raised is not None:
            return 0
        try:
            return 1 if fn(*args) else 0
        except BaseException as exc:  # raised again after the run
            self.fail(name, exc)
            return 0

    def view_call(self, name, fn, args, memory, view=None, tail=()):
        """fn(*args, v, *tail) where v is a view of ``memory`` (address,
        bytes, writable), or view(v) when ``view`` is given, valid for this
        call only."""
        if self.raised is not None:
            return 1
        slot = None
        try:
            slot = SlotView(*memory)
            arg = slot.view if view is None else view(slot.view)
            code = self.result(fn(*args, arg, *tail))
            del arg
        except BaseException as exc:
            # The traceback's frames hold the callback's locals, views of
            # the slot among them: drop them before the slot is reused.
            traceback.clear_frames(exc.__traceback__)
            if slot is not None:
                slot.close()
            self.fail(name, exc)
            return 1
        if not slot.close():
            self.fail(name, ValueError("uturn: " + KEPT_VIEW % name))
            return 1
        return code

    def size_call(self, name, fn, step, fallback):
        """fn(step) for state_size: an integer from 1 to 2**64-1. Anything
        else (or an exception) is kept as the run's failure, and
        ``fallback`` goes to the library, whose next callback stops."""
        if self.raised is not None:
            return fallback
        try:
            return _checks.integer("the state_size callback's result",
                                   fn(step), least=1)
        except BaseException as exc:
            self.fail(name, exc)
            return fallback
