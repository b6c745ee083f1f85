"""The Python binding refuses what it cannot hand to C (unittest, standard
library only).

ctest runs this as `python_binding` with UTURN_LIBRARY set to the build
tree's libuturn.so, UTURN_LAYOUT at tests/python/struct_layout.c's program,
UTURN_HEADER at include/uturn.h and PYTHONPATH at bindings/python.
Expected values come from <uturn.h> and docs/model.md (status values,
planner names, section 4's reference counts, the structures' fields) and
from the C compiler (their layouts), never from the binding itself.
"""
import ctypes
import enum
import os
import re
import subprocess
import unittest

import uturn

U64_MAX = 18446744073709551615  # UINT64_MAX, written out
# <uturn.h>: the planners uturn_plan_create() takes, and their values.
PLANNERS = {"store-all": 0, "periodic": 1, "sqrt": 2, "revolve": 3, "dp": 4,
            "online": 5, "hrevolve": 6}
E_INVALID_ARG, E_OVERFLOW, E_CALLBACK = 1, 4, 6

# Values of the wrong kind for any integer argument.
NOT_INTEGERS = [2.5, 10.0, "10", b"10", None, True, False, [10], 1j]


class Case(unittest.TestCase):
    def refused(self, error, call, *words):
        """call() raises exactly `error` (not a subclass of another kind)
        and the message names every word."""
        with self.assertRaises(error) as cm:
            call()
        self.assertIs(type(cm.exception), error)
        text = str(cm.exception)
        for word in words:
            self.assertIn(word, text)
        return text


class LibraryLoaded(Case):
    def test_the_library_of_the_build_tree_is_loaded(self):
        wanted = os.environ.get("UTURN_LIBRARY")
        if not wanted:
            self.skipTest("UTURN_LIBRARY is not set")
        self.assertEqual(uturn.lib._name, wanted)


