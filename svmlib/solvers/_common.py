"""The result type, history recorder and convergence warning of the solvers.

Their input checks are in ``svmlib._validation``.
"""

import warnings
from dataclasses import dataclass, field

import numpy as np
from sklearn.exceptions import ConvergenceWarning

__all__ = [
    "STATUSES",
    "History",
    "SolverResult",
    "not_converged_message",
    "warn_not_converged",
]


class History:
    """What a solver records at each iteration, returned as arrays.

    The one recorder of svmlib's iterative solvers (``primal_gd``,
    ``dual_gd``, ``simplified_smo``, ``smo``): created with the names of
    the quantities and whether to record at all, fed one value per name
    by :meth:`record`, turned into the ``history`` field of a result by
    :meth:`arrays`. A recorder that is off is false, so that a solver
    skips computing what it would record (``if history: ...``).

    Parameters
    ----------
    *names : str
        The quantities recorded (for example ``"dual_objective"``).
    enabled : bool, default=True
        Whether to record; if False, :meth:`record` is not to be called
        and :meth:`arrays` returns None.

    Examples
    --------
    >>> from svmlib.solvers._common import History
    >>> history = History("dual_objective", "kkt_violation")
    >>> history.record(dual_objective=0.0, kkt_violation=2.0)
    >>> history.record(dual_objective=0.5, kkt_violation=0.1)
    >>> history.arrays()["kkt_violation"].tolist()
    [2.0, 0.1]
    >>> bool(History("w", enabled=False)), History("w", enabled=False).arrays()
    (False, None)
    """

    def __init__(self, *names, enabled=True):
        self._values = {name: [] for name in names} if enabled else None

    def __bool__(self):
        return self._values is not None

    def record(self, **values):
        """Append one value to each quantity (all of them, every time).

        Raises
        ------
        ValueError
            If the names differ from those the recorder was created with.
        """
        if values.keys() != self._values.keys():
            raise ValueError(
                f"record takes {sorted(self._values)}, got {sorted(values)}."
            )
        for name, value in values.items():
            self._values[name].append(value)

    def arrays(self):
        """Return each quantity as an ndarray (float64 for numbers), or None.

        Returns
        -------
        dict of str to ndarray, or None
            Entry k of each array is the state after k iterations.
        """
        if self._values is None:
            return None
        return {
            name: np.asarray(values, dtype=np.float64)
            for name, values in self._values.items()
        }


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
    status : str or None
        Why the solver stopped: ``"converged"`` (the stopping test was met),
        ``"max_iter"`` (``max_iter`` iterations taken), ``"no_step"`` (the
        selected pair could not move: every step would change nothing in
        floating point) or ``"stalled"`` (the maximal violation stopped
        falling: see :func:`svmlib.solvers.smo`); None for
        solvers that do not report it.
    r : float or None
        With two equality constraints (``smo(per_class=True)``, LIBSVM's
        ``Solver_NU``): r = (r_1 + r_2) / 2 of its ``calculate_rho``, by
        which nu-SVC rescales its solution; None otherwise.
    """

    alpha: np.ndarray
    b: float
    n_iter: int
    converged: bool
    dual_objective: float
    kkt_violation: float
    history: dict = field(default=None, repr=False)
    status: str = None
    r: float = None


#: The values of :attr:`SolverResult.status`, with the sentence that a
#: ConvergenceWarning uses for each.
STATUSES = {
    "converged": "met the stopping tolerance",
    "max_iter": "reached max_iter={max_iter}",
    "no_step": (
        "stopped after {n_iter} steps because the selected pair could not "
        "move (the step rounds to zero)"
    ),
    "stalled": (
        "stopped after {n_iter} steps because the maximal KKT violation had "
        "stopped falling"
    ),
}


def not_converged_message(who, reason, measure, value, tol, advice=""):
    """Word a ConvergenceWarning of svmlib in its one form.

    Every solver and estimator of svmlib that stops short of its tolerance
    says it in this form: who stopped, why, the stopping measure reached
    against ``tol``, that the solution is not optimal, and what to do.

    Parameters
    ----------
    who : str
        The solver or estimator ("SMO", "dual_cd", "LinearSVR", ...).
    reason : str
        Why it stopped, as a verb phrase ("reached max_iter=100").
    measure : str
        The name of the stopping measure ("maximal KKT violation").
    value : float
        The measure reached.
    tol : float
        The tolerance it should have reached.
    advice : str, default=""
        What the user can do (one or more sentences).

    Returns
    -------
    str

    References
    ----------
    scikit-learn's ``ConvergenceWarning``; book chapter *Platt's SMO and
    working sets* (stopping rules).

    Examples
    --------
    >>> from svmlib.solvers._common import not_converged_message
    >>> not_converged_message(
    ...     "dual_cd", "reached max_iter=5 passes", "projected-gradient gap",
    ...     0.25, 0.1, "Increase max_iter.",
    ... )  # doctest: +NORMALIZE_WHITESPACE
    'dual_cd reached max_iter=5 passes with a projected-gradient gap of 0.25
    > tol=0.1: the solution is not optimal. Increase max_iter.'
    """
    message = (
        f"{who} {reason} with a {measure} of {value:.3g} > tol={tol:g}: "
        "the solution is not optimal."
    )
    return f"{message} {advice}" if advice else message


def warn_not_converged(
    solver,
    n_iter,
    max_iter,
    violation,
    tol,
    C=None,
    *,
    status=None,
    no_support_vectors=False,
    measure="maximal KKT violation",
):
    """Issue the ConvergenceWarning of a solver that stopped short of tol.

    Parameters
    ----------
    solver : str
        The solver's name, for the message.
    n_iter, max_iter : int
        Iterations taken, and allowed.
    violation : float
        The solver's stopping measure reached (``measure``).
    tol : float
        The tolerance it should have reached.
    C : float or ndarray of shape (n,), optional
        The box constraint; an infinite C (hard margin) changes the advice.
    status : str, optional
        Why the solver stopped (a key of :data:`STATUSES`); by default
        ``"max_iter"`` when ``n_iter >= max_iter``, else ``"no_step"``.
    no_support_vectors : bool, default=False
        Whether the solution has no support vector (every alpha is 0): the
        message then says so plainly.
    measure : str, default="maximal KKT violation"
        The name of the stopping measure, for the message (for example
        dual_cd's "projected-gradient gap": it has no equality constraint,
        so no KKT violation m(alpha) - M(alpha)).

    Raises
    ------
    ValueError
        If ``status`` is not a key of :data:`STATUSES`, or is
        ``"converged"``.

    References
    ----------
    scikit-learn's ``ConvergenceWarning``; LIBSVM prints "reaching max
    number of iterations" in the same situation (Chang & Lin 2011).

    Examples
    --------
    >>> import warnings
    >>> from svmlib.solvers._common import warn_not_converged
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_not_converged("SMO", 100, 100, 0.5, 1e-3)
    >>> print(caught[0].message)  # doctest: +NORMALIZE_WHITESPACE
    SMO reached max_iter=100 with a maximal KKT violation of 0.5 >
    tol=0.001: the solution is not optimal. Increase max_iter, or tol.
    """
    if status is None:
        status = "max_iter" if n_iter >= max_iter else "no_step"
    if status not in STATUSES or status == "converged":
        raise ValueError(
            f"status must be one of {sorted(set(STATUSES) - {'converged'})}"
            f", got {status!r}."
        )
    reason = STATUSES[status].format(n_iter=n_iter, max_iter=max_iter)
    if status == "max_iter":
        advice = "Increase max_iter, or tol."
    else:
        advice = (
            "The problem is badly scaled for floating point (very large "
            "kernel values, or a C many orders of magnitude from them): "
            "standardise the features, or use a smaller gamma or degree."
        )
    if C is not None and np.any(np.isinf(C)):
        advice = (
            "With C = inf (hard margin) this usually means that the data "
            "are not separable in the kernel's feature space, so the dual "
            "has no maximum: use a finite C."
        )
    empty = (
        "It has no support vectors: the decision function is the constant b."
        if no_support_vectors
        else ""
    )
    warnings.warn(
        not_converged_message(
            solver,
            reason,
            measure,
            violation,
            tol,
            f"{empty} {advice}".strip(),
        ),
        ConvergenceWarning,
        stacklevel=3,
    )
