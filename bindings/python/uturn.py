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

Nothing is wrapped on the way into C. Every integer the binding hands to
the library (the arguments of problem(), Executor.slot_bytes(),
Executor.run() and Plan.actions(), and any field of the structures below
assigned from Python) must be an int (or another integer type, but not
bool) in the range of its C type, and at least 1 where the library needs
that (steps, state_bytes, batch). A value of the wrong kind (a bool, a
float, a str, None, a negative count, an unknown planner) raises
ValueError, and an integer past its C type (a uint64_t past 2**64-1, a
planner or status past a C int) raises OverflowError; both messages name
the argument and the values it accepts. What is representable but not
meaningful (steps above what a planner can plan, a stride above steps) is
left to the library, which raises ``uturn.Error``. Only ``lib``, the raw
ctypes functions, is unchecked.

The library is found through the UTURN_LIBRARY environment variable, then
at the place the install put it relative to this file, then by
ctypes.util.find_library("uturn").
"""

import ctypes
import ctypes.util
import operator
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
# Checking what Python hands to C: ctypes would wrap an integer silently
# (2**64 + 10 becomes 10, -1 becomes 2**64 - 1), so every value is checked
# against its C type before it crosses.

_u64 = ctypes.c_uint64
_enum = ctypes.c_int

_C_TYPES = {  # name: (least, greatest), from the sizes of this platform
    "uint64_t": (0, 2**64 - 1),
    "size_t": (0, 2**(8 * ctypes.sizeof(ctypes.c_size_t)) - 1),
    "uintptr_t": (0, 2**(8 * ctypes.sizeof(ctypes.c_void_p)) - 1),
    "int": (-2**(8 * ctypes.sizeof(ctypes.c_int) - 1),
            2**(8 * ctypes.sizeof(ctypes.c_int) - 1) - 1),
}


def _number(n):
    """n as a message writes it: 2**64-1 and -2**31 rather than digits."""
    if n >= 2**15 and (n + 1) & n == 0:
        return "2**%d-1" % n.bit_length()
    if n <= -2**15 and (-n) & (-n - 1) == 0:
        return "-2**%d" % (-n - 1).bit_length()
    return str(n)


def _shown(value):
    """value for a message: its repr (shortened) and its type."""
    text = repr(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return "%s (%s)" % (text, type(value).__name__)


def _is_integer(value):
    """An int or another integer type (operator.index() takes it); a bool
    is not one, although Python counts it as an int."""
    return not isinstance(value, bool) and hasattr(type(value), "__index__")


def _integer(name, value, ctype="uint64_t", least=None):
    """value as an int for an argument or field `name` of C type `ctype`,
    at least `least` (default: the type's least value)."""
    low, high = _C_TYPES[ctype]
    least = low if least is None else least
    span = "%s..%s" % (_number(least), _number(high))
    if not _is_integer(value):
        raise ValueError("uturn: %s must be an integer in %s (a C %s), "
                         "not %s" % (name, span, ctype, _shown(value)))
    number = operator.index(value)
    if number < low and low < 0 or number > high:
        raise OverflowError("uturn: %s must be an integer in %s (a C %s), "
                            "not %d, which does not fit"
                            % (name, span, ctype, number))
    if number < least:
        rule = ("must not be negative" if least == 0
                else "must be at least %s" % _number(least))
        raise ValueError("uturn: %s %s (an integer in %s), not %d"
                         % (name, rule, span, number))
    return number


def _boolean(name, value):
    """value as a bool: True, False, 1 or 0, nothing else."""
    if isinstance(value, bool):
        return value
    if _is_integer(value) and operator.index(value) in (0, 1):
        return bool(operator.index(value))
    raise ValueError("uturn: %s must be True or False, not %s"
                     % (name, _shown(value)))


def _pointer(name, value):
    """An address given as an integer must fit a pointer; anything else
    (None, a ctypes object) is left to ctypes, which checks its type."""
    if isinstance(value, bool) or _is_integer(value):
        return _integer(name, value, "uintptr_t")
    return value


# Planner values that _ask_planners() asks the library about. The enum's
# values are small (uturn.h fixes them forever); a planner added later
# with a value below this bound is found without changing this file.
_PLANNER_VALUES_ASKED = 1024


def _ask_planners():
    """{name: value} of every planner uturn_plan_create() takes, from the
    library itself: each value whose uturn_planner_name() is a name that
    uturn_planner_from_name() maps back to it (so "parsed" is not one).
    Called once, at import, into _PLANNERS."""
    table = {}
    for value in range(_PLANNER_VALUES_ASKED):
        name = lib.uturn_planner_name(value)
        found = _enum()
        if (name is not None and lib.uturn_planner_from_name(
                name, ctypes.byref(found)) == OK and found.value == value):
            table[name.decode()] = value
    return table


def _planner(name, value):
    """A planner name ("revolve", ...) or PLANNER_ value as the value."""
    known = _PLANNERS
    accepted = "one of %s" % ", ".join(
        "%r (%d)" % item for item in sorted(known.items(),
                                            key=lambda item: item[1]))
    if isinstance(value, str) and value in known:
        return known[value]
    if _is_integer(value):
        number = operator.index(value)
        low, high = _C_TYPES["int"]
        if not low <= number <= high:
            raise OverflowError("uturn: unknown %s %d (past a C int): it "
                                "must be %s" % (name, number, accepted))
        if number in known.values():
            return number
        raise ValueError("uturn: unknown %s %d: it must be %s"
                         % (name, number, accepted))
    raise ValueError("uturn: unknown %s %s: it must be %s"
                     % (name, _shown(value), accepted))


def _field_check(ctype):
    """The check for a structure field of type ctype, or None where ctypes
    itself refuses what the field cannot hold (pointers to a type,
    functions, doubles, char arrays)."""
    if ctype is ctypes.c_bool:
        return _boolean
    if ctype is ctypes.c_void_p:
        return _pointer
    if ctype is _enum:
        return lambda name, value: _integer(name, value, "int")
    if ctype is _u64 or ctype is ctypes.c_size_t:
        c_name = "uint64_t" if ctype is _u64 else "size_t"
        return lambda name, value: _integer(name, value, c_name)
    return None


# ---------------------------------------------------------------------------
# Structures, as in <uturn.h>

FORWARD = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, _u64)
TURN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)
ADJOINT = FORWARD
SAVE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, _u64,
                        ctypes.c_void_p, _u64)
