"""What to plan: the Problem mirror with its per-step arrays and storage
levels, the planners the library knows, problem() and level()."""

import ctypes
import operator

from . import _checks
from ._load import lib
from ._protos import DP_AUTO, DP_TABLE_BYTES, OK, PLANNER_ONLINE
from ._structs import Level, _Struct, enum, u64

# The library's words for a step count that does not fit the planner
# (uturn__problem_resolve()), said here before anything is planned.
STEPS_ZERO = ("steps must be at least 1 (0, the step count unknown, is for "
              "the online planner)")
STEPS_ONLINE = ("the online planner does not know the steps: give steps 0 "
                "(and max_steps for a bound)")

# Planner values that _ask_planners() asks the library about. The enum's
# values are small (uturn.h fixes them forever); a planner added later
# with a value below this bound is found without changing this file.
_PLANNER_VALUES_ASKED = 1024


def _ask_planners():
    """{name: value} of every planner uturn_plan_create() takes, from the
    library itself: each value whose uturn_planner_name() is a name that
    uturn_planner_from_name() maps back to it (so "parsed" is not one, nor
    "online" until the library has that planner)."""
    table = {}
    for value in range(_PLANNER_VALUES_ASKED):
        name = lib.uturn_planner_name(value)
        found = enum()
        if (name is not None and lib.uturn_planner_from_name(
                name, ctypes.byref(found)) == OK and found.value == value):
            table[name.decode()] = value
    return table


PLANNERS = _ask_planners()


def _planner(name, value):
    """A planner name ("revolve", ...) or PLANNER_ value as the value."""
    accepted = "one of %s" % ", ".join(
        "%r (%d)" % item for item in sorted(PLANNERS.items(),
                                            key=lambda item: item[1]))
    if isinstance(value, str) and value in PLANNERS:
        return PLANNERS[value]
    if _checks.is_integer(value):
        n = operator.index(value)
        low, high = _checks.c_int_range()
        if not low <= n <= high:
            raise OverflowError("uturn: unknown %s %d (past a C int): it "
                                "must be %s" % (name, n, accepted))
        if n in PLANNERS.values():
            return n
        raise ValueError("uturn: unknown %s %d: it must be %s"
                         % (name, n, accepted))
    raise ValueError("uturn: unknown %s %s: it must be %s"
                     % (name, _checks.shown(value), accepted))


def _step_array(name, value):
    """(the value to store, its length or None) for a per-step array."""
    if value is None or isinstance(value, ctypes.POINTER(u64)):
        return value, None  # NULL, or the caller's pointer as it is
    if isinstance(value, ctypes.Array) and value._type_ is u64:
        return value, len(value)
    if isinstance(value, (str, bytes, bytearray)) or not hasattr(
            value, "__iter__"):
        raise ValueError("uturn: %s must be None or a sequence of integers "
                         "(one per step), not %s" % (name, _checks.shown(value)))
    values = [_checks.integer("%s[%d]" % (name, i), v)
              for i, v in enumerate(value)]
    return (u64 * len(values))(*values), len(values)


def step_array(name, value, steps):
    """A per-step array (None, or one integer per step of ``steps``) as
    the ctypes value a `const uint64_t *` takes."""
    array, length = _step_array(name, value)
    if length is not None and length != steps:
        raise ValueError("uturn: %s has %d values for %d steps; give one "
                         "value per step, or None" % (name, length, steps))
    return array


def _level_array(value):
    """(a ctypes array of Level, its length) for the levels of a problem:
    None, or a sequence of uturn.Level (from uturn.level())."""
    if value is None:
        return None, 0
    if isinstance(value, (str, bytes, Level)) or not hasattr(
            value, "__iter__"):
        raise ValueError("uturn: levels must be None or a sequence of "
                         "uturn.level(...), not %s" % _checks.shown(value))
    items = list(value)
    for i, item in enumerate(items):
        if not isinstance(item, Level):
            raise ValueError("uturn: levels[%d] must be a uturn.Level (from "
                             "uturn.level()), not %s"
                             % (i, _checks.shown(item)))
    if not items:
        return None, 0
    return (Level * len(items))(*items), len(items)


