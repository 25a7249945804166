"""The SVM formulations that one SMO solver solves.

LIBSVM solves five problems with one solver (Chang & Lin 2011, sections 2
to 4): each is a dual of the general form

    min_a 1/2 a^T Q a + p^T a,  Q_ij = y_i y_j K_ij,
    y^T a = Delta,  0 <= a_i <= C_i

(with, for the nu-formulations, the sum of each class's a_i fixed as
well), and differs only in (K, y, p, C_i, the starting a) and in how its
solution is read back. Each function here builds its problem, solves it
with :func:`svmlib.solvers.smo` and returns a :class:`DualSolution`: the
coefficients and intercept of the decision function
f(x) = sum_i coef_i K(x_i, x) + intercept.

* :func:`c_svc`: C-support vector classification (Cortes & Vapnik 1995);
* :func:`nu_svc`: nu-support vector classification (Schoelkopf et al.
  2000), rescaled as LIBSVM does;
* :func:`one_class`: the one-class SVM (Schoelkopf et al. 2001);
* :func:`epsilon_svr`: epsilon-support vector regression (Vapnik 1995);
* :func:`nu_svr`: nu-support vector regression (Schoelkopf et al. 2000).

Each mirrors the function of the same name in LIBSVM's ``svm.cpp``
(``solve_c_svc``, ``solve_nu_svc``, ``solve_one_class``,
``solve_epsilon_svr``, ``solve_nu_svr``). ``solver_options`` are passed to
:func:`svmlib.solvers.smo` (``tol``, ``max_iter``, ``shrinking``,
``record_history``).

Book chapters: *The soft margin* (nu-SVC), *Regression: the
epsilon-insensitive tube*, *Novelty detection: the one-class SVM*.
"""

import math
from dataclasses import dataclass, field

import numpy as np

from ._validation import check_positive
from .gram import DoubledGram, as_gram, check_symmetric
from .solvers import smo

__all__ = [
    "DualSolution",
    "c_svc",
    "epsilon_svr",
    "nu_svc",
    "nu_svr",
    "one_class",
]


@dataclass
class DualSolution:
    """The solution of one formulation, read back from the solver.

    Attributes
    ----------
    coef : ndarray of shape (n,), float64
        Dual coefficient of each training point: the decision function is
        f(x) = sum_i coef_i K(x_i, x) + intercept. alpha_i y_i (C-SVC),
        alpha_i y_i / r (nu-SVC), alpha_i (one-class), alpha_i - alpha_i^*
        (SVR). Support vectors are the points with coef_i != 0.
    intercept : float
        b = -rho (-rho / r for nu-SVC).
    alpha : ndarray of shape (n,) or (2n,), float64
        The solver's variables (for SVR, alpha then alpha^*).
    n_iter : int
        SMO steps taken.
    converged : bool
        Whether the solver met its stopping test.
    status : str
        Why the solver stopped (:attr:`svmlib.solvers.SolverResult.status`).
    kkt_violation : float
        The maximal KKT violation at return.
    dual_objective : float
        -(1/2 a^T Q a + p^T a) at the solution (for nu-SVC, of the rescaled
        problem: divided by r^2, as LIBSVM reports it).
    epsilon : float or None
        nu-SVR: the half-width of the tube that nu chose (-r); else None.
    history : dict or None
        The solver's history (``record_history=True``).
    """

    coef: np.ndarray
    intercept: float
    alpha: np.ndarray
    n_iter: int
    converged: bool
    status: str
    kkt_violation: float
    dual_objective: float
    epsilon: float = None
    history: dict = field(default=None, repr=False)


def c_svc(K, y, C, **solver_options):
    """Solve C-SVC: the soft-margin dual, p = -1, alpha starting at 0.

    Parameters
    ----------
    K : ndarray of shape (n, n), or a Gram object of :mod:`svmlib.gram`
        Training Gram matrix.
    y : array-like of shape (n,)
        Labels in {-1, +1}.
    C : float or array-like of shape (n,)
        Box constraint, or per-point C_i = C * weight_i.
    **solver_options
        Passed to :func:`svmlib.solvers.smo`.

    Returns
    -------
    DualSolution

    Raises
    ------
    ValueError
        From :func:`svmlib.solvers.smo` (invalid K, y, C or options).

    References
    ----------
    Cortes & Vapnik (1995); LIBSVM's ``solve_c_svc``. Book chapter *The
    soft margin*.

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.formulations import c_svc
    >>> X = np.array([[2.0], [0.0]])
    >>> solution = c_svc(X @ X.T, [1, -1], C=10.0)
    >>> solution.coef.tolist(), solution.intercept
    ([0.5, -0.5], -1.0)
    """
    y = np.asarray(y, dtype=np.float64)
    result = smo(K, y, C, **solver_options)
    return _solution(result, result.alpha * y)


