"""Simplified SMO: the version of the CS229 handout.

The simplified algorithm keeps SMO's analytic two-variable step but replaces
Platt's heuristics with the simplest choice that can work: sweep over every
alpha_i, and when alpha_i violates the KKT conditions (to within ``tol``),
pair it with an alpha_j drawn at random. It stops after ``max_passes``
consecutive sweeps that change nothing.

Because j is random, the sweep can miss the pairs that would still improve
the dual, and the KKT test uses the running threshold b, set by the last
step alone: the algorithm is not guaranteed to reach the optimum. The
book's *Simplified SMO* chapter measures how far from it it stops, and
which of the two causes it is.

Source: A. Ng, CS229 handout "The simplified SMO algorithm", equations
(10)-(19) and its pseudo-code; the first source document of the book.
"""

import numpy as np
from sklearn.utils import check_random_state

from .._validation import (
    check_C,
    check_int,
    check_labels,
    check_max_iter,
    check_tol,
)
from ..duality import dual_objective_from_errors, max_violation
from ..gram import as_gram, column_blas_threads
from ._common import History, SolverResult, warn_not_converged
from .sequential_minimal import step_bounds

__all__ = ["simplified_smo"]

#: The handout's threshold: a change of alpha_j smaller than this is no change.
MIN_CHANGE = 1e-5


def _snap_to_bounds(alpha, C, scale):
    """Clip alpha to [0, C], snapping values within rounding onto a bound.

    The rule that ``svmlib.solvers.smo`` used before its exact placement at
    the ends of the segment; kept here so that the handout's algorithm, and
    the chapter's numbers, stay as they were.
    """
    eps = 1e-12 * max(scale, 1.0)
    if alpha <= eps:
        return 0.0
    if alpha >= C - eps:
        return C
    return alpha


def _kkt_violated(alpha_i, y_i, E_i, C, tol):
    """Tell whether alpha_i fails the handout's KKT test on y_i E_i.

    Violated when (y_i E_i < -tol and alpha_i < C) or
    (y_i E_i > tol and alpha_i > 0).
    """
    r_i = y_i * E_i  # y_i f(x_i) - 1
    return (r_i < -tol and alpha_i < C) or (r_i > tol and alpha_i > 0)


def _threshold(
    b,
    E_i,
    E_j,
    delta_i,
    delta_j,
    y_i,
    y_j,
    K_ii,
    K_jj,
    K_ij,
    alpha_i,
    alpha_j,
    C,
):
    """Return the new b by the handout's rules (17)-(19)."""
    b1 = b - E_i - y_i * delta_i * K_ii - y_j * delta_j * K_ij
    b2 = b - E_j - y_j * delta_j * K_jj - y_i * delta_i * K_ij
    if 0 < alpha_i < C:
        return b1
    if 0 < alpha_j < C:
        return b2
    return 0.5 * (b1 + b2)


