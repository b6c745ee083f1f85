"""uturn for Python: memory-bounded checkpointing for adjoints (ctypes).

The package needs only the standard library; numpy arrays work as they
are (through the buffer protocol), and numpy is never imported here.

    import numpy as np
    import uturn

    x = np.linspace(0.0, 1.0, 64)           # the live state, x_0
    xbar = np.zeros_like(x)

    def forward(step):                       # x_step -> x_step+1, in place
        x[:] = np.sin(x)

    def turn():                              # J = sum(x_n^2) / 2
        xbar[:] = x

    def adjoint(step):                       # x holds x_step here
        xbar[:] = np.cos(x) * xbar

    with uturn.Executor() as ex:
        prob = uturn.problem(steps=100, planner="revolve",
                             slot_bytes=x.nbytes, budget_bytes=5 * x.nbytes)
        with ex.plan(prob) as plan:
            observed, report = ex.run(plan, x, forward, turn, adjoint)
    # xbar is now dJ/dx_0; observed.forward_steps == 320 (revolve, 5 slots)

The live state
--------------
``state`` is any object with a writable, C-contiguous buffer: a numpy
array, a bytearray, an array.array, a ctypes object. The executor copies
that very memory into its slots and back (memcpy), so every callback must
update the state in place: ``x[:] = f(x)``, ``x += dx``, ``np.sin(x,
out=x)``. Rebinding the name (``x = f(x)``, ``self.x = self.x + dt * r``)
leaves the executor copying a buffer the model no longer reads: the run
goes on and the gradient is silently wrong. The binding cannot tell
this from a step that leaves the state unchanged, so it does not try.
A read-only, strided or non-contiguous buffer (``a[::2]``, ``a.T``, a
column of a C array) raises ValueError before anything runs, naming the
problem and the fix: pass ``np.ascontiguousarray(x)`` and update that
array in place, or use save/load. During a run the buffer cannot be
resized (the executor holds an export of it).

Code that rebinds: save/load
----------------------------
Pass ``state=None`` with ``save(step, dst)`` and ``load(step, src)``:
save writes the live state x_step into ``dst``, a writable memoryview of
the slot (format "B", the state's bytes), and load makes ``src``, a
read-only memoryview of a slot, the live state::

    def save(step, dst):
        np.frombuffer(dst, dtype=np.float64)[:] = model.x
    def load(step, src):
        model.x = np.frombuffer(src, dtype=np.float64).copy()

    ex.run(plan, None, forward, turn, adjoint, save=save, load=load,
           state_bytes=model.x.nbytes)

``view=`` turns each memoryview into what the callbacks get, e.g.
``view=lambda m: np.frombuffer(m, np.float64)`` (then save does
``dst[:] = model.x`` and load ``model.x = src.copy()``). The views are
valid during the call only: a view of one kept past its return (a slice,
np.frombuffer() without .copy()) is refused with ValueError, since the
executor reuses and frees that memory. States of different sizes: give
``state_size(step)`` (bytes of x_step), or plan with per-step
``step_bytes`` (the dp planner), or pass ``step_bytes=`` to run(). A
plan from Executor.plan() holds the slots' strides (each size rounded up
to 16 bytes) as its step_bytes: give run() the states' own step_bytes,
or save and load see the longer slot.

Callbacks and failures
----------------------
A callback continues the run by returning None or the integer 0; any
other value stops it with UTURN_E_CALLBACK (uturn.Error). An exception in
any callback (KeyboardInterrupt too) stops the run cleanly: the library
empties every slot, removes its files, and run() raises that same
exception, its __cause__ the uturn.Error naming the callback, step and
action (with a note saying so). The executor may be used again. A failed
run's Error carries ``observed`` and ``report``: how far it got.

Executor.run(plan, state, forward, turn, adjoint, verify=False,
budget_bytes=0, *, save=None, load=None, state_bytes=0, state_size=None,
view=None, progress=None, progress_every=0, on_progress=None,
on_progress_every=0, step_bytes=None, is_last=None, record_bytes=0,
forward_record=None, sweeps_on_request=False, durable=None,
adjoint_state=None) -> (observed Stats, Report):

- ``verify``: hash states and stop with UTURN_E_NONDETERMINISTIC when a
  recomputation differs (8 bytes per step outside the budget).
- ``budget_bytes``: 0 is the plan's budget.
- ``progress(reversed, steps)``: after every ``progress_every`` reverse
  steps (0: about 1%) and the last.
- ``on_progress(p)``: p is a Progress (done and total work in cost units,
  forward_steps, reverse_steps, steps, seconds), after every
  ``on_progress_every`` units of work (0: about 1%) and at the end.
- ``is_last(step)``: online plans only (see below); asked after each
  forward step of the first sweep with x_step live; true (as ``if``
  takes it: True, non-zero, numpy's True) means x_step is the last.
- ``record_bytes`` and ``forward_record(step, record, again)``: step
  records, for a step that depends on more than the state (an adaptive dt
  from a controller with history). forward_record is called instead of
  forward (pass forward=None); ``record`` is a writable memoryview of the
  step's record_bytes, valid during the call. In the first sweep
  (again False) write it; in every recomputation (again True) it holds
  exactly what was written. Records are kept outside the budget
  (Report.record_bytes).
- ``sweeps_on_request``: with a plan of several sweeps
  (problem(..., sweeps=k)), run the first forward and sweep 1 only and
  keep the trajectory; Executor.sweep(turn=None, adjoint=None) runs each
  further sweep (a callable given replaces the run's for that sweep and
  the later ones; the forward stays the run's) and returns (observed,
  report) with report.sweeps_done, sweep_forward_steps and
  trajectory_held; Executor.release() drops it early. Until then the
  plan stays in use (its close() is refused). Without it, run() does
  every sweep (turn is called once per sweep).
- ``durable`` and ``adjoint_state``: a durable run, which a new process
  resumes after this one is killed, with the same gradient bit for bit.
  durable=Durable(directory, tag="", interval=0.0, mode="new"|"resume"|
  "auto") writes durable points there (every ``interval`` seconds, and
  on durable.point() or durable.stop(), which a signal handler may call;
  after stop() the run raises Error with status E_STOPPED at the point).
  adjoint_state is the writable array holding everything turn and
  adjoint keep between calls (the adjoint, J, gradients so far): a
  resumed run gets it back. durable_inspect(directory) says what a
  directory holds (a DurableInfo), durable_remove(directory) removes it.

Plans, levels and the rest
--------------------------
problem() describes what to plan (planners by name: "store-all",
"periodic", "sqrt", "revolve", "dp", "hrevolve", "online");
Plan.create() plans it as given, Executor.plan() with slots at their
real cost. Plan.stats() predicts the counts (``fingerprint``, ``cost``
included); Plan.level_stats(k) gives a storage level's. Storage levels:
problem(planner="hrevolve", levels=[level("mem", slots=4),
level("disk", slots=100, write_cost=5, read_cost=5)]) with
Executor(levels=[file_storage(directory)]) (or user_storage(obj), your
own put/get); Executor.level_report(k) says what a run did with each.
Executor's slot_cost(), capacity(), budget(), held_bytes() and trim()
answer what the memory costs. Plan.actions() iterates a plan's actions;
Plan.cursor() gives a Cursor for a time loop of your own (below).

Online plans: the step count found as the run goes
--------------------------------------------------
For a code that stops on a criterion (a tolerance, a steady state, an
event), plan without n: problem(0, planner="online", slots=S) (or
budget_bytes=B with slot_bytes, or budget_bytes=B alone: states of
different sizes, each size given as the sweep reaches it), and
max_steps=M for a bound if there is one. Plan.stats() then says
``online`` with ``steps`` uturn.NONE; the counts are known at the end.
The offline optimum t(n+1, S) is reached exactly for n <= (S+1)(S+2)/2.

With the executor, is_last(step) says where the run ends::

    with uturn.Plan.create(uturn.problem(0, planner="online",
                                         slots=4)) as plan:
        observed, report = ex.run(plan, x, forward, turn, adjoint,
                                  is_last=lambda step: norm(x) < tol)
    # observed.steps == report.steps == n, as the model found it

In a loop of your own, the cursor hands out one advance at a time in
the first sweep, and end() right after an advance says that state is
the last (the actions after it are the reversal)::

    with plan.cursor() as c:
        for a in c:
            if a.op == uturn.OP_ADVANCE:
                for _ in range(a.step, a.step_end):
                    x = step(x)
                if c.steps is None and converged(x):  # the first sweep
                    c.end()
            elif a.op == uturn.OP_STORE:
                held[a.slot] = x.copy()
            elif a.op == uturn.OP_RESTORE:
                x = held[a.slot].copy()
            elif a.op == uturn.OP_FREE:
                del held[a.slot]
            elif a.op == uturn.OP_TURN:
                xbar = dJ(x)
            elif a.op == uturn.OP_REVERSE:
                xbar = step_bar(x, xbar)
        realised = c.stats()  # steps, forward_steps, stores, ...

In bytes mode give set_size(0, x.nbytes) before the loop and
set_size(a.step_end, x.nbytes) after each first-sweep advance that is
not the last. end() elsewhere (before the first action, after a store,
in the reversal, twice) raises uturn.Error with UTURN_E_INVALID_ARG, and
on a plan that knows its steps with UTURN_E_UNSUPPORTED.

Checked integers
----------------
Nothing is wrapped on the way into C. Every integer the binding hands to
the library (arguments, and fields of the structures set from Python)
must be an int (or another integer type, not bool) in the range of its C
type, and at least 1 where the library needs that (steps, state_bytes,
batch). The wrong kind of value raises ValueError; an integer past its C
type (a uint64_t past 2**64-1, a planner past a C int) raises
OverflowError; both name the argument and the values it accepts. What is
representable but not meaningful is left to the library, which raises
uturn.Error. Only ``lib``, the raw ctypes functions, is unchecked.

The library is found through the UTURN_LIBRARY environment variable, then
where the install put it (the package knows its path relative to
itself), then by ctypes.util.find_library("uturn"). One thread per
executor at a time; a plan may be shared.
"""

