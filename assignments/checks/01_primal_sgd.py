"""Hidden checks of 01_primal_sgd.ipynb, judged outside the student's kernel.

Each check calls the student's functions in the sandbox on the inputs
below (plain data) and judges the returned numbers here, in the grader's
process, against closed forms, svmlib's objective and scikit-learn's exact
minimiser (svmbook_classroom.checks; instructors.md, "Writing a hidden
check").
"""

import numpy as np
from sklearn.datasets import make_blobs
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from svmbook_classroom.checks import Check, Probe
from svmlib.solvers.primal import regularised_hinge_objective

# The notebook's data, made the same way as in its setup cell.
RANDOM_STATE = 0
X_raw, labels = make_blobs(
    n_samples=400,
    centers=[[-1.5, -1.0], [1.5, 1.0]],
    cluster_std=1.2,
    random_state=RANDOM_STATE,
)
X = StandardScaler().fit_transform(X_raw)
y = np.where(labels == 1, 1.0, -1.0)
N, D = X.shape
LAM = 0.01
LAMS = [0.001, 0.01, 0.1, 1.0]
OTHER_LAMS = [0.03, 0.3]


def exact_solution(lam):
    """(w, b) of the exact minimiser of J, from scikit-learn (LIBSVM)."""
    model = SVC(kernel="linear", C=1.0 / (lam * N), tol=1e-8).fit(X, y)
    return model.coef_[0], float(model.intercept_[0])


def objective(w, b, X, y, lam):
    """J(w, b), the closed form."""
    margins = y * (X @ w + b)
    return 0.5 * lam * float(w @ w) + float(
        np.mean(np.maximum(0.0, 1.0 - margins))
    )


def subgradient(w, b, X, y, lam):
    """The subgradient of J away from the kinks, the closed form."""
    active = y * (X @ w + b) < 1.0
    return lam * w - (y[active] @ X[active]) / len(y), -float(
        np.sum(y[active])
    ) / len(y)


# Inputs of the objective: random points (w, b, lam), a misclassified
# point (1 - margin = 3), w = 0 (every hinge loss 1), a point on its margin.
_rng = np.random.default_rng(101)
OBJECTIVE_CASES = [
    (_rng.normal(size=D), float(_rng.normal()), X, y, float(_rng.uniform()))
    for _ in range(5)
] + [
    (np.array([1.0, 0.0]), 0.0, np.array([[-2.0, 0.0]]), np.array([1.0]), 0.0),
    (np.zeros(D), 0.0, X, y, 0.1),
    (np.array([1.0, 0.0]), 0.0, np.array([[1.0, 0.0]]), np.array([1.0]), 2.0),
]  # fmt: skip

# Inputs of the subgradient: random batches of 25 points away from the
# kinks, and a point far outside its margin (only lam w is left).
_rng = np.random.default_rng(102)
SUBGRADIENT_CASES = []
while len(SUBGRADIENT_CASES) < 5:
    _w, _b, _lam = _rng.normal(size=D), float(_rng.normal()), _rng.uniform()
    _batch = _rng.choice(N, size=25, replace=False)
    Xb, yb = X[_batch], y[_batch]
    if np.min(np.abs(yb * (Xb @ _w + _b) - 1.0)) > 1e-4:
        SUBGRADIENT_CASES.append((_w, _b, Xb, yb, float(_lam)))
SUBGRADIENT_CASES.append(
    (np.array([10.0, 0.0]), 0.0, np.array([[1.0, 0.0]]), np.array([1.0]), 0.5)
)