class ProblemIntegers(Case):
    """Every integer field of uturn_problem_t set through uturn.problem()."""

    FIELDS = ["slots", "slot_bytes", "budget_bytes", "stride", "unit_bytes",
              "max_steps"]

    def test_steps_past_64_bits_is_an_overflow_not_10_steps(self):
        self.refused(OverflowError, lambda: uturn.problem(2**64 + 10),
                     "steps", "2**64-1")
        self.refused(OverflowError, lambda: uturn.problem(2**64), "steps")

    def test_steps_zero_or_negative_is_a_value_error(self):
        # uturn.h: steps is 0 for the online planner only, in the library's
        # words (src/problem.c), before anything is planned.
        self.refused(ValueError, lambda: uturn.problem(0), "steps",
                     "at least 1", "is for the online planner")
        self.refused(ValueError, lambda: uturn.problem(-1), "steps",
                     "negative", "0..2**64-1")

    def test_zero_steps_is_the_online_planners_and_only_its(self):
        self.assertEqual(uturn.problem(0, planner="online", slots=3).steps, 0)
        self.refused(ValueError, lambda: uturn.problem(
            10, planner="online", slots=3), "online planner does not know "
            "the steps: give steps 0 (and max_steps for a bound), not 10")
        # The fields set in any order: checked when a plan is made.
        p = uturn.Problem(steps=0)
        self.assertEqual(p.steps, 0)
        self.refused(ValueError, lambda: uturn.Plan.create(p), "steps",
                     "at least 1")
        p.planner, p.slots = "online", 2
        with uturn.Plan.create(p) as plan:
            self.assertTrue(plan.stats().online)
        p.steps = 5
        self.refused(ValueError, lambda: uturn.Plan.create(p),
                     "does not know the steps", "not 5")
        with uturn.Executor() as ex:
            self.refused(ValueError, lambda: ex.plan(p), "not 5")

    def test_steps_of_the_wrong_kind(self):
        for value in NOT_INTEGERS:
            with self.subTest(value=value):
                self.refused(ValueError, lambda: uturn.problem(value),
                             "steps", "integer")

    def test_negative_slots_is_not_a_store_all_plan(self):
        self.refused(ValueError, lambda: uturn.problem(10, slots=-1),
                     "slots", "negative", "0..2**64-1")

    def test_budget_past_64_bits_is_not_16_bytes(self):
        self.refused(OverflowError, lambda: uturn.problem(
            10, slot_bytes=16, budget_bytes=2**64 + 16),
            "budget_bytes", "0..2**64-1")

    def test_every_field_refuses_negative_huge_and_wrong_kinds(self):
        for field in self.FIELDS:
            for value, error in [(-1, ValueError), (-2**64, ValueError),
                                 (2**64, OverflowError),
                                 (2**100, OverflowError)]:
                with self.subTest(field=field, value=value):
                    self.refused(error, lambda: uturn.problem(
                        10, **{field: value}), field)
            for value in NOT_INTEGERS:
                if value is None:
                    continue  # None is no integer, checked below
                with self.subTest(field=field, value=value):
                    self.refused(ValueError, lambda: uturn.problem(
                        10, **{field: value}), field, "integer")
            with self.subTest(field=field, value=None):
                self.refused(ValueError, lambda: uturn.problem(
                    10, **{field: None}), field)

    def test_struct_fields_set_directly_are_checked_too(self):
        p = uturn.problem(10, slots=3)
        self.refused(ValueError, lambda: setattr(p, "slots", -1), "slots")
        self.refused(OverflowError, lambda: setattr(p, "steps", 2**64),
                     "steps")
        self.refused(ValueError, lambda: setattr(p, "stride", 1.5),
                     "stride")
        self.assertEqual((p.steps, p.slots, p.stride), (10, 3, 0))
        self.refused(ValueError, lambda: uturn.Problem(steps=-4), "steps")

    def test_integer_types_other_than_int_are_accepted(self):
        class Count(enum.IntEnum):
            TEN = 10
        self.assertEqual(uturn.problem(Count.TEN).steps, 10)

    def test_edge_values_reach_the_library_intact(self):
        p = uturn.problem(U64_MAX, slots=U64_MAX)
        self.assertEqual((p.steps, p.slots), (U64_MAX, U64_MAX))
        # uturn.h/bad-input.md: n = 2^64-1 is the library's overflow.
        with self.assertRaises(uturn.Error) as cm:
            uturn.Plan.create(uturn.problem(U64_MAX, slots=1))
        self.assertEqual(cm.exception.status, E_OVERFLOW)
        # With s >= n revolve stores every state: forward_steps = n.
        with uturn.Plan.create(uturn.problem(10, slots=U64_MAX)) as plan:
            self.assertEqual(plan.stats().forward_steps, 10)
            self.assertEqual(plan.problem().slots, U64_MAX)
        with uturn.Plan.create(uturn.problem(
                10, slot_bytes=16, budget_bytes=U64_MAX)) as plan:
            self.assertEqual(plan.stats().forward_steps, 10)
            self.assertEqual(plan.stats().budget_bytes, U64_MAX)

    def test_zero_still_means_the_default(self):
        p = uturn.problem(6, planner="store-all", slots=0, slot_bytes=0,
                          budget_bytes=0, stride=0, unit_bytes=0)
        with uturn.Plan.create(p) as plan:
            s = plan.stats()
            self.assertEqual((s.forward_steps, s.peak_slots), (6, 6))
        # docs/model.md 4: revolve (n=100, s=5) -> 320 forward steps.
        with uturn.Plan.create(uturn.problem(100, slots=5)) as plan:
            self.assertEqual(plan.stats().forward_steps, 320)
        # Periodic n=40, k=4 -> 67 forward steps.
        with uturn.Plan.create(uturn.problem(
                40, planner="periodic", stride=4)) as plan:
            self.assertEqual(plan.stats().forward_steps, 67)


class Planners(Case):
    def known(self, text):
        for name in PLANNERS:
            self.assertIn(name, text)
        self.assertNotIn("parsed", text)

    def test_an_unknown_name_lists_the_known_planners(self):
        self.known(self.refused(ValueError, lambda: uturn.problem(
            10, planner="quicksort"), "planner", "quicksort"))

    def test_a_value_past_a_c_int_is_not_revolve(self):
        self.known(self.refused(OverflowError, lambda: uturn.problem(
            10, planner=2**32 + 3), "planner"))
        self.refused(OverflowError, lambda: uturn.problem(
            10, planner=-2**31 - 1), "planner")

    def test_unknown_values_and_kinds(self):
        for value in [7, 8, -1, 100, 2**31 - 1, True, 3.0, None, b"dp"]:
            with self.subTest(value=value):
                self.known(self.refused(ValueError, lambda: uturn.problem(
                    10, planner=value), "planner"))

    def test_every_planner_by_name_and_by_value(self):
        for name, value in PLANNERS.items():
            with self.subTest(name=name):
                steps = 0 if name == "online" else 4  # uturn.h: n unknown
                self.assertEqual(uturn.problem(steps, planner=name).planner,
                                 value)
                self.assertEqual(uturn.problem(steps, planner=value).planner,
                                 value)

    def test_the_planner_field_set_directly(self):
        p = uturn.problem(4)
        p.planner = "sqrt"
        self.assertEqual(p.planner, 2)
        self.refused(OverflowError, lambda: setattr(p, "planner", 2**32),
                     "planner")
        self.assertEqual(p.planner, 2)