class Problem(_Struct):
    """uturn_problem_t. ``planner`` takes a name or a PLANNER_ value;
    ``step_bytes`` and ``step_costs`` take None or a sequence of integers,
    one per step (checked against ``steps`` when a plan is made), or a
    ctypes pointer, which is passed as it is; ``levels`` takes None or a
    sequence of uturn.level(), and sets ``level_count`` to its length.
    ``steps`` is 0 for the online planner (the step count unknown) and at
    least 1 for every other; that is checked when a plan is made, since
    the fields may be set in any order."""

    _init = "uturn_problem_init_size"
    _fields_ = [("size", ctypes.c_size_t), ("planner", enum),
                ("steps", u64), ("slots", u64), ("slot_bytes", u64),
                ("budget_bytes", u64), ("stride", u64),
                ("step_bytes", ctypes.POINTER(u64)),
                ("step_costs", ctypes.POINTER(u64)), ("unit_bytes", u64),
                ("levels", ctypes.POINTER(Level)), ("level_count", u64),
                ("max_steps", u64), ("threads", u64),
                ("table_bytes", u64), ("dp_mode", enum),
                # Since 0.3: hrevolve's planning progress (left NULL here).
                ("progress", ctypes.c_void_p),
                ("progress_user", ctypes.c_void_p),
                # Since 0.3: reverse sweeps over one forward (0 or 1: one).
                ("sweeps", u64)]
    _ARRAYS = ("step_bytes", "step_costs")

    def __setattr__(self, name, value):
        lengths = self.__dict__.setdefault("_lengths", {})
        if name == "planner":
            value = _planner(name, value)
        elif name in self._ARRAYS:
            value, lengths[name] = _step_array(name, value)
        elif name == "levels":
            value, count = _level_array(value)
            super().__setattr__(name, value)
            lengths[name] = count
            # The array's names point into these: keep them while it is.
            self.__dict__["_level_array"] = value
            name, value = "level_count", count
        super().__setattr__(name, value)

    def check_steps(self):
        """Refuse a step count the planner cannot take, with the library's
        words: 0 is the online planner's (the count unknown), and the
        online planner takes nothing else."""
        online = self.planner == PLANNER_ONLINE
        if self.steps == 0 and not online:
            raise ValueError("uturn: " + STEPS_ZERO)
        if self.steps != 0 and online:
            raise ValueError("uturn: %s, not %d" % (STEPS_ONLINE, self.steps))

    def check_arrays(self):
        """Refuse arrays set from Python whose length the library would
        read past: per-step arrays of other than ``steps`` values (or any,
        for an online problem: its sizes come as the sweep reaches them),
        levels of other than ``level_count``."""
        lengths = self.__dict__.get("_lengths", {})
        for name in self._ARRAYS:
            length = lengths.get(name)
            if length is not None and self.steps == 0:
                raise ValueError(
                    "uturn: %s is for plans that know their steps; an online "
                    "problem (steps 0) with a byte budget alone takes each "
                    "state's size as the sweep reaches it (Cursor.set_size(),"
                    " or run(state_size=...))" % name)
            if length is not None and length != self.steps:
                raise ValueError(
                    "uturn: %s has %d values for %d steps; give one value "
                    "per step, or None" % (name, length, self.steps))
        count = lengths.get("levels")
        if count is not None and count != self.level_count:
            raise ValueError("uturn: level_count is %d but levels has %d; "
                             "set levels and leave level_count to it"
                             % (self.level_count, count))


