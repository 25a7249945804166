"""Sequential minimal optimization (SMO) for the SVM dual.

SMO (Platt 1998) maximises the dual

    W(alpha) = sum_i alpha_i - 1/2 sum_ij alpha_i alpha_j y_i y_j K_ij,
    0 <= alpha_i <= C_i,  sum_i alpha_i y_i = 0,

two multipliers at a time: the equality constraint stops a single alpha from
moving, but along the line that keeps alpha_i y_i + alpha_j y_j fixed the
dual is a one-dimensional quadratic, maximised in closed form
(:func:`two_variable_step`). The upper bound is one C for every point, or
one C_i per point (LIBSVM's ``get_C(i)``; C_i = C * weight_i for sample and
class weights). What distinguishes SMO variants is how the pair (i, j) is
chosen:

* ``selection="wss2"``: LIBSVM's second-order working-set selection (Fan,
  Chen & Lin 2005, WSS 2): i is the maximal violator, j the point whose
  step with i would gain the most dual objective if it were not clipped
  (the second-order gain (E_j - E_i)^2 / (2 eta_ij); a clipped step gains
  less, so j need not be the best actual step);
* ``selection="platt"``: Platt's heuristic hierarchy (examineExample /
  takeStep).

Both stop when the maximal KKT violation m(alpha) - M(alpha) is at most
``tol`` (Keerthi et al. 2001), and both return b as LIBSVM's
``calculate_rho`` does (:func:`svmlib.duality.intercept_from_errors`).
The error cache ``E`` holds E_k = f(x_k) - b - y_k for every point (see
:mod:`svmlib.duality`); one step updates it with two kernel columns.

With ``selection="wss2"`` the solver shrinks, as LIBSVM's
``do_shrinking``: every min(n, 1000) steps, a point at a bound whose error
puts it on the satisfied side of every pair is set aside, and the
selection, the error updates and the kernel columns cover only the active
points. The errors of the points set aside are reconstructed, exactly,
from the support vectors when the active problem first comes within
10 tol of optimal and before the solver stops, so shrinking never changes
the stopping test, only the work.

What this module does not do, compared with LIBSVM: no kernel cache of its
own (the Gram object of :mod:`svmlib.gram` decides between a dense matrix
and an LRU cache of columns); only the C-SVC dual (no nu-SVM, regression
or one-class problems).

Book chapters: *The two-variable step*, *Platt's SMO and working sets*,
*Scaling up* (part III).
"""

import numpy as np
from sklearn.utils import check_random_state

from .._validation import check_C, check_labels, check_max_iter, check_tol
from ..duality import (
    index_sets,
    intercept_from_errors,
    max_violation,
)
from ..gram import (
    DenseGram,
    DoubledGram,
    as_gram,
    check_symmetric,
    column_blas_threads,
)
from . import _smo_compiled
from ._common import History, SolverResult, warn_not_converged

__all__ = ["smo", "two_variable_step", "step_bounds"]

#: Curvatures eta at or below this are treated as zero (LIBSVM's TAU).
TAU = 1e-12

#: The values of ``smo(selection=...)``.
SELECTIONS = ("wss2", "platt")


