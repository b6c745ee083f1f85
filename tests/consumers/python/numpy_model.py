"""A numpy state reversed by uturn: x_{i+1} = sin(x_i) on a vector, updated
in place (the executor copies that very array in and out of its slots).

J = sum(x_n^2) / 2. The gradient from the executor (revolve, 4 slots for
60 steps: t(61, 4) = 188 forward steps) must match central differences
along a direction, and the package and the library it loads must be the
installed ones.
"""
import os
import sys

import uturn

try:
    import numpy as np
except ImportError:
    print("skipped: numpy is not installed (python3-numpy)")
    sys.exit(0)

STEPS = 60


def objective(x0):
    x = x0.copy()
    for _ in range(STEPS):
        x = np.sin(x)
    return 0.5 * float(np.dot(x, x))


def main():
    x0 = np.linspace(0.1, 1.5, 32)
    x, xbar = x0.copy(), np.zeros_like(x0)

    def forward(step):
        np.sin(x, out=x)

    def turn():
        xbar[:] = x

    def adjoint(step):
        xbar[:] = np.cos(x) * xbar

    with uturn.Executor() as ex:
        prob = uturn.problem(STEPS, planner="revolve", slots=4,
                             slot_bytes=x.nbytes)
        with ex.plan(prob) as plan:
            observed, _ = ex.run(plan, x, forward, turn, adjoint)
    d = np.cos(np.arange(x0.size))
    eps = 1e-6
    fd = (objective(x0 + eps * d) - objective(x0 - eps * d)) / (2 * eps)
    err = abs(fd - float(np.dot(xbar, d)))
    prefix = os.path.realpath(os.environ["PREFIX"])
    installed = all(os.path.realpath(path).startswith(prefix)
                    for path in (uturn.__file__, uturn.library_path()))
    print("numpy: dJ/dx0 . d = %.12f, central differences %.12f (error "
          "%.1e); %d forward steps" % (np.dot(xbar, d), fd, err,
                                      observed.forward_steps))
    ok = err < 1e-7 and installed and observed.forward_steps == 188
    print("ok" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
