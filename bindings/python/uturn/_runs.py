"""One Executor.run(): the model and options it hands the library, with
Python callbacks behind their function pointers (kept alive until the run
returns), and what comes back: the counts, or the exception a callback
raised, chained to the library's error."""

import ctypes

from . import _checks, _problems
from ._buffers import state_buffer
from ._durable import Durable, adjoint_callbacks
from ._errors import Error, error_info
from ._load import lib
from ._protos import E_CALLBACK, OK
from ._structs import (ADJOINT, FORWARD, FORWARD_RECORD, IS_LAST, LOAD,
                       ON_PROGRESS, PROGRESS, SAVE, STATE_SIZE, TURN, Model,
                       Progress, Report, RunOptions, Stats)


def progress_copy(pointer):
    """A Progress holding what the library's uturn_progress_t at
    ``pointer`` holds: the fields both know (its size says which)."""
    out = Progress()
    size = min(pointer.contents.size, ctypes.sizeof(Progress))
    ctypes.memmove(ctypes.addressof(out), pointer, size)
    return out


class Run:
    """What one run hands the library. ``calls`` (a _calls.Calls) carries
    what its Python callbacks did."""

    def __init__(self, calls):
        self.calls = calls
        self._keep = []  # ctypes objects the library points at
        self.fns = {}  # turn and adjoint: a further sweep may change them

    def _fn(self, ctype, name, fn):
        """A C function pointer of ``ctype`` calling fn through calls."""
        calls = self.calls
        c_fn = ctype(lambda _user, *args: calls.int_call(name, fn, *args))
        self._keep.append(c_fn)
        return c_fn

    def model(self, state, forward, turn, adjoint, io, records=(0, None)):
        """The Model: the three callbacks (forward, or forward_record with
        the ``records`` (record_bytes, forward_record) of Executor.run())
        and the state, a buffer or (state None) the save/load callbacks of
        ``io`` (a dict of the save/load arguments of Executor.run())."""
        m = Model()
        for name, fn in (("turn", turn), ("adjoint", adjoint)):
            if not callable(fn):
                raise ValueError("uturn: %s must be callable, not %s"
                                 % (name, _checks.shown(fn)))
        self._forward(m, forward, *records)
        self.fns.update(turn=turn, adjoint=adjoint)
        fns = self.fns
        m.turn = self._fn(TURN, "turn", lambda: fns["turn"]())
        m.adjoint = self._fn(ADJOINT, "adjoint",
                             lambda step: fns["adjoint"](step))
        if state is None:
            self._save_load(m, **io)
        else:
            self._state(m, state, **io)
        return m

    def _forward(self, m, forward, record_bytes, forward_record):
        """forward(step), or with step records forward_record(step, record,
        again): record a writable memoryview of the step's record_bytes
        (valid during the call), again False in the first sweep (write it)
        and True in every recomputation (it holds what was written)."""
        record_bytes = _checks.integer("record_bytes", record_bytes)
        _checks.callable_or_none("forward_record", forward_record)
        if forward_record is None and record_bytes == 0:
            if not callable(forward):
                raise ValueError("uturn: forward must be callable, not %s"
                                 % _checks.shown(forward))
            m.forward = self._fn(FORWARD, "forward", forward)
            return
        if forward_record is None:
            raise ValueError("uturn: record_bytes is %d but no "
                             "forward_record= was given: with step records "
                             "the executor calls forward_record(step, "
                             "record, again) instead of forward"
                             % record_bytes)
        if record_bytes == 0:
            raise ValueError("uturn: forward_record needs record_bytes, the "
                             "bytes of one step's record (at least 1)")
        if forward is not None:
            raise ValueError("uturn: give forward or forward_record, not "
                             "both: with step records the executor calls "
                             "forward_record(step, record, again) instead of "
                             "forward; pass None for forward")
        calls = self.calls
        c_fn = FORWARD_RECORD(lambda _u, step, record, again: calls.view_call(
            "forward_record", forward_record, (step,),
            (record, record_bytes, True), tail=(bool(again),)))
        self._keep.append(c_fn)
        m.forward_record, m.record_bytes = c_fn, record_bytes

    def online(self, m, stats, max_steps, is_last):
        """is_last(step) for an online plan (``stats`` its Plan.stats()):
        true when x_step, the state the first sweep just reached, is the
        last. Refused for a plan that knows its steps (the library would
        never ask), and required for an online plan without max_steps
        (its run would never end)."""
        _checks.callable_or_none("is_last", is_last)
        if is_last is not None and not stats.online:
            raise ValueError("uturn: is_last applies to online plans "
                             "(planner \"online\"); this plan knows its "
                             "steps (n = %d) and is never asked"
                             % stats.steps)
        if is_last is None and stats.online and max_steps == 0:
            raise ValueError("uturn: an online plan without max_steps ends "
                             "only where is_last says: give is_last="
                             "callable(step), true when x_step is the last "
                             "state, or plan with max_steps")
        if is_last is not None:
            calls = self.calls
            c_fn = IS_LAST(lambda _u, step: calls.flag_call(
                "is_last", is_last, step))
            self._keep.append(c_fn)
            m.is_last = c_fn

    def _state(self, m, state, save, load, state_bytes, state_size, view):
        """A contiguous state: nothing of save/load may be given."""
        given = [name for name, value in (
            ("save", save), ("load", load), ("state_size", state_size),
            ("view", view)) if value is not None]
        if given:
            raise ValueError("uturn: %s apply to state=None (save/load "
                             "callbacks), not to a state buffer; give one "
                             "or the other" % " and ".join(given))
        buffer, nbytes = state_buffer(state)
        if state_bytes not in (0, nbytes):
            raise ValueError("uturn: state_bytes is %s but the state holds "
                             "%d bytes; leave it 0 with a state buffer"
                             % (_checks.shown(state_bytes), nbytes))
        self._keep.append(buffer)
        m.state = ctypes.addressof(buffer)
        m.state_bytes = nbytes

    def _save_load(self, m, save, load, state_bytes, state_size, view):
        """States reached through save(step, dst) and load(step, src)."""
        if save is None or load is None:
            raise ValueError("uturn: with state=None the model needs save= "
                             "and load= callbacks (or give a state buffer)")
        for name, fn in (("save", save), ("load", load),
                         ("state_size", state_size), ("view", view)):
            _checks.callable_or_none(name, fn)
        m.state_bytes = state_bytes
        calls, fallback = self.calls, max(m.state_bytes, 1)
        c_save = SAVE(lambda _u, step, dst, n: calls.view_call(
            "save", save, (step,), (dst, n, True), view))
        c_load = LOAD(lambda _u, step, src, n: calls.view_call(
            "load", load, (step,), (src, n, False), view))
        self._keep += [c_save, c_load]
        m.save, m.load = c_save, c_load
        if state_size is not None:
            c_size = STATE_SIZE(lambda _u, step: calls.size_call(
                "state_size", state_size, step, fallback))
            self._keep.append(c_size)
            m.state_size = c_size

    def options(self, stats, verify, budget_bytes, progress, progress_every,
                on_progress, on_progress_every, step_bytes):
        """The RunOptions: budget, verify mode, the two progress callbacks
        and this run's per-step sizes (one per step of the plan, whose
        Plan.stats() is ``stats``; none for an online plan)."""
        if stats.online and step_bytes is not None:
            raise ValueError("uturn: step_bytes applies to plans that know "
                             "their steps; an online plan's states are sized "
                             "as the sweep reaches them (a byte budget alone,"
                             " and state_size= with save/load)")
        o = RunOptions()
        o.verify = _checks.boolean("verify", verify)
        o.budget_bytes = budget_bytes
        o.progress_every = progress_every
        o.on_progress_every = on_progress_every
        if _checks.callable_or_none("progress", progress) is not None:
            o.progress = self._fn(PROGRESS, "progress", progress)
        if _checks.callable_or_none("on_progress", on_progress) is not None:
            c_fn = ON_PROGRESS(lambda _u, p: self.calls.int_call(
                "on_progress", lambda: on_progress(progress_copy(p))))
            self._keep.append(c_fn)
            o.on_progress = c_fn
        sizes = _problems.step_array("step_bytes", step_bytes,
                                     stats.steps)
        if sizes is not None:
            self._keep.append(sizes)
            o.step_bytes = sizes
        return o

    def durable(self, model, options, durable, adjoint_state):
        """A durable run: ``durable`` a Durable, ``adjoint_state`` the
        writable buffer (a numpy array) holding everything the turn and
        adjoint callbacks keep between calls, which a resumed run gets
        back."""
        if durable is None:
            if adjoint_state is not None:
                raise ValueError("uturn: adjoint_state applies to durable "
                                 "runs; give durable=uturn.Durable(...)")
            return
        if not isinstance(durable, Durable):
            raise ValueError("uturn: durable must be a uturn.Durable, not %s"
                             % _checks.shown(durable))
        if adjoint_state is None:
            raise ValueError("uturn: a durable run needs adjoint_state=, "
                             "the writable array that holds everything the "
                             "turn and adjoint callbacks keep between calls "
                             "(a resumed run gets it back)")
        adjoint_callbacks(model, adjoint_state, self.calls, self._keep)
        durable.apply(options, self._keep)

    def call(self, executor, plan, model, options):
        """uturn_executor_run(); returns (status, observed, report, info)."""
        observed, report = Stats(), Report()
        info, info_ref = error_info()
        status = lib.uturn_executor_run(
            executor, plan, ctypes.byref(model), ctypes.byref(options),
            ctypes.byref(observed), ctypes.byref(report), info_ref)
        return status, observed, report, info

    def sweep(self, executor, model):
        """uturn_executor_sweep() with this run's model (its function
        pointers are the run's; turn and adjoint go through self.fns)."""
        observed, report = Stats(), Report()
        info, info_ref = error_info()
        status = lib.uturn_executor_sweep(
            executor, ctypes.byref(model), ctypes.byref(observed),
            ctypes.byref(report), info_ref)
        return status, observed, report, info

    def release(self):
        """Let go of everything the library pointed at (the state's buffer
        export among them): the run is over, or never began."""
        self._keep.clear()

    def outcome(self, status, observed, report, info):
        """(observed, report) of a run that went well; otherwise raise the
        exception a callback raised (chained to the library's Error), or
        the Error."""
        error = None
        if status != OK:
            note = None
            if status == E_CALLBACK and self.calls.stopped is not None:
                note = ("the Python callback returned %s, and only None and "
                        "0 continue a run" % _checks.shown(self.calls.stopped))
            error = Error(status, info, note)
            error.observed, error.report = observed, report
        if self.calls.raised is not None:
            raise_kept(self.calls, error)
        if error is not None:
            raise error
        return observed, report


def raise_kept(calls, error):
    """Raise the exception a callback raised, its cause the library's
    Error (unless it has a cause of its own), with a note naming the
    callback (Python 3.11 and later show notes)."""
    exc = calls.raised
    note = "uturn: raised in the %s callback; " % calls.raised_by
    note += ("the run stopped: %s" % error if error is not None
             else "the run itself completed")
    if hasattr(exc, "add_note"):
        exc.add_note(note)
    if error is not None and exc.__cause__ is None:
        raise exc from error
    raise exc