class StepArrays(Case):
    def test_dp_with_per_step_sizes(self):
        # Four states of 8 bytes in 16 bytes: two slots, and revolve's
        # optimum t(5, 2) = 2*5 - C(4,3) = 6 forward steps (docs/model.md 4).
        p = uturn.problem(4, planner="dp", budget_bytes=16,
                          step_bytes=[8, 8, 8, 8], step_costs=(1, 1, 1, 1))
        with uturn.Plan.create(p) as plan:
            self.assertEqual(plan.stats().forward_steps, 6)

    def test_dp_threads_table_bytes_and_mode(self):
        # The plan is the same for any thread count (its fingerprint too);
        # a table limit that the exact table passes gives the approximate
        # plan, with a certified bound no higher than the exact optimum.
        sizes = [1 + i % 8 for i in range(120)]
        stats = []
        for kw in [{}, {"threads": 3}, {"table_bytes": 200000},
                   {"dp_mode": uturn.DP_APPROXIMATE}]:
            p = uturn.problem(120, planner="dp", budget_bytes=200,
                              step_bytes=sizes, **kw)
            with uturn.Plan.create(p) as plan:
                stats.append(plan.stats())
        exact, threads, limit, approx = stats
        self.assertTrue(exact.exact)
        self.assertEqual(exact.unit_bytes, 1)
        self.assertEqual(exact.lower_bound_cost, exact.forward_cost)
        self.assertEqual((threads.fingerprint, threads.forward_cost),
                         (exact.fingerprint, exact.forward_cost))
        for s in (limit, approx):
            self.assertFalse(s.exact)
            self.assertGreaterEqual(s.forward_cost, exact.forward_cost)
            self.assertLessEqual(s.lower_bound_cost, exact.forward_cost)
            self.assertGreaterEqual(s.planning_seconds, 0.0)

    def test_an_array_of_the_wrong_length(self):
        self.refused(ValueError, lambda: uturn.problem(
            4, planner="dp", budget_bytes=16, step_bytes=[8, 8, 8]),
            "step_bytes", "3", "4")
        p = uturn.problem(4, planner="dp", budget_bytes=16,
                          step_costs=[1, 1, 1, 1])
        p.steps = 5
        self.refused(ValueError, lambda: uturn.Plan.create(p), "step_costs")

    def test_array_values_are_checked_one_by_one(self):
        self.refused(ValueError, lambda: uturn.problem(
            3, planner="dp", step_bytes=[8, -8, 8]), "step_bytes[1]")
        self.refused(OverflowError, lambda: uturn.problem(
            3, planner="dp", step_costs=[1, 1, 2**64]), "step_costs[2]")
        self.refused(ValueError, lambda: uturn.problem(
            3, planner="dp", step_costs=[1, 1.5, 1]), "step_costs[1]")
        for value in [8, "888", b"\x08\x08\x08", 8.0]:
            with self.subTest(value=value):
                self.refused(ValueError, lambda: uturn.problem(
                    3, planner="dp", step_bytes=value), "step_bytes")


class Status(Case):
    def test_status_functions(self):
        self.assertEqual(uturn.status_name(2), "UTURN_E_NOMEM")
        self.assertEqual(uturn.strerror(2), "out of memory")
        self.refused(OverflowError, lambda: uturn.strerror(2**32 + 2),
                     "status")
        self.refused(ValueError, lambda: uturn.status_name(2.0), "status")


