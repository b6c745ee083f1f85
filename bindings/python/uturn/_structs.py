"""The structures of <uturn.h> 0.2, field for field, and the callback
types. Every structure that has a `size` field is prepared, when made from
Python, by its uturn_<noun>_init_size() with ctypes.sizeof of the mirror
(the header's macros do the same with sizeof), so the library writes
exactly the mirror. tests/python/struct_layout.c prints the C layouts that
test_binding.py compares these with.

The integer fields refuse, when set from Python, what their C type cannot
hold (see _checks); string fields take str, bytes or None. Problem, with
its per-step arrays and levels, is in _problems.
"""

import ctypes

from . import _checks
from ._load import lib

u64 = ctypes.c_uint64
enum = ctypes.c_int
_P = ctypes.POINTER
_vp = ctypes.c_void_p

# ---------------------------------------------------------------------------
# Callback types (the user pointer first, as every callback of the API)

FORWARD = ctypes.CFUNCTYPE(ctypes.c_int, _vp, u64)
TURN = ctypes.CFUNCTYPE(ctypes.c_int, _vp)
ADJOINT = FORWARD
SAVE = ctypes.CFUNCTYPE(ctypes.c_int, _vp, u64, _vp, u64)
LOAD = SAVE
STATE_SIZE = ctypes.CFUNCTYPE(u64, _vp, u64)
IS_LAST = FORWARD
FORWARD_RECORD = ctypes.CFUNCTYPE(ctypes.c_int, _vp, u64, _vp, ctypes.c_bool)
# The agree callback is for layers that run one plan on several processes
# (the MPI layer); a Python run leaves it NULL.
AGREE = ctypes.CFUNCTYPE(ctypes.c_int, _vp, u64, ctypes.POINTER(ctypes.c_int),
                         ctypes.POINTER(u64))
# Durable runs (mirrored; the Python API does not offer them yet).
SAVE_ADJOINT = ctypes.CFUNCTYPE(ctypes.c_int, _vp, _vp, u64)
LOAD_ADJOINT = SAVE_ADJOINT
PROGRESS = ctypes.CFUNCTYPE(ctypes.c_int, _vp, u64, u64)
STORAGE_OPEN = ctypes.CFUNCTYPE(ctypes.c_int, _vp, u64, u64)
STORAGE_PUT = ctypes.CFUNCTYPE(ctypes.c_int, _vp, u64, u64, _vp, u64)
STORAGE_GET = STORAGE_PUT
STORAGE_DROP = ctypes.CFUNCTYPE(None, _vp, u64)
STORAGE_CLOSE = ctypes.CFUNCTYPE(None, _vp)
ALLOC = ctypes.CFUNCTYPE(_vp, _vp, ctypes.c_size_t)
FREE = ctypes.CFUNCTYPE(None, _vp, _vp, ctypes.c_size_t)


def _field_check(ctype):
    """The check for a structure field of type ctype, or None where ctypes
    itself refuses what the field cannot hold (pointers to a type,
    functions, doubles, char arrays)."""
    if ctype is ctypes.c_bool:
        return _checks.boolean
    if ctype is ctypes.c_void_p:
        return _checks.pointer
    if ctype is ctypes.c_char_p:
        return _checks.text
    if ctype is enum:
        return lambda name, value: _checks.integer(name, value, "int")
    if ctype is u64 or ctype is ctypes.c_size_t:
        c_name = "uint64_t" if ctype is u64 else "size_t"
        return lambda name, value: _checks.integer(name, value, c_name)
    return None


_field_checks = {}  # structure class: {field name: check}