def smo(
    K,
    y,
    C,
    *,
    p=None,
    alpha_init=None,
    per_class=False,
    tol=1e-3,
    max_iter=None,
    selection="wss2",
    shrinking=True,
    random_state=None,
    record_history=False,
):
    """Solve the SVM dual with sequential minimal optimization.

    By default the C-SVC dual of the module docstring. With ``p``,
    ``alpha_init`` and ``per_class`` any problem of LIBSVM's general form
    (Chang & Lin 2011, section 6)

        min_a 1/2 a^T Q a + p^T a,  Q_ij = y_i y_j K_ij,
        y^T a = Delta,  0 <= a_i <= C_i,

    with Delta = y^T ``alpha_init``: nu-SVC, the one-class SVM,
    epsilon-SVR and nu-SVR (:mod:`svmlib.formulations` builds each). The
    C-SVC dual is p = -1, alpha_init = 0. The error cache generalises to
    E_k = y_k G_k, G = Q a + p the gradient (LIBSVM's ``G``), so
    everything below reads the same for every problem.

    Parameters
    ----------
    K : ndarray of shape (n, n), or a Gram object from :mod:`svmlib.gram`
        The training Gram matrix K_ij = K(x_i, x_j), float32 or float64;
        symmetric. A :class:`svmlib.gram.CachedGram` computes columns on
        demand instead.
    y : array-like of shape (n,)
        Labels in {-1, +1}.
    C : float or array-like of shape (n,)
        Box constraint: a float > 0 (``np.inf`` gives the hard margin), or
        per-point bounds C_i >= 0, finite (0 <= alpha_i <= C_i; LIBSVM's
        ``get_C(i)``, C_i = C * weight_i). A point with C_i = 0 keeps
        alpha_i = 0 and drops out of the problem, the result LIBSVM
        reaches by removing zero-weight points before solving.
    p : array-like of shape (n,), optional
        The linear term of the general form; default -1 for every point
        (C-SVC).
    alpha_init : array-like of shape (n,), optional
        A feasible starting point, 0 <= alpha_init_i <= C_i (default
        zeros); the equality constraint keeps y^T alpha_init, and with
        ``per_class`` also the sum of each class's multipliers.
    per_class : bool, default=False
        Keep the sum of the multipliers of each class fixed as well
        (LIBSVM's ``Solver_NU``, for nu-SVC and nu-SVR): pairs are chosen
        within one class, the stopping test is the larger of the two
        classes' violations, and the result's ``b`` and ``r`` are Solver_NU's
        -rho = -(r_1 - r_2) / 2 and r = (r_1 + r_2) / 2.
    tol : float, default=1e-3
        Stop when the maximal KKT violation m(alpha) - M(alpha) is <= tol
        (LIBSVM's ``eps``).
    max_iter : int, optional
        Maximum number of two-variable steps; default max(10^7, 100 n), as
        LIBSVM.
    selection : {"wss2", "platt"}, default="wss2"
        How the pair is chosen: LIBSVM's second-order working-set selection,
        or Platt's heuristic hierarchy (C-SVC only: default ``p``,
        ``alpha_init`` and ``per_class``).
    shrinking : bool, default=True
        Set aside the points that cannot be part of a violating pair
        (LIBSVM's shrinking; ``"wss2"`` only: Platt's loops restrict
        themselves to the non-bound points instead, and the value is not
        used). Gram objects without ``restrict`` and ``full_column`` are
        solved unshrunk.
    random_state : int, RandomState instance or None, default=None
        Seeds the random starting points of Platt's loops (unused by "wss2").
    record_history : bool, default=False
        Record the dual objective and the maximal KKT violation after every
        step (costs O(n) per step, over all n points: it turns shrinking
        off).

    Returns
    -------
    SolverResult
        ``alpha`` (n,), ``b`` (-rho: the decision value is
        sum_i alpha_i y_i K(x_i, x) + b), ``n_iter``, ``converged``,
        ``status``, ``dual_objective`` (W = -(1/2 a^T Q a + p^T a)),
        ``kkt_violation``, ``r`` (with ``per_class``) and, when asked,
        ``history``.

    Raises
    ------
    ValueError
        If K is not square, not symmetric or not finite, y is not of
        length n with values in {-1, +1} (and both classes, for C-SVC), C
        is not a positive number or a valid per-point array (see
        ``svmlib._validation.check_C``), ``p`` is not a finite array of
        shape (n,), ``alpha_init`` is not in the box, tol <= 0, max_iter is
        neither -1 nor >= 1, ``selection`` is unknown or "platt" for a
        general problem, or the hard-margin dual is unbounded.

    Warns
    -----
    ConvergenceWarning
        When the tolerance was not reached (``max_iter`` steps taken, or no
        step could make progress); the result is still a feasible alpha with
        its b.

    References
    ----------
    Platt (1998), "Sequential minimal optimization: a fast algorithm for
    training support vector machines"; Fan, Chen & Lin (2005), "Working set
    selection using second order information for training SVM"; Chang & Lin
    (2011), "LIBSVM: a library for support vector machines".

    Examples
    --------
    Two points on a line, x = 2 (class +1) and x = 0 (class -1), linear
    kernel: the margin runs from 0 to 2, so w = 1 and b = -1.

    >>> import numpy as np
    >>> from svmlib.solvers import smo
    >>> X = np.array([[2.0], [0.0]])
    >>> result = smo(X @ X.T, [1, -1], C=10.0)
    >>> result.alpha.tolist(), result.b
    ([0.5, 0.5], -1.0)
    >>> smo(X @ X.T, [1, -1], C=[0.2, 10.0]).alpha.tolist()  # per-point C
    [0.2, 0.2]
    """
    if not hasattr(K, "column"):  # an array, not a Gram object
        check_symmetric(K)
    gram = as_gram(K)
    general = p is not None or alpha_init is not None or per_class
    y = check_labels(y, gram.n, both_classes=not general)
    C = check_C(C, y)
    p = _check_linear_term(p, y)
    alpha = _check_start(alpha_init, np.broadcast_to(C, y.shape))
    tol = check_tol(tol)
    max_iter = check_max_iter(max_iter, gram.n)
    if selection not in SELECTIONS:
        raise ValueError(
            f"selection must be one of {SELECTIONS}, got {selection!r}."
        )
    if selection == "platt" and general:
        raise ValueError(
            'selection="platt" solves the C-SVC dual only (default p, '
            'alpha_init and per_class); use "wss2".'
        )

    state = _SMOState(gram, y, C, record_history, p, alpha, per_class)
    with column_blas_threads():
        if selection == "wss2":
            shrinking = (
                shrinking
                and not record_history
                and hasattr(state.gram, "restrict")
                and hasattr(state.gram, "full_column")
            )
            if shrinking:
                state.keep_bound_errors()  # LIBSVM's G_bar
            _solve_wss2(state, tol, max_iter, shrinking)
        else:
            state.record(state.violation())
            rng = check_random_state(random_state)
            _Platt(state, tol, max_iter, rng).run()
    result = state.result(tol)
    if not result.converged:
        warn_not_converged(
            "SMO", state.n_iter, max_iter, result.kkt_violation, tol, C,
            status=result.status,
            no_support_vectors=not np.any(result.alpha > 0),
        )  # fmt: skip
    return result


def _check_linear_term(p, y):
    """Return p as float64 of shape (n,); None gives -1 (C-SVC)."""
    if p is None:
        return np.full(y.shape, -1.0)
    p = np.asarray(p, dtype=np.float64)
    if p.shape != y.shape or not np.all(np.isfinite(p)):
        raise ValueError(
            f"p must be a finite array of shape {y.shape} (one linear term "
            f"per variable), got shape {p.shape}"
            f"{'' if p.shape != y.shape else ' with NaN or infinity'}."
        )
    return p


def _check_start(alpha_init, C):
    """Return a feasible starting alpha (a float64 copy); None: zeros."""
    if alpha_init is None:
        return np.zeros(C.shape)
    alpha = np.array(alpha_init, dtype=np.float64)
    if alpha.shape != C.shape:
        raise ValueError(
            f"alpha_init must have shape {C.shape}, got {alpha.shape}."
        )
    outside = ~((alpha >= 0) & (alpha <= C))
    if outside.any():
        k = int(np.flatnonzero(outside)[0])
        raise ValueError(
            "alpha_init must lie in the box 0 <= alpha_i <= C_i; "
            f"alpha_init[{k}] = {alpha[k]!r} with C_{k} = {C[k]!r}."
        )
    return alpha


# ---------------------------------------------------------------------------
# Working-set selection
# ---------------------------------------------------------------------------


