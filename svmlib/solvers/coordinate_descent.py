"""Dual coordinate descent for linear SVMs (the algorithm of LIBLINEAR).

With a linear kernel the model is one vector w, and the dual can be solved
one coordinate at a time while w is kept up to date (Hsieh, Chang, Lin,
Keerthi & Sundararajan 2008, Algorithm 1; LIBLINEAR's
``solve_l2r_l1l2_svc``). The bias is folded into w by appending a constant
feature B to every point (LIBLINEAR's ``-B``, scikit-learn's
``intercept_scaling``), so b = w_B B is regularised like the other weights
and the dual has no equality constraint:

    min_alpha  D(alpha) = 1/2 alpha^T Qbar alpha - sum_i alpha_i,
    0 <= alpha_i <= U_i,   Qbar_ij = y_i y_j x_i.x_j + D_ii [i = j],

with U_i = C_i, D_ii = 0 for the hinge loss (L1-SVM) and U_i = inf,
D_ii = 1 / (2 C_i) for the squared hinge loss (L2-SVM). Keeping
w = sum_i alpha_i y_i x_i, the partial derivative is

    G_i = y_i w.x_i - 1 + D_ii alpha_i,

one sparse dot product, and the exact minimiser along coordinate i is
alpha_i <- min(max(alpha_i - G_i / Qbar_ii, 0), U_i). Coordinates are
visited in a random order each pass (an *epoch*). Shrinking (Hsieh et al.,
section 3.2) drops from the active set a coordinate at a bound whose
gradient points out of the box by more than the previous pass's largest
violation; when the active set has converged, every coordinate is checked
again before the solver stops, so shrinking never changes the answer.

The stopping rule is LIBLINEAR's (since version 2.40, 2020): the largest
minus the smallest projected gradient of a pass is at most ``tol``, and so
are the absolute values of both. The spread alone is not enough: when every
projected gradient of a pass is about -1 (all the coordinates still have to
grow) the spread is small and the solution far from optimal (issue 26).

Book chapter: *Scaling up* (part III), section on linear SVMs; the
coordinate ascent of the lecture slides in the seeds.
"""

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from numba import njit
from sklearn.utils import check_random_state

from .._validation import (
    check_C,
    check_data,
    check_labels,
    check_nonnegative,
    check_tol,
)
from .._validation import check_max_iter as _check_max_iter
from ._common import warn_not_converged

__all__ = ["LinearResult", "dual_cd", "LOSSES"]

#: The values of ``dual_cd(loss=...)``.
LOSSES = ("hinge", "squared_hinge")


@dataclass
class LinearResult:
    """What :func:`dual_cd` returns.

    Attributes
    ----------
    w : ndarray of shape (d,), float64
        The weights, w = sum_i alpha_i y_i x_i (without the bias feature).
    b : float
        The intercept, w_B B (0.0 without a bias feature).
    alpha : ndarray of shape (n,), float64
        The dual variables, 0 <= alpha_i <= U_i.
    n_iter : int
        Passes (epochs) over the active coordinates.
    converged : bool
        Whether the stopping rule held before ``max_iter`` passes.
    dual_objective : float
        W(alpha) = sum_i alpha_i - 1/2 ||w~||^2 - sum_i D_ii alpha_i^2 / 2,
        w~ including the bias weight (the negated D of the module
        docstring, to be maximised like the book's other duals).
    primal_objective : float
        1/2 ||w~||^2 + sum_i C_i loss(y_i f(x_i)), with the hinge
        max(0, 1 - y f) or its square; equal to ``dual_objective`` at the
        optimum (strong duality).
    projected_gradient_gap : float
        max(max PG - min PG, abs(max PG), abs(min PG)) over the projected
        gradients PG_i of the last pass: the width of the smallest interval
        holding 0 and every PG_i, which the stopping rule compares with
        ``tol``. 0 at the optimum; the box constraints are the only ones
        (no equality constraint), so it measures optimality directly.
    """

    w: np.ndarray
    b: float
    alpha: np.ndarray
    n_iter: int
    converged: bool
    dual_objective: float
    primal_objective: float
    projected_gradient_gap: float

    @property
    def kkt_violation(self):
        """The former name of ``projected_gradient_gap``.

        Kept for the code that reads it (the chapter *Scaling up*).

        Returns
        -------
        float
            ``projected_gradient_gap``.

        References
        ----------
        Issue 26: the field is named for what it is.

        Examples
        --------
        >>> import numpy as np
        >>> X, y = np.array([[1.0], [-1.0]]), np.array([1.0, -1.0])
        >>> fit = dual_cd(X, y, random_state=0)
        >>> fit.kkt_violation == fit.projected_gradient_gap
        True
        """
        return self.projected_gradient_gap