# Reference versions of the earlier questions, run in the kernel for the
# probes that grade a question alone (a mistake in an earlier answer costs
# no points in a later one).
STAND_INS = """
import numpy as np
from svmlib.solvers.primal import (
    _subgradient_step,
    regularised_hinge_objective,
)


def hinge_objective(w, b, X, y, lam):
    return regularised_hinge_objective(w, b, X, y, lam)


def hinge_subgradient(w, b, X, y, lam):
    w_step, b_step = _subgradient_step(w, b, X, y, lam, 1.0)
    return w - w_step, b - b_step
"""
# lambda_sweep graded alone: the exact minimiser (LIBSVM) in place of sgd
EXACT_SGD = (
    STAND_INS
    + """

def sgd(X, y, lam, **options):
    from sklearn.svm import SVC

    model = SVC(kernel="linear", C=1.0 / (lam * len(y)), tol=1e-8).fit(X, y)
    w, b = model.coef_[0], float(model.intercept_[0])
    return w, b, np.array([regularised_hinge_objective(w, b, X, y, lam)])
"""
)


def _number(value):
    value = np.asarray(value, dtype=float)
    assert value.shape == ()
    return float(value)


def _vector(value, size=D):
    value = np.asarray(value, dtype=float)
    assert value.shape == (size,) and np.all(np.isfinite(value))
    return value


def judge_hinge_objective(r):
    for k, (w, b, Xc, yc, lam) in enumerate(OBJECTIVE_CASES):
        got = _number(r[f"case{k}"])
        assert np.isclose(got, objective(w, b, Xc, yc, lam))
        assert np.isclose(got, regularised_hinge_objective(w, b, Xc, yc, lam))


def judge_hinge_subgradient(r):
    for k, case in enumerate(SUBGRADIENT_CASES):
        g_w, g_b = r[f"case{k}"]
        expected_w, expected_b = subgradient(*case)
        assert np.allclose(_vector(g_w), expected_w, atol=1e-6)
        assert np.isclose(_number(g_b), expected_b, atol=1e-6)


def _run(result, epochs):
    w, b, history = result
    history = np.asarray(history, dtype=float)
    assert history.shape == (epochs + 1,) and np.all(np.isfinite(history))
    return _vector(w), _number(b), history


def judge_sgd(r):
    w_ref, b_ref = exact_solution(LAM)
    J_ref = objective(w_ref, b_ref, X, y, LAM)
    w, b, history = _run(r["default"], 50)
    assert np.isclose(history[0], 1.0)  # J at w = 0, b = 0
    assert history[-1] <= 1.02 * J_ref  # within 2% of the exact minimum
    # the history ends at the returned (w, b)
    assert np.isclose(history[-1], objective(w, b, X, y, LAM))
    # the same seed gives the same run
    w2, b2, history2 = _run(r["again"], 50)
    assert np.array_equal(w2, w) and b2 == b
    assert np.array_equal(history2, history)
    # other seeds and batch sizes get there too
    for seed, batch in [(1, 20), (2, 10), (3, 400)]:
        w3, b3, history3 = _run(r[f"seed{seed}_batch{batch}"], 60)
        assert history3[-1] <= 1.03 * J_ref
        agree = np.sign(X @ w3 + b3) == np.sign(X @ w_ref + b_ref)
        assert np.mean(agree) >= 0.98
    # one epoch of full batches with lam = 0 is plain gradient descent
    w4, b4, _ = _run(r["gradient_descent"], 1)
    g_w, g_b = subgradient(np.zeros(D), 0.0, X, y, 0.0)
    assert np.allclose(w4, -0.1 * g_w) and np.isclose(b4, -0.1 * g_b)
    # with lam > 0 the step size decays with the step count t
    w5, b5, _ = _run(r["decay"], 2)
    w_expected, b_expected = np.zeros(D), 0.0
    for t in (1, 2):
        g_w, g_b = subgradient(w_expected, b_expected, X, y, 0.1)
        eta = 0.5 / (1.0 + 0.5 * 0.1 * t)
        w_expected, b_expected = w_expected - eta * g_w, b_expected - eta * g_b
    assert np.allclose(w5, w_expected) and np.isclose(b5, b_expected)


