"""Hidden checks of 02_dual_kkt.ipynb, judged outside the student's kernel.

Each check calls the student's functions in the sandbox on the inputs
below (plain data) and judges the returned numbers here, in the grader's
process, against closed forms, the KKT conditions, scikit-learn's (LIBSVM's)
solution and svmlib's SMO (svmbook_classroom.checks; instructors.md,
"Writing a hidden check").
"""

import numpy as np
from sklearn.datasets import make_blobs
from sklearn.svm import SVC

from svmbook_classroom.checks import Check, Probe
from svmlib.duality import kkt_violations
from svmlib.kernels import rbf_kernel
from svmlib.solvers import smo

# The notebook's data, made the same way as in its setup cell.
RANDOM_STATE = 0
X, labels = make_blobs(
    n_samples=40,
    centers=[[-1.0, -1.0], [1.0, 1.0]],
    cluster_std=0.9,
    random_state=RANDOM_STATE,
)
y = np.where(labels == 1, 1.0, -1.0)
N, D = X.shape
C = 1.0
K = X @ X.T
REFERENCE = SVC(kernel="linear", C=C, tol=1e-10).fit(X, y)
ALPHA_REF = np.zeros(N)
ALPHA_REF[REFERENCE.support_] = np.abs(REFERENCE.dual_coef_[0])
W_REF = REFERENCE.coef_[0]
B_REF = float(REFERENCE.intercept_[0])
K_RBF = rbf_kernel(X, sigma=1.0)
C_RBF = 5.0


def dual_objective(alpha, K, y):
    """W(alpha), the closed form."""
    v = alpha * y
    return float(np.sum(alpha) - 0.5 * v @ K @ v)


def primal_objective(w, b, X, y, C):
    """1/2 ||w||^2 + C sum of the hinge losses, the closed form."""
    hinge = np.maximum(0.0, 1.0 - y * (X @ w + b))
    return float(0.5 * w @ w + C * np.sum(hinge))


def residuals(alpha, margins, C, tol=1e-8):
    """The KKT residual of each point, the closed form."""
    return np.where(
        alpha <= tol,
        np.maximum(0.0, 1.0 - margins),
        np.where(
            alpha >= C - tol,
            np.maximum(0.0, margins - 1.0),
            np.abs(1.0 - margins),
        ),
    )


POINTS = [
    np.array([2.0, 2.0]),
    np.array([-3.0, 3.0]),
    np.array([0.2, -0.1]),
    np.array([5.0, 0.0]),
]

_rng = np.random.default_rng(201)
ALPHAS = [np.zeros(N)] + [_rng.uniform(0, C, size=N) for _ in range(5)]

# b from the free support vectors only: mean of 2.5 and -1
FOUR = (
    np.array([0.0, C, 0.5, 0.5]),
    np.array([[0.0, 1.0], [2.0, 0.0], [1.0, 1.0], [-1.0, 0.0]]),
    np.array([1.0, -1.0, 1.0, 1.0]),
    C,
)

# KKT residuals: at LIBSVM's solution (snapped to the bounds), every kind of
# point satisfied, multipliers 1e-10 off the bounds, and random cases
_alpha = ALPHA_REF.copy()
_alpha[_alpha < 1e-9] = 0.0
_alpha[_alpha > C - 1e-9] = C
_rng = np.random.default_rng(205)
KKT_CASES = [
    (_alpha, y * (K @ (_alpha * y) + B_REF), C),
    (
        np.array([0.0, 0.5, C, 0.0, 0.3, C]),
        np.array([2.0, 1.0, 0.2, 1.0, 1.0, -1.0]),
        C,
    ),
    (np.array([1e-10, C - 1e-10]), np.array([0.4, 1.7]), C),
    (np.array([0.0, 0.5, C]), np.array([0.5, 0.8, 1.5]), C),
    (
        _rng.choice([0.0, 0.5, 2.0], size=30),
        _rng.normal(1.0, 1.0, size=30),
        2.0,
    ),
]

# the primal objective: random (w, b), the optimum, w = 0, and points of
# weak duality (w from a feasible alpha)
_rng = np.random.default_rng(207)
PRIMAL_CASES = [
    (_rng.normal(size=D), float(_rng.normal()), X, y, C) for _ in range(5)
]
PRIMAL_CASES += [(W_REF, B_REF, X, y, C), (np.zeros(D), 0.0, X, y, C)]
for _ in range(3):
    _a = _rng.uniform(0, C, size=N)
    _a[y > 0] *= np.sum(_a[y < 0]) / np.sum(_a[y > 0])
    _a = np.minimum(_a, C)
    _a[y < 0] *= np.sum(_a[y > 0]) / np.sum(_a[y < 0])
    PRIMAL_CASES.append(((_a * y) @ X, float(_rng.normal()), X, y, C))

# svmlib's dual objective, run in the kernel in place of the student's
# when solve_dual is graded (a mistake there costs no points here)
STAND_INS = """
import svmlib.duality


def dual_objective(alpha, K, y):
    return svmlib.duality.dual_objective(alpha, K, y)
"""


def _number(value):
    value = np.asarray(value, dtype=float)
    assert value.shape == () and np.isfinite(value)
    return float(value)


def _array(value, shape):
    value = np.asarray(value, dtype=float)
    assert value.shape == shape and np.all(np.isfinite(value))
    return value


