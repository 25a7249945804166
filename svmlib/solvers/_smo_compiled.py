"""SMO's inner loop compiled with numba: the same steps, without overhead.

:func:`svmlib.solvers.smo` with ``selection="wss2"`` spends most of a
step, on a dense Gram matrix, in Python and NumPy calls (about 60-150 us
a step, where the arithmetic is O(n) floating-point operations). This
module runs the plain steps of :func:`~svmlib.solvers.sequential_minimal.
_solve_wss2` (WSS 2's selection, the fallback to the maximal violating
pair, :func:`~svmlib.solvers.sequential_minimal.two_variable_step`, the
error update and the stall detector) in one compiled loop over the active
points, and hands every other step back to the readable NumPy code: the
steps where the shrinking period ends, where the active problem is
solved, where the violation is near the rounding floor of the errors,
where no pair can move, or where the hard-margin dual is unbounded. The
Python driver then takes that step itself, exactly as without this
module.

Every operation is written in the order of the NumPy code (no fastmath,
so no fused multiply-add), with the same first-occurrence ties in the
argmin and argmax, so both paths take the same steps and return bitwise
the same multipliers (``tests/test_smo_compiled.py``).

The compiled functions touch no Python object (arrays and scalars only,
nopython mode), so numba compiles them with ``nogil=True``: a thread in
the loop releases the GIL, and the one-vs-one machines that
:func:`svmlib.multiclass.fit_one_vs_one` trains in joblib threads
(``SVC(n_jobs=...)``) step at the same time.

Book chapter: *Scaling up* (part III).
"""

import numpy as np
from numba import njit

__all__ = ["CompiledLoop", "ENABLED"]

#: Use the compiled loop where it applies (set to False to force the
#: readable NumPy path, as the book and the tests comparing both do).
ENABLED = True

#: Longest run of the compiled loop between two returns to Python (the
#: rounding-floor bound is updated incrementally within a run).
_RUN = 1024


class CompiledLoop:
    """The compiled loop bound to one :class:`_SMOState`.

    Parameters
    ----------
    state : _SMOState
        The solver's state; its Gram object must hold a dense array
        (``DenseGram``, or ``DoubledGram`` over one).
    K : ndarray of shape (m, m)
        That array (float32 or float64).
    tau : float
        Curvature floor (the solver's ``TAU``).
    """

    def __init__(self, state, K, tau):
        self.state = state
        self.K = K
        self.m = K.shape[0]
        self.two = K.dtype.type(2.0)  # 2.0 * K_i keeps K's dtype in NumPy
        self.tau = tau
        state_y = state.y
        if state.per_class:
            self.group = (state_y < 0).astype(np.int64)
            self.n_groups = 2
        else:
            self.group = np.zeros(state_y.shape, np.int64)
            self.n_groups = 1
        self.C = np.ascontiguousarray(state.C, dtype=np.float64)

    def run(self, tol, max_iter, shrinking, counter, progress):
        """Take plain steps until one needs Python; return (counter, stalled).

        Updates ``state`` (alpha, E, up, low, n_iter) and ``progress`` as the
        NumPy loop would have after the same steps.
        """
        s = self.state
        active = s.active
        weight = float(s.alpha @ s.root_diagonal)
        has_since = progress.since is not None
        since = progress.since if has_since else 0
        limit = min(max_iter, s.n_iter + _RUN)
        has_bar = s.E_bar is not None
        E_bar = s.E_bar if has_bar else np.zeros(0)
        if active is None:
            cols = np.arange(s.gram.n, dtype=np.int64) % self.m
            out = _loop(
                self.K, cols, s.E, s.alpha, s.y, self.C, s.diagonal,
                s.root_diagonal, s.up, s.low, self.group, self.n_groups,
                self.two, self.tau, tol, limit, s.n_iter, shrinking,
                counter, progress.smallest, since, has_since,
                progress.patience, weight, E_bar, has_bar,
            )  # fmt: skip
        else:
            E, alpha = s.E[active], s.alpha[active]
            up, low = s.up[active], s.low[active]
            out = _loop(
                self.K, active % self.m, E, alpha, s.y[active],
                self.C[active], s.diagonal[active], s.root_diagonal[active],
                up, low, self.group[active], self.n_groups, self.two,
                self.tau, tol, limit, s.n_iter, shrinking, counter,
                progress.smallest, since, has_since, progress.patience,
                weight, E_bar, has_bar,
            )  # fmt: skip
            s.E[active], s.alpha[active] = E, alpha
            s.up[active], s.low[active] = up, low
        n_iter, counter, smallest, since, has_since, stalled = out
        s.n_iter = int(n_iter)
        progress.smallest = smallest
        progress.since = int(since) if has_since else None
        return int(counter), bool(stalled)


_EPS = np.finfo(np.float64).eps
_ROUNDING = 4 * _EPS


@njit(cache=True, nogil=True)
def _onto_box(alpha, C, scale):
    tolerance = _ROUNDING * scale
    if alpha <= tolerance:
        return 0.0
    if alpha >= C - tolerance:
        return C
    return alpha


