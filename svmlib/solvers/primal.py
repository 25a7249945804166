"""Mini-batch subgradient descent on the primal, regularised hinge-loss form.

The soft-margin SVM with a linear kernel can be trained without the dual:
minimise over (w, b) the regularised empirical hinge risk

    J(w, b) = lam/2 ||w||^2 + 1/n sum_i max(0, 1 - y_i (w.x_i + b)).

J is convex but not differentiable where y_i (w.x_i + b) = 1; a subgradient
on a mini-batch B of m points is

    g_w = lam w - 1/m sum_{i in B, y_i f(x_i) < 1} y_i x_i,
    g_b =       - 1/m sum_{i in B, y_i f(x_i) < 1} y_i.

The intercept is not regularised. J is lam times the C-form primal
1/2 ||w||^2 + C sum_i xi_i with C = 1 / (lam n) (see
:func:`svmlib.duality.primal_objective`), so both have the same minimiser.

Book chapter: *Margins and the hinge loss*. Sources: Shalev-Shwartz, Singer,
Srebro & Cotter (2011), "Pegasos: primal estimated sub-gradient solver for
SVM" (the 1/(lam t) step size); Bottou (2010), "Large-scale machine learning
with stochastic gradient descent".
"""

import warnings
from dataclasses import dataclass, field

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_array

from .._validation import (
    check_int,
    check_labels,
    check_nonnegative,
    check_positive,
    check_tol,
)
from ._common import History, not_converged_message

__all__ = ["PrimalResult", "primal_gd", "regularised_hinge_objective"]


@dataclass
class PrimalResult:
    """What :func:`primal_gd` returns.

    Attributes
    ----------
    w : ndarray of shape (d,), float64
        Weight vector of the decision function f(x) = w.x + b.
    b : float
        Intercept.
    n_iter : int
        Number of mini-batch steps taken.
    converged : bool
        Whether the stopping rule (see :func:`primal_gd`) fired before
        ``max_iter``.
    objective : float
        J(w, b) = lam/2 ||w||^2 + mean hinge loss over all n points, at the
        returned (w, b).
    history : dict of str to ndarray, or None
        With ``record_history=True``: ``"objective"`` (shape (n_iter + 1,)),
        ``"w"`` (shape (n_iter + 1, d)) and ``"b"`` (shape (n_iter + 1,)),
        entry k being the iterate after k steps (entry 0 is the start
        w = 0, b = 0).
    """

    w: np.ndarray
    b: float
    n_iter: int
    converged: bool
    objective: float
    history: dict = field(default=None, repr=False)


def regularised_hinge_objective(w, b, X, y, lam):
    """Return the regularised hinge loss of (w, b) on (X, y).

    J(w, b) = lam/2 ||w||^2 + 1/n sum_i max(0, 1 - y_i (w.x_i + b)).

    Parameters
    ----------
    w : ndarray of shape (d,)
        Weight vector.
    b : float
        Intercept.
    X : ndarray of shape (n, d)
        Data, one point per row.
    y : ndarray of shape (n,)
        Labels in {-1, +1}.
    lam : float
        Regularisation strength, >= 0.

    Returns
    -------
    J : float
        The objective that :func:`~svmlib.solvers.primal_gd` minimises.

    References
    ----------
    Shalev-Shwartz, Singer, Srebro & Cotter (2011), "Pegasos: primal
    estimated sub-gradient solver for SVM", equation (1). Book chapter:
    *Margins and the hinge loss* (part I).

    Examples
    --------
    Every margin y_i w.x_i is at least 2: no hinge loss, J = lam/2 ||w||^2.

    >>> import numpy as np
    >>> from svmlib.solvers.primal import regularised_hinge_objective
    >>> X = np.array([[2.0, 0.0], [-2.0, 0.0]])
    >>> y = np.array([1.0, -1.0])
    >>> regularised_hinge_objective(np.array([1.0, 0.0]), 0.0, X, y, 0.1)
    0.05
    >>> regularised_hinge_objective(np.zeros(2), 0.0, X, y, 0.1)
    1.0
    """
    hinge = np.maximum(0.0, 1.0 - y * (X @ w + b))
    return float(0.5 * lam * np.dot(w, w) + hinge.mean())


