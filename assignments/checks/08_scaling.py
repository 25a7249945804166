"""Hidden checks of 08_scaling.ipynb, judged outside the student's kernel.

Each check calls the student's functions in the sandbox on the inputs
below (plain data) and judges the returned numbers here, in the grader's
process, against closed forms and LIBLINEAR's solution of the same
problem (scikit-learn's LinearSVC with the hinge loss and the bias as a
feature, intercept_scaling=1) (svmbook_classroom.checks; instructors.md,
"Writing a hidden check").
"""

import numpy as np
from sklearn.svm import LinearSVC

from svmbook_classroom.checks import Check, Probe
from svmlib.datasets import load_mnist

# The notebook's data, made the same way as in its setup cell (the MNIST
# files from SVMLIB_DATA_DIR); the checks use its first 600 images.
RANDOM_STATE = 0
C = 0.01
N_CHECK = 600
_X_all, _digit = load_mnist(digits=(3, 8), subset="train")
_chosen = np.random.default_rng(RANDOM_STATE).choice(
    len(_digit), size=2000, replace=False
)
X = _X_all[_chosen[:N_CHECK]].astype(np.float64)
Y = np.where(_digit[_chosen[:N_CHECK]] == 8, 1.0, -1.0)
del _X_all, _digit
XB = np.hstack([X, np.ones((N_CHECK, 1))])

# Reference versions of the earlier questions, run in the kernel for the
# probes that grade a question alone.
STAND_INS = """
import numpy as np


def with_bias(X):
    return np.hstack([np.asarray(X, dtype=np.float64), np.ones((len(X), 1))])


def coordinate_step(alpha_i, G, Q_ii, U):
    return min(max(alpha_i - G / Q_ii, 0.0), U)
"""
ONLY_WITH_BIAS = STAND_INS.split("\n\n\ndef coordinate_step")[0] + "\n"


def as_float(value, shape=None):
    array = np.asarray(value)
    assert array.dtype.kind in "biuf"
    array = array.astype(float)
    assert shape is None or array.shape == shape
    assert np.all(np.isfinite(array))
    return array


def as_scalar(value):
    array = as_float(value)
    assert array.size == 1 and array.ndim <= 1
    return float(array.reshape(-1)[0])


def primal(w_tilde, Xb, y, C):
    """The hinge-loss objective with the bias folded in, written out."""
    return (
        0.5 * w_tilde @ w_tilde
        + C * np.maximum(0, 1 - y * (Xb @ w_tilde)).sum()
    )


# ---------------------------------------------------------------------------
# Question 1: the bias as a feature
# ---------------------------------------------------------------------------

BIAS_CASES = {
    "float32": np.zeros((3, 2), dtype=np.float32),
    "identity": np.eye(2),
    "integers": np.array([[1, 2], [3, 4], [5, 6]]),
    "images": X[:7],
}


def judge_with_bias(r):
    for name, case in BIAS_CASES.items():
        got = np.asarray(r[name])
        assert got.dtype == np.float64
        expected = np.hstack(
            [case.astype(np.float64), np.ones((len(case), 1))]
        )
        assert got.shape == expected.shape and np.array_equal(got, expected)


# ---------------------------------------------------------------------------
# Question 2: one coordinate step
# ---------------------------------------------------------------------------

_r = np.random.default_rng(3)
STEP_CASES = [
    (0.0, -1.0, 2.0, 1.0),  # inside the box
    (0.5, 3.0, 1.0, 1.0),  # clipped at 0
    (0.5, -3.0, 1.0, 1.0),  # clipped at U
    (0.2, 0.0, 4.0, 0.5),  # no gradient, no move
    (0.01, -0.5, 100.0, 0.01),  # U = C = 0.01: clipped at U
    (0.004, 0.3, 250.0, 0.01),  # U = C = 0.01: inside
] + [
    (
        float(_r.uniform(0, 1)),
        float(_r.normal()),
        float(_r.uniform(0.1, 5)),
        1.0,
    )
    for _ in range(6)
]


