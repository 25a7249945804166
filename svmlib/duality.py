"""Lagrangian duality tools for the SVM dual.

The dual problem of the soft-margin SVM (the book's *Lagrange multipliers and
duality* and *The soft margin* chapters; Cortes & Vapnik 1995):

    maximise   W(alpha) = sum_i alpha_i - 1/2 sum_ij alpha_i alpha_j y_i y_j K_ij
    subject to 0 <= alpha_i <= C  and  sum_i alpha_i y_i = 0,

with labels y_i in {-1, +1} and decision function
f(x) = sum_i alpha_i y_i K(x_i, x) + b. ``C = np.inf`` is the hard margin.

Throughout svmlib the *error cache* is E_k = sum_i alpha_i y_i K_ik - y_k,
that is f(x_k) - b - y_k: the error of the decision function without the
intercept. Leaving b out makes E a function of alpha alone, and every
quantity the solvers need follows from it:

* the gradient of W is 1 - Q alpha = -y * E (with Q_ij = y_i y_j K_ij);
* W(alpha) = 1/2 sum_i alpha_i (1 - y_i E_i);
* the KKT conditions hold to tolerance ``tol`` exactly when
  max(E_t, t in I_low) - min(E_t, t in I_up) <= tol (Keerthi et al. 2001;
  LIBSVM's m(alpha) - M(alpha)).
"""

import numpy as np

__all__ = [
    "dual_objective",
    "dual_objective_from_errors",
    "error_cache",
    "index_sets",
    "max_violation",
    "intercept_from_errors",
    "recover_w",
]


def error_cache(alpha, K, y):
    """Errors E_k = sum_i alpha_i y_i K_ik - y_k for every training point.

    Parameters
    ----------
    alpha : ndarray of shape (n,)
        Lagrange multipliers.
    K : ndarray of shape (n, n)
        Gram matrix.
    y : ndarray of shape (n,)
        Labels in {-1, +1}.

    Returns
    -------
    E : ndarray of shape (n,), float64
        f(x_k) - b - y_k.
    """
    return K @ (alpha * y) - y


def dual_objective(alpha, K, y):
    """Dual objective W(alpha) = sum(alpha) - 1/2 alpha^T Q alpha, Q_ij = y_i y_j K_ij.

    Parameters
    ----------
    alpha : ndarray of shape (n,)
        Lagrange multipliers.
    K : ndarray of shape (n, n)
        Gram matrix.
    y : ndarray of shape (n,)
        Labels in {-1, +1}.

    Returns
    -------
    W : float
    """
    return dual_objective_from_errors(alpha, y, error_cache(alpha, K, y))


def dual_objective_from_errors(alpha, y, E):
    """W(alpha) in O(n) from the error cache: 1/2 sum_i alpha_i (1 - y_i E_i).

    Since (Q alpha)_i = y_i E_i + 1, alpha^T Q alpha = sum_i alpha_i (y_i E_i + 1).

    Parameters
    ----------
    alpha, y, E : ndarray of shape (n,)
        Multipliers, labels in {-1, +1}, and errors (see :func:`error_cache`).

    Returns
    -------
    W : float
    """
    return 0.5 * float(np.dot(alpha, 1.0 - y * E))


def index_sets(alpha, y, C):
    """The index sets I_up and I_low of Keerthi et al. (2001).

    I_up holds the points whose y_t alpha_t can still grow,
    I_low those whose y_t alpha_t can still shrink.

    Returns
    -------
    up, low : ndarray of bool, shape (n,)
    """
    below_C = alpha < C
    above_0 = alpha > 0
    positive = y > 0
    up = np.where(positive, below_C, above_0)
    low = np.where(positive, above_0, below_C)
    return up, low


def max_violation(alpha, y, C, E):
    """Maximal violation of the KKT conditions (LIBSVM's m(alpha) - M(alpha)).

    Parameters
    ----------
    alpha : ndarray of shape (n,)
        Lagrange multipliers, feasible.
    y : ndarray of shape (n,)
        Labels in {-1, +1}.
    C : float
        Box constraint (``np.inf`` for the hard margin).
    E : ndarray of shape (n,)
        The error cache (see :func:`error_cache`).

    Returns
    -------
    violation : float
        max(E_t, t in I_low) - min(E_t, t in I_up), or 0.0 if either set is
        empty. alpha is optimal exactly when this is <= 0; the solvers stop
        when it is <= tol.

    Notes
    -----
    Source: Keerthi, Shevade, Bhattacharyya & Murthy (2001); Fan, Chen & Lin
    (2005), section 2; LIBSVM's ``Solver::select_working_set``.
    """
    up, low = index_sets(alpha, y, C)
    if not up.any() or not low.any():
        return 0.0
    return float(E[low].max() - E[up].min())


def intercept_from_errors(alpha, y, C, E):
    """The intercept b, as LIBSVM's ``calculate_rho`` computes it.

    With free support vectors (0 < alpha_i < C) the KKT conditions say
    y_i f(x_i) = 1 for each of them, so b = -E_i; their mean is used because
    it averages out rounding. Without free support vectors, b is the midpoint
    of the interval that the bound multipliers allow.

    Parameters
    ----------
    alpha, y : ndarray of shape (n,)
        Multipliers and labels in {-1, +1}.
    C : float
        Box constraint.
    E : ndarray of shape (n,)
        The error cache.

    Returns
    -------
    b : float
    """
    free = (alpha > 0) & (alpha < C)
    if free.any():
        return float(-E[free].mean())
    # Every point is at a bound. The KKT conditions of the points in I_up
    # give b >= -E_t, those of the points in I_low give b <= -E_t.
    up, low = index_sets(alpha, y, C)
    lower = -E[up].min() if up.any() else None
    upper = -E[low].max() if low.any() else None
    if lower is None and upper is None:
        return 0.0
    if lower is None or upper is None:
        return float(upper if lower is None else lower)
    return float(0.5 * (lower + upper))


def recover_w(alpha, X, y):
    """Weight vector w = sum_i alpha_i y_i x_i of a linear SVM.

    Parameters
    ----------
    alpha : ndarray of shape (n,)
        Multipliers.
    X : ndarray of shape (n, d)
        Training points.
    y : ndarray of shape (n,)
        Labels in {-1, +1}.

    Returns
    -------
    w : ndarray of shape (d,)
    """
    return (alpha * y) @ X