def nu_svc(K, y, nu, weight=None, **solver_options):
    """Solve nu-SVC: sum_i alpha_i = nu l, then rescaled to C-SVC's form.

    The nu-SVC dual (Schoelkopf et al. 2000; Chang & Lin 2001) is

        min_a 1/2 a^T Q a,  y^T a = 0,  sum_i a_i = nu l,  0 <= a_i <= 1

    (LIBSVM's scaling, C_i = weight_i): p = 0 and two equality constraints,
    so each class keeps its own sum, nu l / 2 (``smo(per_class=True)``).
    LIBSVM starts from a_i = 1 for the first points of each class until
    each class's sum is nu l / 2. With weights, l is their sum
    (sum_i a_i = nu sum_i weight_i, as scikit-learn's LIBSVM: a weight
    counts as repetitions of the point). The solution is the C-SVC solution for
    C = 1 / r (r from the solver): LIBSVM divides alpha y and rho by r, and
    so does this function; ``dual_objective`` is divided by r^2.

    Parameters
    ----------
    K : ndarray of shape (n, n), or a Gram object of :mod:`svmlib.gram`
        Training Gram matrix.
    y : array-like of shape (n,)
        Labels in {-1, +1}.
    nu : float
        In (0, 1]: an upper bound on the fraction of margin errors and a
        lower bound on the fraction of support vectors.
    weight : array-like of shape (n,), optional
        Per-point weights (class and sample weights); the upper bounds are
        C_i = weight_i (default 1).
    **solver_options
        Passed to :func:`svmlib.solvers.smo`.

    Returns
    -------
    DualSolution

    Raises
    ------
    ValueError
        If nu is not in (0, 1], or is infeasible: nu l / 2 exceeds the sum
        of the upper bounds of a class (without weights, nu >
        2 min(l+, l-) / l, l+ and l- the sizes of the classes;
        scikit-learn's "specified nu is infeasible"); or if the solution's
        r is zero within rounding (nu at or below the smallest nu the data
        admit: the reduced convex hulls overlap and w = 0; LIBSVM divides
        by that r and returns meaningless coefficients).

    References
    ----------
    Schoelkopf, Smola, Williamson & Bartlett (2000), "New support vector
    algorithms"; Chang & Lin (2001), "Training nu-support vector
    classifiers: theory and algorithms"; LIBSVM's ``solve_nu_svc``. Book
    chapter *The soft margin*.

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.formulations import nu_svc
    >>> X = np.array([[2.0], [0.0]])
    >>> solution = nu_svc(X @ X.T, [1, -1], nu=0.5)
    >>> solution.coef.tolist(), solution.intercept
    ([0.5, -0.5], -1.0)
    """
    y = np.asarray(y, dtype=np.float64)
    nu = _check_nu(nu)
    upper = _per_point(weight, y.shape[0])
    alpha = np.zeros(y.shape)
    total = nu * upper.sum() / 2  # nu l / 2 without weights
    for label in (1.0, -1.0):
        members = np.flatnonzero(y == label)
        if total > upper[members].sum() * (1 + 1e-12):
            raise ValueError(
                f"specified nu is infeasible: nu = {nu:g} needs "
                f"a sum of alpha of nu n / 2 = {total:g} (n: the sum of the "
                f"weights) in class {label:+g}, "
                f"whose {members.size} point(s) allow at most "
                f"{upper[members].sum():g} (nu <= 2 min(n_+, n_-) / n "
                "without weights)."
            )
        alpha[members] = _greedy_fill(total, upper[members])
    result = smo(
        K,
        y,
        upper,
        p=np.zeros(y.shape),
        alpha_init=alpha,
        per_class=True,
        **solver_options,
    )
    _check_margin(result, total, K, nu, upper, y)
    r = result.r
    return _solution(
        result,
        result.alpha * y / r,
        intercept=result.b / r,
        dual_objective=result.dual_objective / (r * r),
    )


