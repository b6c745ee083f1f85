"""Runs through the Python binding, standard library only (unittest).

ctest runs this as `python_runs` with UTURN_LIBRARY at the build tree's
libuturn, UTURN_CLI at its `uturn` tool and PYTHONPATH at
bindings/python. The truth is independent of the binding: the chain
x_{i+1} = x_i + 1 has x_i = i, so every adjoint call must see exactly its
step's state; counts come from docs/model.md (revolve's t(n+1, s), the
storage-level reference costs), from <uturn.h>'s documented cadences, from
the storage object's own tallies, and from the CLI (a separate consumer
of the library) for level counts and fingerprints.
"""
import array
import ctypes
import json
import os
import shutil
import struct
import subprocess
import tempfile
import unittest

import uturn

E_INVALID_ARG, E_INFEASIBLE, E_UNSUPPORTED = 1, 3, 5
E_CALLBACK, E_IO = 6, 9
DOUBLE = struct.Struct("<d")


class Chain:
    """x_{i+1} = x_i + 1 from x_0 = 0, so x_i = i: each adjoint call
    records the state it sees, which must be its step. ``state`` is any
    buffer of one double; ``fail`` maps a callback name to what it does
    (an exception to raise, or a callable)."""

    def __init__(self, state=None, fail=None):
        self.state = state if state is not None else array.array("d", [0.0])
        self.seen = []
        self.fail = fail or {}
        self.turned = 0

    def act(self, name):
        what = self.fail.get(name)
        if isinstance(what, BaseException):
            raise what
        if callable(what):
            return what()
        return None

    def value(self):
        return memoryview(self.state).cast("B").cast("d")[0]

    def set(self, value):
        memoryview(self.state).cast("B").cast("d")[0] = value

    def forward(self, step):
        self.set(self.value() + 1.0)
        return self.act("forward")

    def turn(self):
        self.turned += 1
        return self.act("turn")

    def adjoint(self, step):
        self.seen.append((step, self.value()))
        return self.act("adjoint")

    def check(self, case, steps):
        case.assertEqual(self.seen, [(i, float(i))
                                     for i in range(steps - 1, -1, -1)])


class SaveLoadChain(Chain):
    """The chain with its state in a Python float, rebound at every step,
    reached through save/load."""

    def __init__(self, fail=None):
        super().__init__(fail=fail)
        self.x = 0.0

    def value(self):
        return self.x

    def set(self, value):
        self.x = value

    def save(self, step, dst):
        self.act("save")
        DOUBLE.pack_into(dst, 0, self.x)

    def load(self, step, src):
        self.act("load")
        self.x = DOUBLE.unpack_from(src)[0]


def t(l, s):
    """Revolve's forward steps for l - 1 steps and s slots (docs/model.md
    section 4): r the least with C(s+r, s) >= l, t = r*l - C(s+r, s+1)."""
    from math import comb
    r = 0
    while comb(s + r, s) < l:
        r += 1
    return r * l - comb(s + r, s + 1)


