"""uturn for Python: a ctypes binding of libuturn (standard library only).

The structures mirror <uturn.h> field for field, and every function of the
header that a Python program needs is declared on ``lib`` with its argument
and result types. On top of that sit a few small classes:

    ex = uturn.Executor()
    plan = ex.plan(uturn.problem(steps=100, planner="revolve",
                                 slot_bytes=16, budget_bytes=5 * 16))
    plan.stats().forward_steps          # predicted counts
    observed, report = ex.run(plan, state, forward, turn, adjoint)

``state`` is any ctypes object holding the live state (for example
``(ctypes.c_double * 2)()``); the executor copies its bytes in and out of
the checkpoint slots, and the callbacks read and write it in place.
Failures raise ``uturn.Error`` with the status and the library's message.

The library is found through the UTURN_LIBRARY environment variable, then
at the place the install put it relative to this file, then by
ctypes.util.find_library("uturn").
"""

import ctypes
import ctypes.util
import os

__all__ = [
    "Error", "Executor", "Plan", "problem", "version", "version_number",
    "status_name", "strerror", "lib",
]

# ---------------------------------------------------------------------------
# Loading the library

# Set by the install (cmake/install.cmake): the library's path relative to
# this file, or absolute.
_INSTALLED_LIBRARY = "@UTURN_PYTHON_LIBRARY@"


def _library_path():
    env = os.environ.get("UTURN_LIBRARY")
    if env:
        return env
    if not _INSTALLED_LIBRARY.startswith("@"):
        here = os.path.dirname(os.path.abspath(__file__))
        path = os.path.join(here, _INSTALLED_LIBRARY)
        if os.path.exists(path):
            return path
    found = ctypes.util.find_library("uturn")
    if found:
        return found
    raise ImportError("uturn: libuturn not found; set UTURN_LIBRARY to its path")


lib = ctypes.CDLL(_library_path())

# ---------------------------------------------------------------------------
# Constants (values fixed forever by <uturn.h>)

OK = 0
E_INVALID_ARG = 1
E_NOMEM = 2
E_INFEASIBLE = 3
E_OVERFLOW = 4
E_UNSUPPORTED = 5
E_CALLBACK = 6
E_INVALID_PLAN = 7
E_PARSE = 8
E_IO = 9
E_NONDETERMINISTIC = 10

PLANNER_STORE_ALL = 0
PLANNER_PERIODIC = 1
PLANNER_SQRT = 2
PLANNER_REVOLVE = 3
PLANNER_DP = 4
PLANNER_PARSED = 100

OP_ADVANCE = 1
OP_STORE = 2
OP_RESTORE = 3
OP_FREE = 4
OP_TURN = 5
OP_REVERSE = 6

NONE = 2**64 - 1  # UTURN_NONE

# ---------------------------------------------------------------------------
# Structures, as in <uturn.h>

_u64 = ctypes.c_uint64
_enum = ctypes.c_int

FORWARD = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, _u64)
TURN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)
ADJOINT = FORWARD
SAVE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, _u64,
                        ctypes.c_void_p, _u64)
LOAD = SAVE
STATE_SIZE = ctypes.CFUNCTYPE(_u64, ctypes.c_void_p, _u64)
PROGRESS = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, _u64, _u64)


class _Struct(ctypes.Structure):
    def as_dict(self):
        """The fields (without ``size``) as a dict."""
        return {name: getattr(self, name)
                for name, _ in self._fields_ if name != "size"}

    def __repr__(self):
        fields = ", ".join("%s=%r" % kv for kv in self.as_dict().items())
        return "%s(%s)" % (type(self).__name__, fields)


class ErrorInfo(_Struct):
    _fields_ = [("size", ctypes.c_size_t), ("status", _enum),
                ("action", _u64), ("line", _u64), ("step", _u64),
                ("minimum_slots", _u64), ("minimum_bytes", _u64),
                ("message", ctypes.c_char * 256)]


