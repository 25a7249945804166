"""Input checks and the result type shared by svmlib's solvers."""

import numbers
import warnings
from dataclasses import dataclass, field

import numpy as np
from sklearn.exceptions import ConvergenceWarning

__all__ = [
    "SolverResult",
    "check_C",
    "check_labels",
    "check_tol",
    "default_max_iter",
    "warn_not_converged",
]


@dataclass
class SolverResult:
    """What a dual solver returns.

    Attributes
    ----------
    alpha : ndarray of shape (n,), float64
        Lagrange multipliers, 0 <= alpha_i <= C, sum_i alpha_i y_i = 0.
    b : float
        Intercept of the decision function f(x) = sum_i alpha_i y_i K(x_i, x) + b.
    n_iter : int
        Number of two-variable steps taken (for SMO), or of passes/iterations
        for the other solvers.
    converged : bool
        Whether the stopping criterion was met before ``max_iter``.
    dual_objective : float
        W(alpha) = sum_i alpha_i - 1/2 sum_ij alpha_i alpha_j y_i y_j K_ij.
    kkt_violation : float
        The maximal KKT violation m(alpha) - M(alpha) at return (see
        :func:`svmlib.duality.max_violation`).
    history : dict of str to ndarray, or None
        With ``record_history=True``: ``"dual_objective"`` and
        ``"kkt_violation"``, one entry per iteration (entry k is the state
        after k iterations).
    """

    alpha: np.ndarray
    b: float
    n_iter: int
    converged: bool
    dual_objective: float
    kkt_violation: float
    history: dict = field(default=None, repr=False)


def check_labels(y, n):
    """Labels as a float64 array of -1.0 and +1.0, checked against n points.

    Raises
    ------
    ValueError
        If y is not 1-D of length n, holds values other than -1 and +1, or
        holds only one class.
    """
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != n:
        raise ValueError(
            f"y must be a 1-D array of length {n} (one label per training point), got shape {y.shape}."
        )
    values = np.unique(y)
    if not np.all(np.isin(values, (-1, 1))):
        raise ValueError(
            f"The solvers take labels in {{-1, +1}}, got the values {values[:5].tolist()}."
        )
    if values.size < 2:
        raise ValueError(
            "y holds only one class; an SVM needs points of both classes."
        )
    return y.astype(np.float64)


def check_C(C):
    """C as a float in (0, inf]; raise ValueError otherwise."""
    if (
        not isinstance(C, numbers.Real)
        or isinstance(C, bool)
        or np.isnan(C)
        or not C > 0
    ):
        raise ValueError(
            f"C must be a positive number (np.inf for the hard margin), got {C!r}."
        )
    return float(C)


def check_tol(tol):
    """tol as a positive finite float; raise ValueError otherwise."""
    if (
        not isinstance(tol, numbers.Real)
        or isinstance(tol, bool)
        or not (0 < tol < np.inf)
    ):
        raise ValueError(f"tol must be a positive number, got {tol!r}.")
    return float(tol)


def default_max_iter(max_iter, n):
    """``max_iter``, or LIBSVM's default max(10^7, 100 n) when it is None."""
    if max_iter is None:
        return max(10_000_000, 100 * n)
    if (
        not isinstance(max_iter, numbers.Integral)
        or isinstance(max_iter, bool)
        or max_iter < 1
    ):
        raise ValueError(
            f"max_iter must be a positive integer or None, got {max_iter!r}."
        )
    return int(max_iter)


def warn_not_converged(solver, n_iter, max_iter, violation, tol, C=None):
    """Issue the ConvergenceWarning of a solver that stopped short of ``tol``."""
    if n_iter >= max_iter:
        reason = f"reached max_iter={max_iter}"
        advice = "Increase max_iter or tol."
    else:
        reason = f"could make no further progress after {n_iter} iterations"
        advice = "The problem may be badly scaled: standardise the features or lower C."
    if C is not None and np.isinf(C):
        advice = (
            "With C = inf (hard margin) this usually means that the data are not separable "
            "in the kernel's feature space, so the dual has no maximum: use a finite C."
        )
    warnings.warn(
        f"{solver} {reason} with a KKT violation of {violation:.3g} > tol={tol:g}; "
        f"the model is usable but not optimal. {advice}",
        ConvergenceWarning,
        stacklevel=3,
    )