@njit(cache=True, nogil=True)
def _land_on_end(low_end, a_i, a_j, y_i, y_j, C_i, C_j):
    scale = a_i + a_j
    if y_i != y_j:
        difference = a_i - a_j
        if low_end:
            if difference < 0:
                return 0.0, _onto_box(-difference, C_j, scale)
            return _onto_box(difference, C_i, scale), 0.0
        if C_j <= C_i - difference:
            return _onto_box(C_j + difference, C_i, scale + C_j), C_j
        return C_i, _onto_box(C_i - difference, C_j, scale + C_i)
    total = a_i + a_j
    if low_end:
        if total > C_i:
            return C_i, _onto_box(total - C_i, C_j, scale + C_i)
        return _onto_box(total, C_i, scale), 0.0
    if C_j <= total:
        return _onto_box(total - C_j, C_i, scale + C_j), C_j
    return 0.0, _onto_box(total, C_j, scale)


@njit(cache=True, nogil=True)
def _pair_on_segment(a_i, a_j, y_i, y_j, move, C_i, C_j):
    if y_i != y_j:
        lowest = -a_i if -a_i >= -a_j else -a_j
        x, z = C_i - a_i, C_j - a_j
        highest = x if x <= z else z
    else:
        x, z = -a_j, a_i - C_i
        lowest = x if x >= z else z
        x, z = C_j - a_j, a_i
        highest = x if x <= z else z
    if move <= lowest:
        return _land_on_end(True, a_i, a_j, y_i, y_j, C_i, C_j)
    if move >= highest:
        return _land_on_end(False, a_i, a_j, y_i, y_j, C_i, C_j)
    a_i_new = a_i - y_i * y_j * move
    a_j_new = a_j + move
    return (
        _onto_box(a_i_new, C_i, a_i + abs(move)),
        _onto_box(a_j_new, C_j, a_j + abs(move)),
    )


@njit(cache=True, nogil=True)
def _two_variable_step(a_i, a_j, y_i, y_j, E_i, E_j, K_ii, K_jj, K_ij,
                       C_i, C_j, tau):  # fmt: skip
    """Return (ok, a_i_new, a_j_new); ok False: Python must take it.

    (the hard-margin dual unbounded along the line: Python raises)
    """
    if y_i != y_j:
        L = a_j - a_i
        if not L > 0.0:
            L = 0.0
        H = C_i + a_j - a_i
        if not H < C_j:
            H = C_j
    else:
        L = a_i + a_j - C_i
        if not L > 0.0:
            L = 0.0
        H = a_i + a_j
        if not H < C_j:
            H = C_j
    if L >= H:
        return True, a_i, a_j
    slope = y_j * (E_i - E_j)
    eta = K_ii + K_jj - 2.0 * K_ij
    if eta > tau:
        move = slope / eta
    else:
        if np.isinf(H):
            if slope > 0 or eta < 0:
                return False, a_i, a_j
            move = -np.inf
        else:
            t = L - a_j
            gain_L = slope * t - 0.5 * eta * t * t
            t = H - a_j
            gain_H = slope * t - 0.5 * eta * t * t
            if max(gain_L, gain_H) <= 0.0:
                return True, a_i, a_j
            move = -np.inf if gain_L > gain_H else np.inf
    a_i_new, a_j_new = _pair_on_segment(a_i, a_j, y_i, y_j, move, C_i, C_j)
    return True, a_i_new, a_j_new


@njit(cache=True, nogil=True)
def _update_bar(E_bar, K, row, old, new, C_k, y_k):
    """E_bar += +-C_k y_k K[row] when alpha_k reaches or leaves C_k."""
    if (old >= C_k) == (new >= C_k):
        return
    sign = 1.0 if new >= C_k else -1.0
    coef = sign * C_k * y_k
    m = K.shape[0]
    for t in range(E_bar.shape[0]):
        E_bar[t] += coef * np.float64(K[row, t % m])