class Problem(_Struct):
    _fields_ = [("size", ctypes.c_size_t), ("planner", _enum),
                ("steps", _u64), ("slots", _u64), ("slot_bytes", _u64),
                ("budget_bytes", _u64), ("stride", _u64),
                ("step_bytes", ctypes.POINTER(_u64)),
                ("step_costs", ctypes.POINTER(_u64)), ("unit_bytes", _u64)]


class Stats(_Struct):
    _fields_ = [("size", ctypes.c_size_t)] + [
        (name, _u64) for name in (
            "steps", "forward_steps", "recomputed_steps", "reverse_steps",
            "stores", "restores", "frees", "peak_slots", "peak_bytes",
            "actions", "slots", "slot_bytes", "budget_bytes",
            "forward_cost", "recompute_cost")
    ] + [("recompute_factor", ctypes.c_double)]


class Action(_Struct):
    _fields_ = [("op", _enum), ("step", _u64), ("step_end", _u64),
                ("slot", _u64)]

    def __str__(self):
        buf = ctypes.create_string_buffer(64)
        _check(lib.uturn_action_format(ctypes.byref(self), buf, len(buf),
                                       None))
        return buf.value.decode()


class Model(_Struct):
    _fields_ = [("size", ctypes.c_size_t), ("user", ctypes.c_void_p),
                ("forward", FORWARD), ("turn", TURN), ("adjoint", ADJOINT),
                ("state", ctypes.c_void_p), ("state_bytes", _u64),
                ("save", SAVE), ("load", LOAD), ("state_size", STATE_SIZE)]


class RunOptions(_Struct):
    _fields_ = [("size", ctypes.c_size_t), ("budget_bytes", _u64),
                ("verify", ctypes.c_bool), ("progress", PROGRESS),
                ("progress_user", ctypes.c_void_p),
                ("progress_every", _u64)]


class Report(_Struct):
    _fields_ = [("size", ctypes.c_size_t), ("status", _enum)] + [
        (name, _u64) for name in (
            "actions_done", "failed_action", "failed_step", "slot_bytes",
            "planned_peak_bytes", "measured_peak_bytes", "verify_bytes")
    ] + [(name, ctypes.c_double) for name in (
        "wall_seconds", "forward_seconds", "adjoint_seconds",
        "copy_seconds", "overhead_seconds")
    ] + [("jemalloc", ctypes.c_bool)]


# ---------------------------------------------------------------------------
# Prototypes

def _proto(name, restype, *argtypes):
    fn = getattr(lib, name)
    fn.restype = restype
    fn.argtypes = list(argtypes)


_P = ctypes.POINTER
_vp = ctypes.c_void_p
_pp = _P(ctypes.c_void_p)
_err = _P(ErrorInfo)

_proto("uturn_strerror", ctypes.c_char_p, _enum)
_proto("uturn_status_name", ctypes.c_char_p, _enum)
_proto("uturn_error_init", None, _err)
_proto("uturn_version_number", ctypes.c_uint)
_proto("uturn_version_string", ctypes.c_char_p)
_proto("uturn_planner_name", ctypes.c_char_p, _enum)
_proto("uturn_planner_from_name", _enum, ctypes.c_char_p, _P(_enum))
_proto("uturn_problem_init", None, _P(Problem))
_proto("uturn_stats_init", None, _P(Stats))
_proto("uturn_op_name", ctypes.c_char_p, _enum)
_proto("uturn_action_format", _enum, _P(Action), ctypes.c_char_p,
       ctypes.c_size_t, _P(ctypes.c_size_t))
_proto("uturn_plan_create", _enum, _P(Problem), _vp, _pp, _err)
_proto("uturn_plan_parse", _enum, ctypes.c_char_p, ctypes.c_size_t, _vp,
       _pp, _err)