def _solve_wss2(state, tol, max_iter, shrinking):
    """Step on the pairs that :func:`_select_wss2` picks, until done.

    With shrinking, every min(n, 1000) steps the active set is shrunk; when
    the active problem is solved, all points are made active again (errors
    reconstructed) and the selection is repeated on all of them: the loop
    stops only when the whole problem is solved, when the selected pair
    cannot move, when ``max_iter`` steps are taken, or when the solver
    stalls (:class:`_Progress`). ``state.status`` says which.
    """
    period = min(state.gram.n, 1000)
    counter, unshrunk = period, False
    progress = _Progress(state.gram.n)
    compiled = _compiled_loop(state)  # the same steps, compiled; or None
    try:
        while state.n_iter < max_iter:
            if compiled is not None:  # plain steps; the others below
                counter, stalled = compiled.run(
                    tol, max_iter, shrinking, counter, progress
                )
                if stalled:
                    state.status = "stalled"
                    return
                if state.n_iter >= max_iter:
                    break
            if shrinking:
                counter -= 1
                if counter == 0:
                    counter = period
                    unshrunk = state.shrink(tol, unshrunk)
            i, j, K_i, violation = _select_wss2(state, tol)
            if i is None and state.active is not None:
                state.unshrink()  # optimal on the active set: check all
                counter = 1  # and shrink again at the next step, as LIBSVM
                progress.restart()  # the violation now covers all points
                i, j, K_i, violation = _select_wss2(state, tol)
            state.record(violation)
            if i is None:
                state.status = "converged"
                return
            if not state.step(i, j, K_i) and not _step_maximal_pair(
                state, i, K_i
            ):
                state.status = "no_step"
                return
            if progress.stalled(violation, state.n_iter):
                state.status = "stalled"
                return
        state.record(state.violation())
        state.status = "max_iter"
    finally:
        state.unshrink()


def _compiled_loop(state):
    """Return the compiled loop for ``state``, or None where it cannot run.

    :mod:`svmlib.solvers._smo_compiled` takes the same steps as the loop of
    :func:`_solve_wss2` on a Gram matrix held as an array (without history);
    ``_smo_compiled.ENABLED = False`` keeps every step in NumPy.
    """
    if not _smo_compiled.ENABLED or state.history:
        return None
    gram = state.gram
    if type(gram) is DoubledGram:
        gram = gram.inner
    if type(gram) is not DenseGram:
        return None
    return _smo_compiled.CompiledLoop(state, gram.K, TAU)


def _step_maximal_pair(state, i, K_i):
    """Step on the maximal violating pair, when WSS 2's pair cannot move.

    WSS 2's j maximises the gain (E_j - E_i)^2 / eta_ij that the step
    would have without rounding; with kernel values many orders of
    magnitude apart, that step can be smaller than the rounding unit of
    both multipliers, while the pair of the largest violation, i with the
    j of largest E_j in I_low (WSS 1, Keerthi et al. 2001), still moves.
    Returns whether it moved.
    """
    rows = state.rows
    low = state.low[rows] & state.same_group(i)[rows]
    low_errors = np.where(low, state.E[rows], -np.inf)
    j = state.point(int(np.argmax(low_errors)))
    return state.step(i, j, K_i)


class _Progress:
    """Stall detection: no new smallest violation for too many steps.

    The maximal violation m(alpha) - M(alpha) does not fall at every step,
    but on a problem that SMO can solve in floating point it keeps reaching
    new lows. When it has not gone below its smallest value so far for
    ``patience`` consecutive steps, the steps are no longer making progress
    (for example when the kernel values are so large that the errors E are
    rounded more coarsely than the steps change them), and the solver stops
    instead of spinning until ``max_iter``.
    """

    #: Steps without a new smallest violation, per training point, and at
    #: least :attr:`MIN_PATIENCE`. 10^5 was too few: epsilon-SVR on 300
    #: diabetes points (C = 1000, gamma = 2, tol = 1e-9) sits on a plateau
    #: of more than 10^5 steps near a violation of 1.4e-7, and LIBSVM
    #: converges there after 437,833 steps.
    STEPS_PER_POINT = 100
    MIN_PATIENCE = 1_000_000

    def __init__(self, n):
        self.patience = max(self.STEPS_PER_POINT * n, self.MIN_PATIENCE)
        self.restart()

    def restart(self):
        """Forget the smallest violation (the active set has changed)."""
        self.smallest = np.inf
        self.since = None

    def stalled(self, violation, n_iter):
        """Whether ``patience`` steps have passed since the last new low."""
        if violation < self.smallest or self.since is None:
            self.smallest = min(violation, self.smallest)
            self.since = n_iter
            return False
        return n_iter - self.since >= self.patience


def _select_wss2(state, tol):
    """LIBSVM's second-order working-set selection (Fan, Chen & Lin 2005).

    Returns ``(i, j, K_i, violation)``; i is None when the maximal violation
    is at most ``tol``. With ``per_class`` (LIBSVM's
    ``Solver_NU::select_working_set``) each class has its own maximal
    violator i, j is chosen within the class of its i, and the violation
    is the larger of the two classes'.
    """
    rows = state.rows  # the active points (all: a slice)
    E, up, low = state.E[rows], state.up[rows], state.low[rows]
    violation, pairs = 0.0, []
    for group in state.groups:
        in_up = up if group is None else up & group[rows]
        in_low = low if group is None else low & group[rows]
        # i: the point of I_up with the smallest error (the maximal
        # violator); its partner of largest violation: the largest error
        # in I_low
        p = int(np.argmin(np.where(in_up, E, np.inf)))
        q = int(np.argmax(np.where(in_low, E, -np.inf)))
        if in_up[p] and in_low[q]:
            pairs.append((float(E[q] - E[p]), p, q, in_low))
    if not pairs:
        return None, None, None, violation
    violation, p, q, _ = max(pairs, key=lambda pair: pair[0])
    if violation <= tol:
        return None, None, None, violation
    if violation <= state.rounding_floor(
        state.point(p), state.point(q), violation
    ):
        return None, None, None, violation
    # j: over t in I_low (of i's class) with E_t > E_i, maximise the
    # second-order gain (E_t - E_i)^2 / eta_it of the step on (i, t).
    best = None
    for _, p, _, in_low in pairs:
        i = state.point(p)
        K_i = state.gram.column(i)
        gap = E - E[p]
        eta = state.diagonal[rows] + state.diagonal[i] - 2.0 * K_i
        np.maximum(eta, TAU, out=eta)
        gain = np.where(in_low & (gap > 0), gap * gap / eta, -np.inf)
        t = int(np.argmax(gain))
        if best is None or gain[t] > best[0]:
            best = (gain[t], i, state.point(t), K_i)
    _, i, j, K_i = best
    return i, j, K_i, violation