def judge_closest_point(r):
    for k, p in enumerate(POINTS):
        x, lam = r[f"p{k}"]
        x, lam = _array(x, (2,)), _number(lam)
        norm = np.linalg.norm(p)
        # the minimiser p / ||p||, and the multiplier from stationarity
        # 2 (x - p) + 2 lam x = 0
        assert np.allclose(x, p / norm) and np.isclose(lam, norm - 1.0)


def judge_dual_objective(r):
    for k, alpha in enumerate(ALPHAS):
        assert np.isclose(_number(r[f"alpha{k}"]), dual_objective(alpha, K, y))


def _feasible(alpha, C_box):
    assert np.all(alpha >= -1e-9) and np.all(alpha <= C_box + 1e-9)
    assert abs(alpha @ y) < 1e-6


def judge_solve_dual(r):
    alpha = _array(r["linear"], (N,))
    _feasible(alpha, C)
    W_ref = dual_objective(ALPHA_REF, K, y)
    assert np.isclose(dual_objective(alpha, K, y), W_ref, rtol=1e-6)
    assert np.allclose(alpha, ALPHA_REF, atol=1e-4)
    alpha = _array(r["rbf"], (N,))
    _feasible(alpha, C_RBF)
    optimum = smo(K_RBF, y, C_RBF, tol=1e-8).dual_objective
    assert np.isclose(dual_objective(alpha, K_RBF, y), optimum, rtol=1e-6)


def judge_primal_from_dual(r):
    w, b = r["libsvm"]
    assert np.allclose(_array(w, (D,)), W_REF, atol=1e-6)
    assert np.isclose(_number(b), B_REF, atol=1e-5)
    w, b = r["four_points"]
    assert np.allclose(_array(w, (2,)), [-2.0, 0.5])
    assert np.isclose(_number(b), 0.75)


def judge_kkt_residuals(r):
    for k, (alpha, margins, C_box) in enumerate(KKT_CASES):
        got = _array(r[f"case{k}"], alpha.shape)
        assert np.allclose(got, residuals(alpha, margins, C_box))
    # at LIBSVM's solution, svmlib's violations agree
    alpha = KKT_CASES[0][0]
    expected = kkt_violations(alpha, K, y, B_REF, C)
    assert np.allclose(r["case0"], expected)


def judge_primal_objective(r):
    for k, case in enumerate(PRIMAL_CASES):
        assert np.isclose(_number(r[f"case{k}"]), primal_objective(*case))
    # strong duality at the optimum, weak duality elsewhere
    W_ref = dual_objective(ALPHA_REF, K, y)
    assert np.isclose(_number(r["case5"]), W_ref, rtol=1e-6)


CHECKS = [
    Check(
        "test_closest_point_on_circle",
        tuple(
            Probe(f"p{k}", "closest_point_on_circle", (p,))
            for k, p in enumerate(POINTS)
        ),
        judge_closest_point,
        "on the unit circle the closest point to p is p / ||p||, and "
        "stationarity of L, 2 (x - p) + 2 lam x = 0, gives the multiplier "
        "lam = ||p|| - 1 (negative when p is inside the circle)",
    ),
    Check(
        "test_dual_objective",
        tuple(
            Probe(f"alpha{k}", "dual_objective", (alpha, K, y))
            for k, alpha in enumerate(ALPHAS)
        ),
        judge_dual_objective,
        "W(alpha) = sum_i alpha_i - 1/2 sum_ij alpha_i alpha_j y_i y_j K_ij "
        "for any alpha and any K given (not the notebook's globals)",
    ),
    Check(
        "test_solve_dual",
        (
            Probe("linear", "solve_dual", (K, y, C), {}, STAND_INS),
            Probe("rbf", "solve_dual", (K_RBF, y, C_RBF), {}, STAND_INS),
        ),
        judge_solve_dual,
        "maximise W (minimise -W) over 0 <= alpha_i <= C with "
        "sum_i alpha_i y_i = 0, for the K, y and C given; the result must "
        "stay in the box, meet the equality constraint to 1e-6 and reach "
        "the optimum of W",
    ),
    Check(
        "test_primal_from_dual",
        (
            Probe("libsvm", "primal_from_dual", (ALPHA_REF, X, y, C)),
            Probe("four_points", "primal_from_dual", FOUR),
        ),
        judge_primal_from_dual,
        "w = sum_i alpha_i y_i x_i; b is the mean of y_i - w . x_i over the "
        "free support vectors only (0 < alpha_i < C), whose margin is "
        "exactly 1",
    ),
    Check(
        "test_kkt_residuals",
        tuple(
            Probe(f"case{k}", "kkt_residuals", case)
            for k, case in enumerate(KKT_CASES)
        ),
        judge_kkt_residuals,
        "alpha_i = 0 (within tol) needs m_i >= 1, alpha_i = C (within tol) "
        "needs m_i <= 1, a free alpha_i needs m_i = 1; the residual is how "
        "far m_i is from meeting its condition (0 when it does)",
    ),
    Check(
        "test_primal_objective",
        tuple(
            Probe(f"case{k}", "primal_objective", case)
            for k, case in enumerate(PRIMAL_CASES)
        ),
        judge_primal_objective,
        "P(w, b) = 1/2 ||w||^2 + C times the SUM (not the mean) of the "
        "hinge losses max(0, 1 - y_i (w . x_i + b))",
    ),
]
