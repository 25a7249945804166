"""Hidden checks of 05_mnist_3_vs_8.ipynb, judged outside the student's kernel.

Each check calls the student's functions in the sandbox on the inputs
below (plain data) and judges the returned numbers here, in the grader's
process, against closed forms, svmlib's SMO and scikit-learn's ROC
(svmbook_classroom.checks; instructors.md, "Writing a hidden check").
"""

import numpy as np
from sklearn.metrics import roc_auc_score, roc_curve
from sklearn.model_selection import train_test_split

from svmbook_classroom.checks import Check, Probe
from svmlib.datasets import load_mnist
from svmlib.kernels import polynomial_kernel, rbf_kernel
from svmlib.solvers import smo

# The notebook's data, made the same way as in its setup cell (the MNIST
# files from SVMLIB_DATA_DIR).
RANDOM_STATE = 0
N_IMAGES = 2000
_X_all, _digit_all = load_mnist(digits=(3, 8))
_keep, _ = train_test_split(
    np.arange(len(_digit_all)),
    train_size=N_IMAGES,
    stratify=_digit_all,
    random_state=RANDOM_STATE,
)
X = _X_all[_keep].astype(np.float64)
Y = np.where(_digit_all[_keep] == 8, 1.0, -1.0)
del _X_all, _digit_all, _keep

# Reference versions of the earlier questions, run in the kernel for the
# probes that grade a question alone (svmlib's SMO may be called from here).
STAND_INS = """
from svmlib.solvers import smo as _smo


def smo_mvp(K, y, C, tol=1e-3, max_iter=100_000):
    result = _smo(K, y, C, tol=tol)
    return result.alpha, result.b


def decision_function(alpha, b, y_train, K_eval):
    return K_eval @ (alpha * y_train) + b
"""


def as_float(value, shape=None):
    array = np.asarray(value)
    assert array.dtype.kind in "biuf"
    array = array.astype(float)
    assert shape is None or array.shape == shape
    assert np.all(np.isfinite(array))
    return array


# ---------------------------------------------------------------------------
# Question 1: a strict 60:20:20 split
# ---------------------------------------------------------------------------

SPLIT_SEEDS = (0, 1, 2, 3, 4)


def _parts(result):
    assert len(result) == 3
    parts = []
    for part in result:
        part = np.asarray(part)
        assert part.ndim == 1 and part.dtype.kind in "iu"
        parts.append(part)
    return parts


def judge_split(r):
    n = len(Y)
    for seed in SPLIT_SEEDS:
        parts = _parts(r[f"seed{seed}"])
        assert [len(part) for part in parts] == [1200, 400, 400]
        # a partition of range(n)
        assert np.array_equal(np.sort(np.concatenate(parts)), np.arange(n))
        # stratified: each class's count in each part within 1 of its share
        for part, share in zip(parts, (0.6, 0.2, 0.2), strict=True):
            for label in (-1.0, 1.0):
                count = np.sum(Y[part] == label)
                assert abs(count - share * np.sum(Y == label)) <= 1 + 1e-9
    # seeded: the same seed gives the same split, another seed another one
    again = _parts(r["seed0_again"])
    for a, b in zip(again, _parts(r["seed0"]), strict=True):
        assert np.array_equal(a, b)
    first = _parts(r["seed0"])[0]
    assert not np.array_equal(np.sort(_parts(r["seed1"])[0]), np.sort(first))


# ---------------------------------------------------------------------------
# Question 2: SMO with the maximal violating pair
# ---------------------------------------------------------------------------

N_SMO = 600
K_RBF = rbf_kernel(X[:N_SMO], sigma=5.0)
K_POLY = polynomial_kernel(X[:N_SMO], degree=3, gamma=0.01, coef0=1.0)
Y_SMO = Y[:N_SMO]
# name -> (K, C, tol)
SMO_CASES = {
    "rbf_C10": (K_RBF, 10.0, 1e-3),
    "poly_C01": (K_POLY, 0.1, 1e-4),
    "poly_C1": (K_POLY, 1.0, 1e-4),
}


def dual_objective(alpha, K, y):
    v = alpha * y
    return alpha.sum() - 0.5 * v @ K @ v


