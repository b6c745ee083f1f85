"""numpy models through the Python binding (unittest, Debian's
python3-numpy; exits 77, a skip, without numpy).

ctest runs this as `python_numpy` with UTURN_LIBRARY at the build tree's
libuturn and PYTHONPATH at bindings/python. The truth is independent of
uturn: a hand-written adjoint that keeps every state in a Python list
(the same arithmetic in the same order, so uturn's gradient must equal it
bit for bit whatever the plan), and central differences of the forward
map alone.

The model is an Allen-Cahn step on a periodic 1-D grid,
    x' = x + dt (nu (x[j-1] - 2 x[j] + x[j+1]) + x - x^3),
with J = |x_n|^2 / 2, so xbar_n = x_n and
    xbar = ybar + dt (nu (ybar[j-1] - 2 ybar[j] + ybar[j+1])
                      + (1 - 3 x^2) ybar).
"""
import os
import re
import shutil
import sys
import tempfile
import unittest

try:
    import numpy as np
except ImportError:
    print("skipped: numpy is not installed (python3-numpy)")
    sys.exit(77)

import uturn

GRID, STEPS, DT, NU = 48, 40, 0.05, 0.4
# Central differences, eps = 1e-6, agree with the adjoint's directional
# derivative to this relative tolerance (truncation ~ eps^2, rounding
# ~ 1e-16 / eps).
FD_EPS, FD_TOLERANCE = 1e-6, 1e-7


def lap(v):
    return np.roll(v, 1) - 2.0 * v + np.roll(v, -1)


def step(x):
    return x + DT * (NU * lap(x) + x - x ** 3)


def step_bar(x, ybar):
    return ybar + DT * (NU * lap(ybar) + (1.0 - 3.0 * x ** 2) * ybar)


def start():
    grid = np.arange(GRID) / GRID
    return 0.6 * np.sin(2 * np.pi * grid) + 0.3 * np.cos(6 * np.pi * grid)


def reference(x0, n=STEPS):
    """The gradient with every state kept, by hand."""
    xs = [x0.copy()]
    for _ in range(n):
        xs.append(step(xs[-1]))
    bar = xs[n].copy()
    for i in range(n - 1, -1, -1):
        bar = step_bar(xs[i], bar)
    return bar


def objective(x0, n=STEPS):
    x = x0.copy()
    for _ in range(n):
        x = step(x)
    return 0.5 * float(np.dot(x, x))


class InPlace:
    """The model as a numpy user writes it for a state buffer: every
    update in place."""

    def __init__(self, x0):
        self.x = x0.copy()
        self.xbar = np.zeros_like(x0)

    def forward(self, i):
        self.x[:] = step(self.x)

    def turn(self):
        self.xbar[:] = self.x

    def adjoint(self, i):
        self.xbar[:] = step_bar(self.x, self.xbar)

    def run(self, ex, plan, **options):
        return ex.run(plan, self.x, self.forward, self.turn, self.adjoint,
                      **options)


class Rebinding(InPlace):
    """The same model written with rebinding (x = f(x)), for save/load."""

    def forward(self, i):
        self.x = step(self.x)

    def save(self, i, dst):
        np.frombuffer(dst, dtype=np.float64)[:] = self.x

    def load(self, i, src):
        self.x = np.frombuffer(src, dtype=np.float64).copy()

    def run(self, ex, plan, **options):
        options.setdefault("save", self.save)
        options.setdefault("load", self.load)
        return ex.run(plan, None, self.forward, self.turn, self.adjoint,
                      state_bytes=self.x.nbytes, **options)


def fresh_dir(case):
    parent = tempfile.mkdtemp(prefix="uturn-numpy-")
    case.addCleanup(shutil.rmtree, parent)
    return parent


def planner_cases(nbytes):
    """(name, problem, storage levels of the executor) for every planner."""
    two_levels = [uturn.level("mem", slots=2),
                  uturn.level("disk", slots=10, write_cost=3, read_cost=3)]
    costs = [1 + (i * 7) % 5 for i in range(STEPS)]
    return [
        ("store-all", uturn.problem(STEPS, planner="store-all",
                                    slot_bytes=nbytes), "memory"),
        ("revolve", uturn.problem(STEPS, slots=3, slot_bytes=nbytes),
         "memory"),
        ("periodic", uturn.problem(STEPS, planner="periodic", stride=5,
                                   slot_bytes=nbytes), "memory"),
        ("sqrt", uturn.problem(STEPS, planner="sqrt", slot_bytes=nbytes),
         "memory"),
        ("dp", uturn.problem(STEPS, planner="dp", slot_bytes=nbytes,
                             budget_bytes=4 * nbytes, step_costs=costs),
         "memory"),
        ("hrevolve+file", uturn.problem(STEPS, planner="hrevolve",
                                        slot_bytes=nbytes,
                                        levels=two_levels), "file"),
        ("hrevolve+sync file", uturn.problem(STEPS, planner="hrevolve",
                                             slot_bytes=nbytes,
                                             levels=two_levels),
         "synchronous file"),
        ("hrevolve+user", uturn.problem(STEPS, planner="hrevolve",
                                        slot_bytes=nbytes,
                                        levels=two_levels), "user"),
    ]