LOAD = SAVE
STATE_SIZE = ctypes.CFUNCTYPE(_u64, ctypes.c_void_p, _u64)
PROGRESS = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, _u64, _u64)


_field_checks = {}  # structure class: {field name: check}


class _Struct(ctypes.Structure):
    """A structure of <uturn.h> whose integer fields refuse, when set from
    Python, what their C type cannot hold (see the module's docstring)."""

    _least = {}  # field: least value the library accepts, where above 0

    @classmethod
    def _checks(cls):
        checks = _field_checks.get(cls)
        if checks is None:
            checks = {}
            for klass in reversed(cls.__mro__):
                for name, ctype in klass.__dict__.get("_fields_", ()):
                    check = _field_check(ctype)
                    if name in cls._least:
                        least = cls._least[name]
                        checks[name] = lambda n, v, least=least: _integer(
                            n, v, least=least)
                    elif check is not None:
                        checks[name] = check
            _field_checks[cls] = checks
        return checks

    def __setattr__(self, name, value):
        check = self._checks().get(name)
        if check is not None:
            value = check(name, value)
        super().__setattr__(name, value)

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
    """uturn_problem_t. ``planner`` takes a name or a PLANNER_ value;
    ``step_bytes`` and ``step_costs`` take None or a sequence of integers,
    one per step (checked against ``steps`` when a plan is made), or a
    ctypes pointer, which is passed as it is."""

    _fields_ = [("size", ctypes.c_size_t), ("planner", _enum),
                ("steps", _u64), ("slots", _u64), ("slot_bytes", _u64),
                ("budget_bytes", _u64), ("stride", _u64),
                ("step_bytes", ctypes.POINTER(_u64)),
                ("step_costs", ctypes.POINTER(_u64)), ("unit_bytes", _u64)]
    _least = {"steps": 1}
    _ARRAYS = ("step_bytes", "step_costs")

    def __setattr__(self, name, value):
        if name == "planner":
            value = _planner(name, value)
        elif name in self._ARRAYS:
            value, length = _step_array(name, value)
            self.__dict__.setdefault("_lengths", {})[name] = length
        super().__setattr__(name, value)

    def _check_arrays(self):
        """Refuse per-step arrays set from Python whose length is not
        steps: the library reads exactly steps values from each."""
        lengths = self.__dict__.get("_lengths", {})
        for name in self._ARRAYS:
            length = lengths.get(name)
            if length is not None and length != self.steps:
                raise ValueError(
                    "uturn: %s has %d values for %d steps; give one value "
                    "per step, or None" % (name, length, self.steps))