class _Platt:
    """Platt's (1998) SMO: examineExample, takeStep and the outer loop.

    Platt keeps a running threshold b, updated after each step by the rules
    (17)-(19) of the CS229 handout; examineExample checks the KKT conditions
    of a point against it with tolerance ``tol / 2``, which guarantees that
    a pass that finds no violator leaves m(alpha) - M(alpha) <= tol.
    """

    #: Relative change of alpha_j below which takeStep counts as no
    #: progress. Platt (1998) takes 10^-3, enough for tol = 10^-3; with
    #: alpha_j ~ C = 10^4 and tol = 10^-6 the steps that the last digits
    #: of the KKT violation need are relatively smaller than 10^-8 even,
    #: and a larger value stalls the loop. 10^-12 refuses only changes at
    #: the level of rounding.
    EPS = 1e-12

    def __init__(self, state, tol, max_iter, rng):
        self.state = state
        self.kkt_tol = tol / 2
        self.max_iter = max_iter
        self.rng = rng
        self.b = 0.0

    def run(self):
        """Run the outer loop: passes over all points, then the non-bound."""
        examine_all = True
        changed = 0
        while (changed > 0 or examine_all) and not self.exhausted():
            if examine_all:
                candidates = range(self.state.gram.n)
            else:
                candidates = np.flatnonzero(self.non_bound())
            changed = sum(
                self.examine_example(int(i))
                for i in candidates
                if not self.exhausted()
            )
            if examine_all:
                examine_all = False
            elif changed == 0:
                examine_all = True
        if self.exhausted():
            self.state.status = "max_iter"

    def exhausted(self):
        return self.state.n_iter >= self.max_iter

    def non_bound(self):
        alpha = self.state.alpha
        return (alpha > 0) & (alpha < self.state.C)

    def examine_example(self, j):
        """Try to step with j as the second multiplier; 1 if done, else 0."""
        s = self.state
        r_j = s.y[j] * (s.E[j] + self.b)  # y_j f(x_j) - 1
        violates = (r_j < -self.kkt_tol and s.alpha[j] < s.C[j]) or (
            r_j > self.kkt_tol and s.alpha[j] > 0
        )
        if not violates:
            return 0
        non_bound = np.flatnonzero(self.non_bound())
        if non_bound.size > 1:
            # second-choice heuristic: the largest |E_i - E_j| among the
            # non-bound points
            i = int(non_bound[np.argmax(np.abs(s.E[non_bound] - s.E[j]))])
            if self.take_step(i, j):
                return 1
        for candidates in (non_bound, np.arange(s.gram.n)):
            start = self.rng.randint(candidates.size) if candidates.size else 0
            for i in np.roll(candidates, -start):
                if self.take_step(int(i), j):
                    return 1
        return 0

    def take_step(self, i, j):
        """Step on (i, j) with Platt's progress test and b update."""
        s = self.state
        alpha_j_old = s.alpha[j]
        if i == j or not s.step(i, j):
            return False
        alpha_j = s.alpha[j]
        if abs(alpha_j - alpha_j_old) < self.EPS * (
            alpha_j + alpha_j_old + self.EPS
        ):
            # too small to count; keep it (it is a valid ascent step) but
            # look further
            return False
        # b makes a free point's f(x) equal its label: E (without b) + b = 0.
        free_i = 0 < s.alpha[i] < s.C[i]
        free_j = 0 < alpha_j < s.C[j]
        if free_i:
            self.b = -s.E[i]
        elif free_j:
            self.b = -s.E[j]
        else:
            self.b = -0.5 * (s.E[i] + s.E[j])
        if s.history:
            s.record(s.violation())
        return True


# ---------------------------------------------------------------------------
# The state and the two-variable step
# ---------------------------------------------------------------------------