class Closed(Case):
    def test_a_closed_executor(self):
        ex = uturn.Executor()
        ex.close()
        ex.close()  # closing twice is fine
        prob = uturn.problem(4, slot_bytes=8, slots=2)
        state = (ctypes.c_double * 1)()
        for call in [lambda: ex.slot_bytes(8), lambda: ex.plan(prob),
                     ex.sweep]:
            self.refused(ValueError, call, "the executor is closed")
        with uturn.Plan.create(prob) as plan:
            self.refused(ValueError, lambda: ex.run(
                plan, state, print, print, print),
                "the executor is closed")

    def test_a_closed_plan(self):
        plan = uturn.Plan.create(uturn.problem(4, slots=2))
        plan.close()
        for call in [plan.stats, plan.problem, plan.walk, plan.actions]:
            with self.subTest(call=call.__name__):
                self.refused(ValueError, call, "the plan is closed")
        with uturn.Executor() as ex:
            self.refused(ValueError, lambda: ex.run(
                plan, (ctypes.c_double * 1)(), print, print, print),
                "the plan is closed")

    def test_other_arguments_of_the_wrong_kind(self):
        with uturn.Executor() as ex:
            self.refused(ValueError, lambda: ex.plan(None), "prob")
            self.refused(ValueError, lambda: ex.run(
                None, (ctypes.c_double * 1)(), print, print, print), "plan")
        self.refused(ValueError, lambda: uturn.Plan.parse(10), "text")


class SlotBytes(Case):
    def test_state_bytes_past_64_bits(self):
        with uturn.Executor() as ex:
            self.refused(OverflowError, lambda: ex.slot_bytes(2**70),
                         "state_bytes", "2**64-1")

    def test_state_bytes_zero_and_negative(self):
        with uturn.Executor() as ex:
            self.refused(ValueError, lambda: ex.slot_bytes(0),
                         "state_bytes", "at least 1")
            self.refused(ValueError, lambda: ex.slot_bytes(-16),
                         "state_bytes")
            for value in NOT_INTEGERS:
                with self.subTest(value=value):
                    self.refused(ValueError, lambda: ex.slot_bytes(value),
                                 "state_bytes")

    def test_valid_sizes(self):
        with uturn.Executor() as ex:
            self.assertGreaterEqual(ex.slot_bytes(1), 1)
            self.assertGreaterEqual(ex.slot_bytes(16), 16)
            # 2^64-1 reaches the library, whose answer is its own.
            try:
                self.assertEqual(ex.slot_bytes(U64_MAX), U64_MAX)
            except uturn.Error as exc:
                self.assertEqual(exc.status, E_OVERFLOW)


class Chain:
    """x_{i+1} = x_i + 1 on one double; counts every callback."""

    def __init__(self, forward=None, turn=None, adjoint=None):
        self.state = (ctypes.c_double * 1)(0.0)
        self.calls = {"forward": 0, "turn": 0, "adjoint": 0}
        self.results = {"forward": forward, "turn": turn, "adjoint": adjoint}

    def result(self, which):
        self.calls[which] += 1
        value = self.results[which]
        return value() if callable(value) else value

    def forward(self, step):
        self.state[0] += 1.0
        return self.result("forward")

    def turn(self):
        return self.result("turn")

    def adjoint(self, step):
        return self.result("adjoint")


