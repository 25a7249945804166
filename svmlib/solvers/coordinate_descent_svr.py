"""Dual coordinate descent for linear epsilon-SVR (LIBLINEAR's algorithm).

The regression counterpart of :mod:`svmlib.solvers.coordinate_descent`
(Ho & Lin 2012, "Large-scale linear support vector regression", Algorithm 4;
LIBLINEAR's ``solve_l2r_l1l2_svr``). With the bias folded into w as a
constant feature B, the primal

    min_w  1/2 ||w||^2 + sum_i C_i loss(w.x_i - y_i),

with the epsilon-insensitive loss max(0, abs(r) - epsilon) (L1-loss SVR) or
its square (L2-loss SVR), has the dual in one variable per point,
beta_i = alpha_i - alpha_i^* (at most one of the pair is nonzero):

    min_beta  f(beta) = 1/2 beta^T (Q + diag(lambda)) beta - y^T beta
                        + epsilon sum_i abs(beta_i),
    -U_i <= beta_i <= U_i,   Q_ij = x_i.x_j,   w = sum_i beta_i x_i,

with U_i = C_i, lambda_i = 0 for the L1 loss and U_i = inf,
lambda_i = 1 / (2 C_i) for the L2 loss. Along coordinate i, f is a
quadratic plus epsilon abs(beta_i); with G = w.x_i - y_i + lambda_i beta_i
and H = Q_ii + lambda_i, the minimiser is the Newton step of whichever
side of 0 it lands on (G + epsilon when beta_i > 0, G - epsilon when
beta_i < 0, or beta_i = 0 when neither step leaves 0), clipped to the box.

The violation of the optimality conditions at coordinate i is the size of
the minimum-norm subgradient of f (0 at the optimum). Shrinking drops a
coordinate at 0 or at a bound whose subgradient points out of its set by
more than the previous pass's largest violation; the solver stops when the
sum of the violations of a pass is at most ``tol`` times that of the first
pass (LIBLINEAR's rule for SVR), then checks every coordinate once more.

Book chapter: *Scaling up* (part III), section on linear SVMs.
"""

import warnings
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from numba import njit
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state

from .._validation import (
    _check_per_point_C,
    check_C,
    check_data,
    check_nonnegative,
    check_tol,
)
from .._validation import check_max_iter as _check_max_iter
from ._common import not_converged_message
from .coordinate_descent import _check_row_norms, _with_bias

__all__ = ["LinearSVRResult", "dual_cd_svr", "SVR_LOSSES"]

#: The values of ``dual_cd_svr(loss=...)`` (scikit-learn's names).
SVR_LOSSES = ("epsilon_insensitive", "squared_epsilon_insensitive")


@dataclass
class LinearSVRResult:
    """What :func:`dual_cd_svr` returns.

    Attributes
    ----------
    w : ndarray of shape (d,), float64
        The weights, w = sum_i beta_i x_i (without the bias feature).
    b : float
        The intercept, w_B B (0.0 without a bias feature).
    beta : ndarray of shape (n,), float64
        The dual variables, -U_i <= beta_i <= U_i.
    n_iter : int
        Passes (epochs) over the active coordinates.
    converged : bool
        Whether the stopping rule held before ``max_iter`` passes.
    dual_objective : float
        -f(beta), to be maximised like the book's other duals.
    primal_objective : float
        1/2 ||w~||^2 + sum_i C_i loss(w~.x~_i - y_i), w~ including the
        bias weight; equal to ``dual_objective`` at the optimum.
    violation_ratio : float
        The sum over the coordinates of their violations in the last pass,
        over the same sum in the first pass (LIBLINEAR's stopping measure;
        0 when the first pass found no violation).
    """

    w: np.ndarray
    b: float
    beta: np.ndarray
    n_iter: int
    converged: bool
    dual_objective: float
    primal_objective: float
    violation_ratio: float