def judge_coordinate_step(r):
    for k, (alpha_i, G, Q_ii, U) in enumerate(STEP_CASES):
        got = as_scalar(r[f"case{k}"])
        # the minimiser of G t + Q_ii t^2 / 2 over alpha_i + t in [0, U]
        expected = min(max(alpha_i - G / Q_ii, 0.0), U)
        assert 0.0 <= got <= U and np.isclose(
            got, expected, rtol=1e-12, atol=1e-15
        )


# ---------------------------------------------------------------------------
# Question 3: the solver
# ---------------------------------------------------------------------------

SEEDS = (0, 1, 2)
N_EPOCHS = 30
ONE_PASS_SEED = 5

_OPTIMUM = []


def optimum():
    """LIBLINEAR's w~ at a tight tolerance (computed once).

    Its problem is this one: the hinge loss, the bias a feature of value
    intercept_scaling = 1, regularised with the weights.
    """
    if not _OPTIMUM:
        model = LinearSVC(
            C=C, loss="hinge", dual=True, tol=1e-8, max_iter=100_000,
            intercept_scaling=1.0,
        ).fit(X, Y)  # fmt: skip
        _OPTIMUM.append(np.append(model.coef_[0], model.intercept_[0]))
    return _OPTIMUM[0]


def one_pass(seed):
    """One pass in the order of the generator's first permutation."""
    alpha, w = np.zeros(N_CHECK), np.zeros(XB.shape[1])
    for i in np.random.default_rng(seed).permutation(N_CHECK):
        G = Y[i] * (w @ XB[i]) - 1.0
        new = min(max(alpha[i] - G / (XB[i] @ XB[i]), 0.0), C)
        w += (new - alpha[i]) * Y[i] * XB[i]
        alpha[i] = new
    return w, alpha


def _solver_result(result):
    assert len(result) == 2
    w = as_float(result[0], (XB.shape[1],))
    alpha = as_float(result[1], (N_CHECK,))
    assert np.all((alpha >= 0) & (alpha <= C))
    # w~ stays the sum of alpha_i y_i x~_i
    assert np.allclose(w, XB.T @ (alpha * Y), rtol=1e-9, atol=1e-9)
    return w, alpha


def judge_coordinate_descent(r):
    w_opt = optimum()
    best = primal(w_opt, XB, Y, C)
    signs = np.sign(XB @ w_opt)
    # any seed: after 30 passes within 0.2% of the optimal primal
    # objective (svmlib's dual_cd stays within 0.11% at each of 60
    # seeds on these 600 images) and the optimum's sign at 99% of them
    for seed in SEEDS:
        w, _ = _solver_result(r[f"seed{seed}"])
        assert primal(w, XB, Y, C) <= best * (1 + 2e-3)
        assert np.mean(np.sign(XB @ w) == signs) > 0.99
    # one pass, exactly
    w1, alpha1 = _solver_result(r["one_pass"])
    w_expected, alpha_expected = one_pass(ONE_PASS_SEED)
    assert np.allclose(alpha1, alpha_expected, rtol=1e-7, atol=1e-12)
    assert np.allclose(w1, w_expected, rtol=1e-7, atol=1e-10)


# ---------------------------------------------------------------------------
# Question 4: the primal objective
# ---------------------------------------------------------------------------

_r = np.random.default_rng(804)
_alpha = np.where(_r.random(N_CHECK) < 0.5, 0.0, _r.uniform(0, C, N_CHECK))
_w_dual = XB.T @ (_alpha * Y)  # a point the solver could pass through
_w_dual[-1] = 0.7  # an intercept far from 0
PRIMAL_CASES = {
    "zero": (np.zeros(XB.shape[1]), X, Y, C),
    "dual_point": (_w_dual, X, Y, C),
    "random": (0.05 * _r.normal(size=XB.shape[1]), X, Y, 0.3),
    "by_hand": (
        np.array([1.0, -0.5]), np.array([[2.0], [0.0], [0.25]]),
        np.array([1.0, -1.0, 1.0]), 2.0,
    ),
}  # fmt: skip


def judge_primal_objective(r):
    for name, (w, X_, y, C_) in PRIMAL_CASES.items():
        Xb = np.hstack([X_, np.ones((len(X_), 1))])
        got = as_scalar(r[name])
        assert np.isclose(got, primal(w, Xb, y, C_), rtol=1e-9, atol=1e-12)


# ---------------------------------------------------------------------------
# Question 5: the stopping rule
# ---------------------------------------------------------------------------