def simplified_smo(
    K,
    y,
    C,
    *,
    tol=1e-3,
    max_passes=10,
    max_iter=None,
    random_state=None,
    record_history=False,
):
    """Solve the SVM dual with the simplified SMO of the CS229 handout.

    Parameters
    ----------
    K : ndarray of shape (n, n), or a Gram object from :mod:`svmlib.gram`
        Training Gram matrix, symmetric.
    y : array-like of shape (n,)
        Labels in {-1, +1}.
    C : float
        Box constraint, > 0 (``np.inf`` for the hard margin).
    tol : float, default=1e-3
        KKT tolerance of the violation test on y_i E_i.
    max_passes : int, default=10
        Stop after this many consecutive sweeps without a change.
    max_iter : int, optional
        Maximum number of two-variable updates; default max(10^7, 100 n).
    random_state : int, RandomState instance or None, default=None
        Seeds the random choice of j.
    record_history : bool, default=False
        Record the dual objective and the maximal KKT violation after every
        update.

    Returns
    -------
    SolverResult
        ``converged`` is True when the handout's own criterion was met
        (``max_passes`` quiet sweeps); ``kkt_violation`` tells how far from
        optimal that is: it can exceed ``tol``. ``b`` is the handout's
        running threshold.

    Raises
    ------
    ValueError
        For invalid K, y, C, tol, max_passes or max_iter (as
        :func:`svmlib.solvers.smo`; C must be one number here).

    Warns
    -----
    ConvergenceWarning
        When ``max_iter`` updates were taken before the criterion was met.

    Notes
    -----
    The handout defines eta = 2 K_ij - K_ii - K_jj and skips a pair when
    eta >= 0; this code uses the book's eta = K_ii + K_jj - 2 K_ij (the
    curvature, as in :func:`svmlib.solvers.two_variable_step`) and skips when
    eta <= 0: the same test. The errors are kept in a cache updated after
    each change (O(n)) instead of recomputed from the kernel expansion (also
    O(n)); the cache holds them without the intercept,
    E_k = f(x_k) - b - y_k (the book's notation), and the handout's
    f(x_k) - y_k is E_k + b, used wherever the handout uses it.

    References
    ----------
    A. Ng, CS229 lecture notes, "The simplified SMO algorithm", equations
    (10)-(19) and its pseudo-code; Platt (1998), "Sequential minimal
    optimization", for the two-variable step. Book chapter: *Simplified SMO*
    (part III).

    Examples
    --------
    Two points at +-1 on the first axis: alpha = (1/2, 1/2), b = 0:

    >>> import numpy as np
    >>> from svmlib.solvers import simplified_smo
    >>> X = np.array([[1.0, 0.0], [-1.0, 0.0]])
    >>> result = simplified_smo(X @ X.T, [1.0, -1.0], C=10.0, random_state=0)
    >>> result.converged, result.alpha, result.b, result.dual_objective
    (True, array([0.5, 0.5]), 0.0, 0.5)
    """
    gram = as_gram(K)
    y = check_labels(y, gram.n)
    C = check_C(C)
    tol = check_tol(tol)
    max_iter = check_max_iter(max_iter, gram.n)
    max_passes = check_int(max_passes, "max_passes")
    rng = check_random_state(random_state)

    n, diagonal = gram.n, gram.diagonal()
    alpha, b = np.zeros(n), 0.0
    E = -y.copy()  # f(x) - b - y with alpha = 0; the handout's E_k is E[k] + b
    history = History(
        "dual_objective", "kkt_violation", enabled=record_history
    )
    if history:
        history.record(
            dual_objective=0.0, kkt_violation=max_violation(alpha, y, C, E)
        )
    n_iter, passes = 0, 0
    with column_blas_threads():
        while passes < max_passes and n_iter < max_iter:
            changed = 0
            for i in range(n):
                if not _kkt_violated(alpha[i], y[i], E[i] + b, C, tol):
                    continue
                j = int(rng.randint(n - 1))
                j += j >= i  # a random j != i
                L, H = step_bounds(alpha[i], alpha[j], y[i], y[j], C)
                if L == H:
                    continue
                K_i = gram.column(i)
                eta = diagonal[i] + diagonal[j] - 2.0 * K_i[j]
                if eta <= 0:
                    continue
                alpha_j = _snap_to_bounds(
                    min(max(alpha[j] + y[j] * (E[i] - E[j]) / eta, L), H),
                    C,
                    alpha[i] + alpha[j],
                )
                if abs(alpha_j - alpha[j]) < MIN_CHANGE:
                    continue
                alpha_i = _snap_to_bounds(
                    alpha[i] + y[i] * y[j] * (alpha[j] - alpha_j),
                    C,
                    alpha[i] + alpha[j],
                )
                delta_i, delta_j = alpha_i - alpha[i], alpha_j - alpha[j]
                b = _threshold(
                    b, E[i] + b, E[j] + b, delta_i, delta_j, y[i], y[j],
                    diagonal[i], diagonal[j], K_i[j], alpha_i, alpha_j, C,
                )  # fmt: skip
                E += np.float64(delta_i * y[i]) * K_i + np.float64(
                    delta_j * y[j]
                ) * gram.column(j)
                alpha[i], alpha[j] = alpha_i, alpha_j
                n_iter += 1
                changed += 1
                if history:
                    history.record(
                        dual_objective=dual_objective_from_errors(alpha, y, E),
                        kkt_violation=max_violation(alpha, y, C, E),
                    )
                if n_iter >= max_iter:
                    break
            passes = passes + 1 if changed == 0 else 0

    violation = max_violation(alpha, y, C, E)
    converged = passes >= max_passes
    if not converged:
        warn_not_converged(
            "Simplified SMO", n_iter, max_iter, violation, tol, C
        )
    return SolverResult(
        alpha=alpha,
        b=float(b),
        n_iter=n_iter,
        converged=converged,
        dual_objective=dual_objective_from_errors(alpha, y, E),
        kkt_violation=violation,
        history=history.arrays(),
    )