def dual_cd_svr(
    X,
    y,
    C=1.0,
    *,
    epsilon=0.0,
    loss="epsilon_insensitive",
    bias=1.0,
    tol=0.1,
    max_iter=1000,
    shrinking=True,
    random_state=None,
):
    """Train a linear epsilon-SVR by dual coordinate descent (LIBLINEAR).

    Parameters
    ----------
    X : array-like or scipy.sparse matrix of shape (n, d)
        Training points, copied once into CSR format, float64, with the
        bias feature appended.
    y : array-like of shape (n,)
        Real targets.
    C : float or array-like of shape (n,), default=1.0
        The penalty: one finite C > 0, or per-point C_i >= 0 (sample
        weights times C), at least one positive. A point with C_i = 0 has
        beta_i = 0: it is left out.
    epsilon : float, default=0.0
        Half the width of the tube in which errors cost nothing, >= 0.
    loss : {"epsilon_insensitive", "squared_epsilon_insensitive"}, \
default="epsilon_insensitive"
        The L1-loss SVR max(0, abs(r) - epsilon) or the L2-loss SVR, its
        square.
    bias : float, default=1.0
        B, the value of the feature appended to every point; its weight
        gives b = w_B B. 0 trains without an intercept.
    tol : float, default=0.1
        Stop when the sum of the coordinates' violations over a pass is at
        most tol times that of the first pass (LIBLINEAR's rule and
        default).
    max_iter : int or None, default=1000
        Maximum number of passes, >= 1; -1 for no limit; None for
        max(10^7, 100 n).
    shrinking : bool, default=True
        Skip coordinates stuck at 0 or at a bound (Ho & Lin 2012, section
        4.2).
    random_state : int, RandomState instance or None, default=None
        Seeds the order in which coordinates are visited.

    Returns
    -------
    LinearSVRResult

    Raises
    ------
    ValueError
        If X or y has non-finite entries or the lengths differ, X's rows
        have squared norms that overflow, C is not finite and positive (or
        per point: not finite and >= 0 with one positive), ``epsilon`` is
        negative, ``loss`` is unknown, or a count or tolerance is out of
        range.

    Warns
    -----
    sklearn.exceptions.ConvergenceWarning
        If ``max_iter`` passes end before the stopping rule holds.

    References
    ----------
    Ho & Lin (2012), "Large-scale linear support vector regression", JMLR
    13, Algorithm 4 and section 4.2 (shrinking); LIBLINEAR's
    ``solve_l2r_l1l2_svr``.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> y = 2.0 * X.ravel() + 1.0
    >>> fit = dual_cd_svr(X, y, C=100.0, tol=1e-8, random_state=0)
    >>> round(float(fit.w[0]), 3), round(fit.b, 3)
    (2.0, 1.0)
    >>> bool(abs(fit.primal_objective - fit.dual_objective) < 1e-6)
    True
    """
    if loss not in SVR_LOSSES:
        raise ValueError(f"loss must be one of {SVR_LOSSES}, got {loss!r}.")
    data, indices, indptr, d = _with_bias(
        check_data(X, "X", accept_sparse=True), bias
    )
    n = indptr.size - 1
    y = _check_targets(y, n)
    C = _check_svr_C(C, n)
    epsilon = check_nonnegative(epsilon, "epsilon")
    tol = check_tol(tol)
    max_iter = _check_max_iter(max_iter, n)
    _check_row_norms(data, indptr)
    if loss == "epsilon_insensitive":
        U, lam = C, np.zeros_like(C)
    else:
        U = np.full_like(C, np.inf)
        lam = np.divide(0.5, C, out=np.zeros_like(C), where=C > 0)
    seed = check_random_state(random_state).randint(np.iinfo(np.int32).max)
    beta, w_tilde, n_iter, ratio, converged = _coordinate_descent_svr(
        data, indices, indptr, d, y, U, lam, epsilon,
        np.flatnonzero(C > 0),  # a point with C_i = 0 never moves
        tol, max_iter, bool(shrinking), np.random.default_rng(seed),
    )  # fmt: skip
    if not (np.all(np.isfinite(w_tilde)) and np.isfinite(ratio)):
        raise ValueError(
            "dual_cd_svr overflowed: the weights w are not finite. Scale "
            "the features and targets, for example with "
            "sklearn.preprocessing.StandardScaler."
        )
    if not converged:
        warnings.warn(
            not_converged_message(
                "dual_cd_svr",
                f"reached max_iter={max_iter} passes",
                "sum of violations relative to the first pass's",
                ratio,
                tol,
                "Increase max_iter, or tol, or scale the features.",
            ),
            ConvergenceWarning,
            stacklevel=2,
        )
    Xb = sp.csr_array((data, indices, indptr), shape=(n, d))
    return _result(
        Xb, y, C, loss, epsilon, bias, beta, lam, w_tilde, n_iter, ratio,
        converged,
    )  # fmt: skip