def reference_gap(w_tilde, alpha, X_, y, C_):
    """The spread of LIBLINEAR's projected gradients, written out."""
    G = y * (np.hstack([X_, np.ones((len(X_), 1))]) @ w_tilde) - 1.0
    PG = G.copy()
    PG[alpha <= 0] = np.minimum(G[alpha <= 0], 0.0)
    PG[alpha >= C_] = np.maximum(G[alpha >= C_], 0.0)
    return PG.max() - PG.min()


_r = np.random.default_rng(805)
# multipliers at 0, at C and between, with w~ = sum alpha_i y_i x~_i
_kind = _r.integers(0, 3, size=N_CHECK)
_alpha = np.choose(
    _kind, [np.zeros(N_CHECK), np.full(N_CHECK, C), _r.uniform(0, C, N_CHECK)]
)
GAP_CASES = {
    "zero": (np.zeros(XB.shape[1]), np.zeros(N_CHECK), X, Y, C),
    "mixed": (XB.T @ (_alpha * Y), _alpha, X, Y, C),
}
# the projected gradient at the bounds: G = (1, -1) at these two points
for _k, _a2 in enumerate([(C, C), (0.0, 0.0), (C / 2, C / 2), (0.0, C)]):
    GAP_CASES[f"two_points{_k}"] = (
        np.array([1.0, 0.0]), np.array(_a2), np.array([[2.0], [0.0]]),
        np.array([1.0, -1.0]), C,
    )  # fmt: skip


def judge_pg_gap(r):
    for name, case in GAP_CASES.items():
        got = as_scalar(r[name])
        assert np.isclose(got, reference_gap(*case), rtol=1e-9, atol=1e-12)


CHECKS = [
    Check(
        "test_with_bias",
        tuple(
            Probe(name, "with_bias", (case,))
            for name, case in BIAS_CASES.items()
        ),
        judge_with_bias,
        "append one column of ones after the last column, and return "
        "float64 whatever the input's type (float32 or integers as well)",
    ),
    Check(
        "test_coordinate_step",
        tuple(
            Probe(f"case{k}", "coordinate_step", case)
            for k, case in enumerate(STEP_CASES)
        ),
        judge_coordinate_step,
        "the new alpha_i minimises G t + Q_ii t^2 / 2 over alpha_i + t in "
        "[0, U]: the Newton step alpha_i - G / Q_ii, clipped to the box "
        "[0, U]",
    ),
    Check(
        "test_coordinate_descent",
        tuple(
            Probe(
                f"seed{seed}",
                "coordinate_descent",
                (X, Y, C, N_EPOCHS, seed),
                stand_ins=STAND_INS,
            )
            for seed in SEEDS
        )
        + (
            Probe(
                "one_pass",
                "coordinate_descent",
                (X, Y, C, 1, ONE_PASS_SEED),
                stand_ins=STAND_INS,
            ),
        ),
        judge_coordinate_descent,
        "start from alpha = 0 and w~ = 0 on with_bias(X); one generator "
        "default_rng(random_state) for the whole run, a new permutation "
        "per pass; at each i, G = y_i w~'x~_i - 1, the step with Q_ii = "
        "||x~_i||^2 and U = C, then w~ += (new - old) y_i x~_i; return "
        "(w~, alpha)",
    ),
    Check(
        "test_primal_objective",
        tuple(
            Probe(name, "primal_objective", case, stand_ins=ONLY_WITH_BIAS)
            for name, case in PRIMAL_CASES.items()
        ),
        judge_primal_objective,
        "0.5 ||w~||^2 (the bias included) plus C times the sum over all "
        "points of max(0, 1 - y_i w~'x~_i), with x~_i = (x_i, 1)",
    ),
    Check(
        "test_pg_gap",
        tuple(
            Probe(name, "pg_gap", case, stand_ins=ONLY_WITH_BIAS)
            for name, case in GAP_CASES.items()
        ),
        judge_pg_gap,
        "G_i = y_i w~'x~_i - 1; the projected gradient is min(G_i, 0) "
        "where alpha_i = 0, max(G_i, 0) where alpha_i = C and G_i "
        "otherwise; return its largest minus its smallest value",
    ),
]