class Shelf:
    """A user storage level: bytes in a dict."""

    def __init__(self):
        self.kept = {}

    def put(self, id_, step_, src):
        self.kept[id_] = bytes(src)

    def get(self, id_, step_, dst):
        dst[:] = self.kept[id_]

    def drop(self, id_):
        del self.kept[id_]


def executor_for(case, storage):
    if storage == "memory":
        return uturn.Executor()
    if storage == "user":
        return uturn.Executor(levels=[uturn.user_storage(Shelf())])
    sync = storage == "synchronous file"
    return uturn.Executor(levels=[uturn.file_storage(fresh_dir(case),
                                                     synchronous=sync)])


class Gradients(unittest.TestCase):
    def test_the_gradient_passes_central_differences(self):
        x0 = start()
        model = InPlace(x0)
        with uturn.Executor() as ex:
            with ex.plan(uturn.problem(STEPS, slots=4,
                                       slot_bytes=x0.nbytes)) as plan:
                model.run(ex, plan)
        rng = np.random.default_rng(20240601)
        for k in range(3):
            d = rng.standard_normal(GRID)
            fd = (objective(x0 + FD_EPS * d) -
                  objective(x0 - FD_EPS * d)) / (2 * FD_EPS)
            exact = float(np.dot(model.xbar, d))
            with self.subTest(direction=k):
                self.assertLessEqual(abs(fd - exact),
                                     FD_TOLERANCE * max(1.0, abs(exact)))

    def check_planners(self, model_class):
        x0 = start()
        want = reference(x0)
        for name, prob, storage in planner_cases(x0.nbytes):
            with self.subTest(planner=name):
                model = model_class(x0)
                with executor_for(self, storage) as ex:
                    with ex.plan(prob) as plan:
                        observed, _ = model.run(ex, plan)
                        predicted = plan.stats()
                        levels = [(ex.level_report(k).stores,
                                   plan.level_stats(k).stores)
                                  for k in range(predicted.levels)]
                self.assertEqual(model.xbar.tobytes(), want.tobytes())
                self.assertEqual(observed.forward_steps,
                                 predicted.forward_steps)
                for done, planned in levels:
                    self.assertEqual(done, planned)
                self.assertTrue(all(done > 0 for done, _ in levels))

    def test_gradients_are_bitwise_the_hand_written_adjoints(self):
        self.check_planners(InPlace)

    def test_save_load_gradients_are_bitwise_the_same(self):
        self.check_planners(Rebinding)

    def test_rebinding_with_a_state_buffer_is_wrong_as_documented(self):
        # The package's docstring: rebinding leaves the executor copying a
        # buffer the model no longer reads, and the gradient is wrong.
        x0 = start()
        model = Rebinding(x0)
        with uturn.Executor() as ex:
            with uturn.Plan.create(uturn.problem(STEPS, slots=3)) as plan:
                ex.run(plan, model.x, model.forward, model.turn,
                       model.adjoint)
        self.assertFalse(np.allclose(model.xbar, reference(x0)))

    def test_verify_mode_passes_a_deterministic_model(self):
        x0 = start()
        for model in [InPlace(x0), Rebinding(x0)]:
            with uturn.Executor() as ex:
                with ex.plan(uturn.problem(STEPS, slots=3,
                                           slot_bytes=x0.nbytes)) as plan:
                    _, report = model.run(ex, plan, verify=True)
            self.assertEqual(model.xbar.tobytes(), reference(x0).tobytes())
            self.assertGreater(report.verify_bytes, 0)

    def test_a_two_dimensional_array_is_one_state(self):
        x0 = start()
        x, xbar = x0.reshape(6, 8).copy(), np.zeros(GRID)

        def forward(i):
            x[:] = step(x.ravel()).reshape(6, 8)

        def turn():
            xbar[:] = x.ravel()

        def adjoint(i):
            xbar[:] = step_bar(x.ravel(), xbar)
        with uturn.Executor() as ex:
            with uturn.Plan.create(uturn.problem(STEPS, slots=3)) as plan:
                ex.run(plan, x, forward, turn, adjoint)
        self.assertEqual(xbar.tobytes(), reference(x0).tobytes())