from ._load import lib, library_path
from ._protos import *  # noqa: F401,F403 (the header's constants)
from ._protos import DECLARED, NOT_DECLARED
from ._structs import (Action, Allocator, DurableInfo, ErrorInfo,
                       ExecutorOptions, Level,
                       LevelReport, LevelStats, Model, Progress, Report,
                       RunOptions, SlotCost, Stats, Storage,
                       StorageCallbacks)
from ._structs import (ADJOINT, ALLOC, FORWARD, FORWARD_RECORD, FREE,
                       IS_LAST, LOAD, ON_PROGRESS, PROGRESS, SAVE,
                       STATE_SIZE, STORAGE_CLOSE, STORAGE_DROP, STORAGE_GET,
                       STORAGE_OPEN, STORAGE_PUT, TURN)
from ._errors import Error, status_name, strerror, version, version_number
from ._problems import PLANNERS, Problem, level, problem
from ._plans import Plan
from ._cursors import Cursor
from ._executor import Executor, file_storage, user_storage
from ._durable import Durable, durable_inspect, durable_remove

for _name in ("Error", "Executor", "Plan", "Cursor", "Problem", "Action",
              "Durable", "DurableInfo",
              "Allocator", "ErrorInfo", "ExecutorOptions", "Level",
              "LevelReport", "LevelStats", "Model", "Progress", "Report",
              "RunOptions", "SlotCost", "Stats", "Storage",
              "StorageCallbacks"):
    globals()[_name].__module__ = __name__  # tracebacks say uturn.Error
del _name

__all__ = [
    "Error", "Executor", "Plan", "Cursor", "Problem", "problem", "level",
    "file_storage", "user_storage", "version", "version_number",
    "status_name", "strerror", "lib", "library_path", "PLANNERS",
    "Action", "Allocator", "ErrorInfo", "ExecutorOptions", "Level",
    "LevelReport", "LevelStats", "Model", "Progress", "Report",
    "RunOptions", "SlotCost", "Stats", "Storage", "StorageCallbacks",
    "Durable", "DurableInfo", "durable_inspect", "durable_remove",
]