def dual_cd(
    X,
    y,
    C=1.0,
    *,
    loss="hinge",
    bias=1.0,
    tol=0.1,
    max_iter=1000,
    shrinking=True,
    random_state=None,
):
    """Train a linear SVM by dual coordinate descent (LIBLINEAR).

    Parameters
    ----------
    X : array-like or scipy.sparse matrix of shape (n, d)
        Training points. They are copied once into CSR format, float64
        (LIBLINEAR's sparse rows), with the bias feature appended.
    y : array-like of shape (n,)
        Labels in {-1, +1}, both present.
    C : float or array-like of shape (n,), default=1.0
        The penalty: one C > 0, or per-point C_i >= 0 (class and sample
        weights times C, as LIBLINEAR's ``weighted_C``).
    loss : {"hinge", "squared_hinge"}, default="hinge"
        L1-SVM (the book's soft margin) or L2-SVM.
    bias : float, default=1.0
        B, the value of the feature appended to every point; its weight
        gives b = w_B B. 0 trains without an intercept (f(x) = w.x).
    tol : float, default=0.1
        Stop when the largest minus the smallest projected gradient of a
        pass over all points is at most tol, and so are the absolute values
        of both (LIBLINEAR's rule and default 0.1).
    max_iter : int or None, default=1000
        Maximum number of passes over the points, >= 1; -1 for no limit;
        None means LIBSVM's default for SMO steps, max(10^7, 100 n).
    shrinking : bool, default=True
        Skip coordinates stuck at a bound (Hsieh et al. 2008, section 3.2).
    random_state : int, RandomState instance or None, default=None
        Seeds the order in which coordinates are visited.

    Returns
    -------
    LinearResult

    Raises
    ------
    ValueError
        If X has non-finite entries or rows whose squared norm overflows
        (features of about 1e155 and more: scale them), y is not in
        {-1, +1} with both classes, the lengths differ, C is invalid,
        ``loss`` is unknown or a count or tolerance is out of range.

    Warns
    -----
    sklearn.exceptions.ConvergenceWarning
        If ``max_iter`` passes end before the stopping rule holds.

    References
    ----------
    Hsieh, Chang, Lin, Keerthi & Sundararajan (2008), Algorithm 1 and
    section 3.2 (shrinking); LIBLINEAR's ``solve_l2r_l1l2_svc``.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[2.0, 2.0], [1.0, 3.0], [-1.0, -1.0], [-2.0, 0.0]])
    >>> y = np.array([1.0, 1.0, -1.0, -1.0])
    >>> fit = dual_cd(X, y, C=10.0, tol=1e-6, random_state=0)
    >>> np.sign(X @ fit.w + fit.b).tolist()
    [1.0, 1.0, -1.0, -1.0]
    >>> bool(abs(fit.primal_objective - fit.dual_objective) < 1e-5)
    True
    """
    if loss not in LOSSES:
        raise ValueError(f"loss must be one of {LOSSES}, got {loss!r}.")
    data, indices, indptr, d = _with_bias(
        check_data(X, "X", accept_sparse=True), bias
    )
    n = indptr.size - 1
    y = check_labels(y, n)
    C = np.broadcast_to(check_C(C, y), (n,)).astype(np.float64)
    tol = check_tol(tol)
    max_iter = _check_max_iter(max_iter, n)
    _check_row_norms(data, indptr)
    U, D = _bounds_and_ridge(C, loss)
    seed = check_random_state(random_state).randint(np.iinfo(np.int32).max)
    alpha, w_tilde, n_iter, gap, converged = _coordinate_descent(
        data, indices, indptr, d, y, U, D,
        np.flatnonzero(C > 0),  # a point with C_i = 0 never moves
        tol, max_iter, bool(shrinking), np.random.default_rng(seed),
    )  # fmt: skip
    if not (np.all(np.isfinite(w_tilde)) and np.isfinite(gap)):
        raise ValueError(
            "dual_cd overflowed: the weights w are not finite. The features "
            "are too large; scale them, for example with "
            "sklearn.preprocessing.StandardScaler."
        )
    if not converged:
        warn_not_converged(
            "dual_cd", n_iter, max_iter, gap, tol,
            measure="projected-gradient gap",
        )  # fmt: skip
    Xb = sp.csr_array((data, indices, indptr), shape=(n, d))
    return _result(
        Xb, y, C, loss, bias, alpha, D, w_tilde, n_iter, gap, converged
    )


