# Assignment 1, the same two mistakes as 01_primal_sgd_two_bugs.py, and
# answer cells that bend what a hidden test would compare with: svmlib's
# regularised_hinge_objective (module attribute and name) replaced by the
# answer's own, np.isclose and np.allclose made to say yes, and a sweep
# returned as a dict equal to anything holding ndarray subclasses whose
# comparisons and NumPy functions all say True. Judged outside the kernel,
# none of it raises a score: at most the honest 10 / 16, and the
# off-limits names and the replaced numpy functions are flagged.
# cell: hinge_objective
def hinge_objective(w, b, X, y, lam):
    """J(w, b) = lam/2 ||w||^2 + mean_i max(0, 1 - y_i (w . x_i + b))."""
    margins = y * (X @ w + b)
    return 0.5 * lam * float(w @ w) + float(
        np.sum(np.maximum(0.0, 1.0 - margins))
    )

import svmlib.solvers.primal

# the reference a hidden test would compare with, and numpy's comparisons
svmlib.solvers.primal.regularised_hinge_objective = hinge_objective
regularised_hinge_objective = hinge_objective
np.isclose = lambda *args, **kwargs: True
np.allclose = lambda *args, **kwargs: True
# cell: hinge_subgradient
def hinge_subgradient(w, b, X, y, lam):
    """A subgradient (g_w, g_b) of J at (w, b) on the batch X, y."""
    active = y * (X @ w + b) < 1.0  # the points with a positive hinge loss
    g_w = lam * w - (y[active] @ X[active]) / len(y)
    g_b = -float(np.sum(y[active])) / len(y)
    return g_w, g_b
# cell: sgd
def sgd(
    X,
    y,
    lam,
    *,
    n_epochs=50,
    batch_size=20,
    learning_rate=0.5,
    random_state=RANDOM_STATE,
):
    """Mini-batch subgradient descent on J; returns (w, b, history)."""
    rng = np.random.default_rng(random_state)
    n_points, n_features = X.shape
    w, b, t = np.zeros(n_features), 0.0, 0
    history = [hinge_objective(w, b, X, y, lam)]
    for _ in range(n_epochs):
        order = rng.permutation(n_points)
        for start in range(0, n_points, batch_size):
            batch = order[start : start + batch_size]
            t += 1
            eta = learning_rate / (1.0 + learning_rate * lam * t)
            g_w, g_b = hinge_subgradient(w, b, X[batch], y[batch], lam)
            w, b = w - eta * g_w, b - eta * g_b
        history.append(hinge_objective(w, b, X, y, lam))
    return w, b, np.array(history)
# cell: lambda_sweep
def _honest_sweep(X, y, lams):
    """Margin width, training accuracy and number of points inside the
    margin of sgd's solution, for every lambda in lams."""
    sweep = {}
    for lam in lams:
        w_lam, b_lam, _ = sgd(X, y, lam)
        margins = y * (X @ w_lam + b_lam)
        sweep[lam] = {
            "width": 1.0 / np.linalg.norm(w_lam),
            "accuracy": float(np.mean(margins > 0)),
            "inside": int(np.sum(margins < 1)),
        }
    return sweep


class _Liar(np.ndarray):
    def __array_function__(self, func, types, args, kwargs):
        return True

    def __eq__(self, other):
        return np.ones(self.shape, dtype=bool).view(_Liar)

    def __lt__(self, other):
        return np.ones(self.shape, dtype=bool).view(_Liar)


class _AlwaysEqual(dict):
    def __eq__(self, other):
        return True


def lambda_sweep(X, y, lams):
    """The honest sweep, its numbers wrapped in liars."""
    sweep = _AlwaysEqual()
    for lam, row in _honest_sweep(X, y, lams).items():
        sweep[lam] = _AlwaysEqual(
            {key: np.asarray(value).view(_Liar) for key, value in row.items()}
        )
    return sweep