class _Struct(ctypes.Structure):
    """A structure of <uturn.h>: made from Python it is prepared by its
    init function (``_init``, the name of its uturn_..._init_size), or has
    its size set when it has no such function; its fields are checked
    when set from Python; ``as_dict()`` gives them as a dict."""

    _init = None  # the name of the structure's uturn_<noun>_init_size
    _least = {}  # field: least value the library accepts, where above 0

    def __init__(self, **fields):
        super().__init__()
        if self._init is not None:
            getattr(lib, self._init)(ctypes.byref(self), ctypes.sizeof(self))
        elif self._fields_[0][0] == "size":
            ctypes.Structure.__setattr__(self, "size", ctypes.sizeof(self))
        for name, value in fields.items():
            setattr(self, name, value)

    @classmethod
    def _checks(cls):
        checks = _field_checks.get(cls)
        if checks is None:
            checks = {}
            for name, ctype in cls._fields_:
                check = _field_check(ctype)
                if name in cls._least:
                    least = cls._least[name]
                    checks[name] = lambda n, v, least=least: _checks.integer(
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
        """The fields (without ``size``) as a dict; strings decoded."""
        out = {}
        for name, ctype in self._fields_:
            value = getattr(self, name)
            if ctype is ctypes.c_char_p and value is not None:
                value = value.decode(errors="replace")
            if name != "size":
                out[name] = value
        return out

    def __repr__(self):
        fields = ", ".join("%s=%r" % kv for kv in self.as_dict().items())
        return "%s(%s)" % (type(self).__name__, fields)


class ErrorInfo(_Struct):
    """uturn_error_t: what the library says about a failure."""
    _init = "uturn_error_init_size"
    _fields_ = [("size", ctypes.c_size_t), ("status", enum),
                ("action", u64), ("line", u64), ("step", u64),
                ("minimum_slots", u64), ("minimum_bytes", u64),
                ("message", ctypes.c_char * 256)]


class Level(_Struct):
    """uturn_level_t: one level of slot storage in a problem (see
    uturn.level()). ``name`` is a str or bytes, copied by the library."""
    _init = "uturn_level_init_size"
    _fields_ = [("size", ctypes.c_size_t), ("name", ctypes.c_char_p),
                ("slots", u64), ("bytes", u64), ("write_cost", u64),
                ("read_cost", u64)]


class LevelStats(_Struct):
    """uturn_level_stats_t: one storage level's counts in a plan
    (Plan.level_stats()). ``name`` is bytes (``as_dict()`` decodes it)."""
    _init = "uturn_level_stats_init_size"
    _fields_ = [("size", ctypes.c_size_t), ("name", ctypes.c_char_p)] + [
        (name, u64) for name in ("slots", "write_cost", "read_cost",
                                 "stores", "restores", "peak_slots",
                                 "peak_bytes")]


class Stats(_Struct):
    """uturn_stats_t: the counts of docs/model.md section 3, predicted
    (Plan.stats()) or observed (Executor.run()). ``fingerprint`` is the
    plan's (Plan.fingerprint()); ``online`` is True for an online plan;
    ``exact``, ``unit_bytes``, ``lower_bound_cost`` and ``planning_seconds``
    are dp's; ``sweeps`` and ``persistent`` count a plan's reverse sweeps
    (SWEEPS_UNBOUNDED: left open) and the checkpoints a later sweep reads,
    ``sweep_forward_steps`` what each further sweep takes."""
    _init = "uturn_stats_init_size"
    _fields_ = [("size", ctypes.c_size_t)] + [
        (name, u64) for name in (
            "steps", "forward_steps", "recomputed_steps", "reverse_steps",
            "stores", "restores", "frees", "peak_slots", "peak_bytes",
            "actions", "slots", "slot_bytes", "budget_bytes",
            "forward_cost", "recompute_cost")
    ] + [("recompute_factor", ctypes.c_double), ("fingerprint", u64),
         ("cost", u64), ("levels", u64), ("online", ctypes.c_bool),
         ("exact", ctypes.c_bool), ("unit_bytes", u64),
         ("lower_bound_cost", u64), ("planning_seconds", ctypes.c_double),
         ("sweeps", u64), ("persistent", u64),
         ("sweep_forward_steps", u64)]


class Action(_Struct):
    """uturn_action_t; str() gives its line of plan text."""
    _fields_ = [("op", enum), ("step", u64), ("step_end", u64),
                ("slot", u64)]

    def __str__(self):
        buf = ctypes.create_string_buffer(64)
        lib.uturn_action_format(ctypes.byref(self), buf, len(buf), None)
        return buf.value.decode()


class Model(_Struct):
    """uturn_model_t. Executor.run() fills one, the online plans'
    ``is_last`` and the step records (``record_bytes``,
    ``forward_record``) included."""
    _init = "uturn_model_init_size"
    _fields_ = [("size", ctypes.c_size_t), ("user", _vp),
                ("forward", FORWARD), ("turn", TURN), ("adjoint", ADJOINT),
                ("state", _vp), ("state_bytes", u64), ("save", SAVE),
                ("load", LOAD), ("state_size", STATE_SIZE),
                ("is_last", IS_LAST), ("record_bytes", u64),
                ("forward_record", FORWARD_RECORD), ("agree", AGREE),
                ("adjoint_bytes", u64), ("save_adjoint", SAVE_ADJOINT),
                ("load_adjoint", LOAD_ADJOINT)]


class Progress(_Struct):
    """uturn_progress_t: how far a run has got, in cost units (each
    forward step at its cost, each reverse step 1): ``done`` out of
    ``total`` (forward_cost + steps; UTURN_NONE until an online run's
    end), the forward and reverse steps done, ``steps`` and ``seconds``
    since the run began. The on_progress callback gets a copy."""
    _fields_ = [("size", ctypes.c_size_t), ("done", u64), ("total", u64),
                ("forward_steps", u64), ("reverse_steps", u64),
                ("steps", u64), ("seconds", ctypes.c_double)]


ON_PROGRESS = ctypes.CFUNCTYPE(ctypes.c_int, _vp, _P(Progress))


class RunOptions(_Struct):
    """uturn_run_options_t (Executor.run() fills one)."""
    _init = "uturn_run_options_init_size"
    _fields_ = [("size", ctypes.c_size_t), ("budget_bytes", u64),
                ("verify", ctypes.c_bool), ("progress", PROGRESS),
                ("progress_user", _vp), ("progress_every", u64),
                ("on_progress", ON_PROGRESS), ("on_progress_user", _vp),
                ("on_progress_every", u64), ("step_bytes", _P(u64)),
                ("sweeps_on_request", ctypes.c_bool),
                ("durable_dir", ctypes.c_char_p),
                ("durable_tag", ctypes.c_char_p),
                ("durable_interval", ctypes.c_double),
                ("durable_request", _P(ctypes.c_int)),
                ("durable_mode", ctypes.c_int),
                # for layers across processes (the MPI layer); not Python's
                ("durable_agree", _vp), ("durable_commit", _vp),
                ("durable_user", _vp), ("durable_resume_point", u64)]


class Report(_Struct):
    """uturn_report_t: what a run did besides the counts: its status, how
    far it got (actions_done, failed_action, failed_step), the real slot
    cost, planned and measured peaks, times, and the slot storage."""
    _init = "uturn_report_init_size"
    _fields_ = [("size", ctypes.c_size_t), ("status", enum)] + [
        (name, u64) for name in (
            "actions_done", "failed_action", "failed_step", "slot_bytes",
            "planned_peak_bytes", "measured_peak_bytes", "verify_bytes")
    ] + [(name, ctypes.c_double) for name in (
        "wall_seconds", "forward_seconds", "adjoint_seconds",
        "copy_seconds", "overhead_seconds")
    ] + [("jemalloc", ctypes.c_bool), ("storage_granule", u64),
         ("storage_alignment", u64), ("storage_backend", ctypes.c_char_p)
    ] + [(name, u64) for name in (
        "held_before_bytes", "held_after_bytes", "bookkeeping_bytes",
        "budget_bytes", "record_bytes", "steps", "io_buffer_bytes")
    ] + [("lossy", ctypes.c_bool), ("sweeps_done", u64),
         ("sweep_forward_steps", u64), ("trajectory_held", ctypes.c_bool),
         ("durable_points", u64), ("durable_bytes", u64),
         ("durable_seconds", ctypes.c_double), ("durable_point", u64),
         ("resumed_action", u64), ("resumed_forward_steps", u64)]


class DurableInfo(_Struct):
    """uturn_durable_info_t: what a durable run's directory holds
    (lib.uturn_durable_inspect)."""
    _init = "uturn_durable_info_init_size"
    _fields_ = [("size", ctypes.c_size_t), ("has_point", ctypes.c_bool),
                ("in_use", ctypes.c_bool)] + [(name, u64) for name in (
                    "point", "fingerprint", "steps", "action", "into",
                    "forward_steps", "reverse_steps", "checkpoints", "bytes",
                    "state_bytes", "adjoint_bytes")
                ] + [("tag", ctypes.c_char * 256)]


class Allocator(_Struct):
    """uturn_allocator_t, for the raw ``lib`` calls (the classes of this
    package use the library's own allocation)."""
    _fields_ = [("alloc", ALLOC), ("free", FREE), ("user", _vp)]


class StorageCallbacks(_Struct):
    """uturn_storage_callbacks_t (uturn.user_storage() makes one per
    executor)."""
    _fields_ = [("size", ctypes.c_size_t), ("user", _vp),
                ("open", STORAGE_OPEN), ("put", STORAGE_PUT),
                ("get", STORAGE_GET), ("drop", STORAGE_DROP),
                ("close", STORAGE_CLOSE), ("lossy", ctypes.c_bool)]


class Storage(_Struct):
    """uturn_storage_t: where a level beyond memory lives (made by
    uturn.file_storage() and uturn.user_storage())."""
    _init = "uturn_storage_init_size"
    _fields_ = [("size", ctypes.c_size_t), ("kind", enum),
                ("directory", ctypes.c_char_p),
                ("callbacks", _P(StorageCallbacks)),
                ("synchronous", ctypes.c_bool)]


class ExecutorOptions(_Struct):
    """uturn_executor_options_t (Executor() fills one)."""
    _init = "uturn_executor_options_init_size"
    _fields_ = [("size", ctypes.c_size_t), ("alloc", _P(Allocator)),
                ("slot_alloc", _P(Allocator)), ("levels", _P(Storage)),
                ("level_count", u64), ("io_buffers", u64)]


class LevelReport(_Struct):
    """uturn_level_report_t: what the last run did with one storage level
    (Executor.level_report())."""
    _init = "uturn_level_report_init_size"
    _fields_ = [("size", ctypes.c_size_t)] + [
        (name, u64) for name in ("stores", "restores", "peak_slots",
                                 "bytes_written", "bytes_read")
    ] + [(name, ctypes.c_double) for name in (
        "write_seconds", "read_seconds", "wait_seconds")
    ] + [("overlapped", ctypes.c_bool), ("on_tmpfs", ctypes.c_bool)]


class SlotCost(_Struct):
    """uturn_slot_cost_t: what an executor's storage spends on a slot
    (Executor.slot_cost())."""
    _init = "uturn_slot_cost_init_size"
    _fields_ = [("size", ctypes.c_size_t)] + [
        (name, u64) for name in ("state_bytes", "stride", "alignment",
                                 "granule")
    ] + [("backend", ctypes.c_char_p)]