def _check_row_norms(data, indptr):
    """ValueError if a squared row norm ||x_i||^2 overflows.

    Every step divides by Qbar_ii = ||x_i||^2 + D_ii: an infinite norm
    makes every step 0, and the solver would return w = 0 with a gap of 0,
    a "converged" zero model (issue 24, features of about 1e155).
    """
    with np.errstate(over="ignore", invalid="ignore"):
        rows = np.repeat(np.arange(indptr.size - 1), np.diff(indptr))
        norms = np.bincount(
            rows, weights=data * data, minlength=indptr.size - 1
        )
    bad = ~np.isfinite(norms)
    if bad.any():
        raise ValueError(
            "The squared norms ||x_i||^2 of X's rows overflow in float64 "
            f"(infinite for {bad.sum()} of {bad.size} points; the largest "
            f"|x_ij| is {np.abs(data).max():.3g}): dual coordinate descent "
            "divides by them, so every step would be 0 and w = 0. The "
            "features are too large: scale them, for example with "
            "sklearn.preprocessing.StandardScaler."
        )


def _bounds_and_ridge(C, loss):
    """U_i and D_ii of the dual (Hsieh et al. 2008, Table 1).

    Points with C_i = 0 are never visited; their D_ii is set to 0.
    """
    if loss == "hinge":
        return C, np.zeros_like(C)
    D = np.divide(0.5, C, out=np.zeros_like(C), where=C > 0)
    return np.full_like(C, np.inf), D  # squared hinge


def _with_bias(X, bias):
    """X as CSR float64 rows with the column B appended (none when B = 0).

    Returns data, indices, indptr and the number of columns.
    """
    bias = check_nonnegative(bias, "bias")
    if not sp.issparse(X):
        columns = X.shape[1] + (bias > 0)
        return (*_dense_rows(np.ascontiguousarray(X), bias), columns)
    X = sp.csr_array(X, dtype=np.float64)
    if bias > 0:
        X = sp.hstack([X, np.full((X.shape[0], 1), bias)], format="csr")
    X.sort_indices()
    return X.data, X.indices, X.indptr, X.shape[1]


@njit(cache=True)
def _dense_rows(X, bias):
    """CSR arrays of the dense X with the column B appended.

    Two passes over X (count, then copy): several times faster than
    scipy's conversion, which dominated the solver's time on MNIST.
    """
    n, d = X.shape
    indptr = np.zeros(n + 1, dtype=np.int64)
    for i in range(n):
        indptr[i + 1] = indptr[i] + np.count_nonzero(X[i]) + (bias > 0)
    data = np.empty(indptr[n])
    indices = np.empty(indptr[n], dtype=np.int64)
    for i in range(n):
        k = indptr[i]
        for j in range(d):
            if X[i, j] != 0:
                data[k], indices[k] = X[i, j], j
                k += 1
        if bias > 0:
            data[k], indices[k] = bias, d
    return data, indices, indptr