class _SMOState:
    """alpha, the error cache E and the index sets, updated pair by pair.

    ``C`` is stored per point, shape (n,), also when one C was given.
    E_k = y_k G_k, with G = Q alpha + p the gradient of the general form
    (for C-SVC, E_k = f(x_k) - b - y_k). ``groups`` lists the sets of
    points whose sum of y_k alpha_k the steps keep: all points (None), or
    each class (``per_class``).
    """

    def __init__(
        self, gram, y, C, record_history, p=None, alpha=None, per_class=False
    ):
        self.gram = gram
        self.y = y
        self.C = np.broadcast_to(np.asarray(C, dtype=np.float64), y.shape)
        self.p = -np.ones_like(y) if p is None else p
        self.diagonal = gram.diagonal()
        # |K_ij| <= sqrt(K_ii K_jj) for a positive semidefinite kernel
        # (|tanh| <= 1 for the sigmoid one): see rounding_floor
        self.root_diagonal = np.sqrt(np.maximum(self.diagonal, 1.0))
        self.alpha = np.zeros_like(y) if alpha is None else alpha
        self.E = self._errors()
        self.per_class = per_class
        self.groups = [y > 0, y < 0] if per_class else [None]
        self.up, self.low = index_sets(self.alpha, y, self.C)
        self.active = None  # indices of the active points; None: all
        # the part of E from the multipliers at their upper bound (LIBSVM's
        # G_bar, times y), kept while shrinking: see keep_bound_errors
        self.E_bar = None
        self._position = None  # position of each point in ``active``
        self.n_iter = 0
        self.status = None  # why the solver stopped (SolverResult.status)
        self.history = History(
            "dual_objective", "kkt_violation", enabled=record_history
        )

    def _errors(self):
        """E_k = y_k p_k + sum_l alpha_l y_l K_lk for the starting alpha."""
        E = self.y * self.p  # alpha = 0: for C-SVC, E = -y
        support = np.flatnonzero(self.alpha > 0)
        if support.size:
            coef = self.alpha[support] * self.y[support]
            E += self.gram.products(np.arange(self.gram.n), support, coef)
        return E

    def keep_bound_errors(self):
        """Start keeping E_bar, the upper-bound multipliers' part of E.

        E_bar_k = sum over l with alpha_l = C_l of C_l y_l K_lk (LIBSVM's
        ``G_bar``, times y_k). :meth:`step` updates it with a whole kernel
        column when a multiplier reaches or leaves its upper bound, so that
        :meth:`unshrink` needs the free support vectors only.
        """
        at_upper = np.flatnonzero((self.alpha >= self.C) & (self.C > 0))
        self.E_bar = np.zeros(self.gram.n)
        if at_upper.size:
            coef = self.C[at_upper] * self.y[at_upper]
            self.E_bar += self.gram.products(
                np.arange(self.gram.n), at_upper, coef
            )

    def same_group(self, k):
        """Return the mask of the points that k can be paired with."""
        for group in self.groups:
            if group is None or group[k]:
                return np.ones(self.gram.n, bool) if group is None else group
        raise AssertionError("every point is in a group")

    @property
    def rows(self):
        """Index of the active points into the (n,) arrays."""
        return slice(None) if self.active is None else self.active

    def point(self, p):
        """Return the point at position p of the active set."""
        return p if self.active is None else int(self.active[p])

    def position(self, k):
        """Position of the active point k in the active set."""
        return k if self.active is None else int(self._position[k])

    def set_active(self, active):
        """Make ``active`` (sorted indices; None: all) the active set."""
        if active is not None and active.size == self.gram.n:
            active = None
        self.active = active
        if active is not None:
            self._position = np.full(self.gram.n, -1)
            self._position[active] = np.arange(active.size)
        self.gram.restrict(active)

    def shrink(self, tol, unshrunk):
        """LIBSVM's ``do_shrinking``; returns whether it has unshrunk.

        A point only in I_up can be the i of a violating pair only if
        some point of I_low has a larger error; a point only in I_low, the
        j, only if some point of I_up has a smaller one. Points for which
        that fails now are set aside (and points that cannot move at all).
        The first time the active problem is within 10 tol of optimal, all
        points are made active again first (LIBSVM's ``unshrink``).
        """
        rows = self.rows
        bounds = self._group_bounds(rows)
        if (
            not unshrunk
            and max(largest - smallest for _, smallest, largest in bounds)
            <= 10 * tol
        ):
            self.unshrink()
            unshrunk, rows = True, self.rows
            bounds = self._group_bounds(rows)
        E, up, low = self.E[rows], self.up[rows], self.low[rows]
        stuck = ~up & ~low
        for in_group, smallest_up, largest_low in bounds:
            stuck |= in_group & (
                (up & ~low & (E > largest_low))
                | (low & ~up & (E < smallest_up))
            )
        if np.count_nonzero(~stuck) >= 2:  # a pair must remain
            self.set_active(np.arange(self.gram.n)[rows][~stuck])
        return unshrunk

    def _group_bounds(self, rows):
        """(members, min E over I_up, max E over I_low) of each group."""
        E, up, low = self.E[rows], self.up[rows], self.low[rows]
        bounds = []
        for group in self.groups:
            in_group = np.ones(E.shape, bool) if group is None else group[rows]
            in_up, in_low = up & in_group, low & in_group
            smallest_up = E[in_up].min() if in_up.any() else np.inf
            largest_low = E[in_low].max() if in_low.any() else -np.inf
            bounds.append((in_group, smallest_up, largest_low))
        return bounds

    def unshrink(self):
        """Reconstruct the errors of the points set aside; all active.

        E_t = E_bar_t + y_t p_t + sum_s alpha_s y_s K_st over the free
        support vectors s, 0 < alpha_s < C_s (LIBSVM's
        ``reconstruct_gradient``; for C-SVC, p_t = -1): the multipliers at
        their upper bound are in E_bar already. One product with a block
        of kernel values.
        """
        if self.active is None:
            return
        inactive = np.setdiff1d(np.arange(self.gram.n), self.active)
        free = np.flatnonzero((self.alpha > 0) & (self.alpha < self.C))
        self.set_active(None)
        coef = self.alpha[free] * self.y[free]
        E = self.E_bar[inactive] + self.y[inactive] * self.p[inactive]
        if free.size:
            E += self.gram.products(inactive, free, coef)
        self.E[inactive] = E

    def met(self, violation, tol):
        """Whether the maximal violation is at most tol or rounding noise."""
        if violation <= tol:
            return True
        pairs = []
        for group in self.groups:
            up = self.up if group is None else self.up & group
            low = self.low if group is None else self.low & group
            if up.any() and low.any():
                i = int(np.argmin(np.where(up, self.E, np.inf)))
                j = int(np.argmax(np.where(low, self.E, -np.inf)))
                pairs.append((self.E[j] - self.E[i], i, j))
        _, i, j = max(pairs)
        return violation <= self.rounding_floor(i, j, violation)

    def rounding_floor(self, i, j, violation):
        """Return the violation that rounding alone can leave in the errors E.

        E_k = sum_l alpha_l y_l K_lk - y_k is a sum of terms
        alpha_l |K_lk| <= alpha_l sqrt(K_ll K_kk), so its rounding error is
        about eps sqrt(K_kk) sum_l alpha_l sqrt(K_ll); a violation E_j - E_i
        below a few times the errors of E_i and E_j is noise (with kernel
        values of 1e22 and alpha of 1, about 10^7), and the solver counts
        it as met. On ordinary problems (K_ii <= 1, sum alpha <= 10^4) the
        floor is below 10^-11, far under ``tol``.
        """
        eps = np.finfo(np.float64).eps
        weight = float(self.alpha @ self.root_diagonal)
        roots = self.root_diagonal[i] + self.root_diagonal[j]
        bound = 4 * eps * roots * weight
        if violation > bound:
            return bound
        # the bound is loose where kernel values span many orders of
        # magnitude: the sums themselves, from the two columns (rarely
        # needed: only when the violation is below the bound)
        alpha = self.alpha[self.rows]
        columns = (self.gram.column(i), self.gram.column(j))
        exact = sum(float(alpha @ np.abs(column)) for column in columns)
        return 4 * eps * exact

    def violation(self):
        """Return the maximal KKT violation m(alpha) - M(alpha) now."""
        if not self.per_class:
            return max_violation(self.alpha, self.y, self.C, self.E)
        return max(
            max_violation(self.alpha[g], self.y[g], self.C[g], self.E[g])
            for g in self.groups
        )

    def objective(self):
        """W = -(1/2 a^T Q a + p^T a) = -1/2 sum_k a_k (y_k E_k + p_k)."""
        return -0.5 * float(self.alpha @ (self.y * self.E + self.p))

    def record(self, violation):
        if self.history:
            self.history.record(
                dual_objective=self.objective(), kkt_violation=violation
            )

    def step(self, i, j, K_i=None):
        """Take the analytic step on (i, j); return whether alpha changed."""
        if i == j:
            return False
        if K_i is None:
            K_i = self.gram.column(i)
        alpha, y, C = self.alpha, self.y, self.C
        alpha_i_new, alpha_j_new = two_variable_step(
            alpha[i], alpha[j], y[i], y[j], self.E[i], self.E[j],
            self.diagonal[i], self.diagonal[j], float(K_i[self.position(j)]),
            C[i], C_j=C[j],
        )  # fmt: skip
        if alpha_i_new == alpha[i] and alpha_j_new == alpha[j]:
            return False
        K_j = self.gram.column(j)
        # E_k = sum_l alpha_l y_l K_lk - y_k changes through alpha_i and
        # alpha_j only (K_i and K_j cover the active points).
        rows = self.rows
        self.E[rows] += np.float64((alpha_i_new - alpha[i]) * y[i]) * K_i
        self.E[rows] += np.float64((alpha_j_new - alpha[j]) * y[j]) * K_j
        if self.E_bar is not None:  # shrinking: E_bar over all n points
            for k, new in ((i, alpha_i_new), (j, alpha_j_new)):
                if (alpha[k] >= C[k]) != (new >= C[k]):  # at C, or leaves
                    sign = 1.0 if new >= C[k] else -1.0
                    self.E_bar += np.float64(sign * C[k] * y[k]) * (
                        self.gram.full_column(k)
                    )
        alpha[i], alpha[j] = alpha_i_new, alpha_j_new
        for k in (i, j):
            positive = y[k] > 0
            self.up[k] = alpha[k] < C[k] if positive else alpha[k] > 0
            self.low[k] = alpha[k] > 0 if positive else alpha[k] < C[k]
        self.n_iter += 1
        return True

    def result(self, tol):
        violation = self.violation()
        history = self.history.arrays()
        b, r = self.intercept()
        return SolverResult(
            alpha=self.alpha,
            b=b,
            n_iter=self.n_iter,
            converged=self.met(violation, tol),
            dual_objective=self.objective(),
            kkt_violation=violation,
            history=history,
            status=self.final_status(violation, tol),
            r=r,
        )

    def intercept(self):
        """Return b = -rho and Solver_NU's r (None with one constraint).

        LIBSVM's ``calculate_rho`` (:func:`intercept_from_errors`) over all
        points; with ``per_class``, ``Solver_NU::calculate_rho``: r_1 and
        r_2 from each class alone (r_1 = -b_+, r_2 = b_-), rho =
        (r_1 - r_2) / 2 and r = (r_1 + r_2) / 2.
        """
        if not self.per_class:
            b = intercept_from_errors(self.alpha, self.y, self.C, self.E)
            return b, None
        b_plus, b_minus = (
            intercept_from_errors(
                self.alpha[g], self.y[g], self.C[g], self.E[g]
            )
            for g in self.groups
        )
        return 0.5 * (b_plus + b_minus), 0.5 * (b_minus - b_plus)

    def final_status(self, violation, tol):
        """Why the solver stopped, for :attr:`SolverResult.status`."""
        if self.met(violation, tol):
            return "converged"
        if self.status is not None and self.status != "converged":
            return self.status
        return "no_step"  # Platt's loop found no pair that could move