def cli_json(*args):
    """The uturn tool's JSON for `uturn stats ARGS --json`."""
    cli = os.environ.get("UTURN_CLI")
    if not cli:
        raise unittest.SkipTest("UTURN_CLI is not set")
    out = subprocess.run([cli, "stats", *args, "--json"], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


class Case(unittest.TestCase):
    def refused(self, error, call, *words):
        with self.assertRaises(error) as cm:
            call()
        for word in words:
            self.assertIn(word, str(cm.exception))
        return cm.exception

    def run_chain(self, chain, steps=12, slots=3, ex=None, **options):
        own = ex is None
        ex = ex or uturn.Executor()
        try:
            prob = uturn.problem(steps, planner="revolve", slots=slots)
            with uturn.Plan.create(prob) as plan:
                if isinstance(chain, SaveLoadChain):
                    options.setdefault("save", chain.save)
                    options.setdefault("load", chain.load)
                    options.setdefault("state_bytes", DOUBLE.size)
                    state = None
                else:
                    state = chain.state
                return ex.run(plan, state, chain.forward, chain.turn,
                              chain.adjoint, **options)
        finally:
            if own:
                ex.close()


class States(Case):
    """Any writable C-contiguous buffer is the live state."""

    def test_buffers_of_every_kind_hold_the_live_state(self):
        for state in [array.array("d", [0.0]), bytearray(8),
                      (ctypes.c_double * 1)(), ctypes.c_double(0.0),
                      memoryview(bytearray(8))]:
            with self.subTest(state=type(state).__name__):
                chain = Chain(state)
                observed, _ = self.run_chain(chain)
                chain.check(self, 12)
                self.assertEqual(observed.forward_steps, t(13, 3))

    def test_a_larger_buffer_is_copied_whole(self):
        chain = Chain(array.array("d", [0.0, 7.0, 8.0]))
        observed, report = self.run_chain(chain)
        chain.check(self, 12)
        self.assertEqual(report.slot_bytes, 32)  # 24 bytes, 16-aligned

    def test_strided_buffers_are_refused_with_the_fix(self):
        strided = memoryview(bytearray(32)).cast("d")[::2]
        err = self.refused(ValueError, lambda: self.run_chain(
            Chain(strided)), "not C-contiguous", "np.ascontiguousarray",
            "in place", "save")
        self.assertIn("strides (16,)", str(err))

    def test_read_only_buffers_are_refused_with_the_fix(self):
        for state in [bytes(8), memoryview(bytearray(8)).toreadonly()]:
            with self.subTest(state=type(state).__name__):
                self.refused(ValueError, lambda: self.run_chain(
                    Chain(state)), "read-only", "writable", "save")

    def test_other_objects_and_empty_buffers_are_refused(self):
        self.refused(ValueError, lambda: self.run_chain(Chain([0.0])),
                     "writable, C-contiguous buffer", "list", "save")
        self.refused(ValueError, lambda: self.run_chain(
            Chain(bytearray())), "empty")

    def test_nothing_runs_when_the_state_is_refused(self):
        chain = Chain(bytes(8))
        with self.assertRaises(ValueError):
            self.run_chain(chain)
        self.assertEqual((chain.seen, chain.turned), ([], 0))

    def test_the_buffer_cannot_be_resized_during_a_run(self):
        state = bytearray(8)
        chain = Chain(state, fail={"forward": lambda: state.extend(b"x")})
        with self.assertRaises(BufferError):
            self.run_chain(chain)
        state.extend(b"x")  # released once the run has returned
        self.assertEqual(len(state), 9)
        chain = Chain(state[:8])
        try:  # refused after the state was taken: still released
            self.run_chain(chain, budget_bytes=-1)
        except ValueError as exc:
            kept = exc  # its traceback holds run()'s frame
        chain.state.extend(b"x")
        self.assertIn("budget_bytes", str(kept))

    def test_state_and_save_load_do_not_mix(self):
        chain = Chain()
        self.refused(ValueError, lambda: self.run_chain(
            chain, save=print, load=print), "save and load", "state=None")
        self.refused(ValueError, lambda: self.run_chain(
            chain, state_bytes=16), "state_bytes", "8 bytes")
        s = SaveLoadChain()
        self.refused(ValueError, lambda: self.run_chain(s, load=None),
                     "save= and load=")
        self.refused(ValueError, lambda: self.run_chain(s, save=3), "save")


class SaveLoad(Case):
    """save/load: for models that rebind their state."""

    def test_a_rebinding_model_through_save_and_load(self):
        chain = SaveLoadChain()
        observed, _ = self.run_chain(chain, steps=20, slots=4)
        chain.check(self, 20)
        self.assertEqual(observed.forward_steps, t(21, 4))

    def test_the_views_are_a_writable_slot_and_a_read_only_one(self):
        chain, seen = SaveLoadChain(), []

        def save(step, dst):
            seen.append(("save", dst.readonly, dst.format, dst.nbytes))
            chain.save(step, dst)

        def load(step, src):
            seen.append(("load", src.readonly, src.format, src.nbytes))
            chain.load(step, src)
        self.run_chain(chain, save=save, load=load)
        self.assertIn(("save", False, "B", 8), seen)
        self.assertIn(("load", True, "B", 8), seen)
        self.assertEqual({entry[1:] for entry in seen},
                         {(False, "B", 8), (True, "B", 8)})

    def test_view_turns_the_memoryview_into_what_the_callbacks_get(self):
        chain = SaveLoadChain()

        def save(step, dst):
            dst[0] = chain.x

        def load(step, src):
            chain.x = src[0]
        self.run_chain(chain, save=save, load=load,
                       view=lambda m: m.cast("d"))
        chain.check(self, 12)

    def test_a_view_kept_past_the_callback_is_refused(self):
        kept = []

        def load(step, src):
            kept.append(src[0:8])  # a slice: a view of the slot
        chain = SaveLoadChain()
        err = self.refused(ValueError, lambda: self.run_chain(
            chain, load=load), "load callback kept a view", ".copy()")
        self.assertEqual(err.__cause__.status, E_CALLBACK)

    def test_the_memoryview_itself_is_released_after_the_call(self):
        kept = []

        def save(step, dst):
            kept.append(dst)
            DOUBLE.pack_into(dst, 0, chain.x)
        chain = SaveLoadChain()
        self.run_chain(chain, save=save)
        chain.check(self, 12)
        with self.assertRaises(ValueError):  # released, not dangling
            kept[0][0]

    def test_state_size_gives_each_state_its_size(self):
        sizes = []

        def state_size(step):
            sizes.append(step)
            return DOUBLE.size
        chain = SaveLoadChain()
        self.run_chain(chain, state_size=state_size, state_bytes=0)
        chain.check(self, 12)
        self.assertTrue(sizes)

    def test_a_state_size_that_is_not_a_size_stops_the_run(self):
        for value in [0, -8, 8.0, None, 2**64]:
            with self.subTest(value=value):
                chain = SaveLoadChain()
                with self.assertRaises((ValueError, OverflowError)) as cm:
                    self.run_chain(chain, state_size=lambda step: value,
                                   state_bytes=0)
                self.assertIn("state_size", str(cm.exception))


class Exceptions(Case):
    """An exception in any callback stops the run cleanly and is raised
    from run(), chained to the library's error; the executor goes on."""

    def check_raised(self, chain, which, status=E_CALLBACK, **options):
        boom = LookupError("boom in %s" % which)
        chain.fail[which] = boom
        with uturn.Executor() as ex:
            with self.assertRaises(LookupError) as cm:
                self.run_chain(chain, ex=ex, **options)
            self.assertIs(cm.exception, boom)
            cause = cm.exception.__cause__
            self.assertIsInstance(cause, uturn.Error)
            self.assertEqual(cause.status, status)
            self.assertIsNotNone(cause.report)
            self.assertEqual(cause.report.status, status)
            self.assertTrue(any(which in note for note in getattr(
                boom, "__notes__", [which])))
            # docs/model.md: between runs at most the last run's peak.
            self.assertLessEqual(ex.held_bytes(),
                                 cause.report.measured_peak_bytes)
            again = type(chain)()
            observed, _ = self.run_chain(again, ex=ex)
            again.check(self, 12)
            self.assertEqual(observed.reverse_steps, 12)
        return cause

    def test_forward_turn_and_adjoint(self):
        for which in ["forward", "turn", "adjoint"]:
            with self.subTest(which=which):
                cause = self.check_raised(Chain(), which)
                self.assertIn(which, str(cause))

    def test_save_and_load(self):
        for which in ["save", "load"]:
            with self.subTest(which=which):
                cause = self.check_raised(SaveLoadChain(), which)
                self.assertIn(which, str(cause))

    def test_progress_callbacks(self):
        for name in ["progress", "on_progress"]:
            with self.subTest(name=name):
                chain, boom = Chain(), LookupError(name)

                def raising(*args):
                    raise boom
                with self.assertRaises(LookupError) as cm:
                    self.run_chain(chain, **{name: raising})
                self.assertEqual(cm.exception.__cause__.status, E_CALLBACK)
                self.assertIn(name, str(cm.exception.__cause__))

    def test_keyboard_interrupt_stops_the_run_too(self):
        chain = Chain(fail={"forward": KeyboardInterrupt()})
        with self.assertRaises(KeyboardInterrupt):
            self.run_chain(chain)
        self.assertEqual(chain.seen, [])

    def test_nothing_is_called_after_the_exception(self):
        chain = Chain(fail={"adjoint": LookupError()})
        with self.assertRaises(LookupError):
            self.run_chain(chain)
        self.assertEqual(len(chain.seen), 1)

    def test_an_exception_with_a_cause_of_its_own_keeps_it(self):
        try:
            raise OSError("disk")
        except OSError as first:
            mine = first
        boom = RuntimeError("model")
        boom.__cause__ = mine
        chain = Chain(fail={"forward": boom})
        with self.assertRaises(RuntimeError) as cm:
            self.run_chain(chain)
        self.assertIs(cm.exception.__cause__, mine)


class Shelf:
    """A user storage level in a dict, counting what it is asked."""

    def __init__(self, fail=None):
        self.kept, self.fail = {}, fail or {}
        self.counts = {"open": 0, "put": 0, "get": 0, "drop": 0, "close": 0}
        self.peak = 0
        self.put_bytes = 0

    def note(self, name):
        self.counts[name] += 1
        if name in self.fail:
            raise self.fail[name]

    def open(self, ids, nbytes):
        self.note("open")

    def put(self, id_, step, src):
        self.note("put")
        self.kept[id_] = (step, bytes(src))
        self.put_bytes += src.nbytes
        self.peak = max(self.peak, len(self.kept))

    def get(self, id_, step, dst):
        self.note("get")
        kept_step, data = self.kept[id_]
        assert kept_step == step, (kept_step, step)
        dst[:] = data

    def drop(self, id_):
        self.note("drop")
        del self.kept[id_]

    def close(self):
        self.note("close")


def levels_problem(steps=100, mem=5, disk=100, cost=5):
    """docs/model.md section 4's first reference case."""
    return uturn.problem(steps, planner="hrevolve", levels=[
        uturn.level("mem", slots=mem),
        uturn.level("disk", slots=disk, write_cost=cost, read_cost=cost)])


class Levels(Case):
    def test_the_reference_costs(self):
        # docs/model.md 10: n=100, memory 5, disk 100 (w=r=5): 284;
        # n=300, memory 4, 8 at w=r=2, 16 at w=r=10: 938.
        with uturn.Plan.create(levels_problem()) as plan:
            self.assertEqual(plan.stats().cost, 284)
            self.assertEqual(plan.stats().levels, 2)
        prob = uturn.problem(300, planner="hrevolve", levels=[
            uturn.level(slots=4), uturn.level(slots=8, write_cost=2,
                                              read_cost=2),
            uturn.level(slots=16, write_cost=10, read_cost=10)])
        with uturn.Plan.create(prob) as plan:
            self.assertEqual(plan.stats().cost, 938)
            names = [lv.name for lv in plan.levels()]
        self.assertEqual(names, [b"level0", b"level1", b"level2"])

    def test_hrevolve_with_memory_alone_is_revolve(self):
        prob = uturn.problem(100, planner="hrevolve", slots=5)
        with uturn.Plan.create(prob) as plan:
            self.assertEqual(plan.stats().cost, t(101, 5))

    def test_level_counts_are_the_clis(self):
        want = cli_json("hrevolve", "--steps", "100", "--levels",
                        "mem:5,disk:100:w=5:r=5")["levels"]
        with uturn.Plan.create(levels_problem()) as plan:
            got = [lv.as_dict() for lv in plan.levels()]
        self.assertEqual(got, want)

    def test_a_user_level_holds_what_the_plan_says(self):
        shelf = Shelf()
        with uturn.Executor(levels=[uturn.user_storage(shelf)]) as ex:
            with uturn.Plan.create(levels_problem()) as plan:
                chain = Chain()
                ex.run(plan, chain.state, chain.forward, chain.turn,
                       chain.adjoint)
                chain.check(self, 100)
                want = plan.level_stats(1)
                got = ex.level_report(1)
                mem = ex.level_report(0)
                mem_want = plan.level_stats(0)
        self.assertEqual((shelf.counts["put"], shelf.counts["get"]),
                         (want.stores, want.restores))
        self.assertEqual((got.stores, got.restores, got.peak_slots),
                         (shelf.counts["put"], shelf.counts["get"],
                          shelf.peak))
        self.assertEqual(got.bytes_written, shelf.put_bytes)
        self.assertEqual((mem.stores, mem.restores),
                         (mem_want.stores, mem_want.restores))
        self.assertEqual((shelf.counts["open"], shelf.counts["close"]),
                         (1, 1))
        self.assertEqual(shelf.kept, {})  # every slot dropped

    def test_a_user_level_that_gives_other_bytes_stops_the_run(self):
        """Issue 22, finding 7: a get that filled half the buffer gave
        UTURN_OK and a wrong gradient. Checksummed now, unless lossy."""
        class Short(Shelf):
            def get(self, id_, step, dst):
                super().get(id_, step, dst)
                half = dst.nbytes // 2
                dst[half:] = bytes(dst.nbytes - half)
        chain = Chain()
        chain.set(3.0)  # x_i = 3 + i: no state is all zero bytes
        with uturn.Executor(levels=[uturn.user_storage(Short())]) as ex, \
                uturn.Plan.create(levels_problem()) as plan:
            with self.assertRaises(uturn.Error) as cm:
                ex.run(plan, chain.state, chain.forward, chain.turn,
                       chain.adjoint)
            self.assertEqual(cm.exception.status, E_IO)
            self.assertIn("checksum mismatch", str(cm.exception))
        with uturn.Executor(levels=[uturn.user_storage(Short(), lossy=True)]) \
                as ex, uturn.Plan.create(levels_problem()) as plan:
            chain = Chain()
            _, report = ex.run(plan, chain.state, chain.forward, chain.turn,
                               chain.adjoint)
            self.assertTrue(report.lossy)
        with uturn.Executor(levels=[uturn.user_storage(Shelf())]) as ex, \
                uturn.Plan.create(levels_problem()) as plan:
            chain = Chain()
            _, report = ex.run(plan, chain.state, chain.forward, chain.turn,
                               chain.adjoint)
            chain.check(self, 100)
            self.assertFalse(report.lossy)
        self.refused(ValueError, lambda: uturn.user_storage(Shelf(), lossy=1),
                     "lossy must be True or False")

    def test_a_file_level_leaves_its_directory_empty(self):
        parent = tempfile.mkdtemp(prefix="uturn-py-")
        self.addCleanup(shutil.rmtree, parent)
        for synchronous in [False, True]:
            with self.subTest(synchronous=synchronous):
                storage = uturn.file_storage(parent, synchronous=synchronous)
                with uturn.Executor(levels=[storage]) as ex:
                    with uturn.Plan.create(levels_problem()) as plan:
                        chain = Chain()
                        ex.run(plan, chain.state, chain.forward, chain.turn,
                               chain.adjoint)
                        chain.check(self, 100)
                        want = plan.level_stats(1)
                    got = ex.level_report(1)
                    self.assertEqual((got.stores, got.restores),
                                     (want.stores, want.restores))
                    self.assertEqual(got.bytes_written, 8 * want.stores)
                    self.assertEqual(got.overlapped, not synchronous)
                    self.assertEqual(len(ex.level_reports()), 2)
                self.assertEqual(os.listdir(parent), [])

    def test_io_buffers_are_taken_from_memory(self):
        # <uturn.h>: one slot each (16 bytes for 8), default 2; a plan with
        # only synchronous levels takes 1.
        parent = tempfile.mkdtemp(prefix="uturn-py-")
        self.addCleanup(shutil.rmtree, parent)
        for buffers, synchronous, want in [(0, False, 2), (3, False, 3),
                                           (16, False, 16), (5, True, 1)]:
            with self.subTest(io_buffers=buffers, synchronous=synchronous):
                storage = uturn.file_storage(parent, synchronous=synchronous)
                with uturn.Executor(levels=[storage],
                                    io_buffers=buffers) as ex:
                    with uturn.Plan.create(levels_problem()) as plan:
                        _, report = self.run_chain_on(ex, plan)
                self.assertEqual(report.io_buffer_bytes, want * 16)
        self.refused(uturn.Error, lambda: uturn.Executor(
            levels=[uturn.file_storage(parent)], io_buffers=17), "16")

    def run_chain_on(self, ex, plan):
        chain = Chain()
        result = ex.run(plan, chain.state, chain.forward, chain.turn,
                        chain.adjoint)
        chain.check(self, plan.stats().steps)
        return result

    def test_failing_user_levels_raise_and_leave_the_executor_usable(self):
        for which in ["open", "put", "get"]:
            with self.subTest(which=which):
                boom = LookupError(which)
                shelf = Shelf(fail={which: boom})
                with uturn.Executor(levels=[uturn.user_storage(shelf)]) as ex:
                    with uturn.Plan.create(levels_problem()) as plan:
                        chain = Chain()
                        with self.assertRaises(LookupError) as cm:
                            ex.run(plan, chain.state, chain.forward,
                                   chain.turn, chain.adjoint)
                        self.assertIs(cm.exception, boom)
                        self.assertEqual(cm.exception.__cause__.status, E_IO)
                        self.assertEqual(shelf.counts["close"], 1)
                        shelf.fail.clear()
                        chain = Chain()
                        ex.run(plan, chain.state, chain.forward, chain.turn,
                               chain.adjoint)
                        chain.check(self, 100)

    def test_an_exception_in_drop_or_close_is_raised_after_the_run(self):
        for which in ["drop", "close"]:
            with self.subTest(which=which):
                boom = LookupError(which)
                shelf = Shelf(fail={which: boom})
                with uturn.Executor(levels=[uturn.user_storage(shelf)]) as ex:
                    with uturn.Plan.create(levels_problem()) as plan:
                        chain = Chain()
                        with self.assertRaises(LookupError) as cm:
                            ex.run(plan, chain.state, chain.forward,
                                   chain.turn, chain.adjoint)
                self.assertIs(cm.exception, boom)

    def test_storage_arguments(self):
        self.refused(ValueError, lambda: uturn.user_storage(object()),
                     "put")
        self.refused(ValueError, lambda: uturn.Executor(levels=[3]),
                     "levels[0]")
        self.refused(ValueError, lambda: uturn.Executor(
            levels=uturn.file_storage()), "sequence")
        self.refused(ValueError, lambda: uturn.file_storage("a\0b"), "NUL")
        self.refused(ValueError, lambda: uturn.problem(
            10, planner="hrevolve", levels=[3]), "levels[0]")
        prob = levels_problem()
        prob.level_count = 3  # the library would read a third level
        self.refused(ValueError, lambda: uturn.Plan.create(prob),
                     "level_count is 3 but levels has 2")

    def test_level_and_executor_integers_are_checked(self):
        for field in ["slots", "bytes", "write_cost", "read_cost"]:
            with self.subTest(field=field):
                self.refused(ValueError, lambda: uturn.level(
                    **{field: -1}), field, "negative")
                self.refused(OverflowError, lambda: uturn.level(
                    **{field: 2**64}), field)
        self.refused(ValueError, lambda: uturn.Executor(io_buffers=-1),
                     "io_buffers")
        self.refused(ValueError, lambda: uturn.problem(
            10, max_steps=1.5), "max_steps")
        self.refused(ValueError, lambda: uturn.file_storage(
            synchronous="yes"), "synchronous")

    def test_a_level_name_outlives_the_plan(self):
        with uturn.Plan.create(levels_problem()) as plan:
            stats = plan.level_stats(1)
            resolved = plan.problem()
        self.assertEqual(stats.name, b"disk")
        self.assertEqual(resolved.levels[1].name, b"disk")
        self.assertEqual(resolved.level_count, 2)

    def test_a_level_past_the_plans(self):
        with uturn.Plan.create(levels_problem()) as plan:
            err = self.refused(uturn.Error, lambda: plan.level_stats(2),
                               "the plan has 2")
        self.assertEqual(err.status, 1)


class Progress(Case):
    def test_reverse_progress_every_ten_steps(self):
        calls = []
        self.run_chain(Chain(), steps=100, slots=5, progress_every=10,
                       progress=lambda reversed_, steps: calls.append(
                           (reversed_, steps)))
        # <uturn.h>: after every progress_every reverse steps and the last.
        self.assertEqual(calls, [(k, 100) for k in range(10, 101, 10)])

    def test_whole_run_progress(self):
        seen = []
        observed, _ = self.run_chain(Chain(), steps=100, slots=5,
                                     on_progress_every=50,
                                     on_progress=seen.append)
        last = seen[-1]
        total = t(101, 5) + 100  # forward cost + steps (<uturn.h>)
        self.assertEqual((last.done, last.total), (total, total))
        self.assertEqual((last.forward_steps, last.reverse_steps,
                          last.steps), (t(101, 5), 100, 100))
        dones = [p.done for p in seen]
        self.assertEqual(dones, sorted(dones))
        self.assertTrue(all(b - a >= 50 for a, b in zip(dones, dones[1:-1])))
        self.assertGreater(len(seen), total // 50 // 2)
        times = [p.seconds for p in seen]
        self.assertEqual(times, sorted(times))
        self.assertTrue(all(p.total == total for p in seen))

    def test_progress_counts_are_checked_integers(self):
        for name in ["progress_every", "on_progress_every"]:
            with self.subTest(name=name):
                self.refused(ValueError, lambda: self.run_chain(
                    Chain(), **{name: -1}), name, "negative")
                self.refused(OverflowError, lambda: self.run_chain(
                    Chain(), **{name: 2**64}), name, "2**64-1")
        self.refused(ValueError, lambda: self.run_chain(
            Chain(), on_progress=3), "on_progress", "callable")

    def test_a_progress_callback_that_returns_1_stops_the_run(self):
        chain = Chain()
        err = self.refused(uturn.Error, lambda: self.run_chain(
            chain, steps=100, slots=5, on_progress=lambda p: 1),
            "on_progress")
        self.assertEqual(err.status, E_CALLBACK)
        self.assertLess(len(chain.seen), 100)


class Plans(Case):
    def test_close_while_iterating_invalidates_the_iterator(self):
        plan = uturn.Plan.create(uturn.problem(30, slots=3))
        it = plan.actions(batch=4)
        first = [str(next(it)) for _ in range(6)]
        self.assertEqual(first[0], "store 0 0")
        plan.close()
        self.refused(ValueError, lambda: next(it), "closed while",
                     "list(plan.actions())")
        del it  # finalising it after the plan is gone is fine

    def test_an_iterator_left_unfinished_does_not_hold_the_plan(self):
        plan = uturn.Plan.create(uturn.problem(30, slots=3))
        iterators = [plan.actions() for _ in range(3)]
        for it in iterators:
            next(it)
        plan.close()
        for it in iterators:
            with self.assertRaises(ValueError):
                next(it)

    def test_closing_the_plan_or_executor_inside_its_run(self):
        ex = uturn.Executor()
        plan = uturn.Plan.create(uturn.problem(12, slots=3))
        for name, call in [("plan", plan.close), ("executor", ex.close)]:
            with self.subTest(closing=name):
                chain = Chain(fail={"adjoint": call})
                with self.assertRaises(ValueError) as cm:
                    ex.run(plan, chain.state, chain.forward, chain.turn,
                           chain.adjoint)
                self.assertIn("after", str(cm.exception))
        chain = Chain()  # both still work
        ex.run(plan, chain.state, chain.forward, chain.turn, chain.adjoint)
        chain.check(self, 12)
        plan.close()
        ex.close()

    def test_a_run_inside_a_run_of_the_same_executor(self):
        with uturn.Executor() as ex:
            with uturn.Plan.create(uturn.problem(12, slots=3)) as plan:
                inner = Chain()

                def nested():
                    ex.run(plan, inner.state, inner.forward, inner.turn,
                           inner.adjoint)
                chain = Chain(fail={"turn": nested})
                self.refused(ValueError, lambda: ex.run(
                    plan, chain.state, chain.forward, chain.turn,
                    chain.adjoint), "another Executor")

    def test_fingerprints_are_the_clis(self):
        cases = [
            (uturn.problem(100, slots=5), ["revolve", "--steps", "100",
                                           "--slots", "5"]),
            (uturn.problem(40, planner="periodic", stride=4),
             ["periodic", "--steps", "40", "--stride", "4"]),
            (levels_problem(), ["hrevolve", "--steps", "100", "--levels",
                                "mem:5,disk:100:w=5:r=5"]),
        ]
        prints = set()
        for prob, args in cases:
            with self.subTest(args=args):
                want = int(cli_json(*args)["fingerprint"], 16)
                with uturn.Plan.create(prob) as plan:
                    self.assertEqual(plan.fingerprint(), want)
                    self.assertEqual(plan.stats().fingerprint, want)
                prints.add(want)
        self.assertEqual(len(prints), 3)

    def test_the_resolved_problem_outlives_the_plan(self):
        sizes, costs = [8, 16, 8, 24], [1, 2, 3, 4]
        with uturn.Plan.create(uturn.problem(
                4, planner="dp", budget_bytes=48, step_bytes=sizes,
                step_costs=costs)) as plan:
            resolved = plan.problem()
            fingerprint = plan.fingerprint()
        self.assertEqual([resolved.step_bytes[i] for i in range(4)], sizes)
        self.assertEqual([resolved.step_costs[i] for i in range(4)], costs)
        self.assertEqual((resolved.budget_bytes, resolved.level_count),
                         (48, 1))
        self.assertEqual(resolved.levels[0].name, b"mem")
        # <uturn.h>: clear the capacities the plan resolved to plan again.
        resolved.slots, resolved.levels = 0, None
        with uturn.Plan.create(resolved) as again:
            self.assertEqual(again.fingerprint(), fingerprint)

    def test_online_declarations(self):
        # <uturn.h>: the online planner, value 5, named by the library; an
        # online problem has steps 0 and an optional max_steps, and its
        # plan's stats say online with steps UTURN_NONE.
        self.assertEqual(uturn.PLANNER_ONLINE, 5)
        self.assertEqual(uturn.PLANNERS["online"], 5)
        self.assertEqual(uturn.NONE, 2**64 - 1)
        p = uturn.problem(0, planner="online", slots=3, max_steps=50)
        self.assertEqual((p.steps, p.max_steps), (0, 50))
        with uturn.Plan.create(p) as plan:
            s = plan.stats()
            self.assertTrue(s.online)
            self.assertEqual((s.steps, s.slots), (uturn.NONE, 3))
            self.assertEqual(plan.problem().max_steps, 50)
        self.assertFalse(uturn.Stats().online)
        self.assertFalse(uturn.Model().is_last)
        self.assertEqual(uturn.Model().record_bytes, 0)
        # max_steps belongs to the online planner: the library says so.
        with self.assertRaises(uturn.Error) as cm:
            uturn.Plan.create(uturn.problem(10, slots=3, max_steps=50))
        self.assertEqual(cm.exception.status, E_INVALID_ARG)
        self.assertIn("max_steps is for the online planner",
                      str(cm.exception))

class Controlled(Chain):
    """x_{i+1} = x_i + h_i with h_i drawn by a controller with history in
    the first sweep (each draw depends on the draws before it, so a
    recomputation that drew again would differ), kept as a step record
    (h_i and i, 16 bytes) and read back on every recomputation."""

    RECORD = struct.Struct("<dQ")

    def __init__(self, stop_at=None):
        super().__init__()
        self.stop_at, self.draws, self.h = stop_at, 0, {}
        self.calls = []  # (step, again)
        self.written = {}

    def draw(self):
        self.draws += 1
        return 0.25 * (1 + (self.draws * 37) % 11)

    def forward_record(self, step, record, again):
        self.calls.append((step, again))
        if not again:
            h = self.draw()
            self.RECORD.pack_into(record, 0, h, step)
            self.h[step], self.written[step] = h, bytes(record)
        else:
            if bytes(record) != self.written[step]:
                raise AssertionError("record of step %d changed" % step)
            h, tag = self.RECORD.unpack_from(record)
            if tag != step:
                raise AssertionError("record of step %d is %d's" % (step, tag))
        self.set(self.value() + h)

    def is_last(self, step):
        return step == self.stop_at

    def expected(self, steps):
        """The states x_0 .. x_{n-1} with the h's drawn, in one sweep."""
        xs, x = [], 0.0
        for i in range(steps):
            xs.append(x)
            x += self.h[i]
        return [(i, xs[i]) for i in range(steps - 1, -1, -1)]


class Online(Case):
    """Online plans (steps 0) and step records through Executor.run():
    the run ends where the model's is_last says (the chain's x_i = i is
    checked at every adjoint call), records come back, misuse is
    refused."""

    def online_plan(self, slots=3, **fields):
        return uturn.Plan.create(uturn.problem(0, planner="online",
                                               slots=slots, **fields))

    def test_the_run_ends_where_is_last_says(self):
        with uturn.Executor() as ex:
            for n, slots in [(1, 1), (6, 2), (7, 2), (10, 3), (45, 4)]:
                with self.subTest(n=n, slots=slots), \
                        self.online_plan(slots) as plan:
                    chain, asked = Chain(), []

                    def is_last(step):
                        asked.append(step)
                        return step == n
                    observed, report = ex.run(plan, chain.state,
                                              chain.forward, chain.turn,
                                              chain.adjoint, is_last=is_last)
                    chain.check(self, n)
                    # uturn.h: asked after each forward step of the first
                    # sweep, with x_step: x_1 .. x_n.
                    self.assertEqual(asked, list(range(1, n + 1)))
                    self.assertEqual((observed.steps, report.steps), (n, n))
                    self.assertEqual(observed.reverse_steps, n)
                    # The offline optimum t(n+1, s) is the yardstick,
                    # reached exactly for n <= (s+1)(s+2)/2.
                    optimum = t(n + 1, slots)
                    if n <= (slots + 1) * (slots + 2) // 2:
                        self.assertEqual(observed.forward_steps, optimum)
                    self.assertGreaterEqual(observed.forward_steps, optimum)
                    self.assertLessEqual(observed.peak_slots, slots)

    def test_is_last_takes_what_if_takes(self):
        with uturn.Executor() as ex, self.online_plan() as plan:
            for verdict in [1, 2.5, "yes", [0]]:
                with self.subTest(verdict=verdict):
                    chain = Chain()
                    observed, _ = ex.run(
                        plan, chain.state, chain.forward, chain.turn,
                        chain.adjoint,
                        is_last=lambda step: verdict if step == 5 else None)
                    self.assertEqual(observed.steps, 5)

    def test_max_steps_ends_the_run_without_is_last(self):
        with uturn.Executor() as ex, \
                self.online_plan(4, max_steps=30) as plan:
            chain = Chain()
            observed, _ = ex.run(plan, chain.state, chain.forward,
                                 chain.turn, chain.adjoint)
            chain.check(self, 30)
            self.assertEqual(observed.steps, 30)
            early = Chain()
            observed, _ = ex.run(plan, early.state, early.forward,
                                 early.turn, early.adjoint,
                                 is_last=lambda step: step == 12)
            early.check(self, 12)

    def test_a_state_past_its_slot_is_refused_before_it_is_written(self):
        """Issue 22, finding 1: state_size above state_bytes once wrote
        past the slot (UTURN_OK, then the interpreter crashed)."""
        with uturn.Executor() as ex, self.online_plan(3) as plan:
            chain, handed = SaveLoadChain(), []

            def save(step, dst):
                handed.append(dst.nbytes)
                chain.save(step, dst)
            with self.assertRaises(uturn.Error) as cm:
                ex.run(plan, None, chain.forward, chain.turn, chain.adjoint,
                       save=save, load=chain.load, state_bytes=DOUBLE.size,
                       state_size=lambda step: 368 if step == 2 else 8,
                       is_last=lambda step: step == 20)
            self.assertEqual(cm.exception.status, E_INVALID_ARG)
            for word in ["x_2", "368", "8 bytes"]:
                self.assertIn(word, str(cm.exception))
            self.assertTrue(handed)
            self.assertLessEqual(max(handed), DOUBLE.size)

    def test_records_come_back_on_every_recomputation(self):
        plans = [("online", lambda: self.online_plan(4), 300),
                 ("revolve", lambda: uturn.Plan.create(
                     uturn.problem(120, slots=3)), 120)]
        with uturn.Executor() as ex:
            for name, make, n in plans:
                with self.subTest(planner=name), make() as plan:
                    chain = Controlled(stop_at=n)
                    extra = ({"is_last": chain.is_last} if name == "online"
                             else {})
                    observed, report = ex.run(
                        plan, chain.state, None, chain.turn, chain.adjoint,
                        record_bytes=Controlled.RECORD.size,
                        forward_record=chain.forward_record, **extra)
                    self.assertEqual(chain.seen, chain.expected(n))
                    # The controller drew once per step, in order, in the
                    # first sweep; every other call was a recomputation.
                    firsts = [step for step, again in chain.calls
                              if not again]
                    self.assertEqual(firsts, list(range(n)))
                    self.assertEqual(chain.draws, n)
                    self.assertEqual(len(chain.calls),
                                     observed.forward_steps)
                    self.assertGreater(observed.forward_steps, n)
                    self.assertGreaterEqual(report.record_bytes,
                                            n * Controlled.RECORD.size)

    def test_the_record_is_a_writable_view_for_the_call(self):
        kept, kinds = [], set()

        def forward_record(step, record, again):
            kinds.add((type(record), record.format, record.nbytes,
                       record.readonly, type(again)))
            kept.append(record)
            chain.set(chain.value() + 1.0)
        chain = Chain()
        with uturn.Executor() as ex, self.online_plan(2) as plan:
            ex.run(plan, chain.state, None, chain.turn, chain.adjoint,
                   is_last=lambda step: step == 9, record_bytes=24,
                   forward_record=forward_record)
        chain.check(self, 9)
        self.assertEqual(kinds, {(memoryview, "B", 24, False, bool)})
        with self.assertRaises(ValueError):
            kept[0][0]  # released once its call returned

    def test_a_record_view_kept_past_the_call_is_refused(self):
        kept = []

        def forward_record(step, record, again):
            kept.append(record[:8])
        chain = Chain()
        with uturn.Executor() as ex, self.online_plan(2) as plan:
            err = self.refused(ValueError, lambda: ex.run(
                plan, chain.state, None, chain.turn, chain.adjoint,
                is_last=lambda step: step == 4, record_bytes=8,
                forward_record=forward_record),
                "forward_record callback kept a view")
        self.assertEqual(err.__cause__.status, E_CALLBACK)

    def test_exceptions_in_is_last_and_forward_record_are_raised(self):
        for name in ["is_last", "forward_record"]:
            with self.subTest(name=name):
                boom, chain = LookupError(name), Controlled(stop_at=20)

                def raising(*args):
                    if args[0] == 6:
                        raise boom
                    return (chain.forward_record(*args) if len(args) == 3
                            else chain.is_last(*args))
                with uturn.Executor() as ex, self.online_plan(3) as plan:
                    callbacks = {"is_last": chain.is_last,
                                 "forward_record": chain.forward_record,
                                 name: raising}
                    with self.assertRaises(LookupError) as cm:
                        ex.run(plan, chain.state, None, chain.turn,
                               chain.adjoint, record_bytes=16, **callbacks)
                    self.assertIs(cm.exception, boom)
                    cause = cm.exception.__cause__
                    self.assertEqual(cause.status, E_CALLBACK)
                    self.assertEqual(chain.turned, 0)
                    self.assertTrue(any(name in note for note in getattr(
                        boom, "__notes__", [name])))
                    # The executor goes on.
                    again = Chain()
                    ex.run(plan, again.state, again.forward, again.turn,
                           again.adjoint, is_last=lambda step: step == 8)
                    again.check(self, 8)

    def test_misuse_is_refused_before_anything_runs(self):
        chain = Chain()
        fr = lambda step, record, again: None  # noqa: E731
        cases = [
            ("offline", dict(is_last=lambda step: False),
             ["is_last applies to online plans", "n = 12"]),
            ("online", {}, ["without max_steps ends only where is_last "
                            "says"]),
            ("online", dict(is_last=3), ["is_last must be callable"]),
            ("online", dict(is_last=bool, step_bytes=[8, 8]),
             ["step_bytes applies to plans that know their steps"]),
            ("offline", dict(record_bytes=8),
             ["record_bytes is 8 but no forward_record= was given"]),
            ("offline", dict(forward_record=fr),
             ["forward_record needs record_bytes"]),
            ("offline", dict(record_bytes=-1, forward_record=fr),
             ["record_bytes must not be negative"]),
            ("offline", dict(record_bytes=8.0, forward_record=fr),
             ["record_bytes", "integer"]),
            ("offline", dict(record_bytes=8, forward_record=fr, forward=1),
             ["give forward or forward_record, not both"]),
            ("offline", dict(forward=None), ["forward must be callable"]),
        ]
        with uturn.Executor() as ex:
            for kind, options, words in cases:
                with self.subTest(kind=kind, options=sorted(options)):
                    make = (self.online_plan if kind == "online" else
                            lambda: uturn.Plan.create(uturn.problem(
                                12, slots=3)))
                    forward = options.pop("forward", chain.forward)
                    with make() as plan:
                        self.refused(ValueError, lambda: ex.run(
                            plan, chain.state, forward, chain.turn,
                            chain.adjoint, **options), *words)
        self.assertEqual((chain.seen, chain.turned, chain.value()),
                         ([], 0, 0.0))

    def walk(self, c, end_at=None):
        """Every action of cursor c as text, saying the end right after
        the advance to x_end_at."""
        lines = []
        for a in c:
            lines.append(str(a))
            if a.op == uturn.OP_ADVANCE and a.step_end == end_at and \
                    c.steps is None:
                c.end()
        return lines

    def test_a_cursor_ends_where_it_is_told(self):
        with self.online_plan(3) as plan:
            for batch in [1, 2, 256]:
                with self.subTest(batch=batch), plan.cursor(batch) as c:
                    self.assertTrue(c.online)
                    self.assertIsNone(c.steps)
                    lines = self.walk(c, end_at=10)
                    self.assertEqual(c.steps, 10)
                    stats = c.stats()
                    self.assertTrue(stats.online)
                    self.assertEqual((stats.steps, stats.reverse_steps),
                                     (10, 10))
                    self.assertEqual(stats.forward_steps, t(11, 3))
                    self.assertEqual(stats.actions, len(lines))
                    self.assertEqual(lines.count("turn"), 1)
                    self.assertEqual(next(c, "done"), "done")

    def test_max_steps_ends_a_cursor_by_itself(self):
        with self.online_plan(2, max_steps=6) as plan:
            with plan.cursor() as c:
                lines = self.walk(c)
                self.assertEqual(c.steps, 6)
                self.assertIn("advance 5 6", lines)
                self.assertNotIn("advance 6 7", lines)
            # Told at x_6 all the same: the same plan.
            with plan.cursor() as c:
                self.assertEqual(self.walk(c, end_at=6), lines)

    def test_any_batch_reads_the_whole_online_plan(self):
        # uturn_cursor_read() with room for fewer actions than the online
        # generator writes at once returns none after an advance of the
        # first sweep (the library, 0.2); the binding reads 64 or more.
        with self.online_plan(2, max_steps=6) as plan:
            whole = [str(a) for a in plan.actions()]
            self.assertEqual(whole.count("turn"), 1)
            self.assertEqual(whole[-2:], ["reverse 0", "free 0"])
            for batch in [1, 2, 3, 4, 64]:
                with self.subTest(batch=batch):
                    self.assertEqual([str(a) for a in plan.actions(batch)],
                                     whole)
                    with plan.cursor(batch) as c:
                        self.assertEqual(self.walk(c), whole)

    def test_online_plans_with_a_disk_level(self):
        # docs/model.md: online with levels keeps a periodic schedule on
        # the slowest level; the run ends where is_last says, through
        # files, and every adjoint call still sees x_i = i.
        prob = uturn.problem(0, planner="online", max_steps=200, levels=[
            uturn.level("mem", slots=2),
            uturn.level("disk", slots=5, write_cost=2, read_cost=2)])
        with tempfile.TemporaryDirectory() as disk, \
                uturn.Executor(levels=[uturn.file_storage(disk)]) as ex, \
                uturn.Plan.create(prob) as plan:
            self.assertTrue(plan.stats().online)
            self.assertEqual(plan.stats().levels, 2)
            for n in [1, 7, 40, 123]:
                with self.subTest(n=n):
                    chain = Chain()
                    observed, _ = ex.run(plan, chain.state, chain.forward,
                                         chain.turn, chain.adjoint,
                                         is_last=lambda step: step == n)
                    chain.check(self, n)
                    self.assertEqual(observed.steps, n)
                    self.assertGreater(ex.level_reports()[1].stores, 0)
            self.assertEqual(os.listdir(disk), [])

    def test_actions_and_walk_that_would_never_end_are_refused(self):
        # Without max_steps nothing but Cursor.end() ends an online plan,
        # so actions() and walk() would never stop; with max_steps both go
        # to it, where the first sweep ends by itself.
        with self.online_plan(2) as plan:
            self.refused(ValueError, plan.actions, "actions() of an online "
                         "plan without max_steps never ends", "cursor()",
                         "max_steps=M")
            self.refused(ValueError, plan.walk, "walk() of an online plan "
                         "without max_steps never ends")
        with self.online_plan(2, max_steps=6) as plan:
            with plan.cursor() as c:
                walked = [str(a) for a in c]
                self.assertEqual(c.stats().actions, len(walked))
            self.assertEqual([str(a) for a in plan.actions()], walked)
            seen = plan.walk()
            self.assertEqual((seen.steps, seen.actions), (6, len(walked)))
            # t(7, 2) = 3 * 7 - C(5, 3): exact up to (s+1)(s+2)/2 = 6
            self.assertEqual(seen.forward_steps, 3 * 7 - 10)
        plan = self.online_plan(2)
        plan.close()
        self.refused(ValueError, plan.actions, "the plan is closed")
        self.refused(ValueError, plan.walk, "the plan is closed")

    def test_end_is_refused_where_it_is_not_valid(self):
        def status(call, *words):
            err = self.refused(uturn.Error, call, *words)
            return err.status
        with uturn.Plan.create(uturn.problem(10, slots=3)) as plan, \
                plan.cursor() as c:
            # uturn.h: UTURN_E_UNSUPPORTED for a plan that knows its steps.
            self.assertEqual(status(c.end, "end() is for online plans",
                                    "n = 10"), E_UNSUPPORTED)
            self.assertEqual(status(c.stats, "Plan.stats()"), E_UNSUPPORTED)
            self.assertFalse(c.online)
            self.assertEqual(c.steps, 10)
            self.assertEqual(len(list(c)), plan.stats().actions)
        with self.online_plan(3) as plan, plan.cursor() as c:
            self.assertEqual(status(c.end, "no action has been handed out"),
                             E_INVALID_ARG)
            self.assertEqual(str(next(c)), "store 0 0")
            # The advance was read with the store, and waits.
            self.assertEqual(status(c.end, "`store 0 0`", "1 more action",
                                    "waits"), E_INVALID_ARG)
            self.assertEqual(str(next(c)), "advance 0 1")
            c.end()
            self.assertEqual(status(c.end, "known already (n = 1)"),
                             E_INVALID_ARG)
            rest = [str(a) for a in c]
            self.assertEqual(rest[:2], ["turn", "restore 0 0"])
            self.assertEqual(status(c.end), E_INVALID_ARG)
        with self.online_plan(2) as plan, plan.cursor() as c:
            for a in c:  # in the reversal
                if a.op == uturn.OP_ADVANCE and a.step_end == 3:
                    if c.steps is None:
                        c.end()
                    else:
                        self.assertEqual(status(c.end, "known already"),
                                         E_INVALID_ARG)

    def test_set_size_is_refused_where_it_is_not_valid(self):
        with self.online_plan(3) as plan, plan.cursor() as c:
            err = self.refused(uturn.Error, lambda: c.set_size(0, 8),
                               "set_size() is for an online plan with a "
                               "byte budget alone", "uniform slots")
            # uturn.h: UTURN_E_UNSUPPORTED (not such a plan).
            self.assertEqual(err.status, E_UNSUPPORTED)
        with uturn.Plan.create(uturn.problem(4, slots=2)) as plan, \
                plan.cursor() as c:
            err = self.refused(uturn.Error, lambda: c.set_size(0, 8),
                               "knows its steps")
            self.assertEqual(err.status, E_UNSUPPORTED)
        with uturn.Plan.create(uturn.problem(
                0, planner="online", budget_bytes=100)) as plan:
            with plan.cursor() as c:
                self.refused(ValueError, lambda: c.set_size(0, 0), "nbytes",
                             "at least 1")
                self.refused(ValueError, lambda: c.set_size(-1, 8), "step",
                             "negative")
                self.refused(OverflowError, lambda: c.set_size(0, 2**64),
                             "nbytes")
                self.refused(OverflowError, lambda: c.set_size(2**64, 8),
                             "step")
                self.refused(ValueError, lambda: c.set_size(0, 8.0),
                             "nbytes", "integer")
                self.refused(ValueError, lambda: c.set_size("0", 8),
                             "step", "integer")
                err = self.refused(uturn.Error, lambda: c.set_size(0, 101),
                                   "x_0 of 101 bytes does not fit the "
                                   "budget of 100 bytes")
                self.assertEqual(err.status, E_INFEASIBLE)
            with plan.cursor() as c:
                c.set_size(0, 8)
                self.assertEqual([str(next(c)), str(next(c))],
                                 ["store 0 0", "advance 0 1"])
                err = self.refused(uturn.Error, lambda: c.set_size(2, 8),
                                   "step 2 is not the state just reached")
                self.assertEqual(err.status, E_INVALID_ARG)
                # Refused, and nothing lost: x_1's size, and on.
                c.set_size(1, 8)
                self.assertEqual(str(next(c)), "store 1 1")
            with plan.cursor() as c:  # a size forgotten
                c.set_size(0, 8)
                next(c), next(c)
                self.refused(ValueError, lambda: next(c),
                             "stopped before its end was said",
                             "set_size(k, nbytes) right after each advance")

    def test_a_cursor_closed_with_its_plan(self):
        plan = self.online_plan(2)
        c = plan.cursor()
        next(c)
        plan.close()
        for call in [lambda: next(c), c.end, c.stats,
                     lambda: c.set_size(0, 8), lambda: c.steps]:
            self.refused(ValueError, call, "the cursor is closed")
        c.close()  # twice is fine
        self.refused(ValueError, lambda: plan.cursor(), "the plan is closed")
        with self.online_plan(2) as plan:
            self.refused(ValueError, lambda: plan.cursor(0), "batch",
                         "at least 1")
            with plan.cursor() as c:
                pass
            self.refused(ValueError, lambda: next(c), "the cursor is closed")

    def test_bytes_mode_needs_state_size_as_the_library_says(self):
        chain = Chain()
        with uturn.Executor() as ex, uturn.Plan.create(uturn.problem(
                0, planner="online", budget_bytes=64)) as plan:
            err = self.refused(uturn.Error, lambda: ex.run(
                plan, chain.state, chain.forward, chain.turn, chain.adjoint,
                is_last=lambda step: step == 3),
                "needs the model's state_size")
            self.assertEqual(err.status, E_INVALID_ARG)


class Budgets(Case):
    def test_capacity_and_budget_are_inverse(self):
        with uturn.Executor() as ex:
            for state_bytes in [8, 100, 4096, 12345]:
                for slots in [1, 3, 10, 1000]:
                    with self.subTest(state_bytes=state_bytes, slots=slots):
                        # <uturn.h>: the least budget that holds them.
                        budget = ex.budget(state_bytes, slots)
                        self.assertGreaterEqual(
                            ex.capacity(state_bytes, budget), slots)
                        self.assertLess(
                            ex.capacity(state_bytes, budget - 1), slots)

    def test_slot_cost(self):
        with uturn.Executor() as ex:
            cost = ex.slot_cost(100)
        page = os.sysconf("SC_PAGE_SIZE")
        # <uturn.h>: the state rounded up to an alignment of 16; pages.
        self.assertEqual((cost.state_bytes, cost.stride, cost.alignment),
                         (100, 112, 16))
        self.assertEqual((cost.granule, cost.backend), (page, b"pages"))
        with uturn.Executor() as ex:
            self.assertEqual(ex.slot_bytes(100), 112)

    def test_level_slots_are_what_the_plan_gets(self):
        # <uturn.h>: memory's bytes at the region's real cost less the I/O
        # buffers (2 slots of 16 bytes by default); a further level's bytes
        # in whole strides of slot_bytes (16 for 8).
        with uturn.Executor(levels=[uturn.file_storage()]) as ex:
            memory = ex.budget(8, 10)
            prob = uturn.problem(100, planner="hrevolve", slot_bytes=8,
                                 levels=[uturn.level("mem", bytes=memory),
                                         uturn.level("disk", bytes=1000,
                                                     write_cost=5,
                                                     read_cost=5)])
            self.assertEqual(ex.level_slots(prob, 0), 8)
            self.assertEqual(ex.level_slots(prob, 1), 1000 // 16)
            with ex.plan(prob) as plan:
                self.assertEqual([lv.slots for lv in plan.levels()],
                                 [8, 1000 // 16])
            self.refused(uturn.Error, lambda: ex.level_slots(prob, 2),
                         "level")

    def test_held_bytes_and_trim(self):
        with uturn.Executor() as ex:
            self.assertEqual(ex.held_bytes(), 0)
            observed, report = self.run_chain(Chain(), ex=ex)
            self.assertEqual(ex.held_bytes(), report.held_after_bytes)
            self.assertGreater(ex.held_bytes(), 0)
            ex.trim()
            self.assertEqual(ex.held_bytes(), 0)

    def test_a_budget_below_the_plan_names_the_least_that_fits(self):
        with uturn.Executor() as ex:
            err = self.refused(uturn.Error, lambda: self.run_chain(
                Chain(), ex=ex, budget_bytes=20), "budget")
            self.assertEqual(err.status, E_INFEASIBLE)
            self.assertEqual(err.report.actions_done, 0)

    def test_helper_arguments(self):
        with uturn.Executor() as ex:
            self.refused(ValueError, lambda: ex.capacity(0, 100),
                         "state_bytes", "at least 1")
            self.refused(OverflowError, lambda: ex.budget(8, 2**64),
                         "slots")
            self.refused(ValueError, lambda: ex.level_report(-1), "level")
            self.refused(uturn.Error, lambda: ex.level_report(1),
                         "levels 0..0")


class Installed(Case):
    def test_library_path_is_the_one_loaded(self):
        self.assertEqual(uturn.lib._name, uturn.library_path())


class Sweeps(Case):
    """Several sweeps over one forward: every sweep sees every state (the
    chain's x_i = i), each further one when asked, with the plan's
    counts at the end."""

    def test_every_sweep_at_once(self):
        chain = Chain()
        prob = uturn.problem(40, planner="revolve", slots=4, sweeps=3)
        with uturn.Executor() as ex, uturn.Plan.create(prob) as plan:
            seen, report = ex.run(plan, chain.state, chain.forward,
                                  chain.turn, chain.adjoint)
            self.assertEqual(chain.turned, 3)
            self.assertEqual(chain.seen, 3 * [(i, float(i))
                                              for i in range(39, -1, -1)])
            self.assertEqual(seen.forward_steps, plan.stats().forward_steps)
            self.assertEqual(report.sweeps_done, 3)

    def test_each_further_sweep_on_request(self):
        chain = Chain()
        prob = uturn.problem(40, planner="revolve", slots=4, sweeps=3)
        with uturn.Executor() as ex, uturn.Plan.create(prob) as plan:
            _, report = ex.run(plan, chain.state, chain.forward, chain.turn,
                               chain.adjoint, sweeps_on_request=True)
            self.assertTrue(report.trajectory_held)
            chain.check(self, 40)
            self.refused(ValueError, lambda: ex.run(
                plan, chain.state, chain.forward, chain.turn,
                chain.adjoint), "sweep() or release()")
            other = []
            seen, report = ex.sweep(adjoint=lambda step: other.append(step))
            self.assertEqual(other, list(range(39, -1, -1)))
            self.assertEqual(report.sweeps_done, 2)
            chain.seen = []
            seen, report = ex.sweep(adjoint=chain.adjoint)
            chain.check(self, 40)
            self.assertFalse(report.trajectory_held)
            self.assertEqual(seen.forward_steps, plan.stats().forward_steps)
            self.assertEqual(chain.turned, 3)
            self.refused(ValueError, ex.sweep, "no trajectory is held")

    def test_the_plan_stays_in_use_while_held(self):
        chain = Chain()
        prob = uturn.problem(20, planner="revolve", slots=3, sweeps=2)
        with uturn.Executor() as ex:
            plan = uturn.Plan.create(prob)
            ex.run(plan, chain.state, chain.forward, chain.turn,
                   chain.adjoint, sweeps_on_request=True)
            self.refused(ValueError, plan.close, "held for further sweeps")
            ex.sweep()  # the last: the plan is free again
            plan.close()

    def test_a_refused_sweep_changes_nothing(self):
        chain = Chain()
        prob = uturn.problem(20, planner="revolve", slots=3, sweeps=3)
        with uturn.Executor() as ex, uturn.Plan.create(prob) as plan:
            ex.run(plan, chain.state, chain.forward, chain.turn,
                   chain.adjoint, sweeps_on_request=True)
            other = []
            self.refused(ValueError, lambda: ex.sweep(
                turn=lambda: other.append(1), adjoint=5), "adjoint")
            ex.sweep()
            self.assertEqual(other, [])
            self.assertEqual(chain.turned, 2)
            ex.release()

    def test_sweeps_on_three_levels_in_files(self):
        chain = Chain()
        levels = [uturn.level("mem", slots=2),
                  uturn.level("ssd", slots=3, write_cost=1, read_cost=1),
                  uturn.level("disk", slots=6, write_cost=4, read_cost=4)]
        prob = uturn.problem(50, planner="revolve", levels=levels, sweeps=3)
        dirs = [tempfile.mkdtemp(prefix="uturn-py-sw"),
                tempfile.mkdtemp(prefix="uturn-py-sw")]
        try:
            with uturn.Executor(levels=[uturn.file_storage(d)
                                        for d in dirs]) as ex, \
                    uturn.Plan.create(prob) as plan:
                self.assertGreaterEqual(plan.level_stats(2).stores,
                                        plan.stats().persistent)
                ex.run(plan, chain.state, chain.forward, chain.turn,
                       chain.adjoint, sweeps_on_request=True)
                chain.check(self, 50)
                for _ in range(2):
                    chain.seen = []
                    seen, report = ex.sweep()
                    chain.check(self, 50)
                self.assertFalse(report.trajectory_held)
                self.assertEqual(seen.forward_steps,
                                 plan.stats().forward_steps)
                self.assertEqual(seen.cost, plan.stats().cost)
            for d in dirs:
                self.assertEqual(os.listdir(d), [])
        finally:
            for d in dirs:
                shutil.rmtree(d, ignore_errors=True)

    def test_an_open_number_of_sweeps_until_released(self):
        chain = Chain()
        prob = uturn.problem(30, planner="revolve", slots=4,
                             sweeps=uturn.SWEEPS_UNBOUNDED)
        with uturn.Executor() as ex, uturn.Plan.create(prob) as plan:
            self.assertEqual(plan.stats().sweeps, uturn.SWEEPS_UNBOUNDED)
            ex.run(plan, chain.state, chain.forward, chain.turn,
                   chain.adjoint, sweeps_on_request=True)
            for j in range(2, 7):
                chain.seen = []
                _, report = ex.sweep()
                chain.check(self, 30)
                self.assertTrue(report.trajectory_held)
                self.assertEqual(report.sweep_forward_steps,
                                 plan.stats().sweep_forward_steps)
            ex.release()
            self.assertEqual(chain.turned, 6)

    def test_online_sweeps_on_request_once_is_last_ends_the_first(self):
        chain = Chain()
        prob = uturn.problem(0, planner="online", slots=5, sweeps=3)
        with uturn.Executor() as ex, uturn.Plan.create(prob) as plan:
            _, report = ex.run(plan, chain.state, chain.forward, chain.turn,
                               chain.adjoint, is_last=lambda step: step == 33,
                               sweeps_on_request=True)
            self.assertTrue(report.trajectory_held)
            self.assertEqual(report.steps, 33)
            chain.check(self, 33)
            for j in (2, 3):
                chain.seen = []
                seen, report = ex.sweep()
                chain.check(self, 33)
                self.assertEqual(report.sweeps_done, j)
            self.assertFalse(report.trajectory_held)
            self.assertEqual(seen.reverse_steps, 3 * 33)
            self.assertEqual(chain.turned, 3)
            # one more: the message says the last sweep may be why
            self.refused(ValueError, ex.sweep, "no trajectory is held",
                         "its last sweep is done")

    def test_sweep_from_a_callback_is_refused_by_name(self):
        chain = Chain()
        prob = uturn.problem(20, planner="revolve", slots=3, sweeps=3)
        with uturn.Executor() as ex, uturn.Plan.create(prob) as plan:
            ex.run(plan, chain.state, chain.forward, chain.turn,
                   chain.adjoint, sweeps_on_request=True)
            inner = []

            def turn():
                try:
                    ex.sweep()
                except ValueError as e:
                    inner.append(str(e))
                chain.turn()
            ex.sweep(turn=turn)
            self.assertEqual(len(inner), 1)
            self.assertIn("sweep() called from a callback", inner[0])
            ex.release()

    def test_release_drops_the_trajectory(self):
        chain = Chain()
        prob = uturn.problem(20, planner="revolve", slots=3, sweeps=4)
        with uturn.Executor() as ex, uturn.Plan.create(prob) as plan:
            ex.run(plan, chain.state, chain.forward, chain.turn,
                   chain.adjoint, sweeps_on_request=True)
            ex.release()
            self.refused(ValueError, ex.sweep, "no trajectory is held")
            chain.set(0.0)
            chain.seen = []
            ex.run(plan, chain.state, chain.forward, chain.turn,
                   chain.adjoint)  # all four sweeps in one call
            self.assertEqual(len(chain.seen), 4 * 20)


if __name__ == "__main__":
    unittest.main()
