"""The executor: runs models to plans, owns the slot storage (memory, and
the levels beyond it: files or the caller's own storage)."""

import contextlib
import ctypes

from . import _checks, _problems
from ._calls import Calls
from ._errors import check, error_info
from ._load import lib
from ._plans import Plan
from ._protos import STORAGE_FILE, STORAGE_USER
from ._runs import Run
from ._structs import (STORAGE_CLOSE, STORAGE_DROP, STORAGE_GET,
                       STORAGE_OPEN, STORAGE_PUT, ExecutorOptions,
                       LevelReport, SlotCost, Storage, StorageCallbacks, u64)


def file_storage(directory=None, synchronous=False):
    """A storage level in files: one preallocated file per run, in a
    subdirectory of its own under ``directory`` (None: $TMPDIR, else
    /tmp), removed on every exit path. Its reads and writes overlap the
    computation on a thread of the run's own unless ``synchronous``."""
    s = Storage()
    s.kind = STORAGE_FILE
    s.directory = directory
    s.synchronous = synchronous
    return s


_STORE_METHODS = {"put": True, "get": True, "open": False, "drop": False,
                  "close": False}


def user_storage(store, lossy=False):
    """A storage level kept by ``store``, an object with methods
    put(id, step, src) (keep the state in the read-only memoryview src
    under the slot id: copy it, e.g. bytes(src)) and get(id, step, dst)
    (write the state kept under id into the writable memoryview dst,
    e.g. dst[:] = kept), and optionally open(ids, nbytes) before a run,
    drop(id) when a slot is no longer needed and close() after a run. The
    memoryviews are valid during the call only. put, get and open return
    None or 0 to go on; anything else, or an exception, stops the run.
    What put is given is checksummed and what get gives back is checked
    against it: other bytes stop the run with UTURN_E_IO naming the step.
    ``lossy=True`` (a lossy compressor) turns the check off, and the
    run's report says lossy (the gradient is then not bitwise)."""
    for name, required in _STORE_METHODS.items():
        method = getattr(store, name, None)
        if (method is None and required) or (
                method is not None and not callable(method)):
            raise ValueError("uturn: the storage object needs a callable %s "
                             "method (put and get are required; open, drop "
                             "and close optional), not %s"
                             % (name, _checks.shown(method)))
    if not isinstance(lossy, bool):
        raise ValueError("uturn: lossy must be True or False, not %s"
                         % _checks.shown(lossy))
    s = Storage()
    s.kind = STORAGE_USER
    s.__dict__["_store"] = store
    s.__dict__["_lossy"] = lossy
    return s


class _Sink:
    """Where the storage callbacks of an executor report: the Calls of the
    run in progress (a fresh one outside runs)."""

    def __init__(self):
        self.calls = Calls()


def _storage_callbacks(store, lossy, sink):
    """StorageCallbacks calling the methods of ``store``."""
    cb = StorageCallbacks()
    cb.size = ctypes.sizeof(cb)
    cb.lossy = lossy
    cb.put = STORAGE_PUT(lambda _u, id_, step, src, n: sink.calls.view_call(
        "storage put", store.put, (id_, step), (src, n, False)))
    cb.get = STORAGE_GET(lambda _u, id_, step, dst, n: sink.calls.view_call(
        "storage get", store.get, (id_, step), (dst, n, True)))
    if getattr(store, "open", None) is not None:
        cb.open = STORAGE_OPEN(lambda _u, ids, n: sink.calls.int_call(
            "storage open", store.open, ids, n))
    if getattr(store, "drop", None) is not None:
        cb.drop = STORAGE_DROP(lambda _u, id_: sink.calls.void_call(
            "storage drop", store.drop, id_))
    if getattr(store, "close", None) is not None:
        cb.close = STORAGE_CLOSE(lambda _u: sink.calls.void_call(
            "storage close", store.close))
    return cb


def _storage_array(levels, sink, keep):
    """A ctypes array of the levels' Storage, user levels bound to sink."""
    if isinstance(levels, Storage) or not hasattr(levels, "__iter__"):
        raise ValueError("uturn: levels must be a sequence of "
                         "uturn.file_storage() or uturn.user_storage(), not "
                         "%s" % _checks.shown(levels))
    items = list(levels)
    array = (Storage * len(items))()
    for i, item in enumerate(items):
        if not isinstance(item, Storage):
            raise ValueError("uturn: levels[%d] must be uturn.file_storage() "
                             "or uturn.user_storage(), not %s"
                             % (i, _checks.shown(item)))
        array[i] = item
        store = item.__dict__.get("_store")
        if store is not None:
            cb = _storage_callbacks(store, item.__dict__["_lossy"], sink)
            keep.append(cb)
            array[i].callbacks = ctypes.pointer(cb)
    keep += [items, array]
    return array, len(items)