def two_variable_step(
    alpha_i, alpha_j, y_i, y_j, E_i, E_j, K_ii, K_jj, K_ij, C, *, C_j=None
):
    """Maximise the dual over the pair (alpha_i, alpha_j), the others fixed.

    Moving alpha_j by t and alpha_i by -y_i y_j t keeps sum_k alpha_k y_k
    fixed and changes the dual by

        W(t) - W(0) = y_j (E_i - E_j) t - eta t^2 / 2,
        eta = K_ii + K_jj - 2 K_ij,

    so for eta > 0 the unconstrained maximum is
    alpha_j + y_j (E_i - E_j) / eta, which is then clipped to [L, H], the
    segment of the constraint line inside the box [0, C_i] x [0, C_j]. For
    eta <= 0 (an indefinite kernel, or duplicate points) W is linear or
    convex along the line, and the better end of the segment is taken
    (Platt 1998, section 2.2).

    Parameters
    ----------
    alpha_i, alpha_j : float
        Current multipliers, in [0, C_i] and [0, C_j].
    y_i, y_j : float
        Labels, -1.0 or +1.0.
    E_i, E_j : float
        Errors f(x) - y (with or without b: only E_i - E_j enters).
    K_ii, K_jj, K_ij : float
        Kernel values.
    C : float
        Box constraint C_i of alpha_i, and of alpha_j unless ``C_j`` is
        given; ``np.inf`` for the hard margin.
    C_j : float, optional
        Box constraint of alpha_j when it differs from that of alpha_i
        (per-point bounds C_i = C * weight_i).

    Returns
    -------
    alpha_i_new, alpha_j_new : float
        The maximiser; equal to the inputs when no step improves the dual.

    Raises
    ------
    ValueError
        If alpha_i or alpha_j lies outside its box [0, C], a label is not
        -1 or +1, or the dual is unbounded along the line (C infinite and
        eta <= 0 with a rising objective): the data are not separable in
        feature space.

    Notes
    -----
    Equations (10)-(16) of the CS229 simplified SMO handout, with eta of the
    opposite sign; Platt (1998), equations (12.6)-(12.8).

    References
    ----------
    Platt (1998), "Sequential minimal optimization", section 2.2; the CS229
    simplified SMO handout; Chang & Lin (2011), LIBSVM's ``Solver::Solve``.
    Book chapter: *The two-variable step*.

    Examples
    --------
    Two orthogonal points of opposite classes, from alpha = 0: eta = 2 and
    the step moves both multipliers to 1.

    >>> from svmlib.solvers import two_variable_step
    >>> two_variable_step(0.0, 0.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0, 0.0, 10.0)
    (1.0, 1.0)
    """
    C_i = C
    C_j = C if C_j is None else C_j
    if not (0.0 <= alpha_i <= C_i and 0.0 <= alpha_j <= C_j):
        raise ValueError(
            f"alpha_i = {alpha_i!r} and alpha_j = {alpha_j!r} must lie in "
            f"[0, C_i] = [0, {C_i!r}] and [0, C_j] = [0, {C_j!r}]."
        )
    if y_i not in (-1.0, 1.0) or y_j not in (-1.0, 1.0):
        raise ValueError(
            f"y_i and y_j must be -1 or +1, got {y_i!r} and {y_j!r}."
        )
    L, H = step_bounds(alpha_i, alpha_j, y_i, y_j, C_i, C_j=C_j)
    if L >= H:
        return alpha_i, alpha_j
    slope = y_j * (E_i - E_j)
    eta = K_ii + K_jj - 2.0 * K_ij
    if eta > TAU:
        move = slope / eta
    else:
        move = _better_end(alpha_j, L, H, slope, eta)
        if move == 0.0:
            return alpha_i, alpha_j
    return pair_on_segment(alpha_i, alpha_j, y_i, y_j, move, C_i, C_j)


