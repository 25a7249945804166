"""The SVM dual by projected gradient descent, the equality as a penalty.

The dual, written as a minimisation,

    minimise   F(alpha) = -sum_i alpha_i + 1/2 alpha^T Q alpha,
               Q_ij = y_i y_j K_ij,
    subject to 0 <= alpha_i <= C  and  sum_i alpha_i y_i = 0,

has two kinds of constraint. The box is easy: after each gradient step,
clip alpha to [0, C] (for C = inf: to alpha >= 0); that is the Euclidean
projection onto the box. The equality constraint is moved into the objective
as a penalty c/2 (sum_i alpha_i y_i)^2, as in the blog series that the book
follows. A pure penalty only gets *close* to the constraint: at the
penalised minimiser, s = sum_i alpha_i y_i equals b / c, not 0. So we also
add the linear term beta * s and update beta <- beta + c s after each step.
One projected gradient step on alpha alternates with one ascent step on
beta: a primal-dual gradient iteration of the Arrow-Hurwicz-Uzawa kind
(Arrow, Hurwicz & Uzawa 1958), not the method of multipliers (Hestenes
1969, Powell 1969), which minimises the augmented objective over alpha
before each update of beta. At a fixed point s = 0, and the multiplier beta
of the equality constraint is the intercept b of the SVM. Its convergence is
not proved here; the book's chapter observes it.

With s = y.alpha and the error cache E = K (alpha * y) - y, the gradient of
the augmented objective is

    grad = -1 + Q alpha + (beta + c s) y = y * (E + beta + c s),

one matrix-vector product with the precomputed Gram matrix: O(n^2) per
iteration, whatever the kernel.

Book chapter: *The dual by gradient ascent*. Sources: the projected gradient
method (Bertsekas 1999, section 2.3); primal-dual gradient iterations
(Arrow, Hurwicz & Uzawa 1958); the method of multipliers, which this is not
(Bertsekas 1999, section 4.2); the penalty-and-clipping scheme of the blog
series (source 004 of the book).
"""

import numpy as np
from scipy.sparse.linalg import LinearOperator, eigsh

from .._validation import (
    check_C,
    check_gram,
    check_labels,
    check_max_iter,
    check_positive,
    check_tol,
)
from ..duality import (
    dual_objective_from_errors,
    error_cache,
    intercept_from_errors,
    max_violation,
)
from ._common import History, SolverResult, warn_not_converged

__all__ = ["dual_gd", "largest_eigenvalue"]


def largest_eigenvalue(K, y, penalty=0.0):
    """Return the largest eigenvalue of the Hessian Q + c y y^T of the dual.

    Computed by Lanczos iteration (``scipy.sparse.linalg.eigsh``) with
    matrix-vector products only, from a fixed start vector, so the result is
    deterministic. Q = diag(y) K diag(y) has the eigenvalues of K.

    Parameters
    ----------
    K : ndarray of shape (n, n), float64
        Symmetric positive semi-definite Gram matrix.
    y : ndarray of shape (n,)
        Labels in {-1, +1}.
    penalty : float, default=0.0
        The penalty weight c >= 0.

    Returns
    -------
    lipschitz : float
        lambda_max(Q + c y y^T), the Lipschitz constant of the gradient.

    References
    ----------
    Lanczos iteration: Golub & Van Loan (2013), *Matrix Computations*, 4th
    ed., chapter 10; the step size 1 / L of projected gradient: Bertsekas
    (1999), *Nonlinear Programming*, section 2.3. Book chapter: *The dual by
    gradient ascent* (part I).

    Examples
    --------
    Q = diag(y) K diag(y) has the eigenvalues 1 and 3 of K; the penalty adds
    c ||y||^2 = 2 along y:

    >>> import numpy as np
    >>> from svmlib.solvers.gradient_ascent import largest_eigenvalue
    >>> K = np.array([[2.0, 1.0], [1.0, 2.0]])
    >>> y = np.array([1.0, -1.0])
    >>> largest_eigenvalue(K, y), largest_eigenvalue(K, y, penalty=1.0)
    (3.0, 5.0)
    """
    n = len(y)
    if n == 1:
        return float(K[0, 0] + penalty)

    def matvec(v):
        v = np.ravel(v)
        return y * (K @ (y * v)) + penalty * y * np.dot(y, v)

    operator = LinearOperator((n, n), matvec=matvec, dtype=np.float64)
    if n <= 3:  # eigsh needs k < n; tiny problems are solved densely
        dense = operator @ np.eye(n)
        return float(np.linalg.eigvalsh(dense)[-1])
    value = eigsh(
        operator,
        k=1,
        which="LA",
        v0=np.ones(n),
        return_eigenvectors=False,
        tol=1e-6,
    )
    return float(value[0])


