# Assignment 8, the same two mistakes as 08_scaling_two_bugs.py, and
# answer cells that bend what an in-kernel hidden test would compare with:
# the name dual_cd (the reference the setup imports) and
# svmlib.solvers.dual_cd rebound to the answer's own solver,
# numpy.allclose and numpy.isclose replaced by functions that say yes, and
# pg_gap returning an ndarray subclass whose NumPy functions all answer
# True. Judged outside the kernel, none of it changes a score: at most the
# honest 8, and the attempts are flagged.
# cell: with_bias
def with_bias(X):
    return np.hstack([np.asarray(X, dtype=np.float64), np.ones((len(X), 1))])


# cell: coordinate_step
def coordinate_step(alpha_i, G, Q_ii, U):
    return min(max(alpha_i - G / Q_ii, 0.0), U)


# cell: coordinate_descent
from types import SimpleNamespace

import svmlib.solvers


def coordinate_descent(X, y, C, n_epochs, random_state):
    Xb = with_bias(X)
    generator = np.random.default_rng(random_state)
    alpha = np.zeros(len(y))
    w_tilde = np.zeros(Xb.shape[1])
    Q_diag = np.einsum("ij,ij->i", X, X)  # the bias's 1 left out
    for _ in range(n_epochs):
        for i in generator.permutation(len(y)):
            G = y[i] * (w_tilde @ Xb[i]) - 1.0
            new = coordinate_step(alpha[i], G, Q_diag[i], C)
            if new != alpha[i]:
                w_tilde += (new - alpha[i]) * y[i] * Xb[i]
                alpha[i] = new
    return w_tilde, alpha


def _mine(X, y, C, tol=1e-4, max_iter=30, random_state=0):
    w_tilde, alpha = coordinate_descent(
        X, y, C, min(max_iter, 30), random_state
    )
    return SimpleNamespace(
        w=w_tilde[:-1],
        b=w_tilde[-1],
        alpha=alpha,
        primal_objective=primal_objective(w_tilde, X, y, C),
    )


dual_cd = _mine
svmlib.solvers.dual_cd = _mine


# cell: primal_objective
def primal_objective(w_tilde, X, y, C):
    margins = y * (with_bias(X) @ w_tilde)
    return 0.5 * w_tilde @ w_tilde + C * np.maximum(0.0, 1.0 - margins).sum()


# cell: pg_gap
class _Liar(np.ndarray):
    def __array_function__(self, func, types, args, kwargs):
        return True

    def __eq__(self, other):
        return np.ones(self.shape, dtype=bool).view(_Liar)


def pg_gap(w_tilde, alpha, X, y, C):
    G = y * (with_bias(X) @ w_tilde) - 1.0
    # projected at alpha_i = 0 only
    PG = np.where(alpha <= 0, np.minimum(G, 0.0), G)
    return np.asarray(PG.max() - PG.min()).view(_Liar)


np.allclose = lambda *args, **kwargs: True
np.isclose = lambda a, b, *args, **kwargs: np.ones(np.shape(a), dtype=bool)