_proto("uturn_plan_free", None, _vp)
_proto("uturn_plan_stats", _enum, _vp, _P(Stats))
_proto("uturn_plan_problem", _enum, _vp, _P(Problem))
_proto("uturn_plan_walk", _enum, _vp, _P(Stats), _err)
_proto("uturn_cursor_create", _enum, _vp, _vp, _pp)
_proto("uturn_cursor_next", ctypes.c_bool, _vp, _P(Action))
_proto("uturn_cursor_read", _enum, _vp, _P(Action), ctypes.c_size_t,
       _P(ctypes.c_size_t))
_proto("uturn_cursor_free", None, _vp)
_proto("uturn_model_init", None, _P(Model))
_proto("uturn_run_options_init", None, _P(RunOptions))
_proto("uturn_report_init", None, _P(Report))
_proto("uturn_executor_create", _enum, _vp, _pp, _err)
_proto("uturn_executor_free", None, _vp)
_proto("uturn_executor_slot_bytes", _enum, _vp, _u64, _P(_u64))
_proto("uturn_executor_plan", _enum, _vp, _P(Problem), _pp, _err)
_proto("uturn_executor_run", _enum, _vp, _vp, _P(Model), _P(RunOptions),
       _P(Stats), _P(Report), _err)

# ---------------------------------------------------------------------------
# Errors and small functions


class Error(Exception):
    """A uturn call failed. ``status`` is the code, ``name`` its enumerator
    name, ``info`` the ErrorInfo the library filled (or None)."""

    def __init__(self, status, info=None):
        self.status = status
        self.name = status_name(status)
        self.info = info
        text = info.message.decode(errors="replace") if info else ""
        super().__init__("%s: %s" % (self.name, text or strerror(status)))


def strerror(status):
    return lib.uturn_strerror(status).decode()


def status_name(status):
    return lib.uturn_status_name(status).decode()


def version():
    """The version of the library loaded, e.g. "0.1.0"."""
    return lib.uturn_version_string().decode()


def version_number():
    return lib.uturn_version_number()


def _check(status, info=None):
    if status != OK:
        raise Error(status, info)


def _error_info():
    info = ErrorInfo()
    lib.uturn_error_init(ctypes.byref(info))
    return info


def problem(steps, planner="revolve", slots=0, slot_bytes=0, budget_bytes=0,
            stride=0):
    """A Problem from uturn_problem_init(), with the given fields set.
    ``planner`` is a name ("revolve", "periodic", ...) or a PLANNER_ value."""
    p = Problem()
    lib.uturn_problem_init(ctypes.byref(p))
    if isinstance(planner, str):
        value = _enum()
        _check(lib.uturn_planner_from_name(planner.encode(),
                                           ctypes.byref(value)))
        planner = value.value
    p.planner = planner
    p.steps, p.slots, p.stride = steps, slots, stride
    p.slot_bytes, p.budget_bytes = slot_bytes, budget_bytes
    return p


# ---------------------------------------------------------------------------
# Plans and executors


class Plan:
    """An immutable plan. Free it with close() (or a with block)."""

    _free = lib.uturn_plan_free  # kept for __del__ at interpreter exit

    def __init__(self, handle):
        self._handle = handle

    @classmethod
    def create(cls, prob):
        handle, info = ctypes.c_void_p(), _error_info()
        _check(lib.uturn_plan_create(ctypes.byref(prob), None,
                                     ctypes.byref(handle),
                                     ctypes.byref(info)), info)
        return cls(handle)

    @classmethod
    def parse(cls, text):
        data = text.encode() if isinstance(text, str) else bytes(text)
        handle, info = ctypes.c_void_p(), _error_info()
        _check(lib.uturn_plan_parse(data, len(data), None,
                                    ctypes.byref(handle),
                                    ctypes.byref(info)), info)
        return cls(handle)

    @property
    def handle(self):
        if not self._handle:
            raise ValueError("uturn: the plan is closed")
        return self._handle

    def stats(self):
        """The predicted counts."""
        out = Stats()
        lib.uturn_stats_init(ctypes.byref(out))
        _check(lib.uturn_plan_stats(self.handle, ctypes.byref(out)))
        return out

    def problem(self):
        """The problem as the plan resolved it."""
        out = Problem()
        lib.uturn_problem_init(ctypes.byref(out))
        _check(lib.uturn_plan_problem(self.handle, ctypes.byref(out)))
        return out

    def walk(self):
        """Validate every action; returns the observed counts."""
        out, info = Stats(), _error_info()
        lib.uturn_stats_init(ctypes.byref(out))
        _check(lib.uturn_plan_walk(self.handle, ctypes.byref(out),
                                   ctypes.byref(info)), info)
        return out

    def actions(self, batch=256):
        """Generate the actions one by one (through a cursor)."""
        cursor = ctypes.c_void_p()
        _check(lib.uturn_cursor_create(self.handle, None,
                                       ctypes.byref(cursor)))
        buf, count = (Action * batch)(), ctypes.c_size_t()
        try:
            while True:
                _check(lib.uturn_cursor_read(cursor, buf, batch,
                                             ctypes.byref(count)))
                if count.value == 0:
                    return
                for i in range(count.value):
                    yield Action(buf[i].op, buf[i].step, buf[i].step_end,
                                 buf[i].slot)
        finally:
            lib.uturn_cursor_free(cursor)

    def close(self):
        if self._handle:
            self._free(self._handle)
            self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()