def pair_on_segment(alpha_i, alpha_j, y_i, y_j, move, C_i, C_j):
    """Move alpha_j by ``move`` and alpha_i with it, clipped to [L, H].

    Inside the segment, alpha_j moves by ``move`` and alpha_i by
    -y_i y_j ``move``, each from its own value (as LIBSVM's
    ``Solver::Solve``): computing alpha_i from the *rounded* change of
    alpha_j instead would lose every move smaller than alpha_j's rounding
    unit, although alpha_i, when much smaller, can take it (with kernel
    values of 1e43, moves of 1e-42 are the real ones). Each is then exact
    to its own rounding, and the constraint alpha_i + y_i y_j alpha_j =
    const holds to the rounding of the two. At or beyond an end of the
    segment, the pair is :func:`land_on_end`'s: the multiplier that
    reaches a bound is placed exactly on it. No value is moved onto a bound
    because it is merely close to it: with tiny C, or huge kernel values,
    multipliers of 1e-13 are real.

    Parameters
    ----------
    alpha_i, alpha_j : float
        The multipliers before the step.
    y_i, y_j : float
        Labels, -1.0 or +1.0.
    move : float
        How far the step would move alpha_j, before clipping (-inf or
        +inf: to the end L or H).
    C_i, C_j : float
        Upper bounds of alpha_i and alpha_j (``np.inf`` allowed).

    Returns
    -------
    alpha_i_new, alpha_j_new : float
        The pair after the step, inside the box.

    References
    ----------
    Platt (1998), equations (12.6)-(12.8); the CS229 simplified SMO handout,
    equations (12)-(16). Book chapter: *Platt's SMO and working sets*.

    Examples
    --------
    >>> from svmlib.solvers.sequential_minimal import pair_on_segment
    >>> pair_on_segment(0.5, 0.5, 1.0, -1.0, 0.25, 1.0, 1.0)
    (0.75, 0.75)
    >>> pair_on_segment(0.5, 0.5, 1.0, -1.0, 1.0, 1.0, 1.0)
    (1.0, 1.0)

    A move below alpha_j's rounding unit still moves a small alpha_i:

    >>> pair_on_segment(1e-36, 1e-24, 1.0, -1.0, 1e-41, 1.0, 1.0)
    (1.00001e-36, 1e-24)
    """
    # the moves of alpha_j that keep both multipliers in their boxes (the
    # segment [L, H] of step_bounds, less alpha_j, without its rounding)
    if y_i != y_j:  # both move by +move
        lowest, highest = (
            max(-alpha_i, -alpha_j),
            min(C_i - alpha_i, C_j - alpha_j),
        )
    else:  # alpha_i moves by -move
        lowest, highest = (
            max(-alpha_j, alpha_i - C_i),
            min(C_j - alpha_j, alpha_i),
        )
    if move <= lowest:
        return land_on_end("L", alpha_i, alpha_j, y_i, y_j, C_i, C_j)
    if move >= highest:
        return land_on_end("H", alpha_i, alpha_j, y_i, y_j, C_i, C_j)
    alpha_i_new = alpha_i - y_i * y_j * move
    alpha_j_new = alpha_j + move
    return (
        onto_box(alpha_i_new, C_i, alpha_i + abs(move)),
        onto_box(alpha_j_new, C_j, alpha_j + abs(move)),
    )


#: Values within this many units of rounding of a bound are on it.
ROUNDING = 4 * np.finfo(np.float64).eps


def onto_box(alpha, C, scale):
    """Clip alpha to [0, C]; within rounding error of a bound, onto it.

    A multiplier computed from others (alpha_i from the constraint that
    the step keeps) carries their rounding error, about eps times their
    size ``scale``. When it lands that close to 0 or C, the exact value is
    the bound (for example 0.7 + 0.2 = 0.8999999999999999 where C = 0.9).
    Nothing is moved further: multipliers of 1e-13 are real when C is
    1e-13 or the kernel values are 1e13.

    Parameters
    ----------
    alpha : float
        The computed multiplier.
    C : float
        Its upper bound (``np.inf`` allowed).
    scale : float
        Size of the values it was computed from (for example
        alpha_i + alpha_j), >= 0.

    Returns
    -------
    float
        alpha in [0, C]: exactly 0 or C within ``ROUNDING * scale`` of them.

    References
    ----------
    Goldberg (1991), "What every computer scientist should know about
    floating-point arithmetic" (the error of a sum). Book chapter:
    *Platt's SMO and working sets*.

    Examples
    --------
    >>> from svmlib.solvers.sequential_minimal import onto_box
    >>> onto_box(0.7 + 0.2, 0.9, 0.9), onto_box(1e-13, 1e-13, 2e-13)
    (0.9, 1e-13)
    >>> onto_box(3e-17, 1.0, 1.0), onto_box(3e-17, 1.0, 1e-16)
    (0.0, 3e-17)
    """
    tolerance = ROUNDING * scale
    if alpha <= tolerance:
        return 0.0
    if alpha >= C - tolerance:
        return C
    return alpha


