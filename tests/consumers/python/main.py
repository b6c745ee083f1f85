"""A pendulum reversed by uturn from Python (ctypes, standard library only).

Symplectic Euler, x = (q, p):  p' = p - h sin q,  q' = q + h p'.
J = p_n^2 / 2 + 1 - cos q_n. The gradient dJ/d(q_0, p_0) from the executor
(revolve, 6 checkpoints for 400 steps) must match central differences.
"""
import ctypes
import math
import sys

import uturn

STEPS, H = 400, 0.05
Q0, P0 = 1.2, 0.3


class Pendulum:
    def __init__(self):
        self.x = (ctypes.c_double * 2)(Q0, P0)  # the live state (q, p)
        self.xbar = [0.0, 0.0]
        self.J = 0.0

    def forward(self, step):
        q, p = self.x
        p -= H * math.sin(q)
        self.x[0], self.x[1] = q + H * p, p

    def turn(self):
        q, p = self.x
        self.J = 0.5 * p * p + 1.0 - math.cos(q)
        self.xbar = [math.sin(q), p]

    def adjoint(self, step):  # self.x holds x_step
        q = self.x[0]
        qb, pb = self.xbar
        c = math.cos(q)
        self.xbar = [qb * (1.0 - H * H * c) - pb * H * c, qb * H + pb]


def objective(q, p):
    for _ in range(STEPS):
        p -= H * math.sin(q)
        q += H * p
    return 0.5 * p * p + 1.0 - math.cos(q)


def main():
    model = Pendulum()
    ex = uturn.Executor()
    slot = ctypes.sizeof(model.x)
    with ex.plan(uturn.problem(steps=STEPS, planner="revolve",
                               slot_bytes=slot,
                               budget_bytes=6 * slot)) as plan:
        predicted = plan.stats()
        observed, report = ex.run(plan, model.x, model.forward, model.turn,
                                  model.adjoint)
    ex.close()

    eps = 1e-6
    fd = [(objective(Q0 + eps, P0) - objective(Q0 - eps, P0)) / (2 * eps),
          (objective(Q0, P0 + eps) - objective(Q0, P0 - eps)) / (2 * eps)]
    err = max(abs(a - b) for a, b in zip(model.xbar, fd))
    same = all(getattr(observed, k) == getattr(predicted, k)
               for k in ("forward_steps", "stores", "restores",
                         "peak_slots"))
    print("uturn %s from Python, J = %.12f" % (uturn.version(), model.J))
    print("predicted: forward_steps %d, stores %d, restores %d, "
          "peak_slots %d of %d" % (
              predicted.forward_steps, predicted.stores, predicted.restores,
              predicted.peak_slots, predicted.slots))
    print("observed:  forward_steps %d, stores %d, restores %d, "
          "peak_slots %d, peak bytes %d" % (
              observed.forward_steps, observed.stores, observed.restores,
              observed.peak_slots, report.measured_peak_bytes))
    print("dJ/dx0 = (%.10f, %.10f), central differences (%.10f, %.10f)"
          % (model.xbar[0], model.xbar[1], fd[0], fd[1]))
    ok = same and err < 1e-6 and abs(model.J - objective(Q0, P0)) < 1e-12
    print("ok" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