def max_violation(alpha, y, C, K):
    """The largest KKT violation of the maximal violating pair."""
    E = K @ (alpha * y) - y
    up = np.where(y > 0, alpha < C, alpha > 0)
    low = np.where(y > 0, alpha > 0, alpha < C)
    return E[low].max() - E[up].min()


def judge_smo_mvp(r):
    for name, (K, C, tol) in SMO_CASES.items():
        result = r[name]
        assert len(result) == 2
        alpha = as_float(result[0], (N_SMO,))
        b = float(as_float(result[1]).reshape(-1)[0])
        assert np.all(alpha >= 0) and np.all(alpha <= C)
        assert abs(alpha @ Y_SMO) < 1e-8
        reference = smo(K, Y_SMO, C, tol=tol)
        rtol = 1e-5 if tol >= 1e-3 else 1e-6
        assert np.isclose(
            dual_objective(alpha, K, Y_SMO),
            reference.dual_objective,
            rtol=rtol,
        )
        assert max_violation(alpha, Y_SMO, C, K) <= tol + 1e-9
        assert abs(b - reference.b) < 1e-2


# ---------------------------------------------------------------------------
# Question 3: the decision function
# ---------------------------------------------------------------------------

_r = np.random.default_rng(503)
DECISION_CASES = {
    # 50 evaluation points, 80 training points (not square: K_eval's
    # rows are the evaluation points)
    "random": (
        _r.uniform(0, 10.0, size=80) * (_r.random(80) < 0.4),
        -0.3,
        np.where(_r.random(80) < 0.5, 1.0, -1.0),
        rbf_kernel(X[1200:1250], X[:80], sigma=5.0),
    ),
    "zero_alpha": (np.zeros(3), 0.5, np.ones(3), np.ones((2, 3))),
}


def judge_decision_function(r):
    for name, (alpha, b, y_train, K_eval) in DECISION_CASES.items():
        got = as_float(r[name], (len(K_eval),))
        assert np.allclose(got, K_eval @ (alpha * y_train) + b)


# ---------------------------------------------------------------------------
# Question 4: tuning on validation data
# ---------------------------------------------------------------------------

FIT, HELD_OUT = slice(0, 600), slice(1200, 1600)
GRAMS_RBF = {
    f"sigma={s:g}": (
        rbf_kernel(X[FIT], sigma=s),
        rbf_kernel(X[HELD_OUT], X[FIT], sigma=s),
    )
    for s in (3.0, 5.0)
}
GRAMS_POLY = {
    f"degree={p}": (
        polynomial_kernel(X[FIT], degree=p, gamma=0.01, coef0=1.0),
        polynomial_kernel(
            X[HELD_OUT], X[FIT], degree=p, gamma=0.01, coef0=1.0
        ),
    )
    for p in (2, 3)
}
# name -> (grams, Cs)
TUNE_CASES = {
    "rbf": (GRAMS_RBF, [1.0, 10.0]),
    "poly": (GRAMS_POLY, [0.01, 0.1, 1.0]),
    # two equal settings: the first of the best
    "ties": (
        {"first": GRAMS_RBF["sigma=5"], "second": GRAMS_RBF["sigma=5"]},
        [10.0],
    ),
}


def reference_accuracy(K_train, K_val, C):
    result = smo(K_train, Y[FIT], C)
    f = K_val @ (result.alpha * Y[FIT]) + result.b
    return np.mean(np.where(f >= 0, 1.0, -1.0) == Y[HELD_OUT])


def judge_tune(r):
    for name, (grams, Cs) in TUNE_CASES.items():
        result = r[name]
        assert len(result) == 2
        table, best = result
        assert isinstance(table, list) and len(table) == len(grams) * len(Cs)
        rows = []
        for row in table:
            assert isinstance(row, dict)
            assert set(row) == {"setting", "C", "accuracy"}
            rows.append(
                (
                    row["setting"],
                    float(as_float(row["C"])),
                    float(as_float(row["accuracy"])),
                )
            )
        # in the order of the settings, then of C
        assert [(s, C) for s, C, _ in rows] == [
            (s, C) for s in grams for C in Cs
        ]
        if name != "ties":
            for setting, C, accuracy in rows:
                expected = reference_accuracy(*grams[setting], C)
                assert abs(accuracy - expected) <= 0.0051
        # the first of the rows with the best accuracy
        top = max(rows, key=lambda row: row[2])
        assert len(best) == 2 and best[0] == top[0]
        assert float(as_float(best[1])) == top[1]
    assert r["ties"][1][0] == "first"


