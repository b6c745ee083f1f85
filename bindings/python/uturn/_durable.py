"""Durable runs from Python: Durable (the directory, its tag, interval and
mode, and the request flag a signal handler sets), the adjoint state's
save and load for Executor.run(durable=..., adjoint_state=...), and what
a directory holds (durable_inspect) and its removal (durable_remove)."""

import ctypes
import numbers
import os

from . import _checks
from ._buffers import state_buffer
from ._errors import Error, error_info
from ._load import lib
from ._protos import OK
from ._structs import LOAD_ADJOINT, SAVE_ADJOINT, DurableInfo

MODES = {"new": 0, "resume": 1, "auto": 2}
POINT, STOP = 1, 2  # UTURN_DURABLE_POINT, UTURN_DURABLE_STOP


class Durable:
    """A durable run's directory (made if missing; one run holds it at a
    time), the model's identity ``tag`` (checked at resume), a point every
    ``interval`` seconds (0: only on request) and the ``mode``: "new"
    (refuse a directory holding a point), "resume" (need one) or "auto"
    (resume when there is one, else start). ``point()`` and ``stop()`` ask
    for a point (and a stop: the run raises uturn.Error with status
    E_STOPPED) from anywhere, a signal handler included."""

    def __init__(self, directory, tag="", interval=0.0, mode="new"):
        if not isinstance(directory, (str, bytes, os.PathLike)):
            raise ValueError("uturn: durable directory must be a path, not "
                             "%s" % _checks.shown(directory))
        if mode not in MODES:
            raise ValueError("uturn: durable mode must be one of %s, not %s"
                             % (", ".join(sorted(MODES)), _checks.shown(mode)))
        if not isinstance(tag, str):
            raise ValueError("uturn: durable tag must be a str, not %s"
                             % _checks.shown(tag))
        # a number of seconds, not "5" or True (float() takes both)
        if isinstance(interval, bool) or not isinstance(interval,
                                                        numbers.Real):
            raise ValueError("uturn: durable interval must be a number of "
                             "seconds, not %s" % _checks.shown(interval))
        self.directory = _checks.text("durable directory", directory)
        self.tag = tag.encode()
        self.interval = float(interval)
        self.mode = mode
        self.request = ctypes.c_int(0)

    def point(self):
        """Ask the run for a durable point, then go on."""
        self.request.value = POINT

    def stop(self):
        """Ask the run for a durable point, then stop (E_STOPPED)."""
        self.request.value = STOP

    def apply(self, options, keep):
        """Fill the RunOptions' durable fields (``keep`` holds what the
        library points at for the run's length)."""
        options.durable_dir = self.directory
        options.durable_tag = self.tag
        options.durable_interval = self.interval
        options.durable_request = ctypes.pointer(self.request)
        options.durable_mode = MODES[self.mode]
        keep += [self.directory, self.tag]


def adjoint_callbacks(model, adjoint_state, calls, keep):
    """save_adjoint/load_adjoint copying the writable buffer
    ``adjoint_state`` (everything the turn and adjoint callbacks keep
    between calls) out and back in."""
    buffer, nbytes = state_buffer(adjoint_state, "adjoint_state")
    keep.append(buffer)
    address = ctypes.addressof(buffer)

    def save(dst, n):
        ctypes.memmove(dst, address, n)

    def load(src, n):
        ctypes.memmove(address, src, n)

    c_save = SAVE_ADJOINT(lambda _u, dst, n: calls.int_call(
        "save_adjoint", save, dst, n))
    c_load = LOAD_ADJOINT(lambda _u, src, n: calls.int_call(
        "load_adjoint", load, src, n))
    keep += [c_save, c_load]
    model.adjoint_bytes = nbytes
    model.save_adjoint, model.load_adjoint = c_save, c_load


def _path(directory):
    """A durable directory as C takes it: a path, never cut short at a NUL
    character (it had named another directory: the part before it)."""
    if directory is None:
        raise ValueError("uturn: durable directory must be a path, not None")
    return _checks.text("durable directory", directory)


def durable_inspect(directory, point=0):
    """What a durable directory holds: a DurableInfo (has_point False when
    there is none); every file is checked against its checksum. point:
    one rank's part of a run across processes (DIR/rank-R of the MPI
    layer) at the point its commit record names; 0, the directory's own
    point (uturn_durable_inspect_point)."""
    point = _checks.integer("point", point)
    path = _path(directory)
    out = DurableInfo()
    info, ref = error_info()
    status = lib.uturn_durable_inspect_point(path, point, ctypes.byref(out),
                                             ref)
    if status != OK:
        raise Error(status, info)
    return out


def durable_remove(directory):
    """Remove a durable directory's files (refused while a run holds it)."""
    path = _path(directory)
    info, ref = error_info()
    status = lib.uturn_durable_remove(path, ref)
    if status != OK:
        raise Error(status, info)