def _check_margin(result, total, K, nu, upper, y):
    """Refuse an r that is zero within its rounding (nu below nu_min).

    r is computed from gradients G = Q a of size up to sum_i a_i max K_ii
    per class; below 64 eps times that, its sign and size are rounding, and
    dividing by it (as LIBSVM does) returns coefficients of 1e8 to 1e16
    that mean nothing.
    """
    diagonal = as_gram(K).diagonal() if hasattr(K, "column") else np.diag(K)
    floor = 64 * np.finfo(np.float64).eps * total * np.abs(diagonal).max()
    if result.r > floor:
        return
    nu_max = 2 * min(upper[y > 0].sum(), upper[y < 0].sum()) / upper.sum()
    if not result.converged:
        cause = (
            f"the solver stopped ({result.status}) before reaching tol, with r"
        )
    else:
        cause = (
            f"nu = {nu:g} is at or below the smallest nu these data admit: "
            "the two classes' reduced convex hulls (weights at most "
            "2 w_i / (nu n)) overlap, the solution has w = 0 and defines no "
            "classifier, and r"
        )
    raise ValueError(
        f"nu-SVC cannot rescale its solution: {cause} = {result.r:.3g} is "
        f"zero within rounding (<= {floor:.3g}). Use a larger nu (at most "
        f"nu_max = {nu_max:.4g} here), or SVC with a finite C (Chang & "
        "Lin 2001; Bennett & Bredensteiner 2000)."
    )


def one_class(K, nu, weight=None, **solver_options):
    """Solve the one-class SVM: separate the data from the origin.

    The dual (Schoelkopf et al. 2001) in LIBSVM's scaling is

        min_a 1/2 a^T K a,  sum_i a_i = nu l,  0 <= a_i <= 1,

    y = +1 for every point and p = 0; LIBSVM starts from a_i = 1 for the
    first floor(nu l) points and the remainder on the next. With weights
    (C_i = weight_i), l is their sum, as in scikit-learn's LIBSVM. The decision
    function is f(x) = sum_i a_i K(x_i, x) - rho: positive inside the
    estimated support, negative for outliers.

    Parameters
    ----------
    K : ndarray of shape (n, n), or a Gram object of :mod:`svmlib.gram`
        Training Gram matrix.
    nu : float
        In (0, 1]: an upper bound on the fraction of outliers and a lower
        bound on the fraction of support vectors.
    weight : array-like of shape (n,), optional
        Per-point weights; upper bounds C_i = weight_i (default 1).
    **solver_options
        Passed to :func:`svmlib.solvers.smo`.

    Returns
    -------
    DualSolution

    Raises
    ------
    ValueError
        If nu is not in (0, 1], or the weights are invalid.

    References
    ----------
    Schoelkopf, Platt, Shawe-Taylor, Smola & Williamson (2001), "Estimating
    the support of a high-dimensional distribution"; LIBSVM's
    ``solve_one_class``. Book chapter *Novelty detection: the one-class
    SVM*.

    Examples
    --------
    Four points on a line, Gaussian kernel; scikit-learn's
    ``OneClassSVM(nu=0.5)`` has the same coefficients and intercept:

    >>> import numpy as np
    >>> from svmlib.formulations import one_class
    >>> x = np.array([0.0, 0.5, 1.0, 5.0])
    >>> K = np.exp(-np.subtract.outer(x, x) ** 2)
    >>> solution = one_class(K, nu=0.5, tol=1e-10)
    >>> np.round(solution.coef, 4).tolist(), round(solution.intercept, 4)
    ([0.5938, 0.0, 0.5938, 0.8123], -0.8123)
    """
    gram = as_gram(_symmetric(K))
    nu = _check_nu(nu)
    upper = _per_point(weight, gram.n)
    total = nu * upper.sum()  # nu l without weights
    y = np.ones(gram.n)
    result = smo(
        gram,
        y,
        upper,
        p=np.zeros(gram.n),
        alpha_init=_greedy_fill(total, upper),
        **solver_options,
    )
    return _solution(result, result.alpha.copy())