# ---------------------------------------------------------------------------
# Question 5: ROC curves
# ---------------------------------------------------------------------------

_r = np.random.default_rng(505)
ROC_CASES = {
    "by_hand": (
        np.array([0.9, 0.8, 0.3, 0.1]),
        np.array([1.0, -1.0, 1.0, -1.0]),
    )
}
for _k in range(5):
    _labels = _r.choice([-1.0, 1.0], size=300)
    # rounding makes ties
    _scores = np.round(_labels + _r.normal(scale=1.5, size=300), 1)
    ROC_CASES[f"random{_k}"] = (_scores, _labels)
# auc on scikit-learn's curve points (graded apart from roc_points)
AUC_CASES = {}
for _name, (_scores, _labels) in ROC_CASES.items():
    _fpr, _tpr, _ = roc_curve(_labels, _scores, drop_intermediate=False)
    AUC_CASES[f"auc_{_name}"] = (_fpr, _tpr)


def judge_roc(r):
    for name, (scores, labels) in ROC_CASES.items():
        result = r[name]
        assert len(result) == 2
        fpr_ref, tpr_ref, _ = roc_curve(
            labels, scores, drop_intermediate=False
        )
        fpr = as_float(result[0], fpr_ref.shape)
        tpr = as_float(result[1], tpr_ref.shape)
        assert np.allclose(fpr, fpr_ref) and np.allclose(tpr, tpr_ref)
        got = float(as_float(r[f"auc_{name}"]).reshape(-1)[0])
        assert np.isclose(got, roc_auc_score(labels, scores))


CHECKS = [
    Check(
        "test_split",
        tuple(
            Probe(f"seed{seed}", "split_60_20_20", (Y, seed))
            for seed in SPLIT_SEEDS
        )
        + (Probe("seed0_again", "split_60_20_20", (Y, 0)),),
        judge_split,
        "three integer index arrays that partition range(len(labels)) into "
        "60%, 20% and 20%, each stratified by the labels (stratify= in "
        "both calls of train_test_split, the second with the labels of the "
        "rest), and the same split for the same random_state",
    ),
    Check(
        "test_smo_mvp",
        tuple(
            Probe(name, "smo_mvp", (K, Y_SMO, C), {"tol": tol})
            for name, (K, C, tol) in SMO_CASES.items()
        ),
        judge_smo_mvp,
        "choose i in I_up with the smallest E and j in I_low with the "
        "largest, stop when E_j - E_i <= tol, clip the step of alpha_j to "
        "[L, H], move alpha_i so that sum alpha_i y_i stays 0, update E "
        "with both columns of K; b is minus the mean of E over the free "
        "multipliers (the midpoint of the two bounds when none is free); "
        "the dual objective must reach svmlib's",
    ),
    Check(
        "test_decision_function",
        tuple(
            Probe(name, "decision_function", case)
            for name, case in DECISION_CASES.items()
        ),
        judge_decision_function,
        "f(x_e) = sum_i alpha_i y_i K_eval[e, i] + b: one value per row of "
        "K_eval (the rows are the evaluation points, the columns the "
        "training points)",
    ),
    Check(
        "test_tune",
        tuple(
            Probe(
                name,
                "tune",
                (grams, Y[FIT], Y[HELD_OUT], Cs),
                stand_ins=STAND_INS,
            )
            for name, (grams, Cs) in TUNE_CASES.items()
        ),
        judge_tune,
        "for each setting in the order of the dictionary, then each C in "
        "the order given, train smo_mvp on K_train and predict the sign "
        "of decision_function on K_val (0 counts as +1); one row "
        '{"setting", "C", "accuracy"} each, and best = (setting, C) of '
        "the first row with the highest accuracy",
    ),
    Check(
        "test_roc",
        tuple(
            Probe(name, "roc_points", case) for name, case in ROC_CASES.items()
        )
        + tuple(Probe(name, "auc", case) for name, case in AUC_CASES.items()),
        judge_roc,
        "one point per distinct score, thresholds from the highest score "
        "down, (0, 0) first and (1, 1) last: tied scores move the curve "
        "together, diagonally; the area is the trapezoidal rule over the "
        "points",
    ),
]
