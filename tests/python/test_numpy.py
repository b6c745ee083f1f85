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
import math
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
E_INFEASIBLE = 3  # <uturn.h>


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


class MemoryAndDisk(unittest.TestCase):
    """Storage levels given in bytes, resolved by the executor: memory for
    2 states at the region's real cost, a file level in a temporary
    directory for 6 (bytes in whole strides of slot_bytes)."""

    def test_memory_and_disk_in_bytes_is_bitwise_memory_only(self):
        x0 = start()
        nbytes = x0.nbytes
        disk = fresh_dir(self)
        with uturn.Executor(levels=[uturn.file_storage(disk)]) as ex:
            # <uturn.h>: memory less the I/O buffers (2 slots by default).
            memory = ex.budget(nbytes, 2 + 2)
            stride = ex.slot_bytes(nbytes)
            prob = uturn.problem(STEPS, planner="hrevolve", slot_bytes=nbytes,
                                 levels=[uturn.level("mem", bytes=memory),
                                         uturn.level("disk",
                                                     bytes=6 * stride + 1,
                                                     write_cost=4,
                                                     read_cost=4)])
            held = [ex.level_slots(prob, k) for k in (0, 1)]
            self.assertEqual(held, [2, 6])
            with ex.plan(prob) as plan:
                predicted = plan.stats()
                planned = plan.levels()
                model = InPlace(x0)
                observed, _ = model.run(ex, plan)
            reports = ex.level_reports()
        self.assertEqual([lv.slots for lv in planned], held)
        self.assertEqual([lv.name for lv in planned], [b"mem", b"disk"])
        self.assertEqual(os.listdir(disk), [])
        # Memory alone with the same memory slots: revolve's gradient.
        with uturn.Executor() as ex, uturn.Plan.create(uturn.problem(
                STEPS, slots=held[0])) as plan:
            alone = InPlace(x0)
            alone.run(ex, plan)
        self.assertEqual(model.xbar.tobytes(), alone.xbar.tobytes())
        self.assertEqual(model.xbar.tobytes(), reference(x0).tobytes())
        self.assertEqual(observed.forward_steps, predicted.forward_steps)
        for report, level in zip(reports, planned):
            self.assertEqual((report.stores, report.restores),
                             (level.stores, level.restores))
            self.assertLessEqual(report.peak_slots, level.slots)
        disk_report = reports[1]
        self.assertGreater(disk_report.stores, 0)
        self.assertEqual(disk_report.bytes_written,
                         disk_report.stores * nbytes)
        self.assertEqual(disk_report.bytes_read,
                         disk_report.restores * nbytes)


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


class ReturnedArrays(unittest.TestCase):
    """np.sin(x, out=x) returns x: a callback written that way returns an
    array, which stops the run like any result but None and 0, and the
    error says what it returned (it is not an exception of the binding)."""

    def test_a_callback_that_returns_an_array_stops_the_run(self):
        x = start()
        with uturn.Executor() as ex:
            with uturn.Plan.create(uturn.problem(STEPS, slots=3)) as plan:
                for result in (lambda: x, lambda: np.zeros((2, 2)),
                               lambda: np.ones(1)):
                    with self.subTest(shape=result().shape):
                        with self.assertRaises(uturn.Error) as cm:
                            ex.run(plan, x, lambda i: result(),
                                   lambda: None, lambda i: None)
                        self.assertEqual(cm.exception.status,
                                         uturn.E_CALLBACK)
                        self.assertIn("only None and 0 continue",
                                      str(cm.exception))
                # a 0-d integer array is an integer: 0 goes on
                observed, _ = ex.run(plan, x, lambda i: np.array(0),
                                     lambda: None, lambda i: None)
                self.assertEqual(observed.reverse_steps, STEPS)


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


# Online plans (docs/model.md section 9): the step count is found as the
# run goes. The yardstick is the offline optimum, docs/model.md section
# 4's closed form, computed here.
def optimum(l, s):
    """t(l, s): beta(s, r) = C(s + r, s), r the least with beta(s, r) >=
    l, t = r l - beta(s + 1, r - 1)."""
    r = 0
    while math.comb(s + r, s) < l:
        r += 1
    return r * l - math.comb(s + r, s + 1)