class Executor:
    """Runs models to plans; owns the checkpoint storage. ``levels`` are
    the storage of a plan's levels 1, 2, .. (level 0 is memory), each
    uturn.file_storage() or uturn.user_storage(); ``io_buffers`` is the
    number of states in flight to and from overlapped file levels (0: 2),
    taken from the memory budget. A closed executor raises
    ValueError("uturn: the executor is closed") when used."""

    _free = lib.uturn_executor_free  # kept for __del__ at interpreter exit

    def __init__(self, levels=(), io_buffers=0):
        self._handle = None
        self._sink, self._keep, self._running = _Sink(), [], False
        self._held = None  # (Run, Model, Plan) between sweeps on request
        options = ExecutorOptions()
        options.io_buffers = io_buffers
        array, count = _storage_array(levels, self._sink, self._keep)
        if count:
            options.levels, options.level_count = array, count
        self._level_count = count
        handle, (info, info_ref) = ctypes.c_void_p(), error_info()
        check(lib.uturn_executor_open(ctypes.byref(options),
                                      ctypes.byref(handle), info_ref), info)
        self._handle = handle

    @property
    def handle(self):
        """The uturn_executor_t pointer, for the raw ``lib`` calls."""
        if not self._handle:
            raise ValueError("uturn: the executor is closed")
        return self._handle

    def _u64_out(self, fn, note, *args):
        """fn(handle, *args, &out) for a helper that gives one count."""
        out = u64()
        check(fn(self.handle, *args, ctypes.byref(out)), note=note)
        return out.value

    def slot_bytes(self, state_bytes):
        """What a slot of ``state_bytes`` (1 to 2**64-1) really costs
        here: the stride budgets are checked against."""
        state_bytes = _checks.integer("state_bytes", state_bytes, least=1)
        return self._u64_out(lib.uturn_executor_slot_bytes,
                             "state_bytes was %d" % state_bytes, state_bytes)

    def slot_cost(self, state_bytes):
        """The SlotCost of states of ``state_bytes``: stride, alignment,
        granule and backend ("pages" or "allocator")."""
        state_bytes = _checks.integer("state_bytes", state_bytes, least=1)
        out = SlotCost()
        check(lib.uturn_executor_slot_cost(self.handle, state_bytes,
                                           ctypes.byref(out)),
              note="state_bytes was %d" % state_bytes)
        return out

    def capacity(self, state_bytes, budget):
        """The most uniform slots of ``state_bytes`` a budget of ``budget``
        bytes holds here (what Executor.plan() gives a planner)."""
        state_bytes = _checks.integer("state_bytes", state_bytes, least=1)
        budget = _checks.integer("budget", budget)
        return self._u64_out(lib.uturn_executor_capacity,
                             "state_bytes was %d" % state_bytes,
                             state_bytes, budget)

    def budget(self, state_bytes, slots):
        """The least budget in bytes that holds ``slots`` uniform slots of
        ``state_bytes`` here (whole pages are counted)."""
        state_bytes = _checks.integer("state_bytes", state_bytes, least=1)
        slots = _checks.integer("slots", slots)
        return self._u64_out(lib.uturn_executor_budget,
                             "state_bytes was %d" % state_bytes,
                             state_bytes, slots)

    def level_slots(self, prob, level):
        """The slots storage level ``level`` of ``prob``'s levels holds
        here, as Executor.plan() resolves it: a capacity in slots as
        given; memory's bytes at the real cost of its region less the I/O
        buffers; a further level's bytes in whole strides of slot_bytes."""
        prob_arg = _problems.problem_arg(prob)
        level = _checks.integer("level", level)
        out, (info, info_ref) = u64(), error_info()
        check(lib.uturn_executor_level_slots(self.handle, prob_arg, level,
                                             ctypes.byref(out), info_ref),
              info)
        return out.value

    def held_bytes(self):
        """Bytes of slot storage the executor holds now."""
        return lib.uturn_executor_held_bytes(self.handle)

    def trim(self):
        """Give back the slot storage kept between runs."""
        if self._running:
            raise ValueError("uturn: trim() during the executor's own run")
        lib.uturn_executor_trim(self.handle)

    def level_report(self, level):
        """What the last run did with storage level ``level`` (0: memory,
        1.. the executor's levels), as a LevelReport."""
        level = _checks.integer("level", level)
        out = LevelReport()
        check(lib.uturn_executor_level_report(self.handle, level,
                                              ctypes.byref(out)),
              note="level was %d; this executor has levels 0..%d"
              % (level, self._level_count))
        return out

    def level_reports(self):
        """LevelReport of every level, memory first."""
        return [self.level_report(k) for k in range(self._level_count + 1)]

    def plan(self, prob):
        """uturn_executor_plan(): a Plan with slots at their real cost
        (level capacities in bytes resolved here)."""
        prob_arg = _problems.problem_arg(prob)
        handle, (info, info_ref) = ctypes.c_void_p(), error_info()
        check(lib.uturn_executor_plan(self.handle, prob_arg,
                                      ctypes.byref(handle), info_ref), info)
        return Plan(handle)

    @contextlib.contextmanager
    def _run_scope(self, calls, what="run()"):
        """The executor is running: no second run, close() or trim()
        (``what`` is the call refused, for the message)."""
        if self._running:
            raise ValueError("uturn: %s called from a callback of the "
                             "same executor's run; use another Executor"
                             % what)
        self._running, self._sink.calls = True, calls
        try:
            yield self.handle
        finally:
            self._running, self._sink.calls = False, Calls()

    def run(self, plan, state, forward, turn, adjoint, verify=False,
            budget_bytes=0, *, save=None, load=None, state_bytes=0,
            state_size=None, view=None, progress=None, progress_every=0,
            on_progress=None, on_progress_every=0, step_bytes=None,
            is_last=None, record_bytes=0, forward_record=None,
            sweeps_on_request=False, durable=None, adjoint_state=None):
        """Run the model to ``plan``; returns (observed Stats, Report).
        The package's docstring (help(uturn)) says what each argument
        takes, how the state is shared and how failures come back."""
        handle = self.handle
        if self._held is not None:
            raise ValueError("uturn: this executor holds the trajectory of "
                             "a run of several sweeps: call sweep() or "
                             "release() first")
        if not isinstance(plan, Plan):
            raise ValueError("uturn: plan must be a uturn.Plan, not %s"
                             % _checks.shown(plan))
        run = Run(Calls())
        io = dict(save=save, load=load, state_bytes=state_bytes,
                  state_size=state_size, view=view)
        with plan.in_use() as plan_handle:
            try:
                stats = plan.stats()
                max_steps = plan.problem().max_steps if stats.online else 0
                model = run.model(state, forward, turn, adjoint, io,
                                  (record_bytes, forward_record))
                run.online(model, stats, max_steps, is_last)
                options = run.options(stats, verify, budget_bytes, progress,
                                      progress_every, on_progress,
                                      on_progress_every, step_bytes)
                options.sweeps_on_request = _checks.boolean(
                    "sweeps_on_request", sweeps_on_request)
                run.durable(model, options, durable, adjoint_state)
                with self._run_scope(run.calls):
                    result = run.call(handle, plan_handle, model, options)
                if result[0] == 0 and result[2].trajectory_held:
                    self._held = (run, model, options, plan)
                    plan._runs += 1  # in use until the trajectory goes
            finally:
                if self._held is None or self._held[0] is not run:
                    run.release()
        return run.outcome(*result)

    def sweep(self, turn=None, adjoint=None):
        """The next sweep of a run started with sweeps_on_request=True:
        its turn() then adjoint(step) for n-1 .. 0 (the run's callbacks;
        one given here replaces the run's for this sweep and the later
        ones; the forward stays the run's). Returns
        (observed Stats of the whole run so far, Report); the trajectory
        is released after the plan's last sweep or a failure."""
        if not self._handle:
            raise ValueError("uturn: the executor is closed")
        if self._held is None:
            raise ValueError("uturn: no trajectory is held: none was kept "
                             "(a run keeps one only with "
                             "sweeps_on_request=True and a plan of several "
                             "sweeps), or its last sweep is done, or "
                             "release() or a failure let it go")
        run, model = self._held[0], self._held[1]
        given = {name: _checks.callable_or_none(name, fn)
                 for name, fn in (("turn", turn), ("adjoint", adjoint))}
        run.fns.update((k, fn) for k, fn in given.items() if fn is not None)
        result = None
        try:
            with self._run_scope(run.calls, "sweep()"):
                result = run.sweep(self.handle, model)
        finally:
            if result is not None and not (result[0] == 0 and
                                           result[2].trajectory_held):
                self._drop_held()  # the library released it
        return run.outcome(*result)

    def _drop_held(self):
        """Let go of a held trajectory's Python side: its callbacks and
        its plan (no longer in use)."""
        run, plan = self._held[0], self._held[3]
        self._held = None
        run.release()
        plan._runs -= 1

    def release(self):
        """Drop a trajectory held for further sweeps (a no-op when none
        is)."""
        if self._running:
            raise ValueError("uturn: release() during the executor's own "
                             "run")
        if self._handle:
            lib.uturn_executor_release(self._handle)
        if self._held is not None:
            self._drop_held()

    def close(self):
        """Free the executor and its storage. Closing twice is fine;
        closing during its own run is ValueError."""
        if self._running:
            raise ValueError("uturn: the executor is running; close it "
                             "after run() returns")
        if self._handle:
            self._free(self._handle)  # it releases a held trajectory
            self._handle = None
        if self._held is not None:
            self._drop_held()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if not getattr(self, "_running", False):
            self.close()