class Runs(Case):
    STEPS = 5

    def run_chain(self, chain, **options):
        with uturn.Executor() as ex:
            prob = uturn.problem(self.STEPS, planner="store-all",
                                 slot_bytes=ctypes.sizeof(chain.state))
            with ex.plan(prob) as plan:
                return ex.run(plan, chain.state, chain.forward, chain.turn,
                              chain.adjoint, **options)

    def test_none_and_zero_continue(self):
        class Zero(enum.IntEnum):
            OK = 0
        for value in [None, 0, Zero.OK]:
            with self.subTest(value=value):
                chain = Chain(value, value, value)
                observed, report = self.run_chain(chain)
                self.assertEqual(chain.calls, {"forward": 5, "turn": 1,
                                               "adjoint": 5})
                self.assertEqual(observed.forward_steps, 5)
                self.assertEqual(observed.reverse_steps, 5)
                self.assertEqual(report.status, 0)

    def test_any_other_result_stops_the_run(self):
        stops = [1, -1, 2, 0.9, 0.0, 2**31, 2**32, 2**64, -2**31 - 1,
                 True, False, "x", "", b"", [], object()]
        for which in ["forward", "turn", "adjoint"]:
            for value in stops:
                with self.subTest(which=which, value=value):
                    chain = Chain(**{which: value})
                    with self.assertRaises(uturn.Error) as cm:
                        self.run_chain(chain)
                    self.assertEqual(cm.exception.status, E_CALLBACK)
                    self.assertEqual(cm.exception.name, "UTURN_E_CALLBACK")
                    self.assertIn(which, str(cm.exception))
                    self.assertEqual(chain.calls[which], 1)

    def test_the_message_shows_what_python_returned(self):
        chain = Chain(forward=0.9)
        with self.assertRaises(uturn.Error) as cm:
            self.run_chain(chain)
        self.assertIn("0.9", str(cm.exception))
        chain = Chain(adjoint=7)
        with self.assertRaises(uturn.Error) as cm:
            self.run_chain(chain)
        self.assertIn("returned 7", str(cm.exception))

    def test_a_stop_in_the_middle(self):
        # The adjoint of step 2 (the third adjoint call) returns 2**32.
        answers = iter([0, None, 2**32, 0, 0])
        chain = Chain(adjoint=lambda: next(answers))
        with self.assertRaises(uturn.Error) as cm:
            self.run_chain(chain)
        self.assertEqual(cm.exception.status, E_CALLBACK)
        self.assertEqual(chain.calls, {"forward": 5, "turn": 1,
                                       "adjoint": 3})

    def test_an_exception_stops_the_run_and_is_raised_after_it(self):
        def boom():
            raise KeyError("boom")
        chain = Chain(forward=boom)
        with self.assertRaises(KeyError):
            self.run_chain(chain)
        self.assertEqual(chain.calls["forward"], 1)

    def test_budget_bytes_of_a_run(self):
        chain = Chain()
        self.refused(ValueError, lambda: self.run_chain(
            chain, budget_bytes=-1), "budget_bytes", "negative")
        self.refused(OverflowError, lambda: self.run_chain(
            chain, budget_bytes=2**64 + 16), "budget_bytes", "2**64-1")
        self.refused(ValueError, lambda: self.run_chain(
            chain, budget_bytes=16.0), "budget_bytes")
        self.assertEqual(chain.calls["forward"], 0)  # refused before C
        observed, _ = self.run_chain(chain, budget_bytes=U64_MAX)
        self.assertEqual(observed.forward_steps, 5)
        observed, _ = self.run_chain(Chain(), budget_bytes=0)
        self.assertEqual(observed.forward_steps, 5)

    def test_verify_and_callables(self):
        chain = Chain()
        self.refused(ValueError, lambda: self.run_chain(chain, verify="no"),
                     "verify")
        self.refused(ValueError, lambda: self.run_chain(chain, verify=2),
                     "verify")
        observed, _ = self.run_chain(chain, verify=True)
        self.assertEqual(observed.forward_steps, 5)
        with uturn.Executor() as ex:
            with uturn.Plan.create(uturn.problem(2, planner="store-all")) \
                    as plan:
                self.refused(ValueError, lambda: ex.run(
                    plan, chain.state, 3, print, print), "forward")
                self.refused(ValueError, lambda: ex.run(
                    plan, [0.0], print, print, print), "state")


class Actions(Case):
    def test_batch(self):
        with uturn.Plan.create(uturn.problem(7, slots=3)) as plan:
            for value, error in [(0, ValueError), (-1, ValueError),
                                 (2**64, OverflowError), (2.0, ValueError)]:
                with self.subTest(value=value):
                    # Refused when called, not at the first next().
                    self.refused(error, lambda: plan.actions(value),
                                 "batch")
            one = [str(a) for a in plan.actions(1)]
            many = [str(a) for a in plan.actions()]
            self.assertEqual(one, many)
            self.assertEqual(len(one), plan.stats().actions)
            # docs/model.md 2: every step reversed once, n-1 first, 0 last.
            self.assertEqual([a for a in one if a.startswith("reverse")],
                             ["reverse %d" % i for i in range(6, -1, -1)])


# The mirrors and the C types they mirror.
MIRRORS = {
    "uturn_error_t": "ErrorInfo", "uturn_problem_t": "Problem",
    "uturn_level_t": "Level", "uturn_level_stats_t": "LevelStats",
    "uturn_stats_t": "Stats", "uturn_action_t": "Action",
    "uturn_model_t": "Model", "uturn_progress_t": "Progress",
    "uturn_run_options_t": "RunOptions", "uturn_report_t": "Report",
    "uturn_level_report_t": "LevelReport", "uturn_slot_cost_t": "SlotCost",
    "uturn_allocator_t": "Allocator",
    "uturn_storage_callbacks_t": "StorageCallbacks",
    "uturn_storage_t": "Storage",
    "uturn_executor_options_t": "ExecutorOptions",
    "uturn_durable_info_t": "DurableInfo",
}