def _default_penalty(K, y):
    """lambda_max(Q) / (4 n), or 1 / n when K = 0 (any weight > 0 works)."""
    n = len(y)
    penalty = largest_eigenvalue(K, y) / (4 * n)
    return penalty if penalty > 0 else 1.0 / n


def dual_gd(
    K,
    y,
    C=np.inf,
    *,
    learning_rate=None,
    penalty=None,
    augmented=True,
    max_iter=100_000,
    tol=1e-3,
    record_history=False,
    callback=None,
):
    """Solve the SVM dual by projected gradient descent and a penalty.

    Starting from alpha = 0, each iteration

    1. computes the gradient of -sum(alpha) + 1/2 alpha^T Q alpha
       + beta s + c/2 s^2 (s = sum_i alpha_i y_i), which is
       y * (E + beta + c s) with E = K (alpha * y) - y;
    2. steps against it: alpha <- alpha - learning_rate * gradient;
    3. clips alpha to [0, C] (the projection onto the box);
    4. if ``augmented``, updates the multiplier beta <- beta + c s.

    With ``augmented``, one projected gradient step on alpha alternates with
    one ascent step on beta: a primal-dual gradient iteration of the
    Arrow-Hurwicz-Uzawa kind. It is not the method of multipliers (augmented
    Lagrangian), which minimises the augmented objective over alpha before
    each update of beta. Its fixed points are the solutions of the dual
    (s = 0, beta = b); that it reaches them is observed in the book's
    chapter, not proved.

    It stops when the maximal KKT violation m(alpha) - M(alpha) (see
    :func:`svmlib.duality.max_violation`) is at most ``tol`` and, if
    ``augmented``, also ``|sum_i alpha_i y_i| <= tol``.

    Parameters
    ----------
    K : array-like of shape (n, n)
        Symmetric positive semi-definite Gram matrix (computed once, before
        the iterations; float32 is converted to float64).
    y : array-like of shape (n,)
        Labels in {-1, +1}.
    C : float, default=np.inf
        Box constraint, > 0; ``np.inf`` is the hard margin (clip at 0 only).
    learning_rate : float, optional
        Step size, > 0. Default 1 / lipschitz with
        lipschitz = lambda_max(Q + c y y^T), the Lipschitz constant of the
        gradient (``largest_eigenvalue``). Every step below 2 / lipschitz
        decreases the penalised objective (for the current beta) at every
        iteration: with alpha+ the clipped step, the descent lemma and the
        projection give F(alpha+) <= F(alpha) - (1 / learning_rate -
        lipschitz / 2) norm(alpha+ - alpha)^2. The default 1 / lipschitz
        maximises the decrease that this bound guarantees for an unclipped
        step, learning_rate (1 - learning_rate lipschitz / 2) norm(grad)^2.
        Above 2 / lipschitz nothing is guaranteed: the iteration may still
        converge (clipping can keep it off the steepest direction), or
        oscillate, or diverge.
    penalty : float, optional
        The penalty weight c > 0. Default lambda_max(Q) / (4 n): y y^T has
        the eigenvalue n, so the penalty raises the largest curvature by at
        most a quarter. Larger c enforces the constraint harder but makes the
        step smaller (the classic trade-off of penalty methods).
    augmented : bool, default=True
        Update the multiplier beta after every step (the primal-dual
        iteration above), so that sum_i alpha_i y_i = 0 at a fixed point.
        ``False`` gives the pure penalty method of the blog series, whose
        fixed point has sum_i alpha_i y_i = b / c != 0 and so a slightly
        wrong dual objective; the stopping rule then ignores the equality
        constraint.
    max_iter : int, default=100_000
        Maximum number of iterations (each costs one n x n matrix-vector
        product).
    tol : float, default=1e-3
        Tolerance on the maximal KKT violation (as SMO's ``tol``) and on
        ``|sum_i alpha_i y_i|``.
    record_history : bool, default=False
        Record, after every iteration, ``"dual_objective"`` (W(alpha), the
        unpenalised dual), ``"kkt_violation"`` and ``"equality_residual"``
        (sum_i alpha_i y_i); entry k is the state after k iterations.
    callback : callable, optional
        Called as ``callback(k, alpha)`` after iteration k (alpha is a copy),
        for example to keep snapshots for a figure.

    Returns
    -------
    SolverResult
        ``alpha`` (n,), ``b`` (from the free support vectors, as LIBSVM:
        :func:`svmlib.duality.intercept_from_errors`), ``n_iter``,
        ``converged``, ``dual_objective``, ``kkt_violation`` and, when asked,
        ``history``.

    Raises
    ------
    ValueError
        If K is not square or not finite, y is not of length n with labels in
        {-1, +1} and both classes, C <= 0, learning_rate or penalty is not a
        positive finite number, max_iter < 1 or tol <= 0.

    Warns
    -----
    ConvergenceWarning
        When ``max_iter`` iterations did not reach ``tol`` (for example with
        C = inf on data that are not separable: the hard-margin dual is then
        unbounded and alpha keeps growing).

    Notes
    -----
    Every iteration touches the whole Gram matrix, O(n^2) time, and the
    matrix itself needs O(n^2) memory (8 n^2 bytes in float64: 0.8 GB for
    n = 10^4); SMO needs two columns per step. That is why this solver is
    for small problems and for teaching.

    References
    ----------
    Bertsekas (1999), *Nonlinear Programming*, 2nd ed., section 2.3
    (gradient projection); Arrow, Hurwicz & Uzawa (1958), *Studies in
    Linear and Non-linear Programming* (primal-dual gradient iterations).
    For contrast, the method of multipliers: Bertsekas (1999), section 4.2;
    Hestenes (1969), "Multiplier and gradient methods"; Powell (1969), "A
    method for nonlinear constraints in minimization problems". Book
    chapter: *The dual by gradient ascent* (part I).

    Examples
    --------
    Two points at +-1 on the first axis: the hard-margin solution is
    alpha = (1/2, 1/2), b = 0, dual objective 1/2:

    >>> import numpy as np
    >>> from svmlib.solvers import dual_gd
    >>> X = np.array([[1.0, 0.0], [-1.0, 0.0]])
    >>> result = dual_gd(X @ X.T, np.array([1.0, -1.0]))
    >>> result.converged, result.alpha.round(3)
    (True, array([0.5, 0.5]))
    >>> round(result.dual_objective, 3), round(abs(result.b), 3)
    (0.5, 0.0)
    """
    K = check_gram(K).astype(np.float64, copy=False)
    n = K.shape[0]
    y = check_labels(y, n)
    C = check_C(C)
    tol = check_tol(tol)
    max_iter = check_max_iter(max_iter, n)
    if callback is not None and not callable(callback):
        raise ValueError(f"callback must be callable, got {callback!r}.")
    penalty = _default_penalty(K, y) if penalty is None else penalty
    penalty = check_positive(penalty, "penalty")
    if learning_rate is None:
        learning_rate = 1.0 / largest_eigenvalue(K, y, penalty)
    learning_rate = check_positive(learning_rate, "learning_rate")

    alpha, beta = np.zeros(n), 0.0
    E = -y.copy()  # alpha = 0
    history = History(
        "dual_objective",
        "kkt_violation",
        "equality_residual",
        enabled=record_history,
    )
    n_iter = 0
    while True:
        s = float(np.dot(alpha, y))
        violation = max_violation(alpha, y, C, E)
        if history:
            history.record(
                dual_objective=dual_objective_from_errors(alpha, y, E),
                kkt_violation=violation,
                equality_residual=s,
            )
        converged = violation <= tol and (not augmented or abs(s) <= tol)
        if converged or n_iter >= max_iter:
            break
        gradient = y * (E + beta + penalty * s)
        alpha = np.clip(alpha - learning_rate * gradient, 0.0, C)
        if augmented:
            beta += penalty * float(np.dot(alpha, y))
        E = error_cache(alpha, K, y)
        n_iter += 1
        if callback is not None:
            callback(n_iter, alpha.copy())

    if not converged:
        warn_not_converged(
            "dual_gd",
            n_iter,
            max_iter,
            max(violation, abs(s) if augmented else 0.0),
            tol,
            C,
        )
    return SolverResult(
        alpha=alpha,
        b=intercept_from_errors(alpha, y, C, E),
        n_iter=n_iter,
        converged=converged,
        dual_objective=dual_objective_from_errors(alpha, y, E),
        kkt_violation=violation,
        history=history.arrays(),
    )
