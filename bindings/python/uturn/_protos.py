"""The functions of <uturn.h> on ``lib``, with their argument and result
types, and the header's constants (values fixed forever)."""

import ctypes

from ._load import lib
from ._structs import (Action, DurableInfo, ErrorInfo, ExecutorOptions,
                       Level, LevelReport, LevelStats, Model, Report,
                       RunOptions, SlotCost, Stats, Storage, enum, u64)

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
E_STOPPED = 11  # a durable run stopped at a point, as asked

PLANNER_STORE_ALL = 0
PLANNER_PERIODIC = 1
PLANNER_SQRT = 2
PLANNER_REVOLVE = 3
PLANNER_DP = 4
PLANNER_ONLINE = 5  # steps 0: the step count found as the run goes
PLANNER_HREVOLVE = 6
PLANNER_PARSED = 100

DP_AUTO = 0
DP_EXACT = 1
DP_APPROXIMATE = 2
DP_TABLE_BYTES = 1024 * 1024 * 1024

OP_ADVANCE = 1
OP_STORE = 2
OP_RESTORE = 3
OP_FREE = 4
OP_TURN = 5
OP_REVERSE = 6
OP_PERSIST = 7  # plans of several sweeps: the slot is read by a later one
SWEEPS_UNBOUNDED = 2**64 - 1  # problem(sweeps=...): each further on request

STORAGE_MEMORY = 0
STORAGE_FILE = 1
STORAGE_USER = 2

NONE = 2**64 - 1  # UTURN_NONE
DP_TABLE_BYTES = 1024 * 1024 * 1024
HREVOLVE_TABLE_BYTES = 1024 * 1024 * 1024
HREVOLVE_WORK = 100000000000

# Functions of the header this package does not declare, and why.
NOT_DECLARED = {
    "uturn_plan_write": "takes a C FILE *",
    "uturn_error_init": "the 0.1 struct size; uturn_error_init_size is used",
    "uturn_problem_init": "the 0.1 struct size",
    "uturn_stats_init": "the 0.1 struct size",
    "uturn_model_init": "the 0.1 struct size",
    "uturn_run_options_init": "the 0.1 struct size",
    "uturn_report_init": "the 0.1 struct size",
    "uturn_executor_options_init": "declared with _init_size only",
    "uturn_slot_cost_init": "declared with _init_size only",
}

_P = ctypes.POINTER
_vp = ctypes.c_void_p
_pp = _P(ctypes.c_void_p)
_err = _P(ErrorInfo)
_size = ctypes.c_size_t
_str = ctypes.c_char_p


def _proto(name, restype, *argtypes):
    fn = getattr(lib, name)
    fn.restype = restype
    fn.argtypes = list(argtypes)


_PROTOTYPES = [
    ("uturn_strerror", _str, enum),
    ("uturn_status_name", _str, enum),
    ("uturn_error_init_size", None, _err, _size),
    ("uturn_version_number", ctypes.c_uint),
    ("uturn_version_string", _str),
    ("uturn_planner_name", _str, enum),
    ("uturn_planner_from_name", enum, _str, _P(enum)),
    ("uturn_level_init_size", None, _P(Level), _size),
    ("uturn_level_stats_init_size", None, _P(LevelStats), _size),
    ("uturn_problem_init_size", None, _vp, _size),
    ("uturn_stats_init_size", None, _P(Stats), _size),
    ("uturn_op_name", _str, enum),
    ("uturn_action_format", enum, _P(Action), _str, _size, _P(_size)),
    ("uturn_plan_create", enum, _vp, _vp, _pp, _err),
    ("uturn_plan_parse", enum, _str, _size, _vp, _pp, _err),
    ("uturn_reader_create", enum, _vp, _pp, _err),
    ("uturn_reader_feed", enum, _vp, _str, _size, _err),
    ("uturn_reader_finish", enum, _vp, _P(Stats), _err),
    ("uturn_reader_free", None, _vp),
    ("uturn_plan_free", None, _vp),
    ("uturn_plan_stats", enum, _vp, _P(Stats)),
    ("uturn_plan_level_stats", enum, _vp, u64, _P(LevelStats)),
    ("uturn_plan_online_cost", enum, _vp, u64, _P(u64), _err),
    ("uturn_plan_problem", enum, _vp, _vp),
    ("uturn_plan_fingerprint", enum, _vp, _P(u64)),
    ("uturn_plan_walk", enum, _vp, _P(Stats), _err),
    ("uturn_cursor_create", enum, _vp, _vp, _pp),
    ("uturn_cursor_next", ctypes.c_bool, _vp, _P(Action)),
    ("uturn_cursor_read", enum, _vp, _P(Action), _size, _P(_size)),
    ("uturn_cursor_end", enum, _vp),
    ("uturn_cursor_set_size", enum, _vp, u64, u64),
    ("uturn_cursor_stats", enum, _vp, _P(Stats)),
    ("uturn_cursor_free", None, _vp),
    ("uturn_validator_create", enum, _vp, _vp, _pp, _err),
    ("uturn_validator_push", enum, _vp, _P(Action), _err),
    ("uturn_validator_finish", enum, _vp, _P(Stats), _err),
    ("uturn_validator_level_stats", enum, _vp, u64, _P(LevelStats)),
    ("uturn_validator_set_steps", enum, _vp, u64, _err),
    ("uturn_validator_free", None, _vp),
    ("uturn_model_init_size", None, _P(Model), _size),
    ("uturn_run_options_init_size", None, _P(RunOptions), _size),
    ("uturn_report_init_size", None, _P(Report), _size),
    ("uturn_storage_init_size", None, _P(Storage), _size),
    ("uturn_executor_options_init_size", None, _P(ExecutorOptions), _size),
    ("uturn_executor_open", enum, _P(ExecutorOptions), _pp, _err),
    ("uturn_executor_create", enum, _vp, _pp, _err),
    ("uturn_executor_free", None, _vp),
    ("uturn_executor_trim", None, _vp),
    ("uturn_level_report_init_size", None, _P(LevelReport), _size),
    ("uturn_executor_level_report", enum, _vp, u64, _P(LevelReport)),
    ("uturn_executor_held_bytes", u64, _vp),
    ("uturn_slot_cost_init_size", None, _P(SlotCost), _size),
    ("uturn_executor_slot_cost", enum, _vp, u64, _P(SlotCost)),
    ("uturn_executor_slot_bytes", enum, _vp, u64, _P(u64)),
    ("uturn_executor_capacity", enum, _vp, u64, u64, _P(u64)),
    ("uturn_executor_budget", enum, _vp, u64, u64, _P(u64)),
    ("uturn_executor_level_slots", enum, _vp, _vp, u64, _P(u64), _err),
    ("uturn_executor_plan", enum, _vp, _vp, _pp, _err),
    ("uturn_executor_run", enum, _vp, _vp, _P(Model), _P(RunOptions),
     _P(Stats), _P(Report), _err),
    ("uturn_executor_sweep", enum, _vp, _P(Model), _P(Stats), _P(Report),
     _err),
    ("uturn_executor_release", None, _vp),
    ("uturn_durable_info_init_size", None, _P(DurableInfo), _size),
    ("uturn_durable_inspect", enum, ctypes.c_char_p, _P(DurableInfo), _err),
    ("uturn_durable_inspect_point", enum, ctypes.c_char_p, u64,
     _P(DurableInfo), _err),
    ("uturn_durable_remove", enum, ctypes.c_char_p, _err),
]

for _entry in _PROTOTYPES:
    _proto(*_entry)

DECLARED = frozenset(entry[0] for entry in _PROTOTYPES)