class Refused(unittest.TestCase):
    """Buffers the executor cannot copy as one block are refused before
    anything runs, with the problem and the fix."""

    def refused(self, state, *words):
        calls = []
        with uturn.Executor() as ex:
            with uturn.Plan.create(uturn.problem(4, slots=2)) as plan:
                with self.assertRaises(ValueError) as cm:
                    ex.run(plan, state, calls.append, calls.append,
                           calls.append)
        self.assertEqual(calls, [])
        for word in words:
            self.assertIn(word, str(cm.exception))

    def test_strided_and_non_contiguous_arrays(self):
        grid = np.zeros((8, 6))
        for name, state in [("every other", np.zeros(16)[::2]),
                            ("a column", grid[:, 1]),
                            ("Fortran order", np.asfortranarray(grid)),
                            ("transposed", grid.T)]:
            with self.subTest(state=name):
                self.refused(state, "not C-contiguous", "strides",
                             "np.ascontiguousarray", "in place", "save=")

    def test_read_only_arrays(self):
        frozen = np.zeros(8)
        frozen.flags.writeable = False
        for name, state in [("writeable=False", frozen),
                            ("frombuffer of bytes",
                             np.frombuffer(bytes(64), dtype=np.float64))]:
            with self.subTest(state=name):
                self.refused(state, "read-only", "np.array(x)", "save=")

    def test_empty_and_object_arrays(self):
        self.refused(np.zeros(0), "empty")
        self.refused(np.array([object()]), "Python objects", "save=")

    def test_the_fix_the_message_names_works(self):
        x0 = start()
        model = InPlace(x0)
        model.x = np.ascontiguousarray(np.repeat(x0, 2)[::2])
        with uturn.Executor() as ex:
            with uturn.Plan.create(uturn.problem(STEPS, slots=3)) as plan:
                model.run(ex, plan)
        self.assertEqual(model.xbar.tobytes(), reference(x0).tobytes())


class SaveLoadViews(unittest.TestCase):
    def test_view_gives_the_callbacks_numpy_arrays(self):
        x0 = start()
        model = Rebinding(x0)

        def save(i, dst):
            self.assertTrue(dst.flags.writeable)
            dst[:] = model.x

        def load(i, src):
            self.assertFalse(src.flags.writeable)
            model.x = src.copy()
        with uturn.Executor() as ex:
            with uturn.Plan.create(uturn.problem(STEPS, slots=3)) as plan:
                model.run(ex, plan, save=save, load=load,
                          view=lambda m: np.frombuffer(m, np.float64))
        self.assertEqual(model.xbar.tobytes(), reference(x0).tobytes())

    def test_frombuffer_without_copy_is_refused(self):
        x0 = start()
        model = Rebinding(x0)

        def load(i, src):
            model.x = np.frombuffer(src, dtype=np.float64)  # no .copy()
        with uturn.Executor() as ex:
            with uturn.Plan.create(uturn.problem(STEPS, slots=3)) as plan:
                with self.assertRaises(ValueError) as cm:
                    model.run(ex, plan, load=load)
                self.assertIn("kept a view", str(cm.exception))
                self.assertIn(".copy()", str(cm.exception))
                model = Rebinding(x0)  # the executor goes on
                model.run(ex, plan)
        self.assertEqual(model.xbar.tobytes(), reference(x0).tobytes())


# States that grow by one value a step: x_{i+1} = (sin x_i, sum(x_i)/10),
# x_i of FIRST + i values; J = |x_n|^2 / 2.
FIRST, GROW_STEPS = 5, 24


def grow(x):
    return np.concatenate([np.sin(x), [0.1 * np.sum(x)]])


def grow_bar(x, ybar):
    return np.cos(x) * ybar[:-1] + 0.1 * ybar[-1]


def grow_reference(x0):
    xs = [x0]
    for _ in range(GROW_STEPS):
        xs.append(grow(xs[-1]))
    bar = xs[-1].copy()
    for i in range(GROW_STEPS - 1, -1, -1):
        bar = grow_bar(xs[i], bar)
    return bar


def grow_objective(x0):
    x = x0
    for _ in range(GROW_STEPS):
        x = grow(x)
    return 0.5 * float(np.dot(x, x))


class Growing:
    """A state of another size at every step, through save/load."""

    def __init__(self, x0):
        self.x, self.xbar = x0.copy(), None

    def size(self, i):
        return 8 * (FIRST + i)

    def forward(self, i):
        self.x = grow(self.x)

    def turn(self):
        self.xbar = self.x.copy()

    def adjoint(self, i):
        self.xbar = grow_bar(self.x, self.xbar)

    def save(self, i, dst):
        assert dst.nbytes == self.size(i) == self.x.nbytes
        np.frombuffer(dst, dtype=np.float64)[:] = self.x

    def load(self, i, src):
        self.x = np.frombuffer(src, dtype=np.float64).copy()