def _sweep_ok(sweep, lams):
    assert isinstance(sweep, dict) and sorted(sweep) == sorted(lams)
    rows = {}
    for lam in lams:
        row = sweep[lam]
        assert isinstance(row, dict)
        w, b = exact_solution(lam)
        m = y * (X @ w + b)
        width = _number(row["width"])
        accuracy = _number(row["accuracy"])
        inside = _number(row["inside"])
        assert np.isclose(width, 2.0 / np.linalg.norm(w))
        assert np.isclose(accuracy, np.mean(m > 0))
        # the points on the margin may count either way
        assert abs(inside - np.sum(m < 1)) <= np.sum(np.abs(m - 1) < 1e-6)
        rows[lam] = width, accuracy, inside
    return rows


def judge_lambda_sweep(r):
    rows = _sweep_ok(r["notebook"], LAMS)
    widths = [rows[lam][0] for lam in LAMS]
    inside = [rows[lam][2] for lam in LAMS]
    assert all(a < b for a, b in zip(widths, widths[1:], strict=False))
    assert all(a <= b for a, b in zip(inside, inside[1:], strict=False))
    assert all(rows[lam][1] > 0.85 for lam in LAMS)
    _sweep_ok(r["other"], OTHER_LAMS)


def _sgd_probe(name, lam, **kwargs):
    return Probe(name, "sgd", (X, y, lam), kwargs, STAND_INS)


CHECKS = [
    Check(
        "test_hinge_objective",
        tuple(
            Probe(f"case{k}", "hinge_objective", case)
            for k, case in enumerate(OBJECTIVE_CASES)
        ),
        judge_hinge_objective,
        "J(w, b) = lam / 2 ||w||^2 + the MEAN over the points of "
        "max(0, 1 - y_i (w . x_i + b)): a misclassified point costs "
        "1 - margin > 1, a point on its margin costs nothing",
    ),
    Check(
        "test_hinge_subgradient",
        tuple(
            Probe(f"case{k}", "hinge_subgradient", case)
            for k, case in enumerate(SUBGRADIENT_CASES)
        ),
        judge_hinge_subgradient,
        "g_w = lam w - (1 / m) sum of y_i x_i over the points of the batch "
        "with y_i (w . x_i + b) < 1, g_b = -(1 / m) sum of their y_i, with m "
        "the size of the batch given (not of the whole data set)",
    ),
    Check(
        "test_sgd",
        (
            _sgd_probe("default", LAM),
            _sgd_probe("again", LAM),
            _sgd_probe(
                "seed1_batch20",
                LAM,
                random_state=1,
                batch_size=20,
                n_epochs=60,
            ),
            _sgd_probe(
                "seed2_batch10",
                LAM,
                random_state=2,
                batch_size=10,
                n_epochs=60,
            ),
            _sgd_probe(
                "seed3_batch400",
                LAM,
                random_state=3,
                batch_size=400,
                n_epochs=60,
            ),
            _sgd_probe(
                "gradient_descent",
                0.0,
                n_epochs=1,
                batch_size=N,
                learning_rate=0.1,
            ),
            _sgd_probe(
                "decay", 0.1, n_epochs=2, batch_size=N, learning_rate=0.5
            ),
        ),
        judge_sgd,
        "one step per mini-batch of a fresh permutation each epoch (from "
        "np.random.default_rng(random_state), so that a seed gives the same "
        "run), eta_t = learning_rate / (1 + learning_rate lam t) with t the "
        "step count from 1, and the history holds J before the first epoch "
        "and after each epoch (n_epochs + 1 values)",
    ),  # fmt: skip
    Check(
        "test_lambda_sweep",
        (
            Probe("notebook", "lambda_sweep", (X, y, LAMS), {}, EXACT_SGD),
            Probe("other", "lambda_sweep", (X, y, OTHER_LAMS), {}, EXACT_SGD),
        ),
        judge_lambda_sweep,
        "for every lambda in lams (the keys of the result), call sgd and "
        "report its solution's margin width 2 / ||w||, training accuracy "
        "(the share of points with y_i f(x_i) > 0) and the number of points "
        "with y_i f(x_i) < 1",
    ),
]