#: Minimum number of steps between two checks of the full objective.
MIN_CHECK_INTERVAL = 50


def _check_inputs(
    X, y, lam, learning_rate, batch_size, max_iter, tol, patience
):
    X = check_array(X, dtype=np.float64, ensure_min_samples=2)
    y = check_labels(y, X.shape[0])
    return (
        X,
        y,
        check_nonnegative(lam, "lam"),
        check_positive(learning_rate, "learning_rate"),
        min(check_int(batch_size, "batch_size"), X.shape[0]),
        check_int(max_iter, "max_iter"),
        check_tol(tol),
        check_int(patience, "patience"),
    )


def step_size(t, learning_rate, lam):
    """Return the step size of step t = 1, 2, ...: lr / (1 + lr lam t).

    For lam = 0 this is the constant ``learning_rate``. For lam > 0 it starts
    at about ``learning_rate`` and decays like 1 / (lam t), the Pegasos step
    size, which gives the O(log t / (lam t)) rate on the lam-strongly convex
    objective (Shalev-Shwartz et al. 2011), without Pegasos's huge first
    steps 1 / lam when lam is small.
    """
    return learning_rate / (1.0 + learning_rate * lam * t)


def primal_gd(
    X,
    y,
    lam,
    *,
    learning_rate=0.1,
    batch_size=100,
    max_iter=100_000,
    tol=1e-6,
    patience=20,
    random_state=None,
    record_history=False,
):
    """Train a linear SVM by mini-batch subgradient descent on the primal.

    Minimises J(w, b) = lam/2 ||w||^2 + 1/n sum_i max(0, 1 - y_i (w.x_i + b))
    from w = 0, b = 0. Each step takes the subgradient on a mini-batch
    (the points are reshuffled every epoch and visited in batches) and moves
    against it with the step size

        step_t = learning_rate / (1 + learning_rate * lam * t),  t = 1, 2, ...

    constant for lam = 0, and decaying like the Pegasos step 1 / (lam t) for
    large t when lam > 0 (see ``step_size``).

    Subgradient steps do not decrease J monotonically and give no cheap
    optimality certificate, so after every epoch (n / batch_size steps,
    rounded up, but at least 50 steps) the full objective J is evaluated,
    the best iterate so far is kept, and the run stops when the best J has
    improved by less than ``tol`` (relative) over the last ``patience``
    checks, a rule like that of scikit-learn's ``SGDClassifier``. The best
    iterate is returned.

    Parameters
    ----------
    X : array-like of shape (n, d)
        Training points (standardised features work best: one learning rate
        serves all coordinates).
    y : array-like of shape (n,)
        Labels in {-1, +1}.
    lam : float
        Regularisation strength lam >= 0. lam = 1 / (C n) gives the same
        minimiser as the C-form soft margin. lam = 0 is allowed (no margin
        term; the minimiser need not be unique).
    learning_rate : float, default=0.1
        Initial step size, > 0.
    batch_size : int, default=100
        Points per step (capped at n; ``batch_size=n`` is full-batch
        subgradient descent).
    max_iter : int, default=100_000
        Maximum number of steps.
    tol : float, default=1e-6
        Relative improvement of the best objective, over ``patience`` checks,
        below which the run stops.
    patience : int, default=20
        Number of checks (epochs) without sufficient improvement before
        stopping.
    random_state : int, RandomState instance or None, default=None
        Seeds the shuffling of the mini-batches.
    record_history : bool, default=False
        Record w, b and the full objective after every step (O(n d) per
        step).

    Returns
    -------
    PrimalResult
        ``w``, ``b``, ``n_iter``, ``converged``, ``objective`` and, when
        asked, ``history``.

    Raises
    ------
    ValueError
        If X is not 2-D, not finite or has fewer than 2 rows; y is not of
        length n with labels in {-1, +1} and both classes; lam < 0 or not
        finite; learning_rate <= 0; batch_size, max_iter or patience is not a
        positive integer; tol <= 0.

    Warns
    -----
    ConvergenceWarning
        When ``max_iter`` steps were taken before the stopping rule fired;
        the best iterate found is still returned.

    References
    ----------
    Shalev-Shwartz, Singer, Srebro & Cotter (2011), "Pegasos: primal
    estimated sub-gradient solver for SVM", Mathematical Programming 127;
    Bottou (2010), "Large-scale machine learning with stochastic gradient
    descent", COMPSTAT.

    Examples
    --------
    Points at +-2 and +-(3, 1): with lam = 0.1 the minimiser is w = (1/2, 0),
    b = 0 (every margin at least 1, ||w|| smallest), J = 0.0125:

    >>> import numpy as np
    >>> from svmlib.solvers import primal_gd
    >>> X = np.array([[2.0, 0.0], [-2.0, 0.0], [3.0, 1.0], [-3.0, -1.0]])
    >>> y = np.array([1.0, -1.0, 1.0, -1.0])
    >>> result = primal_gd(X, y, lam=0.1, random_state=0)
    >>> result.converged, result.w.round(2), round(result.objective, 4)
    (True, array([0.5, 0. ]), 0.0125)
    """
    X, y, lam, learning_rate, batch_size, max_iter, tol, patience = (
        _check_inputs(
            X, y, lam, learning_rate, batch_size, max_iter, tol, patience
        )
    )
    rng = check_random_state(random_state)
    n, d = X.shape
    w, b = np.zeros(d), 0.0
    objective = regularised_hinge_objective(w, b, X, y, lam)
    best = (w.copy(), b, objective)
    checks = [objective]  # best objective after each epoch
    history = History("objective", "w", "b", enabled=record_history)
    if history:
        history.record(objective=objective, w=w.copy(), b=b)

    steps_per_epoch = -(-n // batch_size)
    check_every = max(steps_per_epoch, MIN_CHECK_INTERVAL)
    order, position, converged, t = rng.permutation(n), 0, False, 0
    while t < max_iter:
        if position >= n:  # a new epoch: reshuffle
            order, position = rng.permutation(n), 0
        # check the progress of the best objective
        if t > 0 and t % check_every == 0:
            objective = regularised_hinge_objective(w, b, X, y, lam)
            if objective < best[2]:
                best = (w.copy(), b, objective)
            checks.append(best[2])
            if _stalled(checks, patience, tol):
                converged = True
                break
        batch = order[position : position + batch_size]
        position += batch_size
        t += 1
        w, b = _subgradient_step(
            w, b, X[batch], y[batch], lam, step_size(t, learning_rate, lam)
        )
        if history:
            history.record(
                objective=regularised_hinge_objective(w, b, X, y, lam),
                w=w.copy(),
                b=b,
            )

    objective = regularised_hinge_objective(w, b, X, y, lam)
    if objective < best[2]:
        best = (w.copy(), b, objective)
    if not converged:
        warnings.warn(
            not_converged_message(
                "primal_gd",
                f"reached max_iter={max_iter}",
                f"relative gain of the best objective over {patience} checks",
                (checks[-patience - 1] - checks[-1])
                / max(abs(checks[-1]), 1e-12)
                if len(checks) > patience
                else np.inf,
                tol,
                "The best iterate is returned. Increase max_iter or the "
                "learning rate.",
            ),
            ConvergenceWarning,
            stacklevel=2,
        )
    return PrimalResult(
        w=best[0],
        b=float(best[1]),
        n_iter=t,
        converged=converged,
        objective=best[2],
        history=history.arrays(),
    )


def _stalled(checks, patience, tol):
    """Whether the best objective gained <= tol (relative) in ``patience``."""
    best = checks[-1]
    if len(checks) <= patience:
        return False
    return checks[-patience - 1] - best <= tol * max(abs(best), 1e-12)


def _subgradient_step(w, b, X_batch, y_batch, lam, step):
    """One step (w, b) <- (w, b) - step (g_w, g_b) on a mini-batch."""
    m = len(y_batch)
    # the points with a non-zero hinge subgradient
    active = y_batch * (X_batch @ w + b) < 1.0
    coef = y_batch[active]
    g_w = lam * w - (coef @ X_batch[active]) / m
    g_b = -coef.sum() / m
    return w - step * g_w, b - step * g_b