def epsilon_svr(K, z, C, epsilon, **solver_options):
    """Solve epsilon-SVR: 2n multipliers, alpha and alpha^*, one SMO problem.

    The dual of epsilon-insensitive regression (Vapnik 1995; Smola &
    Schoelkopf 2004) in LIBSVM's form: a = (alpha, alpha^*),
    y = (+1, ..., +1, -1, ..., -1), Q = [[K, -K], [-K, K]]
    (:class:`svmlib.gram.DoubledGram`), p = (epsilon - z, epsilon + z),
    0 <= a_i <= C_i, y^T a = 0 (sum alpha = sum alpha^*). The regression
    function is f(x) = sum_i (alpha_i - alpha_i^*) K(x_i, x) - rho.

    Parameters
    ----------
    K : ndarray of shape (n, n), or a Gram object of :mod:`svmlib.gram`
        Training Gram matrix.
    z : array-like of shape (n,)
        Targets, finite.
    C : float or array-like of shape (n,)
        Box constraint, or per-point C_i = C * weight_i (alpha_i and
        alpha_i^* share it).
    epsilon : float
        Half-width of the insensitive tube, >= 0.
    **solver_options
        Passed to :func:`svmlib.solvers.smo`.

    Returns
    -------
    DualSolution

    Raises
    ------
    ValueError
        If z is not finite of shape (n,), epsilon < 0, or from
        :func:`svmlib.solvers.smo`.

    References
    ----------
    Vapnik (1995); Smola & Schoelkopf (2004), "A tutorial on support vector
    regression"; Chang & Lin (2011), section 2.3, LIBSVM's
    ``solve_epsilon_svr``. Book chapter *Regression: the
    epsilon-insensitive tube*.

    Examples
    --------
    Two points, z = 0 and 2 at x = 0 and 1, linear kernel, a tube of
    half-width 0.5: the line through the tube's edges, f(x) = x + 0.5.

    >>> import numpy as np
    >>> from svmlib.formulations import epsilon_svr
    >>> X = np.array([[0.0], [1.0]])
    >>> solution = epsilon_svr(X @ X.T, [0.0, 2.0], C=10.0, epsilon=0.5)
    >>> np.round(solution.coef, 6).tolist(), round(solution.intercept, 6)
    ([-1.0, 1.0], 0.5)
    """
    gram = DoubledGram(_symmetric(K))
    z = _check_targets(z, gram.m)
    epsilon = _check_nonnegative(epsilon, "epsilon")
    y = np.concatenate([np.ones(gram.m), -np.ones(gram.m)])
    result = smo(
        gram,
        y,
        _doubled_C(C, gram.m),
        p=np.concatenate([epsilon - z, epsilon + z]),
        alpha_init=np.zeros(gram.n),
        **solver_options,
    )
    return _solution(result, result.alpha[: gram.m] - result.alpha[gram.m :])