@njit(cache=True)
def _coordinate_descent(
    data, indices, indptr, d, y, U, D, points, tol, max_iter, shrinking, rng
):
    """Hsieh et al. (2008), Algorithm 1 with shrinking; compiled by numba.

    The rows x_i are CSR arrays (data, indices, indptr) with d columns;
    only the coordinates in ``points`` move.
    Returns alpha, w (with the bias weight), the passes taken, the last
    pass's projected-gradient gap
    max(max PG - min PG, abs(max PG), abs(min PG)), and whether the
    stopping rule held on a pass over all coordinates.
    """
    alpha = np.zeros(y.shape[0])
    w = np.zeros(d)
    Q_diag = D.copy()  # Qbar_ii = x_i.x_i + D_ii
    for i in points:
        for k in range(indptr[i], indptr[i + 1]):
            Q_diag[i] += data[k] * data[k]
    order = points.copy()
    n = order.size
    active = n
    PG_max_old, PG_min_old = np.inf, -np.inf
    n_iter, gap, converged = 0, np.inf, False
    while n_iter < max_iter:
        PG_max, PG_min = -np.inf, np.inf
        rng.shuffle(order[:active])
        s = 0
        while s < active:
            i = order[s]
            G = -1.0 + D[i] * alpha[i]
            for k in range(indptr[i], indptr[i + 1]):
                G += y[i] * w[indices[k]] * data[k]
            PG = G  # the projected gradient
            if alpha[i] == 0.0:
                if shrinking and G > PG_max_old:
                    active -= 1  # stays at 0: shrink it
                    order[s], order[active] = order[active], order[s]
                    continue
                PG = min(G, 0.0)
            elif alpha[i] == U[i]:
                if shrinking and G < PG_min_old:
                    active -= 1  # stays at U_i: shrink it
                    order[s], order[active] = order[active], order[s]
                    continue
                PG = max(G, 0.0)
            PG_max, PG_min = max(PG_max, PG), min(PG_min, PG)
            if abs(PG) > 1e-12:
                old = alpha[i]
                alpha[i] = min(max(old - G / Q_diag[i], 0.0), U[i])
                step = (alpha[i] - old) * y[i]
                for k in range(indptr[i], indptr[i + 1]):
                    w[indices[k]] += step * data[k]
            s += 1
        n_iter += 1
        if active == 0:  # every coordinate shrunk: none was checked
            PG_max, PG_min = 0.0, 0.0  # check them all (LIBLINEAR spins)
        # LIBLINEAR's rule (since 2020): the spread of the projected
        # gradients AND each end within tol of 0. Their max is the width of
        # the smallest interval holding 0 and every PG of the pass.
        gap = max(PG_max - PG_min, abs(PG_max), abs(PG_min))
        if gap <= tol:  # PG_max - PG_min, |PG_max|, |PG_min| all <= tol
            if active == n:
                converged = True
                break
            active = n  # check every coordinate before stopping
            PG_max_old, PG_min_old = np.inf, -np.inf
            continue
        PG_max_old = PG_max if PG_max > 0 else np.inf
        PG_min_old = PG_min if PG_min < 0 else -np.inf
    return alpha, w, n_iter, gap, converged


def _result(Xb, y, C, loss, bias, alpha, D, w_tilde, n_iter, gap, converged):
    """Return the LinearResult: bias weight split off, both objectives."""
    slack = np.maximum(0.0, 1.0 - y * (Xb @ w_tilde))
    penalty = slack if loss == "hinge" else slack**2
    half_norm = 0.5 * (w_tilde @ w_tilde)
    ridge = 0.5 * (D @ alpha**2)
    if bias > 0:
        w, b = w_tilde[:-1].copy(), float(w_tilde[-1] * bias)
    else:
        w, b = w_tilde, 0.0
    return LinearResult(
        w=w,
        b=b,
        alpha=alpha,
        n_iter=int(n_iter),
        converged=bool(converged),
        dual_objective=float(alpha.sum() - half_norm - ridge),
        primal_objective=float(half_norm + C @ penalty),
        projected_gradient_gap=float(gap),
    )