def problem(steps, planner="revolve", slots=0, slot_bytes=0, budget_bytes=0,
            stride=0, unit_bytes=0, step_bytes=None, step_costs=None,
            levels=None, max_steps=0, threads=1,
            table_bytes=DP_TABLE_BYTES, dp_mode=DP_AUTO, sweeps=0):
    """A Problem with the library's defaults and the given fields set.
    ``planner`` is a name ("revolve", "hrevolve", "dp", "online", ...) or
    a PLANNER_ value; ``steps`` is at least 1, or exactly 0 for the online
    planner, which does not know it (``max_steps``, when not 0, bounds it;
    its capacity is ``slots``, ``budget_bytes`` with ``slot_bytes``, or
    ``budget_bytes`` alone: each state's size is then given as the sweep
    reaches it). ``slots``, ``slot_bytes``, ``budget_bytes``, ``stride``,
    ``unit_bytes`` and ``max_steps`` are 0 (the library's default) or
    more, up to 2**64-1. ``step_bytes`` and ``step_costs`` (the dp
    planner's) are None or one integer per step; ``levels`` (storage
    levels, fastest first; several need hrevolve) is None or a list of
    uturn.level(). ``threads`` (dp: threads filling its tables; the plan
    is the same for any count), ``table_bytes`` (dp: the most its tables
    may hold) and ``dp_mode`` (DP_AUTO, DP_EXACT or DP_APPROXIMATE) are
    dp's. ``sweeps`` (0 or 1: one) asks for a plan that reverses the one
    forward that many times (revolve, on one level or several, and online
    from 4 slots on one level; see Executor.sweep()), or,
    SWEEPS_UNBOUNDED, as many as asked for until Executor.release().
    Values Python cannot hand to C raise ValueError or
    OverflowError naming the argument, and so does a step count the
    planner cannot take (in the library's words)."""
    p = Problem()
    p.planner = planner
    p.steps = steps
    p.slots = slots
    p.slot_bytes = slot_bytes
    p.budget_bytes = budget_bytes
    p.stride = stride
    p.unit_bytes = unit_bytes
    p.step_bytes = step_bytes
    p.step_costs = step_costs
    p.levels = levels
    p.max_steps = max_steps
    p.threads = threads
    p.table_bytes = table_bytes
    p.dp_mode = dp_mode
    p.sweeps = sweeps
    p.check_steps()
    p.check_arrays()
    return p


def level(name=None, slots=0, bytes=0, write_cost=0, read_cost=0):
    """A storage level for problem(levels=[...]): a label (str or bytes;
    None: "levelK"), its capacity in slots, or in bytes when slots is 0
    (resolved at the storage's real cost by Executor.plan()), and the
    cost of a store into it and of a restore from it, in units of one
    step of cost 1. Level 0 is memory; levels past it need storage of
    their own in the Executor (file_storage(), user_storage())."""
    # `bytes` shadows the builtin here on purpose: it is the header's name.
    lv = Level()
    lv.name = name
    lv.slots = slots
    lv.bytes = bytes
    lv.write_cost = write_cost
    lv.read_cost = read_cost
    return lv


def problem_arg(prob):
    """prob, checked, as the pointer uturn_plan_create() takes."""
    if not isinstance(prob, Problem):
        raise ValueError("uturn: prob must be a uturn.Problem (from "
                         "uturn.problem()), not %s" % _checks.shown(prob))
    prob.check_steps()
    prob.check_arrays()
    return ctypes.byref(prob)


def detached(prob):
    """prob (from uturn_plan_problem()) with its arrays, levels and level
    names copied into Python: the library's pointers there are into the
    plan, and would dangle once it is closed."""
    n = prob.steps
    for name in Problem._ARRAYS:
        pointer = getattr(prob, name)
        if pointer:
            setattr(prob, name, [pointer[i] for i in range(n)])
    if prob.levels:
        copies = []
        for i in range(prob.level_count):
            lv = Level.from_buffer_copy(prob.levels[i])
            lv.name = lv.name  # points at a Python copy of the name now
            copies.append(lv)
        prob.levels = copies
    return prob