def band(s):
    """The n up to which an online plan is exactly optimal."""
    return (s + 1) * (s + 2) // 2


def norm_past(limit):
    """A stop that only the model knows: |x| has passed ``limit``."""
    return lambda step, x, change: np.linalg.norm(x) > limit


def steady(tol):
    """A stop at a steady state: the last step changed x by less than
    ``tol``."""
    return lambda step, x, change: change < tol


def stop_at(n):
    return lambda step, x, change: step == n


def first_stop(x0, stop):
    """The n a stop criterion gives, by a plain loop."""
    x, n = x0.copy(), 0
    while True:
        y = step(x)
        n += 1
        change, x = float(np.linalg.norm(y - x)), y
        if stop(n, x, change):
            return n


class Stopping(InPlace):
    """The Allen-Cahn model in place, with is_last: x_step is the last
    when ``stop(step, x, change)`` says so (change: |x_step - x_step-1|,
    kept by forward, which is_last follows in the first sweep)."""

    def __init__(self, x0, stop):
        super().__init__(x0)
        self.stop, self.change, self.asked = stop, None, []

    def forward(self, i):
        before = self.x.copy()
        self.x[:] = step(self.x)
        self.change = float(np.linalg.norm(self.x - before))

    def is_last(self, i):
        self.asked.append(i)
        return self.stop(i, self.x, self.change)

    def run(self, ex, plan, **options):
        return super().run(ex, plan, is_last=self.is_last, **options)


def drive(plan, x0, stop, advance=step, sizes=False, share=lambda b: b):
    """A time loop of the user's own over plan.cursor(): every action done
    with numpy copies (checkpoints in a dict), the end said right after
    the advance to the state ``stop(step, x, change)`` calls the last; in
    bytes mode (``sizes``) each state's size given as the sweep reaches
    it, as ``share(nbytes)``. Returns (the gradient, the cursor's stats,
    the realised plan as text, the most bytes held at once)."""
    x, xbar, held, lines = x0.copy(), None, {}, []
    reversed_, peak = [], 0
    with plan.cursor() as c:
        if sizes:
            c.set_size(0, share(x.nbytes))
        for a in c:
            lines.append(str(a))
            if a.op == uturn.OP_ADVANCE:
                for _ in range(a.step, a.step_end):
                    y = advance(x)
                    change, x = float(np.linalg.norm(y - x)) \
                        if y.shape == x.shape else None, y
                if c.steps is None:  # the first sweep
                    if stop(a.step_end, x, change):
                        c.end()
                    elif sizes:
                        c.set_size(a.step_end, share(x.nbytes))
            elif a.op == uturn.OP_STORE:
                assert a.slot not in held
                held[a.slot] = (a.step, x.copy())
                peak = max(peak, sum(v.nbytes for _, v in held.values()))
            elif a.op == uturn.OP_RESTORE:
                kept_step, kept = held[a.slot]
                assert kept_step == a.step, (kept_step, a.step)
                x = kept.copy()
            elif a.op == uturn.OP_FREE:
                del held[a.slot]
            elif a.op == uturn.OP_TURN:
                xbar = x.copy()
            elif a.op == uturn.OP_REVERSE:
                reversed_.append(a.step)
                xbar = (step_bar if advance is step else grow_bar)(x, xbar)
            else:
                raise AssertionError("unknown op %d" % a.op)
        stats = c.stats()
    assert not held, held
    assert reversed_ == list(range(stats.steps - 1, -1, -1)), reversed_
    return xbar, stats, lines, peak