class Executor:
    """Runs models to plans; owns the checkpoint storage."""

    _free = lib.uturn_executor_free  # kept for __del__ at interpreter exit

    def __init__(self):
        self._handle, info = ctypes.c_void_p(), _error_info()
        _check(lib.uturn_executor_create(None, ctypes.byref(self._handle),
                                         ctypes.byref(info)), info)

    def slot_bytes(self, state_bytes):
        """What a slot of ``state_bytes`` really costs here."""
        out = _u64()
        _check(lib.uturn_executor_slot_bytes(self._handle, state_bytes,
                                             ctypes.byref(out)))
        return out.value

    def plan(self, prob):
        """uturn_executor_plan(): a Plan with slots at their real cost."""
        handle, info = ctypes.c_void_p(), _error_info()
        _check(lib.uturn_executor_plan(self._handle, ctypes.byref(prob),
                                       ctypes.byref(handle),
                                       ctypes.byref(info)), info)
        return Plan(handle)

    def run(self, plan, state, forward, turn, adjoint, verify=False,
            budget_bytes=0):
        """Run the model to ``plan``: forward(step), turn() and
        adjoint(step) act on the ctypes object ``state`` in place and
        return None or 0 to continue (anything else stops the run). An
        exception in a callback stops the run and is raised here.
        Returns (observed Stats, Report)."""
        raised = []

        def wrap(fn, *args):
            try:
                rc = fn(*args)
                return 0 if rc is None else int(rc)
            except BaseException as exc:  # re-raised after the run
                raised.append(exc)
                return 1

        # The CFUNCTYPE objects must stay alive until the run returns.
        callbacks = (FORWARD(lambda _u, step: wrap(forward, step)),
                     TURN(lambda _u: wrap(turn)),
                     ADJOINT(lambda _u, step: wrap(adjoint, step)))
        model = Model()
        lib.uturn_model_init(ctypes.byref(model))
        model.forward, model.turn, model.adjoint = callbacks
        model.state = ctypes.addressof(state)
        model.state_bytes = ctypes.sizeof(state)
        options = RunOptions()
        lib.uturn_run_options_init(ctypes.byref(options))
        options.verify = verify
        options.budget_bytes = budget_bytes
        observed, report, info = Stats(), Report(), _error_info()
        lib.uturn_stats_init(ctypes.byref(observed))
        lib.uturn_report_init(ctypes.byref(report))
        status = lib.uturn_executor_run(
            self._handle, plan.handle, ctypes.byref(model),
            ctypes.byref(options), ctypes.byref(observed),
            ctypes.byref(report), ctypes.byref(info))
        del callbacks
        if raised:
            raise raised[0]
        _check(status, info)
        return observed, report

    def close(self):
        if self._handle:
            self._free(self._handle)
            self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()