def land_on_end(end, alpha_i, alpha_j, y_i, y_j, C_i, C_j):
    """Place the pair at an end of the step's segment, one on its bound.

    At each end ``L`` or ``H`` of the segment (see :func:`step_bounds`) one
    of the two multipliers reaches a bound of its box. It is placed exactly
    on that bound, and the other follows from the constraint
    alpha_i + y_i y_j alpha_j = const that the step keeps. Computing both
    from the moved alpha_j instead can leave the multiplier that should be
    at its bound one rounding error away from it, in both I_up and I_low,
    where WSS 2 would pick it again and again (LIBSVM's ``Solver::Solve``
    places it in the same way).

    Parameters
    ----------
    end : {"L", "H"}
        Which end of the segment alpha_j reached.
    alpha_i, alpha_j : float
        The multipliers before the step.
    y_i, y_j : float
        Labels, -1.0 or +1.0.
    C_i, C_j : float
        Upper bounds of alpha_i and alpha_j (``np.inf`` allowed).

    Returns
    -------
    alpha_i_new, alpha_j_new : float
        The pair at that end: one of them exactly 0, C_i or C_j.

    Raises
    ------
    ValueError
        If ``end`` is neither "L" nor "H".

    References
    ----------
    Platt (1998), equations (12.3)-(12.8); Chang & Lin (2011), LIBSVM's
    ``Solver::Solve``. Book chapter: *Platt's SMO and working sets*.

    Examples
    --------
    Opposite labels keep alpha_i - alpha_j = 0.3; at the lower end, alpha_i
    is exactly 0:

    >>> from svmlib.solvers.sequential_minimal import land_on_end
    >>> land_on_end("L", 0.1, 0.4, 1.0, -1.0, 1.0, 1.0)
    (0.0, 0.30000000000000004)
    """
    if end not in ("L", "H"):
        raise ValueError(f'end must be "L" or "H", got {end!r}.')
    # onto_box's scale: the size of the values each result is computed from
    scale = alpha_i + alpha_j
    if y_i != y_j:  # alpha_i - alpha_j is kept
        difference = alpha_i - alpha_j
        if end == "L":  # L = max(0, alpha_j - alpha_i)
            if difference < 0:  # alpha_i reaches 0
                return 0.0, onto_box(-difference, C_j, scale)
            return onto_box(difference, C_i, scale), 0.0  # alpha_j: 0
        if C_j <= C_i - difference:  # H = min(C_j, C_i + alpha_j - alpha_i)
            return onto_box(C_j + difference, C_i, scale + C_j), C_j
        return C_i, onto_box(C_i - difference, C_j, scale + C_i)
    total = alpha_i + alpha_j  # alpha_i + alpha_j is kept
    if end == "L":  # L = max(0, alpha_i + alpha_j - C_i)
        if total > C_i:  # alpha_i reaches C_i
            return C_i, onto_box(total - C_i, C_j, scale + C_i)
        return onto_box(total, C_i, scale), 0.0  # alpha_j reaches 0
    if C_j <= total:  # H = min(C_j, alpha_i + alpha_j)
        return onto_box(total - C_j, C_i, scale + C_j), C_j
    return 0.0, onto_box(total, C_j, scale)  # alpha_i reaches 0


def step_bounds(alpha_i, alpha_j, y_i, y_j, C, *, C_j=None):
    """Return the bounds L <= alpha_j_new <= H of a two-variable step.

    The step keeps alpha_i y_i + alpha_j y_j fixed, so (alpha_i, alpha_j)
    moves on a line of slope -y_i y_j; L and H are where that line leaves the
    box [0, C_i] x [0, C_j].

    Parameters
    ----------
    alpha_i, alpha_j : float
        Current multipliers, in [0, C_i] and [0, C_j].
    y_i, y_j : float
        Labels, -1.0 or +1.0.
    C : float
        Box constraint C_i of alpha_i, and of alpha_j unless ``C_j`` is
        given (``np.inf`` allowed).
    C_j : float, optional
        Box constraint of alpha_j when it differs from that of alpha_i.

    Returns
    -------
    L, H : float

    Notes
    -----
    Equations (10) and (11) of the CS229 simplified SMO handout; Platt
    (1998), equations (12.3) and (12.4); with two bounds, LIBSVM's
    ``Solver::Solve`` (``get_C(i)``, ``get_C(j)``).

    References
    ----------
    Platt (1998), "Sequential minimal optimization", section 2.1; the CS229
    simplified SMO handout. Book chapter: *The two-variable step*.

    Examples
    --------
    >>> from svmlib.solvers import step_bounds
    >>> step_bounds(0.2, 0.5, 1.0, -1.0, 1.0)
    (0.3, 1.0)
    >>> step_bounds(0.2, 0.5, 1.0, 1.0, 1.0, C_j=0.6)
    (0.0, 0.6)
    """
    C_i = C
    C_j = C if C_j is None else C_j
    if y_i != y_j:
        return max(0.0, alpha_j - alpha_i), min(C_j, C_i + alpha_j - alpha_i)
    return max(0.0, alpha_i + alpha_j - C_i), min(C_j, alpha_i + alpha_j)


def _better_end(alpha_j, L, H, slope, eta):
    """Return the move to the end of [L, H] with the larger dual (eta <= 0).

    -inf for L, +inf for H (see :func:`pair_on_segment`), 0.0 when neither
    end gains.
    """
    if np.isinf(H):
        if slope > 0 or eta < 0:
            raise ValueError(
                "The hard-margin dual is unbounded: the training data are "
                "not separable in the kernel's feature space (for example, "
                "the same point with both labels). Use a finite C."
            )
        return -np.inf

    def gain(t):
        return slope * t - 0.5 * eta * t * t

    gain_L, gain_H = gain(L - alpha_j), gain(H - alpha_j)
    if max(gain_L, gain_H) <= 0.0:
        return 0.0
    return -np.inf if gain_L > gain_H else np.inf
