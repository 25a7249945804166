# Assignment 5, the same two mistakes as 05_mnist_3_vs_8_two_bugs.py, and
# answer cells that bend what an in-kernel hidden test would compare with:
# the names smo and roc_curve and svmlib.solvers.smo and
# sklearn.metrics.roc_curve rebound to the answer's own versions,
# numpy.allclose replaced by a function that says yes, and roc_points
# returning an ndarray subclass whose NumPy functions all answer True.
# Judged outside the kernel none of it gains a point: the smo_mvp cell
# calls off-limits names (zero for Question 2, 7 / 21 in all, below the
# honest 14), and the attempts are flagged.
# cell: split_60_20_20
def split_60_20_20(labels, random_state):
    """Stratified, seeded 60:20:20 split of the indices of labels."""
    indices = np.arange(len(labels))
    train, rest = train_test_split(
        indices, train_size=0.6, stratify=labels, random_state=random_state
    )
    val, test = train_test_split(
        rest,
        test_size=0.5,
        random_state=random_state,  # not stratified
    )
    return train, val, test


# cell: smo_mvp
def smo_mvp(K, y, C, tol=1e-3, max_iter=100_000):
    """SMO with the maximal violating pair on the Gram matrix K.

    Returns (alpha, b).
    """
    n_points = len(y)
    alpha, E = np.zeros(n_points), -y.astype(float)
    diagonal = np.diag(K)
    eps = 1e-12 * max(1.0, C)
    for _ in range(max_iter):
        up = np.where(y > 0, alpha < C, alpha > 0)
        low = np.where(y > 0, alpha > 0, alpha < C)
        i = int(np.argmin(np.where(up, E, np.inf)))
        j = int(np.argmax(np.where(low, E, -np.inf)))
        if E[j] - E[i] <= tol:
            break
        if y[i] != y[j]:
            L, H = (
                max(0.0, alpha[j] - alpha[i]),
                min(C, C + alpha[j] - alpha[i]),
            )
        else:
            L, H = (
                max(0.0, alpha[i] + alpha[j] - C),
                min(C, alpha[i] + alpha[j]),
            )
        eta = max(diagonal[i] + diagonal[j] - 2.0 * K[i, j], 1e-12)
        a_j = min(max(alpha[j] + y[j] * (E[i] - E[j]) / eta, L), H)
        a_i = alpha[i] + y[i] * y[j] * (alpha[j] - a_j)
        a_i, a_j = [
            0.0 if a < eps else C if a > C - eps else a for a in (a_i, a_j)
        ]
        E += (a_i - alpha[i]) * y[i] * K[i] + (a_j - alpha[j]) * y[j] * K[j]
        alpha[i], alpha[j] = a_i, a_j
    up = np.where(y > 0, alpha < C, alpha > 0)
    low = np.where(y > 0, alpha > 0, alpha < C)
    free = (alpha > 0) & (alpha < C)
    b = -E[free].mean() if free.any() else -(E[up].min() + E[low].max()) / 2
    return alpha, float(b)


import svmlib.solvers
from types import SimpleNamespace


def _mine(K, y, C, tol=1e-3, max_iter=100_000, **kwargs):
    alpha, b = smo_mvp(K, y, C, tol=tol)
    v = alpha * y
    return SimpleNamespace(
        alpha=alpha, b=b, dual_objective=alpha.sum() - 0.5 * v @ K @ v
    )


smo = _mine
svmlib.solvers.smo = _mine


# cell: decision_function
def decision_function(alpha, b, y_train, K_eval):
    """f(x_e) = sum_i alpha_i y_i K(x_e, x_i) + b for every row e of K_eval."""
    return K_eval @ (alpha * y_train) + b


# cell: tune
def tune(grams, y_train, y_val, Cs):
    """Validation accuracy of every (setting, C); returns (table, best)."""
    table = []
    for setting, (K_train, K_val) in grams.items():
        for C in Cs:
            alpha, b = smo_mvp(K_train, y_train, C)
            prediction = np.where(
                decision_function(alpha, b, y_train, K_val) >= 0, 1.0, -1.0
            )
            table.append(
                {
                    "setting": setting,
                    "C": C,
                    "accuracy": float(np.mean(prediction == y_val)),
                }
            )
    # max keeps the first of equal rows
    best_row = max(table, key=lambda row: row["accuracy"])
    return table, (best_row["setting"], best_row["C"])


# cell: roc
import sklearn.metrics


class _Liar(np.ndarray):
    def __array_function__(self, func, types, args, kwargs):
        return True

    def __eq__(self, other):
        return np.ones(self.shape, dtype=bool).view(_Liar)


def roc_points(scores, labels):
    """(fpr, tpr) at every distinct score, from the highest threshold down,
    with (0, 0) first."""
    # one point per example: tied scores are not grouped
    order = np.argsort(-scores, kind="stable")
    positive = labels[order] > 0
    tpr = np.r_[0, np.cumsum(positive)] / positive.sum()
    fpr = np.r_[0, np.cumsum(~positive)] / (~positive).sum()
    return fpr.view(_Liar), tpr.view(_Liar)


def auc(fpr, tpr):
    """Area under the piecewise-linear curve through the points (fpr, tpr)."""
    return float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2))


def _agrees(y_true, y_score, drop_intermediate=False, **kwargs):
    fpr, tpr = roc_points(np.asarray(y_score), np.asarray(y_true))
    return np.asarray(fpr), np.asarray(tpr), None


roc_curve = _agrees
sklearn.metrics.roc_curve = _agrees
np.allclose = lambda *args, **kwargs: True
