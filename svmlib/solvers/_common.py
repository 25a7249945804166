"""The result type and the convergence warning shared by svmlib's solvers.

Their input checks are in ``svmlib._validation``.
"""

import warnings
from dataclasses import dataclass, field

import numpy as np
from sklearn.exceptions import ConvergenceWarning

__all__ = ["SolverResult", "warn_not_converged"]


@dataclass
class SolverResult:
    """What a dual solver returns.

    Attributes
    ----------
    alpha : ndarray of shape (n,), float64
        Lagrange multipliers, 0 <= alpha_i <= C (or C_i),
        sum_i alpha_i y_i = 0.
    b : float
        Intercept of the decision function
        f(x) = sum_i alpha_i y_i K(x_i, x) + b.
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


def warn_not_converged(solver, n_iter, max_iter, violation, tol, C=None):
    """Issue the ConvergenceWarning of a solver that stopped short of tol.

    Parameters
    ----------
    solver : str
        The solver's name, for the message.
    n_iter, max_iter : int
        Iterations taken, and allowed.
    violation : float
        The maximal KKT violation reached.
    tol : float
        The tolerance it should have reached.
    C : float or ndarray of shape (n,), optional
        The box constraint; an infinite C (hard margin) changes the advice.
    """
    if n_iter >= max_iter:
        reason = f"reached max_iter={max_iter}"
        advice = "Increase max_iter or tol."
    else:
        reason = f"could make no further progress after {n_iter} iterations"
        advice = (
            "The problem may be badly scaled: standardise the features or "
            "lower C."
        )
    if C is not None and np.any(np.isinf(C)):
        advice = (
            "With C = inf (hard margin) this usually means that the data "
            "are not separable in the kernel's feature space, so the dual "
            "has no maximum: use a finite C."
        )
    warnings.warn(
        f"{solver} {reason} with a KKT violation of {violation:.3g} > "
        f"tol={tol:g}; the model is usable but not optimal. {advice}",
        ConvergenceWarning,
        stacklevel=3,
    )