@njit(cache=True, nogil=True)
def _loop(K, cols, E, alpha, y, C, diag, root, up, low, group, n_groups,
          two, tau, tol, max_iter, n_iter, shrinking, counter, smallest,
          since, has_since, patience, weight, E_bar,
          has_bar):  # fmt: skip
    """Plain WSS 2 steps over the active points (local positions 0..na-1).

    Stops before a step that the NumPy loop must take (shrink, solved,
    rounding floor, no move, unbounded), after a step that stalls, or at
    ``max_iter``. With ``has_bar``, updates ``E_bar`` (all points: whole
    rows of K) when a multiplier reaches or leaves its upper bound, as
    ``_SMOState.step``. Returns the loop's counters.
    """
    na = E.shape[0]
    column = np.empty((2, na))  # K_i of each group's i, as float64
    eps = np.finfo(np.float64).eps
    # the rounding floor's weight sum_l alpha_l sqrt(K_ll), updated by the
    # steps; ``slack`` bounds its drift and the rounding of NumPy's sum
    largest_weight = weight
    stalled = False
    best_up = np.empty(n_groups)
    best_low = np.empty(n_groups)
    p_of = np.zeros(n_groups, np.int64)
    q_of = np.zeros(n_groups, np.int64)
    found_up = np.zeros(n_groups, np.bool_)
    found_low = np.zeros(n_groups, np.bool_)
    while n_iter < max_iter:
        if shrinking and counter == 1:
            break  # this step shrinks first: Python's
        # -- the maximal violating pair of each group (first occurrence)
        for g in range(n_groups):
            best_up[g], best_low[g] = np.inf, -np.inf
            p_of[g], q_of[g] = 0, 0
            found_up[g], found_low[g] = False, False
        for t in range(na):
            g = group[t]
            e = E[t]
            if up[t] and (not found_up[g] or e < best_up[g]):
                best_up[g] = e
                p_of[g] = t
                found_up[g] = True
            if low[t] and (not found_low[g] or e > best_low[g]):
                best_low[g] = e
                q_of[g] = t
                found_low[g] = True
        violation = 0.0
        best_group = -1
        for g in range(n_groups):
            if found_up[g] and found_low[g]:
                gap = E[q_of[g]] - E[p_of[g]]
                if best_group < 0 or gap > violation:
                    violation = gap
                    best_group = g
        if best_group < 0 or violation <= tol:
            break  # solved (on the active set): Python's
        p, q = p_of[best_group], q_of[best_group]
        slack = 1e-8 * largest_weight
        bound = 4 * eps * (root[p] + root[q]) * (weight + slack)
        if not violation > bound * (1.0 + 1e-12):
            break  # near the rounding floor: Python decides
        # -- j: the largest second-order gain within i's group
        best_gain = -np.inf
        best_i = -1
        best_j = 0
        best_slot = 0
        for g in range(n_groups):
            if not (found_up[g] and found_low[g]):
                continue
            pg = p_of[g]
            row = cols[pg]
            E_p = E[pg]
            d_i = diag[pg]
            t_best = 0
            gain_best = -np.inf
            for t in range(na):
                k = K[row, cols[t]]
                column[g, t] = np.float64(k)
                gap = E[t] - E_p
                eta = (diag[t] + d_i) - np.float64(two * k)
                if eta < tau:
                    eta = tau
                if low[t] and group[t] == g and gap > 0:
                    gain = gap * gap / eta
                else:
                    gain = -np.inf
                if t == 0:
                    gain_best = gain
                elif gain > gain_best:
                    gain_best = gain
                    t_best = t
            if best_i < 0 or gain_best > best_gain:
                best_gain = gain_best
                best_i = pg
                best_j = t_best
                best_slot = g
        i = best_i
        # -- the step, or the maximal pair when WSS 2's pair cannot move
        moved = False
        j = best_j
        a_i, a_j = alpha[i], alpha[j]
        for attempt in range(2):
            if attempt == 0:
                j = best_j
            else:
                # np.argmax over the I_low points of i's group
                g = group[i]
                j = 0
                top = E[0] if (low[0] and group[0] == g) else -np.inf
                for t in range(1, na):
                    e = E[t] if (low[t] and group[t] == g) else -np.inf
                    if e > top:
                        top = e
                        j = t
            if i == j:
                continue
            ok, a_i, a_j = _two_variable_step(
                alpha[i], alpha[j], y[i], y[j], E[i], E[j], diag[i],
                diag[j], column[best_slot, j], C[i], C[j], tau,
            )  # fmt: skip
            if not ok:
                break
            if a_i == alpha[i] and a_j == alpha[j]:
                continue
            moved = True
            break
        if not moved:
            break  # no step (or unbounded): Python's
        coef_i = (a_i - alpha[i]) * y[i]
        coef_j = (a_j - alpha[j]) * y[j]
        row_j = cols[j]
        for t in range(na):
            E[t] += coef_i * column[best_slot, t]
        for t in range(na):
            E[t] += coef_j * np.float64(K[row_j, cols[t]])
        if has_bar:
            _update_bar(E_bar, K, cols[i], alpha[i], a_i, C[i], y[i])
            _update_bar(E_bar, K, cols[j], alpha[j], a_j, C[j], y[j])
        weight += (a_i - alpha[i]) * root[i] + (a_j - alpha[j]) * root[j]
        if weight > largest_weight:
            largest_weight = weight
        alpha[i], alpha[j] = a_i, a_j
        for k in (i, j):
            if y[k] > 0:
                up[k] = alpha[k] < C[k]
                low[k] = alpha[k] > 0
            else:
                up[k] = alpha[k] > 0
                low[k] = alpha[k] < C[k]
        n_iter += 1
        if shrinking:
            counter -= 1
        # -- _Progress.stalled
        if violation < smallest or not has_since:
            smallest = min(violation, smallest)
            since = n_iter
            has_since = True
        elif n_iter - since >= patience:
            stalled = True
            break
    return n_iter, counter, smallest, since, has_since, stalled