def _step_array(name, value):
    """(the value to store, its length or None) for a per-step array."""
    if value is None or isinstance(value, ctypes.POINTER(_u64)):
        return value, None  # NULL, or the caller's pointer as it is
    if isinstance(value, ctypes.Array) and value._type_ is _u64:
        return value, len(value)
    if isinstance(value, (str, bytes, bytearray)) or not hasattr(
            value, "__iter__"):
        raise ValueError("uturn: %s must be None or a sequence of integers "
                         "(one per step), not %s" % (name, _shown(value)))
    values = [_integer("%s[%d]" % (name, i), v)
              for i, v in enumerate(value)]
    return (_u64 * len(values))(*values), len(values)


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

_PLANNERS = _ask_planners()

# ---------------------------------------------------------------------------
# Errors and small functions


class Error(Exception):
    """A uturn call failed. ``status`` is the code, ``name`` its enumerator
    name, ``info`` the ErrorInfo the library filled (or None). ``note``,
    when given, is added to the message (what the binding knows besides)."""

    def __init__(self, status, info=None, note=None):
        self.status = status
        self.name = status_name(status)
        self.info = info
        text = info.message.decode(errors="replace") if info else ""
        text = text or strerror(status)
        if note:
            text = "%s; %s" % (text, note)
        super().__init__("%s: %s" % (self.name, text))


def strerror(status):
    """The library's fixed text for a status, e.g. "out of memory"."""
    return lib.uturn_strerror(_integer("status", status, "int")).decode()


def status_name(status):
    """The enumerator's name for a status, e.g. "UTURN_E_NOMEM"."""
    return lib.uturn_status_name(_integer("status", status, "int")).decode()


def version():
    """The version of the library loaded, e.g. "0.1.0"."""
    return lib.uturn_version_string().decode()


def version_number():
    return lib.uturn_version_number()


def _check(status, info=None, note=None):
    if status != OK:
        raise Error(status, info, note)


def _error_info():
    info = ErrorInfo()
    lib.uturn_error_init(ctypes.byref(info))
    return info


def problem(steps, planner="revolve", slots=0, slot_bytes=0, budget_bytes=0,
            stride=0, unit_bytes=0, step_bytes=None, step_costs=None):
    """A Problem from uturn_problem_init(), with the given fields set.
    ``planner`` is a name ("revolve", "periodic", ...) or a PLANNER_ value;
    ``steps`` is at least 1; ``slots``, ``slot_bytes``, ``budget_bytes``,
    ``stride`` and ``unit_bytes`` are 0 (the library's default) or more,
    up to 2**64-1. ``step_bytes`` and ``step_costs`` (the dp planner's) are
    None or one integer per step. Values Python cannot hand to C raise
    ValueError or OverflowError naming the argument (module docstring)."""
    p = Problem()
    lib.uturn_problem_init(ctypes.byref(p))
    p.planner = planner
    p.steps = steps
    p.slots = slots
    p.slot_bytes = slot_bytes
    p.budget_bytes = budget_bytes
    p.stride = stride
    p.unit_bytes = unit_bytes
    p.step_bytes = step_bytes
    p.step_costs = step_costs
    p._check_arrays()
    return p


def _problem_arg(prob):
    """prob, checked, as the pointer uturn_plan_create() takes."""
    if not isinstance(prob, Problem):
        raise ValueError("uturn: prob must be a uturn.Problem (from "
                         "uturn.problem()), not %s" % _shown(prob))
    prob._check_arrays()
    return ctypes.byref(prob)


# ---------------------------------------------------------------------------
# Plans and executors


class Plan:
    """An immutable plan. Free it with close() (or a with block); a closed
    plan raises ValueError("uturn: the plan is closed") when used."""

    _free = lib.uturn_plan_free  # kept for __del__ at interpreter exit

    def __init__(self, handle):
        self._handle = handle

    @classmethod
    def create(cls, prob):
        """uturn_plan_create() for the Problem ``prob``."""
        prob_arg = _problem_arg(prob)
        handle, info = ctypes.c_void_p(), _error_info()
        _check(lib.uturn_plan_create(prob_arg, None, ctypes.byref(handle),
                                     ctypes.byref(info)), info)
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
                             "bytes, not %s" % _shown(text))
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
        """An iterator over the actions, read through a cursor ``batch``
        (at least 1) at a time. The arguments and the plan are checked
        here, not at the first next()."""
        batch = _integer("batch", batch, "size_t", least=1)
        self.handle  # raises if the plan is closed
        return self._actions(batch)

    def _actions(self, batch):
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
                    yield Action.from_buffer_copy(buf[i])
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