def nu_svr(K, z, C, nu, weight=None, **solver_options):
    """Solve nu-SVR: epsilon-SVR whose tube width is chosen by nu.

    Schoelkopf et al. (2000): the primal minimises over epsilon too,
    with the term C nu epsilon; in LIBSVM's form the dual has
    a = (alpha, alpha^*), p = (-z, z), 0 <= a_i <= C_i and two equality
    constraints, sum alpha = sum alpha^* = C nu l / 2
    (``smo(per_class=True)``), starting from the greedy fill. The tube's
    half-width is -r from the solver (``DualSolution.epsilon``).

    Parameters
    ----------
    K : ndarray of shape (n, n), or a Gram object of :mod:`svmlib.gram`
        Training Gram matrix.
    z : array-like of shape (n,)
        Targets, finite.
    C : float
        Box constraint, > 0.
    nu : float
        In (0, 1]: an upper bound on the fraction of points outside the
        tube, and a lower bound on the fraction of support vectors.
    weight : array-like of shape (n,), optional
        Per-point weights: C_i = C weight_i, shared by alpha_i and
        alpha_i^*; the sums are then nu sum_i C_i / 2, as in scikit-learn's
        LIBSVM (a weight counts as repetitions of the point).
    **solver_options
        Passed to :func:`svmlib.solvers.smo`.

    Returns
    -------
    DualSolution

    Raises
    ------
    ValueError
        If z is not finite of shape (n,), C is not positive, nu is not in
        (0, 1], or from :func:`svmlib.solvers.smo`.

    References
    ----------
    Schoelkopf, Smola, Williamson & Bartlett (2000), "New support vector
    algorithms"; Chang & Lin (2011), section 2.4, LIBSVM's
    ``solve_nu_svr``. Book chapter *Regression: the epsilon-insensitive
    tube*.

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.formulations import nu_svr
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> z = [0.0, 1.5, 1.0, 3.0]
    >>> solution = nu_svr(X @ X.T, z, C=10.0, nu=0.5)
    >>> np.round(solution.coef, 4).tolist()[1:]  # coef_0 is 0 to rounding
    [4.625, -10.0, 5.375]
    >>> round(solution.intercept, 4), round(solution.epsilon, 4)
    (0.375, 0.375)
    """
    gram = DoubledGram(_symmetric(K))
    z = _check_targets(z, gram.m)
    nu = _check_nu(nu)
    C = check_positive(C, "C")
    upper = C * _per_point(weight, gram.m)
    total = nu * upper.sum() / 2  # C nu l / 2 without weights
    half = _greedy_fill(total, upper)
    y = np.concatenate([np.ones(gram.m), -np.ones(gram.m)])
    result = smo(
        gram,
        y,
        np.concatenate([upper, upper]),
        p=np.concatenate([-z, z]),
        alpha_init=np.concatenate([half, half]),
        per_class=True,
        **solver_options,
    )
    return _solution(
        result,
        result.alpha[: gram.m] - result.alpha[gram.m :],
        epsilon=-result.r,
    )


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def _solution(result, coef, *, intercept=None, dual_objective=None, **extra):
    """Return a DualSolution from a SolverResult and the coefficients."""
    return DualSolution(
        coef=coef,
        intercept=result.b if intercept is None else intercept,
        alpha=result.alpha,
        n_iter=result.n_iter,
        converged=result.converged,
        status=result.status,
        kkt_violation=result.kkt_violation,
        dual_objective=(
            result.dual_objective if dual_objective is None else dual_objective
        ),
        history=result.history,
        **extra,
    )


def _greedy_fill(total, upper):
    """LIBSVM's start: a_i = min(upper_i, what is left of total), in order."""
    alpha = np.zeros(upper.shape)
    left = total
    for i, bound in enumerate(upper):
        if left <= 0:
            break
        alpha[i] = min(bound, left)
        left -= alpha[i]
    return alpha


def _check_nu(nu):
    nu = check_positive(nu, "nu")
    if nu > 1:
        raise ValueError(f"nu must be in (0, 1], got {nu!r}.")
    return nu


def _check_nonnegative(value, name):
    if not isinstance(value, (int, float, np.number)) or not (
        math.isfinite(value) and value >= 0
    ):
        raise ValueError(
            f"{name} must be a finite number >= 0, got {value!r}."
        )
    return float(value)


def _per_point(weight, n):
    """Upper bounds C_i = weight_i, finite and >= 0 (default ones)."""
    if weight is None:
        return np.ones(n)
    weight = np.asarray(weight, dtype=np.float64)
    if weight.shape != (n,) or not np.all(np.isfinite(weight)):
        raise ValueError(
            f"weight must be a finite array of shape ({n},), got shape "
            f"{weight.shape}."
        )
    if np.any(weight < 0):
        raise ValueError("weight must be >= 0 (one upper bound per point).")
    return weight


def _doubled_C(C, n):
    """C_i for the 2n variables of SVR (alpha_i and alpha_i^* share C_i)."""
    if np.ndim(C) == 0:
        return float(C)
    C = np.asarray(C, dtype=np.float64)
    if C.shape != (n,):
        raise ValueError(
            f"Per-point C must have shape ({n},), got shape {C.shape}."
        )
    return np.concatenate([C, C])


def _check_targets(z, n):
    z = np.asarray(z, dtype=np.float64)
    if z.shape != (n,) or not np.all(np.isfinite(z)):
        raise ValueError(
            f"The targets z must be a finite array of shape ({n},), got "
            f"shape {z.shape}"
            f"{'' if z.shape != (n,) else ' with NaN or infinity'}."
        )
    return z


def _symmetric(K):
    """Check an array K for symmetry (Gram objects pass through)."""
    if not hasattr(K, "column"):
        check_symmetric(K)
    return K