def executor_share(ex, budget):
    """What the executor gives an online plan of ``budget`` bytes for a
    state of n bytes: its stride times the budget over the bytes the
    budget holds (16 times its capacity in 16-byte slots), rounded up."""
    room = 16 * ex.capacity(16, budget)
    return lambda n: -(-budget * ex.slot_bytes(n) // room)


def realised_text(lines, stats, sizes=None, budget=0):
    """The realised actions as plan text (as `uturn stats online` writes
    them), for the library's validator to check through Plan.parse()."""
    head = ["uturn-plan 1", "planner online", "steps %d" % stats.steps,
            "slots %d" % stats.slots]
    if sizes is not None:
        head += ["step_bytes " + " ".join(map(str, sizes)),
                 "budget_bytes %d" % budget]
    return "\n".join(head + lines) + "\n"


class Online(unittest.TestCase):
    def online(self, ex=None, **capacity):
        prob = uturn.problem(0, planner="online", **capacity)
        return ex.plan(prob) if ex is not None else uturn.Plan.create(prob)

    def store_all(self, ex, x0, n):
        """The store-all gradient for n steps, through the executor."""
        model = InPlace(x0)
        with uturn.Plan.create(uturn.problem(n, planner="store-all")) as p:
            model.run(ex, p)
        return model.xbar

    def test_a_criterion_only_the_model_knows_ends_the_run(self):
        x0 = start()
        stops = [("norm past 6", norm_past(6.0)), ("steady", steady(1e-3))]
        with uturn.Executor() as ex:
            for label, stop in stops:
                n = first_stop(x0, stop)
                want = self.store_all(ex, x0, n)
                self.assertEqual(want.tobytes(), reference(x0, n).tobytes())
                for capacity in [dict(slots=2), dict(slots=3),
                                 dict(slots=7),
                                 dict(budget_bytes=5 * x0.nbytes)]:
                    with self.subTest(stop=label, n=n, **capacity), \
                            self.online(ex, slot_bytes=x0.nbytes,
                                        **capacity) as plan:
                        model = Stopping(x0, stop)
                        observed, report = model.run(ex, plan)
                        self.assertEqual(model.xbar.tobytes(),
                                         want.tobytes())
                        self.assertEqual(model.asked, list(range(1, n + 1)))
                        self.assertEqual((observed.steps, report.steps),
                                         (n, n))
                        s = plan.stats().slots
                        self.assertLessEqual(observed.peak_slots, s)
                        if n <= band(s):
                            self.assertEqual(observed.forward_steps,
                                             optimum(n + 1, s))
                        self.assertGreaterEqual(observed.forward_steps,
                                                optimum(n + 1, s))
                # The gradient of J(x_n) for that n, by central differences.
                rng = np.random.default_rng(n)
                d = rng.standard_normal(GRID)
                fd = (objective(x0 + FD_EPS * d, n) -
                      objective(x0 - FD_EPS * d, n)) / (2 * FD_EPS)
                exact = float(np.dot(model.xbar, d))
                with self.subTest(stop=label, check="central differences"):
                    self.assertLessEqual(abs(fd - exact),
                                         FD_TOLERANCE * max(1.0, abs(exact)))

    def test_a_step_drawn_at_random(self):
        rng = np.random.default_rng(7)
        x0 = start()
        with uturn.Executor() as ex:
            for trial in range(12):
                n, s = int(rng.integers(1, 200)), [1, 2, 3, 5, 12][trial % 5]
                n = n if s > 1 else n % 40 + 1  # 1 slot: n (n + 1) / 2
                with self.subTest(n=n, slots=s), \
                        self.online(slots=s) as plan:
                    model = Stopping(x0, stop_at(n))
                    observed, _ = model.run(ex, plan)
                    self.assertEqual(model.xbar.tobytes(),
                                     reference(x0, n).tobytes())
                    self.assertEqual(observed.steps, n)
                    if n <= band(s):
                        self.assertEqual(observed.forward_steps,
                                         optimum(n + 1, s))

    def test_a_loop_of_your_own_gets_the_executors_gradient(self):
        x0 = start()
        stop = norm_past(6.0)
        n = first_stop(x0, stop)
        with uturn.Executor() as ex:
            for s in [1, 2, 4, 9]:
                with self.subTest(slots=s), self.online(slots=s) as plan:
                    model = Stopping(x0, stop)
                    observed, _ = model.run(ex, plan)
                    xbar, stats, lines, _ = drive(plan, x0, stop)
                    self.assertEqual(xbar.tobytes(), model.xbar.tobytes())
                    self.assertEqual(xbar.tobytes(),
                                     reference(x0, n).tobytes())
                    for name in ["steps", "forward_steps", "stores",
                                 "restores", "frees", "reverse_steps"]:
                        self.assertEqual(getattr(stats, name),
                                         getattr(observed, name), name)
                    with uturn.Plan.parse(realised_text(lines, stats)) as r:
                        checked = r.stats()
                    self.assertEqual(checked.steps, n)
                    self.assertEqual(checked.forward_steps,
                                     stats.forward_steps)

    def test_the_realised_plan_is_the_offline_optimum_in_the_first_band(self):
        x0 = start()[:4].copy()
        for s in range(1, 8):
            with self.online(slots=s) as plan:
                for n in range(1, band(s) + 1):
                    with self.subTest(slots=s, n=n):
                        _, stats, lines, _ = drive(plan, x0, stop_at(n))
                        self.assertEqual(stats.steps, n)
                        self.assertEqual(stats.forward_steps,
                                         optimum(n + 1, s))
                        self.assertLessEqual(stats.peak_slots, s)
                        with uturn.Plan.parse(
                                realised_text(lines, stats)) as realised:
                            self.assertEqual(realised.stats().forward_steps,
                                             optimum(n + 1, s))

    def test_bytes_mode_with_growing_states_stays_within_the_budget(self):
        # x_i holds FIRST + i doubles; each size is given as the sweep
        # reaches the state (state_size in the executor, set_size in a
        # loop of your own), and the plan never holds more than the budget.
        x0 = np.linspace(0.2, 1.0, FIRST)
        n = GROW_STEPS
        sizes = [8 * (FIRST + i) for i in range(n)]
        want = grow_reference(x0)
        with uturn.Executor() as ex:
            for budget in [300, 900, 2000]:
                with self.subTest(budget=budget), \
                        self.online(budget_bytes=budget) as plan:
                    model = Growing(x0)
                    observed, report = ex.run(
                        plan, None, model.forward, model.turn, model.adjoint,
                        save=model.save, load=model.load,
                        state_size=model.size,
                        is_last=lambda step: step == n)
                    self.assertEqual(model.xbar.tobytes(), want.tobytes())
                    self.assertEqual(observed.steps, n)
                    self.assertLessEqual(observed.peak_bytes, budget)
                    self.assertLessEqual(report.measured_peak_bytes, budget)
                    xbar, stats, lines, peak = drive(
                        plan, x0, stop_at(n), advance=grow, sizes=True)
                    self.assertEqual(xbar.tobytes(), want.tobytes())
                    self.assertLessEqual(peak, budget)
                    # The executor holds strides in the bytes its budget
                    # holds, and gives each state's share of the plan's
                    # budget: a loop given the same shares makes its plan.
                    _, same, _, _ = drive(
                        plan, x0, stop_at(n), advance=grow, sizes=True,
                        share=executor_share(ex, budget))
                    self.assertEqual(same.forward_steps,
                                     observed.forward_steps)
                    with uturn.Plan.parse(realised_text(
                            lines, stats, sizes, budget)) as realised:
                        checked = realised.stats()
                    self.assertLessEqual(checked.peak_bytes, budget)
                    self.assertEqual(checked.peak_bytes, peak)
        # Room for x_0 alone: every state is recomputed from it. Room for
        # x_0 and n - 1 states of the largest size: nothing is.
        for budget, forward_steps in [(sizes[0], n * (n + 1) // 2),
                                      (sizes[0] + (n - 1) * sizes[-1], n)]:
            with self.subTest(budget=budget), \
                    self.online(budget_bytes=budget) as plan:
                xbar, stats, _, peak = drive(plan, x0, stop_at(n),
                                             advance=grow, sizes=True)
                self.assertEqual(xbar.tobytes(), want.tobytes())
                self.assertEqual(stats.forward_steps, forward_steps)
                self.assertLessEqual(peak, budget)

    def test_a_state_that_does_not_fit_is_refused_as_it_comes(self):
        x0 = np.linspace(0.2, 1.0, FIRST)
        with self.online(budget_bytes=8 * FIRST - 1) as plan, \
                plan.cursor() as c:
            with self.assertRaises(uturn.Error) as cm:
                c.set_size(0, x0.nbytes)
            self.assertEqual(cm.exception.status, E_INFEASIBLE)
            self.assertIn("x_0 of 40 bytes does not fit the budget of 39",
                          str(cm.exception))
            with self.assertRaises(ValueError) as cm:
                next(c)
            self.assertIn("stopped before its end was said",
                          str(cm.exception))


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