def _callback_code(result):
    """What a Python callback's result tells the library: 0 (continue)
    for None and the integer 0; any other integer that is a C int is
    passed on (the library's message shows it); everything else (bools,
    floats, other integers, strings, ...) is 1, stop."""
    if result is None:
        return 0
    if _is_integer(result):
        number = operator.index(result)
        low, high = _C_TYPES["int"]
        if low <= number <= high:
            return number
    return 1


class Executor:
    """Runs models to plans; owns the checkpoint storage. A closed executor
    raises ValueError("uturn: the executor is closed") when used."""

    _free = lib.uturn_executor_free  # kept for __del__ at interpreter exit

    def __init__(self):
        self._handle, info = ctypes.c_void_p(), _error_info()
        _check(lib.uturn_executor_create(None, ctypes.byref(self._handle),
                                         ctypes.byref(info)), info)

    @property
    def handle(self):
        if not self._handle:
            raise ValueError("uturn: the executor is closed")
        return self._handle

    def slot_bytes(self, state_bytes):
        """What a slot of ``state_bytes`` (1 to 2**64-1) really costs
        here."""
        state_bytes = _integer("state_bytes", state_bytes, least=1)
        out = _u64()
        _check(lib.uturn_executor_slot_bytes(self.handle, state_bytes,
                                             ctypes.byref(out)),
               note="state_bytes was %d" % state_bytes)
        return out.value

    def plan(self, prob):
        """uturn_executor_plan(): a Plan with slots at their real cost."""
        prob_arg = _problem_arg(prob)
        handle, info = ctypes.c_void_p(), _error_info()
        _check(lib.uturn_executor_plan(self.handle, prob_arg,
                                       ctypes.byref(handle),
                                       ctypes.byref(info)), info)
        return Plan(handle)

    def run(self, plan, state, forward, turn, adjoint, verify=False,
            budget_bytes=0):
        """Run the model to ``plan``: forward(step), turn() and
        adjoint(step) act on the ctypes object ``state`` in place.

        A callback continues the run by returning None or the integer 0
        (an int, or another integer type, equal to 0). Anything else stops
        the run with UTURN_E_CALLBACK: any other integer, True and False,
        floats (0.0 and 0.9 too), strings, any other object. An exception
        in a callback stops the run too, and is raised here after it.
        ``verify`` is True or False; ``budget_bytes`` is 0 (the plan's
        budget) up to 2**64-1. Returns (observed Stats, Report)."""
        handle = self.handle
        if not isinstance(plan, Plan):
            raise ValueError("uturn: plan must be a uturn.Plan, not %s"
                             % _shown(plan))
        plan_handle = plan.handle
        for name, fn in (("forward", forward), ("turn", turn),
                         ("adjoint", adjoint)):
            if not callable(fn):
                raise ValueError("uturn: %s must be callable, not %s"
                                 % (name, _shown(fn)))
        if not isinstance(state, (ctypes._SimpleCData, ctypes.Structure,
                                  ctypes.Union, ctypes.Array)):
            raise ValueError("uturn: state must be a ctypes object holding "
                             "the live state, not %s" % _shown(state))
        options = RunOptions()
        lib.uturn_run_options_init(ctypes.byref(options))
        options.verify = _boolean("verify", verify)
        options.budget_bytes = budget_bytes
        raised, stopped = [], []

        def wrap(fn, *args):
            try:
                result = fn(*args)
            except BaseException as exc:  # re-raised after the run
                raised.append(exc)
                return 1
            code = _callback_code(result)
            if code == 1 and not (_is_integer(result) and result == 1):
                stopped.append(result)
            return code

        # The CFUNCTYPE objects must stay alive until the run returns.
        callbacks = (FORWARD(lambda _u, step: wrap(forward, step)),
                     TURN(lambda _u: wrap(turn)),
                     ADJOINT(lambda _u, step: wrap(adjoint, step)))
        model = Model()
        lib.uturn_model_init(ctypes.byref(model))
        model.forward, model.turn, model.adjoint = callbacks
        model.state = ctypes.addressof(state)
        model.state_bytes = ctypes.sizeof(state)
        observed, report, info = Stats(), Report(), _error_info()
        lib.uturn_stats_init(ctypes.byref(observed))
        lib.uturn_report_init(ctypes.byref(report))
        status = lib.uturn_executor_run(
            handle, plan_handle, ctypes.byref(model),
            ctypes.byref(options), ctypes.byref(observed),
            ctypes.byref(report), ctypes.byref(info))
        del callbacks
        if raised:
            raise raised[0]
        note = None
        if status == E_CALLBACK and stopped:
            note = ("the Python callback returned %s, and only None and 0 "
                    "continue a run" % _shown(stopped[0]))
        _check(status, info, note)
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