def _check_targets(y, n):
    """Y as a finite float64 vector of n targets."""
    try:
        y = np.asarray(y, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(
            f"y must hold real targets, got {type(y).__name__}."
        ) from None
    if y.shape != (n,):
        raise ValueError(
            f"y must be of shape ({n},), one target per row of X, got shape "
            f"{y.shape}."
        )
    if not np.all(np.isfinite(y)):
        raise ValueError("y contains NaN or infinity.")
    return y


def _check_svr_C(C, n):
    """C as per-point finite bounds C_i >= 0, at least one positive."""
    if np.ndim(C) == 0:
        C = check_C(C)
        if np.isinf(C):
            raise ValueError(
                "C must be finite for regression (an infinite C has no "
                "solution when the targets do not fit a tube), got inf."
            )
        return np.full(n, C)
    if np.shape(C) == (n,) and np.all(np.asarray(C) == 0):
        raise ValueError(
            "Every point has C_i = 0 (zero weight): there is nothing to fit."
        )
    return _check_per_point_C(C, np.zeros(n))


@njit(cache=True)
def _coordinate_descent_svr(
    data, indices, indptr, d, y, U, lam, epsilon, points, tol, max_iter,
    shrinking, rng,
):  # fmt: skip
    """Ho & Lin (2012), Algorithm 4 with shrinking; compiled by numba.

    The rows x_i are CSR arrays (data, indices, indptr) with d columns;
    only the coordinates in ``points`` move. Returns beta, w (with the
    bias weight), the passes taken, the last pass's violation sum over the
    first pass's, and whether the stopping rule held on a pass over all
    coordinates.
    """
    beta = np.zeros(y.shape[0])
    w = np.zeros(d)
    H_diag = lam.copy()  # H_i = x_i.x_i + lambda_i
    for i in points:
        for k in range(indptr[i], indptr[i + 1]):
            H_diag[i] += data[k] * data[k]
    order = points.copy()
    n = order.size
    active = n
    G_max_old = np.inf
    first_sum = -1.0
    n_iter, ratio, converged = 0, np.inf, False
    while n_iter < max_iter:
        G_max, G_sum = 0.0, 0.0
        rng.shuffle(order[:active])
        s = 0
        while s < active:
            i = order[s]
            G = lam[i] * beta[i] - y[i]
            for k in range(indptr[i], indptr[i + 1]):
                G += w[indices[k]] * data[k]
            G_plus, G_minus = G + epsilon, G - epsilon  # beta_i > 0, < 0
            violation = 0.0
            if beta[i] == 0.0:
                if G_plus < 0.0:
                    violation = -G_plus
                elif G_minus > 0.0:
                    violation = G_minus
                elif shrinking and G_plus > G_max_old and G_minus < -G_max_old:
                    active -= 1  # stays at 0: shrink it
                    order[s], order[active] = order[active], order[s]
                    continue
            elif beta[i] >= U[i]:
                if G_plus > 0.0:
                    violation = G_plus
                elif shrinking and G_plus < -G_max_old:
                    active -= 1  # stays at U_i: shrink it
                    order[s], order[active] = order[active], order[s]
                    continue
            elif beta[i] <= -U[i]:
                if G_minus < 0.0:
                    violation = -G_minus
                elif shrinking and G_minus > G_max_old:
                    active -= 1  # stays at -U_i: shrink it
                    order[s], order[active] = order[active], order[s]
                    continue
            elif beta[i] > 0.0:
                violation = abs(G_plus)
            else:
                violation = abs(G_minus)
            G_max = max(G_max, violation)
            G_sum += violation
            s += 1
            H = H_diag[i]
            if H == 0.0:  # x_i = 0 and L1 loss: f is linear in beta_i
                if G_plus < 0.0:
                    step = U[i] - beta[i]
                elif G_minus > 0.0:
                    step = -U[i] - beta[i]
                else:
                    step = -beta[i]
            elif G_plus < H * beta[i]:  # the Newton step of the side it ends
                step = -G_plus / H
            elif G_minus > H * beta[i]:
                step = -G_minus / H
            else:
                step = -beta[i]  # to 0, where |beta_i| has its kink
            if abs(step) < 1e-12 and beta[i] + step != 0.0:
                # LIBLINEAR skips every step below 1e-12, also the one to
                # the kink: a beta_i of 1e-15 that belongs at 0 then keeps
                # its violation (of epsilon or so) and the solver never
                # stops (tests/test_linear_svr.py); that step is taken.
                continue
            old = beta[i]
            beta[i] = min(max(old + step, -U[i]), U[i])
            step = beta[i] - old
            if step != 0.0:
                for k in range(indptr[i], indptr[i + 1]):
                    w[indices[k]] += step * data[k]
        if n_iter == 0:
            first_sum = G_sum
        n_iter += 1
        ratio = G_sum / first_sum if first_sum > 0.0 else 0.0
        if G_sum <= tol * first_sum:
            if active == n:
                converged = True
                break
            active = n  # check every coordinate before stopping
            G_max_old = np.inf
            continue
        G_max_old = G_max
    return beta, w, n_iter, ratio, converged


def _result(
    Xb, y, C, loss, epsilon, bias, beta, lam, w_tilde, n_iter, ratio,
    converged,
):  # fmt: skip
    """Return the LinearSVRResult: bias weight split off, both objectives."""
    excess = np.maximum(0.0, np.abs(Xb @ w_tilde - y) - epsilon)
    penalty = excess if loss == "epsilon_insensitive" else excess**2
    half_norm = 0.5 * (w_tilde @ w_tilde)
    dual = -(
        half_norm
        + 0.5 * (lam @ beta**2)
        - y @ beta
        + epsilon * np.abs(beta).sum()
    )
    if bias > 0:
        w, b = w_tilde[:-1].copy(), float(w_tilde[-1] * bias)
    else:
        w, b = w_tilde, 0.0
    return LinearSVRResult(
        w=w,
        b=b,
        beta=beta,
        n_iter=int(n_iter),
        converged=bool(converged),
        dual_objective=float(dual),
        primal_objective=float(half_norm + C @ penalty),
        violation_ratio=float(ratio),
    )