def header_text():
    path = os.environ.get("UTURN_HEADER") or os.path.join(
        os.path.dirname(__file__), "..", "..", "include", "uturn.h")
    with open(path) as f:
        return re.sub(r"/\*.*?\*/", "", f.read(), flags=re.S)


def header_structs():
    """{type: [field, ...]} of every typedef struct with a body in
    <uturn.h>, read from the header itself."""
    structs = {}
    pattern = r"typedef struct \w+ \{(.*?)\} (uturn_\w+_t);"
    for body, name in re.findall(pattern, header_text(), flags=re.S):
        fields = []
        for decl in body.split(";"):
            decl = " ".join(decl.split())
            if not decl:
                continue
            pointer = re.search(r"\(\*(\w+)\)\(", decl)
            if pointer:
                fields.append(pointer.group(1))
                continue
            decl = re.sub(r"\[\w*\]", "", decl)
            for part in decl.split(","):
                fields.append(re.findall(r"\w+", part)[-1])
        structs[name] = fields
    return structs


class StructLayouts(Case):
    """Every structure of <uturn.h> 0.2 is mirrored field for field: the
    names as the header spells them, the offsets and sizes as the C
    compiler lays them out (tests/python/struct_layout.c)."""

    def c_layouts(self):
        program = os.environ.get("UTURN_LAYOUT")
        if not program:
            self.skipTest("UTURN_LAYOUT is not set")
        out = subprocess.run([program], check=True, capture_output=True,
                             text=True).stdout
        layouts = {}
        for line in out.splitlines():
            words = line.split()
            entry = layouts.setdefault(words[0], {})
            entry[words[1]] = tuple(int(w) for w in words[2:])
        return layouts

    def test_every_struct_of_the_header_has_a_mirror(self):
        self.assertEqual(set(header_structs()), set(MIRRORS))

    def test_field_names_are_the_headers(self):
        for c_name, fields in header_structs().items():
            with self.subTest(struct=c_name):
                mirror = getattr(uturn, MIRRORS[c_name])
                self.assertEqual([f[0] for f in mirror._fields_], fields)

    def test_offsets_and_sizes_are_the_compilers(self):
        layouts = self.c_layouts()
        self.assertEqual(set(layouts), set(MIRRORS))
        for c_name, fields in layouts.items():
            mirror = getattr(uturn, MIRRORS[c_name])
            with self.subTest(struct=c_name):
                self.assertEqual(ctypes.sizeof(mirror),
                                 fields.pop("sizeof")[0])
                self.assertEqual(set(fields), {f[0] for f in
                                               mirror._fields_})
                for name, (offset, size) in fields.items():
                    field = getattr(mirror, name)
                    self.assertEqual((field.offset, field.size),
                                     (offset, size), name)

    def test_structs_are_prepared_by_init_size_with_their_own_size(self):
        for cls in [uturn.Problem, uturn.Stats, uturn.Model,
                    uturn.RunOptions, uturn.Report, uturn.ErrorInfo,
                    uturn.Level, uturn.LevelStats, uturn.Storage,
                    uturn.ExecutorOptions, uturn.LevelReport,
                    uturn.SlotCost, uturn.Progress, uturn.StorageCallbacks]:
            with self.subTest(cls=cls.__name__):
                self.assertEqual(cls().size, ctypes.sizeof(cls))
        # <uturn.h>: the defaults, revolve and a file level.
        self.assertEqual(uturn.Problem().planner, 3)
        self.assertEqual(uturn.Storage().kind, uturn.STORAGE_FILE)


class HeaderFunctions(Case):
    def test_every_function_of_the_header_is_declared(self):
        names = set(re.findall(r"UTURN_EXPORT[^;]*?\b(uturn_\w+)\s*\(",
                               header_text(), flags=re.S))
        self.assertGreater(len(names), 60)
        missing = names - uturn.DECLARED - set(uturn.NOT_DECLARED)
        self.assertEqual(missing, set())
        for name in uturn.DECLARED:
            self.assertIsNotNone(getattr(uturn.lib, name).argtypes, name)


if __name__ == "__main__":
    unittest.main()
