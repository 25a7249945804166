"""Lagrangian duality tools for the SVM dual.

The dual problem of the soft-margin SVM (the book's *Lagrange multipliers and
duality* and *The soft margin* chapters; Cortes & Vapnik 1995)::

    maximise   W(alpha) = sum_i alpha_i
                          - 1/2 sum_ij alpha_i alpha_j y_i y_j K_ij
    subject to 0 <= alpha_i <= C  and  sum_i alpha_i y_i = 0,

with labels y_i in {-1, +1} and decision function
f(x) = sum_i alpha_i y_i K(x_i, x) + b. ``C = np.inf`` is the hard margin.
Wherever a function below takes C, it also takes one bound C_i per point,
an array of shape (n,) (weighted problems: C_i = C * weight_i, LIBSVM's
``get_C(i)``); the box is then 0 <= alpha_i <= C_i.

Throughout svmlib the *error cache* is E_k = sum_i alpha_i y_i K_ik - y_k,
that is f(x_k) - b - y_k: the error of the decision function without the
intercept. Leaving b out makes E a function of alpha alone, and every
quantity the solvers need follows from it:

* the gradient of W is 1 - Q alpha = -y * E (with Q_ij = y_i y_j K_ij);
* W(alpha) = 1/2 sum_i alpha_i (1 - y_i E_i);
* the KKT conditions hold to tolerance ``tol`` exactly when
  max(E_t, t in I_low) - min(E_t, t in I_up) <= tol (Keerthi et al. 2001;
  LIBSVM's m(alpha) - M(alpha)).

Functions (book chapters *Lagrange multipliers and duality* and *The soft
margin*):

* :func:`dual_objective`, :func:`dual_objective_from_errors`: W(alpha);
* :func:`primal_objective`: 1/2 ||w||^2 + C sum_i max(0, 1 - y_i (w.x_i + b));
* :func:`duality_gap`: primal minus dual objective of (alpha, b);
* :func:`error_cache`, :func:`index_sets`, :func:`max_violation`: the
  quantities SMO works with;
* :func:`kkt_violations`: the KKT residual of every training point;
* :func:`recover_w`, :func:`recover_b`, :func:`intercept_from_errors`: the
  primal solution (w, b) from the multipliers.
"""

import numpy as np

from ._validation import check_C, check_data, check_gram, check_labels

__all__ = [
    "dual_objective",
    "dual_objective_from_errors",
    "duality_gap",
    "error_cache",
    "index_sets",
    "intercept_from_errors",
    "kkt_violations",
    "max_violation",
    "primal_objective",
    "recover_b",
    "recover_w",
]