class StepSizes(unittest.TestCase):
    def x0(self):
        return np.linspace(0.2, 1.0, FIRST)

    def run_growing(self, prob, make="executor", **options):
        """Run Growing to prob, planned by Executor.plan() or (make
        "create") Plan.create(); its gradient must be the reference's."""
        model = Growing(self.x0())
        with uturn.Executor() as ex:
            plan = ex.plan(prob) if make == "executor" else \
                uturn.Plan.create(prob)
            with plan:
                observed, report = ex.run(
                    plan, None, model.forward, model.turn, model.adjoint,
                    save=model.save, load=model.load, **options)
        self.assertEqual(model.xbar.tobytes(),
                         grow_reference(self.x0()).tobytes())
        return observed, report

    def test_the_growing_gradient_passes_central_differences(self):
        x0 = self.x0()
        bar = grow_reference(x0)
        d = np.cos(np.arange(FIRST) + 1.0)
        fd = (grow_objective(x0 + FD_EPS * d) -
              grow_objective(x0 - FD_EPS * d)) / (2 * FD_EPS)
        self.assertLessEqual(abs(fd - np.dot(bar, d)),
                             FD_TOLERANCE * max(1.0, abs(np.dot(bar, d))))

    def test_state_size_with_store_all(self):
        sizes = [8 * (FIRST + i) for i in range(GROW_STEPS)]
        observed, _ = self.run_growing(
            uturn.problem(GROW_STEPS, planner="store-all", slot_bytes=8),
            state_size=Growing(self.x0()).size)
        self.assertEqual(observed.peak_bytes, sum(sizes))

    def test_dp_with_step_bytes_within_its_budget(self):
        sizes = [8 * (FIRST + i) for i in range(GROW_STEPS)]
        budget = sum(sizes) // 4
        prob = uturn.problem(GROW_STEPS, planner="dp", step_bytes=sizes,
                             budget_bytes=budget)
        # Executor.plan() plans the slots' strides, so the run is told the
        # states' own sizes; Plan.create() keeps the sizes, and its plan
        # needs more than the budget at the real cost (alignment, pages).
        for make, options in [("executor", {"step_bytes": sizes}),
                              ("create", {"budget_bytes": 2 * budget})]:
            with self.subTest(make=make):
                observed, report = self.run_growing(prob, make, **options)
                self.assertLessEqual(report.measured_peak_bytes,
                                     options.get("budget_bytes", budget))
                self.assertGreater(observed.recomputed_steps, 0)

    def test_a_plan_in_units_run_with_its_sizes(self):
        units = [FIRST + i for i in range(GROW_STEPS)]
        budget_units = sum(units) // 3
        with uturn.Plan.create(uturn.problem(
                GROW_STEPS, planner="dp", step_bytes=units,
                budget_bytes=budget_units)) as plan:
            model = Growing(self.x0())
            with uturn.Executor() as ex:
                observed, _ = ex.run(
                    plan, None, model.forward, model.turn, model.adjoint,
                    save=model.save, load=model.load,
                    step_bytes=[8 * u for u in units],
                    budget_bytes=2 * 8 * budget_units)
        self.assertEqual(model.xbar.tobytes(),
                         grow_reference(self.x0()).tobytes())
        self.assertEqual(observed.peak_bytes % 8, 0)
        with uturn.Executor() as ex, uturn.Plan.create(uturn.problem(
                GROW_STEPS, planner="dp", step_bytes=units,
                budget_bytes=budget_units)) as plan:
            with self.assertRaises(ValueError) as cm:
                ex.run(plan, None, print, print, print, save=print,
                       load=print, step_bytes=units[:-1])
            self.assertIn("one value per step", str(cm.exception))


class Docstring(unittest.TestCase):
    def test_the_packages_example_runs_as_it_says(self):
        text = uturn.__doc__
        code = text[text.index("    import numpy"):text.index(
            "    # xbar is now")]
        scope = {}
        exec(compile(re.sub(r"(?m)^    ", "", code), "uturn.__doc__",
                     "exec"), scope)
        self.assertEqual(scope["observed"].forward_steps, 320)  # t(101, 5)
        x, xbar = np.linspace(0.0, 1.0, 64), None
        xs = [x]
        for _ in range(100):
            xs.append(np.sin(xs[-1]))
        xbar = xs[-1].copy()
        for i in range(99, -1, -1):
            xbar = np.cos(xs[i]) * xbar
        self.assertEqual(scope["xbar"].tobytes(), xbar.tobytes())


if __name__ == "__main__":
    unittest.main()