#: The methods :func:`recover_b` knows.
B_METHODS = ("free_mean", "single", "extreme")


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

    References
    ----------
    Keerthi, Shevade, Bhattacharyya & Murthy (2001); Chang & Lin (2011),
    section 4.1.2; book chapter *The soft margin*.

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.duality import error_cache
    >>> X = np.array([[2.0], [0.0]])  # x = 2 (class +1), x = 0 (class -1)
    >>> K, y, alpha = X @ X.T, np.array([1.0, -1.0]), np.array([0.5, 0.5])
    >>> error_cache(alpha, K, y)
    array([1., 1.])
    """
    return K @ (alpha * y) - y


def dual_objective(alpha, K, y):
    """Dual objective W(alpha) = sum(alpha) - 1/2 alpha^T Q alpha.

    Q_ij = y_i y_j K_ij.

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

    References
    ----------
    Cortes & Vapnik (1995); book chapter *Lagrange multipliers and
    duality*.

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.duality import dual_objective
    >>> X = np.array([[2.0], [0.0]])  # x = 2 (class +1), x = 0 (class -1)
    >>> K, y, alpha = X @ X.T, np.array([1.0, -1.0]), np.array([0.5, 0.5])
    >>> dual_objective(alpha, K, y)
    0.5
    """
    return dual_objective_from_errors(alpha, y, error_cache(alpha, K, y))


def dual_objective_from_errors(alpha, y, E):
    """W(alpha) in O(n) from the error cache: 1/2 sum_i alpha_i (1 - y_i E_i).

    Since (Q alpha)_i = y_i E_i + 1,
    alpha^T Q alpha = sum_i alpha_i (y_i E_i + 1).

    Parameters
    ----------
    alpha, y, E : ndarray of shape (n,)
        Multipliers, labels in {-1, +1}, and errors (see :func:`error_cache`).

    Returns
    -------
    W : float

    References
    ----------
    Cortes & Vapnik (1995); book chapter *Lagrange multipliers and
    duality*.

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.duality import dual_objective_from_errors
    >>> X = np.array([[2.0], [0.0]])  # x = 2 (class +1), x = 0 (class -1)
    >>> K, y, alpha = X @ X.T, np.array([1.0, -1.0]), np.array([0.5, 0.5])
    >>> dual_objective_from_errors(alpha, y, np.array([1.0, 1.0]))
    0.5
    """
    return 0.5 * float(np.dot(alpha, 1.0 - y * E))


def index_sets(alpha, y, C):
    """Return the index sets I_up and I_low of Keerthi et al. (2001).

    I_up holds the points whose y_t alpha_t can still grow,
    I_low those whose y_t alpha_t can still shrink.

    Parameters
    ----------
    alpha, y : ndarray of shape (n,)
        Multipliers and labels in {-1, +1}.
    C : float or ndarray of shape (n,)
        Box constraint, or the per-point bounds C_i. A point with C_i = 0
        is in neither set: it cannot move.

    Returns
    -------
    up, low : ndarray of bool, shape (n,)

    References
    ----------
    Keerthi, Shevade, Bhattacharyya & Murthy (2001); Chang & Lin (2011),
    section 4.1.2; book chapter *The soft margin*.

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.duality import index_sets
    >>> alpha, y = np.array([0.0, 1.0, 0.5]), np.array([1, 1, -1])
    >>> up, low = index_sets(alpha, y, 1.0)
    >>> up.tolist(), low.tolist()
    ([True, False, True], [False, True, True])
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
    C : float or ndarray of shape (n,)
        Box constraint (``np.inf`` for the hard margin), or per-point C_i.
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

    References
    ----------
    Keerthi, Shevade, Bhattacharyya & Murthy (2001); Chang & Lin (2011),
    section 4.1.2; book chapter *The soft margin*.

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.duality import max_violation
    >>> X = np.array([[2.0], [0.0]])  # x = 2 (class +1), x = 0 (class -1)
    >>> K, y, alpha = X @ X.T, np.array([1.0, -1.0]), np.array([0.5, 0.5])
    >>> max_violation(alpha, y, 10.0, np.array([1.0, 1.0]))
    0.0
    """
    up, low = index_sets(alpha, y, C)
    if not up.any() or not low.any():
        return 0.0
    return float(E[low].max() - E[up].min())


def intercept_from_errors(alpha, y, C, E):
    """Return the intercept b, as LIBSVM's ``calculate_rho`` computes it.

    With free support vectors (0 < alpha_i < C_i) the KKT conditions say
    y_i f(x_i) = 1 for each of them, so b = -E_i; their mean is used because
    it averages out rounding. Without free support vectors, b is the midpoint
    of the interval that the bound multipliers allow.

    Parameters
    ----------
    alpha, y : ndarray of shape (n,)
        Multipliers and labels in {-1, +1}.
    C : float or ndarray of shape (n,)
        Box constraint, or per-point C_i.
    E : ndarray of shape (n,)
        The error cache.

    Returns
    -------
    b : float

    References
    ----------
    Chang & Lin (2011), section 4.1.5 (``calculate_rho``).

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.duality import intercept_from_errors
    >>> X = np.array([[2.0], [0.0]])  # x = 2 (class +1), x = 0 (class -1)
    >>> K, y, alpha = X @ X.T, np.array([1.0, -1.0]), np.array([0.5, 0.5])
    >>> intercept_from_errors(alpha, y, 10.0, np.array([1.0, 1.0]))
    -1.0
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
    alpha : array-like of shape (n,)
        Multipliers, finite.
    X : array-like or scipy.sparse matrix of shape (n, d)
        Training points.
    y : array-like of shape (n,)
        Labels in {-1, +1}, both present.

    Returns
    -------
    w : ndarray of shape (d,), float64

    Raises
    ------
    ValueError
        If X is not 2-D or not finite, y is not of length n or holds
        values other than -1 and +1 (or one class only), or alpha is not a
        finite array of shape (n,).

    References
    ----------
    Cortes & Vapnik (1995); book chapter *Lagrange multipliers and
    duality* (w from the stationarity of the Lagrangian).

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.duality import recover_w
    >>> X = np.array([[2.0, 0.0], [0.0, 0.0]])
    >>> recover_w([0.5, 0.5], X, [1, -1])
    array([1., 0.])
    """
    X = check_data(X, "X", dtype=np.float64, accept_sparse=True)
    n = X.shape[0]
    y = check_labels(y, n)
    alpha = np.asarray(alpha, dtype=np.float64)
    if alpha.shape != (n,) or not np.all(np.isfinite(alpha)):
        raise ValueError(
            f"alpha must be a finite array of shape ({n},), one multiplier "
            f"per training point, got shape {alpha.shape}"
            f"{'' if alpha.shape != (n,) else ' with NaN or infinity'}."
        )
    w = (alpha * y) @ X
    return np.asarray(w, dtype=np.float64).ravel()


# ----------------------------------------------------------------------------
# Checks and primal-side quantities (the duality chapter)
# ----------------------------------------------------------------------------


def _check_problem(alpha, K, y, C=None):
    """Return validated float64 copies of (alpha, K, y) and C.

    Raises ValueError naming the problem: K not square or not finite, y not
    of length n with labels in {-1, +1} and both classes, alpha not of
    length n or not finite, C neither in (0, inf] nor per-point bounds.
    """
    K = check_gram(K).astype(np.float64, copy=False)
    n = K.shape[0]
    y = check_labels(y, n)
    alpha = np.asarray(alpha, dtype=np.float64)
    if alpha.shape != (n,):
        raise ValueError(
            f"alpha must be a 1-D array of length {n} (one multiplier per "
            f"point), got shape {alpha.shape}."
        )
    if not np.all(np.isfinite(alpha)):
        raise ValueError("alpha contains NaN or infinity.")
    if C is not None:
        C = check_C(C, y)
    return alpha, K, y, C


def _check_in_box(alpha, C, atol=1e-12):
    """Raise ValueError if some alpha_i is outside [0, C_i] beyond rounding."""
    scale = atol * max(1.0, float(np.max(alpha, initial=0.0)))
    outside = (alpha < -scale) | (alpha > C + scale)
    if np.any(outside):
        i = int(np.argmax(outside))
        C_i = float(np.broadcast_to(C, alpha.shape)[i])
        raise ValueError(
            f"alpha must lie in the box 0 <= alpha_i <= C_i; alpha_{i} = "
            f"{alpha[i]:.3g} is outside [0, {C_i:g}]."
        )


def _hard_margin(C):
    """Whether C is np.inf, as one bound or for every point."""
    return bool(np.all(np.isinf(C)))


def _primal_from_margins(half_norm_w2, margins, C, feasibility_tol):
    """1/2 ||w||^2 + C sum max(0, 1 - m_i), with the C = inf case handled.

    For the hard margin (C = inf) the objective is 1/2 ||w||^2 on the
    feasible set m_i >= 1 - feasibility_tol and +inf outside it.
    """
    hinge = np.maximum(0.0, 1.0 - margins)
    if _hard_margin(C):
        return (
            float(half_norm_w2) if np.all(hinge <= feasibility_tol) else np.inf
        )
    return float(half_norm_w2 + np.sum(C * hinge))


def primal_objective(w, b, X, y, C, *, feasibility_tol=1e-3):
    """Soft-margin primal objective P(w, b), slacks eliminated.

    P(w, b) = 1/2 ||w||^2 + C sum_i max(0, 1 - y_i (w.x_i + b)); with
    per-point bounds, sum_i C_i max(0, ...).

    The slack variables are eliminated: at the optimum over xi for fixed
    (w, b), xi_i = max(0, 1 - y_i (w.x_i + b)), the hinge loss.

    Parameters
    ----------
    w : array-like of shape (d,)
        Weight vector.
    b : float
        Intercept.
    X : array-like of shape (n, d)
        Training points.
    y : array-like of shape (n,)
        Labels in {-1, +1}.
    C : float or ndarray of shape (n,)
        Box constraint / slack penalty, > 0, or per-point C_i >= 0.
        ``np.inf`` is the hard margin: the objective is then 1/2 ||w||^2 if
        every y_i (w.x_i + b) >= 1 - ``feasibility_tol``, and ``np.inf``
        otherwise.
    feasibility_tol : float, default=1e-3
        Only for ``C = np.inf``: how far below 1 a margin may fall and still
        count as feasible (solvers stop at a tolerance, so their margins are
        1 up to about ``tol``).

    Returns
    -------
    P : float
        The objective; ``np.inf`` for an infeasible hard-margin (w, b).

    Raises
    ------
    ValueError
        If X is not 2-D or not finite, w does not have d entries, y is not of
        length n with labels in {-1, +1} and both classes, or C <= 0.

    Notes
    -----
    Cortes & Vapnik (1995), equation (2) with slack; the hinge-loss form is
    the book's *Margins and the hinge loss* chapter. The regularised-risk
    objective of :func:`svmlib.solvers.primal_gd`,
    lam/2 ||w||^2 + mean hinge, equals
    ``lam * primal_objective(..., C=1/(lam n))``.

    References
    ----------
    Cortes & Vapnik (1995); book chapter *The soft margin*.

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.duality import primal_objective
    >>> X = np.array([[2.0], [0.0]])  # x = 2 (class +1), x = 0 (class -1)
    >>> K, y, alpha = X @ X.T, np.array([1.0, -1.0]), np.array([0.5, 0.5])
    >>> primal_objective(np.array([1.0]), -1.0, X, y, 10.0)
    0.5
    """
    X = check_data(X, "X", dtype=np.float64)
    w = np.asarray(w, dtype=np.float64)
    if w.shape != (X.shape[1],):
        raise ValueError(
            f"w must have shape ({X.shape[1]},) to match X, got shape "
            f"{w.shape}."
        )
    y = check_labels(y, X.shape[0])
    C = check_C(C, y)
    margins = y * (X @ w + float(b))
    return _primal_from_margins(
        0.5 * float(w @ w), margins, C, feasibility_tol
    )


def duality_gap(alpha, K, y, b, C, *, feasibility_tol=1e-3):
    """Primal minus dual objective, P(w(alpha), b) - W(alpha), for any kernel.

    w(alpha) = sum_i alpha_i y_i phi(x_i) is never formed: ||w||^2 =
    (alpha y)^T K (alpha y) and w.phi(x_j) = (K (alpha y))_j, so the primal
    objective is evaluated in the kernel's feature space.

    For alpha feasible for the dual (0 <= alpha_i <= C, sum_i alpha_i y_i = 0)
    and any b, weak duality makes the gap >= 0; it is 0 exactly at an optimal
    pair (strong duality holds: the constraints are affine, so Slater's
    condition is met). A small gap certifies a near-optimal solution.

    Parameters
    ----------
    alpha : array-like of shape (n,)
        Multipliers.
    K : array-like of shape (n, n)
        Gram matrix.
    y : array-like of shape (n,)
        Labels in {-1, +1}.
    b : float
        Intercept.
    C : float or ndarray of shape (n,)
        Box constraint, > 0; ``np.inf`` for the hard margin; or per-point
        C_i >= 0.
    feasibility_tol : float, default=1e-3
        For ``C = np.inf``: the margin shortfall still counted as feasible
        (see :func:`primal_objective`).

    Returns
    -------
    gap : float
        P - W; ``np.inf`` if C is infinite and (w, b) violates a hard-margin
        constraint by more than ``feasibility_tol``.

    Raises
    ------
    ValueError
        For inputs of the wrong shape, non-finite values, labels outside
        {-1, +1} or C <= 0.

    Notes
    -----
    With w = w(alpha) the gap equals
    alpha^T Q alpha - sum(alpha) + sum_i C_i xi_i
    = sum_i [C_i xi_i - alpha_i (1 - y_i f(x_i))] when sum alpha_i y_i = 0,
    a sum of complementary-slackness terms (Boyd & Vandenberghe 2004, 5.5).

    References
    ----------
    Cortes & Vapnik (1995); book chapter *Lagrange multipliers and
    duality*.

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.duality import duality_gap
    >>> X = np.array([[2.0], [0.0]])  # x = 2 (class +1), x = 0 (class -1)
    >>> K, y, alpha = X @ X.T, np.array([1.0, -1.0]), np.array([0.5, 0.5])
    >>> duality_gap(alpha, K, y, -1.0, 10.0)  # w = 1, b = -1: optimal
    0.0
    """
    alpha, K, y, C = _check_problem(alpha, K, y, C)
    g = K @ (alpha * y)  # w . phi(x_j)
    half_norm_w2 = 0.5 * float(np.dot(alpha * y, g))
    primal = _primal_from_margins(
        half_norm_w2, y * (g + float(b)), C, feasibility_tol
    )
    return primal - (float(alpha.sum()) - half_norm_w2)


def kkt_violations(alpha, K, y, b, C):
    """Per-point residuals of the KKT conditions; all zero at an optimum.

    With the margin m_i = y_i f(x_i), f(x) = sum_j alpha_j y_j K(x_j, x) + b,
    complementary slackness and the primal constraints give three cases:

    * alpha_i = 0: the point may lie outside the margin, m_i >= 1;
      residual max(0, 1 - m_i);
    * 0 < alpha_i < C: the point lies on the margin, m_i = 1;
      residual ``|1 - m_i|``;
    * alpha_i = C: the point may lie inside the margin or on the wrong side,
      m_i <= 1; residual max(0, m_i - 1).

    The equality constraint sum_i alpha_i y_i = 0 is not a per-point
    condition; check it separately.

    Parameters
    ----------
    alpha : array-like of shape (n,)
        Multipliers in [0, C]; the cases are decided by exact comparison with
        0 and C (the solvers put bound multipliers exactly on the bound).
    K : array-like of shape (n, n)
        Gram matrix.
    y : array-like of shape (n,)
        Labels in {-1, +1}.
    b : float
        Intercept.
    C : float or ndarray of shape (n,)
        Box constraint, > 0; ``np.inf`` for the hard margin; or per-point
        C_i >= 0.

    Returns
    -------
    residuals : ndarray of shape (n,), float64, >= 0
        In units of the decision function (the margins lie at f = +-1).

    Raises
    ------
    ValueError
        If alpha lies outside [0, C], or for inputs of the wrong shape,
        non-finite values, labels outside {-1, +1} or C <= 0.

    Notes
    -----
    Karush (1939), Kuhn & Tucker (1951); for the SVM, Cortes & Vapnik (1995)
    and Platt (1998), equation (12.2).

    References
    ----------
    Keerthi, Shevade, Bhattacharyya & Murthy (2001); Chang & Lin (2011),
    section 4.1.2; book chapter *The soft margin*.

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.duality import kkt_violations
    >>> X = np.array([[2.0], [0.0]])  # x = 2 (class +1), x = 0 (class -1)
    >>> K, y, alpha = X @ X.T, np.array([1.0, -1.0]), np.array([0.5, 0.5])
    >>> kkt_violations(alpha, K, y, -1.0, 10.0)
    array([0., 0.])
    """
    alpha, K, y, C = _check_problem(alpha, K, y, C)
    _check_in_box(alpha, C)
    margin = y * (K @ (alpha * y) + float(b))
    outside = np.maximum(0.0, 1.0 - margin)
    inside = np.maximum(0.0, margin - 1.0)
    return np.where(
        alpha <= 0, outside, np.where(alpha >= C, inside, np.abs(1.0 - margin))
    )


def recover_b(alpha, K, y, C, method="free_mean", *, index=None):
    """Return the intercept b from the multipliers, by one of 3 formulas.

    Every formula uses g_j = sum_i alpha_i y_i K_ij = w.phi(x_j), the
    decision function without b.

    * ``"free_mean"`` (default, LIBSVM): the mean of y_i - g_i over the free
      support vectors 0 < alpha_i < C, each of which lies on its margin;
      without free support vectors, the midpoint of the interval the KKT
      conditions allow (:func:`intercept_from_errors`).
    * ``"single"``: y_i - g_i for one free support vector i: ``index`` if
      given, else the one whose alpha_i is farthest from the bounds 0 and C.
    * ``"extreme"``: for the hard margin (C = inf), the formula
      b = -(max_{y_i = -1} g_i + min_{y_i = +1} g_i) / 2, which puts the
      boundary midway between the closest points of the two classes. For
      finite C, its generalisation: the midpoint of the interval of b that
      the KKT conditions allow, [-min_{t in I_up} E_t, -max_{t in I_low} E_t]
      (:func:`index_sets`; E_t = g_t - y_t), which for C = inf at the
      optimum is the same number.

    At an exact optimum with free support vectors in both classes all three
    agree. For an approximate alpha they differ: "single" inherits the error
    of one point, "extreme" that of two, "free_mean" averages it out.

    Parameters
    ----------
    alpha : array-like of shape (n,)
        Multipliers in [0, C].
    K : array-like of shape (n, n)
        Gram matrix.
    y : array-like of shape (n,)
        Labels in {-1, +1}.
    C : float or ndarray of shape (n,)
        Box constraint, > 0; ``np.inf`` for the hard margin; or per-point
        C_i >= 0.
    method : {"free_mean", "single", "extreme"}, default="free_mean"
    index : int, optional
        For ``method="single"``: the free support vector to use.

    Returns
    -------
    b : float

    Raises
    ------
    ValueError
        For an unknown method; for "single" without a free support vector or
        with an ``index`` that is not one; for "extreme" when I_up or I_low
        is empty (every point at a bound that allows no b); for inputs of
        the wrong shape, non-finite values, labels outside {-1, +1},
        C <= 0 or alpha outside [0, C].

    Notes
    -----
    Burges (1998), section 3.1 (mean over support vectors); Chang & Lin
    (2011), section 4.1.5 (LIBSVM's rho); the "extreme" formula is the
    midpoint of the two classes' closest points under w, as in the hard-margin
    derivation of Cortes & Vapnik (1995).

    References
    ----------
    Chang & Lin (2011), section 4.1.5; book chapter *The soft margin*.

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.duality import recover_b
    >>> X = np.array([[2.0], [0.0]])  # x = 2 (class +1), x = 0 (class -1)
    >>> K, y, alpha = X @ X.T, np.array([1.0, -1.0]), np.array([0.5, 0.5])
    >>> recover_b(alpha, K, y, 10.0)
    -1.0
    """
    if method not in B_METHODS:
        raise ValueError(f"method must be one of {B_METHODS}, got {method!r}.")
    alpha, K, y, C = _check_problem(alpha, K, y, C)
    _check_in_box(alpha, C)
    E = error_cache(alpha, K, y)  # g_j - y_j
    if method == "free_mean":
        return intercept_from_errors(alpha, y, C, E)
    if method == "single":
        free = (alpha > 0) & (alpha < C)
        if not free.any():
            raise ValueError(
                "method='single' needs a free support vector "
                "(0 < alpha_i < C); there is none."
            )
        if index is None:
            index = int(
                np.argmax(
                    np.where(free, np.minimum(alpha, C - alpha), -np.inf)
                )
            )
        elif not (0 <= index < len(alpha) and free[index]):
            raise ValueError(
                f"index={index!r} is not a free support vector "
                "(0 < alpha_i < C)."
            )
        return float(-E[index])
    if _hard_margin(C):
        g = E + y
        return float(-0.5 * (g[y < 0].max() + g[y > 0].min()))
    up, low = index_sets(alpha, y, C)
    if not up.any() or not low.any():
        raise ValueError(
            "method='extreme' needs points that bound b from both sides "
            "(I_up and I_low non-empty)."
        )
    return float(-0.5 * (E[up].min() + E[low].max()))
