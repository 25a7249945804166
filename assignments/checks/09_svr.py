"""Hidden checks of 09_svr.ipynb, judged outside the student's kernel.

Each check calls the student's functions in the sandbox on the inputs
below (plain data) and judges the returned numbers here, in the grader's
process, against closed forms and LIBSVM's solution (scikit-learn's SVR)
(svmbook_classroom.checks; instructors.md, "Writing a hidden check").
"""

import numpy as np
from sklearn.svm import SVC as LIBSVM_SVC
from sklearn.svm import SVR as LIBSVM_SVR

from svmbook_classroom.checks import Check, Probe
from svmlib.kernels import rbf_kernel

# The notebook's data, made the same way as in its setup cell.
RANDOM_STATE = 0
rng = np.random.default_rng(RANDOM_STATE)
N = 60
X = np.sort(rng.uniform(-3, 3, size=(N, 1)), axis=0)
Z = np.sinc(X[:, 0]) + 0.1 * rng.normal(size=N)
C, EPSILON, SIGMA = 1.0, 0.1, 0.7
K = rbf_kernel(X, sigma=SIGMA)


def optimum(K, z, C, epsilon, sample_weight=None):
    """LIBSVM's solution (beta, b, 2n multipliers) at a tight tolerance."""
    model = LIBSVM_SVR(kernel="precomputed", C=C, epsilon=epsilon, tol=1e-10)
    model.fit(K, z, sample_weight=sample_weight)
    beta = np.zeros(len(z))
    beta[model.support_] = model.dual_coef_[0]
    alpha = np.concatenate([np.maximum(beta, 0), np.maximum(-beta, 0)])
    return beta, float(model.intercept_[0]), alpha


def reference_dual(K, z, C, epsilon):
    """LIBSVM's 2n-variable dual: (Q, p, y, upper)."""
    m = len(z)
    y = np.concatenate([np.ones(m), -np.ones(m)])
    Q = np.outer(y, y) * np.block([[K, K], [K, K]])
    p = np.concatenate([epsilon - z, epsilon + z])
    return Q, p, y, np.full(2 * m, float(C))


def reference_primal(beta, b, K, z, C, epsilon):
    """The primal objective, written out."""
    residual = z - (K @ beta + b)
    loss = np.maximum(0.0, np.abs(residual) - epsilon)
    return 0.5 * beta @ K @ beta + C * loss.sum()


def as_float(value, shape=None):
    array = np.asarray(value, dtype=float)
    assert shape is None or array.shape == shape
    assert np.all(np.isfinite(array))
    return array


# ---------------------------------------------------------------------------
# Question 1: the loss and the primal objective
# ---------------------------------------------------------------------------

LOSS_CASES = {
    "loss_1d": (np.array([-0.3, -0.1, 0.0, 0.05, 0.25, 2.0]), 0.1),
    "loss_2d": (np.array([[1.0, -1.0], [0.5, -2.5]]), 0.75),
    "loss_zero_epsilon": (np.array([-1.5, 0.0, 0.2]), 0.0),
}
# (beta, b, K, z, C, epsilon): the zero model, a case by hand, LIBSVM's
# optimum at two settings and a model near it
PRIMAL_CASES = {
    "primal_zero": (np.zeros(N), 0.0, K, Z, C, EPSILON),
    "primal_by_hand": (
        np.array([1.0, -1.0]), 0.5, np.eye(2), np.array([1.0, 1.0]), 2.0, 0.2
    ),
}  # fmt: skip
for _name, (_C, _eps) in {"a": (C, EPSILON), "b": (10.0, 0.05)}.items():
    _beta, _b, _ = optimum(K, Z, _C, _eps)
    PRIMAL_CASES[f"primal_optimum_{_name}"] = (_beta, _b, K, Z, _C, _eps)
    PRIMAL_CASES[f"primal_shrunk_{_name}"] = (
        0.9 * _beta, _b + 0.05, K, Z, _C, _eps
    )  # fmt: skip


def judge_primal(r):
    for name, (residuals, epsilon) in LOSS_CASES.items():
        got = as_float(r[name], residuals.shape)
        expected = np.maximum(0.0, np.abs(residuals) - epsilon)
        assert np.allclose(got, expected, rtol=1e-12, atol=1e-12)
    for name, case in PRIMAL_CASES.items():
        got = float(as_float(r[name], ()))
        assert np.isclose(got, reference_primal(*case), rtol=1e-9, atol=0)


# ---------------------------------------------------------------------------
# Question 2: the dual in 2n variables
# ---------------------------------------------------------------------------

_r = np.random.default_rng(9)
_A = _r.normal(size=(5, 3))
DUAL_CASES = {
    "dual_data": (K, Z, C, EPSILON),
    # another, non-Gaussian, Gram matrix and other targets
    "dual_other": (_A @ _A.T, _r.normal(size=5), 3.0, 0.4),
}


def judge_svr_dual(r):
    for name, case in DUAL_CASES.items():
        got = r[name]
        assert len(got) == 4
        for value, expected in zip(got, reference_dual(*case), strict=True):
            value = as_float(value, expected.shape)
            assert np.allclose(value, expected, rtol=1e-12, atol=1e-12)


# ---------------------------------------------------------------------------
# Question 3: the SMO for (Q, p, y, upper)
# ---------------------------------------------------------------------------


def dual_value(Q, p, a):
    return -(0.5 * a @ Q @ a + p @ a)


def violation(Q, p, y, upper, a):
    """The maximal violation, recomputed from scratch."""
    G = Q @ a + p
    up = ((y > 0) & (a < upper)) | ((y < 0) & (a > 0))
    low = ((y > 0) & (a > 0)) | ((y < 0) & (a < upper))
    return np.max(-y[up] * G[up]) - np.min(-y[low] * G[low])


SOLVE_CASES = {}  # name -> (Q, p, y, upper, tol)
for _name, (_C, _eps) in {
    "svr_a": (C, EPSILON),
    "svr_b": (10.0, 0.05),
    "svr_c": (0.1, 0.2),
}.items():
    _Q, _p, _y, _upper = reference_dual(K, Z, _C, _eps)
    SOLVE_CASES[_name] = (_Q, _p, _y, _upper, 1e-3)
# per-point bounds C_i = C w_i (LIBSVM's sample weights)
WEIGHTS = np.random.default_rng(4).uniform(0.2, 3.0, size=N)
_Q, _p, _y, _ = reference_dual(K, Z, C, EPSILON)
SOLVE_CASES["svr_weighted"] = (
    _Q,
    _p,
    _y,
    np.r_[C * WEIGHTS, C * WEIGHTS],
    1e-3,
)
# the classifier's dual (p = -1), at the default and at a tight tol
LABELS = np.where(Z > np.median(Z), 1.0, -1.0)
_Qc = np.outer(LABELS, LABELS) * K
SOLVE_CASES["svc"] = (_Qc, -np.ones(N), LABELS, np.ones(N), 1e-3)
SOLVE_CASES["svc_tight"] = (_Qc, -np.ones(N), LABELS, np.ones(N), 1e-8)
# one step of the maximal violating pair from a = 0
ONE_STEP = reference_dual(K, Z, 10.0, EPSILON)
# one x given twice with targets 1 and -1: zero curvature, to the box
DEGENERATE = reference_dual(np.ones((2, 2)), np.r_[1.0, -1.0], 1.0, 0.1)


def optimal_dual_values():
    """The optimal dual value of each case, from LIBSVM."""
    values = {}
    for name, (_C, _eps) in {
        "svr_a": (C, EPSILON),
        "svr_b": (10.0, 0.05),
        "svr_c": (0.1, 0.2),
    }.items():
        Q, p, _, _, _ = SOLVE_CASES[name]
        values[name] = dual_value(Q, p, optimum(K, Z, _C, _eps)[2])
    Q, p, _, _, _ = SOLVE_CASES["svr_weighted"]
    alpha = optimum(K, Z, C, EPSILON, sample_weight=WEIGHTS)[2]
    values["svr_weighted"] = dual_value(Q, p, alpha)
    svc = LIBSVM_SVC(kernel="precomputed", C=1.0, tol=1e-10).fit(K, LABELS)
    a = np.zeros(N)
    a[svc.support_] = np.abs(svc.dual_coef_[0])
    values["svc"] = values["svc_tight"] = dual_value(_Qc, -np.ones(N), a)
    return values


def one_step_expected():
    """The multipliers after the first step of the maximal violating pair."""
    Q, _, y, _ = ONE_STEP
    i, j = int(np.argmax(Z)), N + int(np.argmin(Z))
    t = min(
        10.0,
        (Z.max() - Z.min() - 2 * EPSILON)
        / (Q[i, i] + Q[j, j] - 2 * y[i] * y[j] * Q[i, j]),
    )
    expected = np.zeros(2 * N)
    expected[[i, j]] = t
    return expected


def judge_solve_dual(r):
    optimal = optimal_dual_values()
    for name, (Q, p, y, upper, tol) in SOLVE_CASES.items():
        a = as_float(r[name], p.shape)
        assert np.all(a >= 0) and np.all(a <= upper)
        assert abs(y @ a) < 1e-9
        # the stopping rule (allowing the rounding of a kept gradient)
        assert violation(Q, p, y, upper, a) <= tol + 1e-9
        best = optimal[name]
        value = dual_value(Q, p, a)
        assert best - 1e-3 * abs(best) <= value <= best + 1e-9 * abs(best)
    a1 = as_float(r["one_step"], (2 * N,))
    assert np.allclose(a1, one_step_expected())
    a2 = as_float(r["degenerate"], (4,))
    assert np.allclose(a2, [1.0, 0.0, 0.0, 1.0], rtol=0, atol=1e-9)


# ---------------------------------------------------------------------------
# Question 4: coefficients and intercept from the KKT conditions
# ---------------------------------------------------------------------------

COEF_CASES = {}  # name -> (alpha, K, z, C, epsilon), LIBSVM's beta and b
COEF_EXPECTED = {}
for _name, (_C, _eps) in {
    "libsvm_a": (C, EPSILON),
    "libsvm_b": (10.0, 0.05),
    "libsvm_c": (0.3, 0.0),
    # every support vector at C: no free multiplier, the midpoint rule
    "no_free": (1e-3, EPSILON),
}.items():
    _beta, _b, _alpha = optimum(K, Z, _C, _eps)
    COEF_CASES[_name] = (_alpha, K, Z, _C, _eps)
    COEF_EXPECTED[_name] = (_beta, _b)
# free multipliers on both edges: the average of their values of b
COEF_CASES["both_edges"] = (
    np.array([0.5, 0.0, 0.0, 0.5]), np.eye(2), np.array([1.0, -1.0]), 1.0, 0.2
)  # fmt: skip
COEF_EXPECTED["both_edges"] = (
    np.array([0.5, -0.5]),
    ((1.0 - 0.2 - 0.5) + (-1.0 + 0.2 + 0.5)) / 2,
)


def judge_coef_and_intercept(r):
    for name, (beta_ref, b_ref) in COEF_EXPECTED.items():
        got = r[name]
        assert len(got) == 2
        beta = as_float(got[0], beta_ref.shape)
        b = float(as_float(got[1], ()))
        assert np.allclose(beta, beta_ref, rtol=0, atol=1e-12)
        # LIBSVM's intercept is its own average, to its tolerance; the
        # midpoint rule (no free multiplier) is tighter
        atol = 1e-9 if name in ("no_free", "both_edges") else 1e-7
        assert np.isclose(b, b_ref, atol=atol), (name, b, b_ref)


# ---------------------------------------------------------------------------
# Question 5: inside, on or outside the tube
# ---------------------------------------------------------------------------

# The answer is an array of strings, which the probes do not carry as it
# is: this instructor code, run in the kernel, calls the student's
# tube_position and hands its items on as a list of str (the judge below
# decides from those strings alone).
AS_LIST = """
import __main__ as _main


def tube_position_as_list(f, z, epsilon, atol=1e-3):
    position = _main.tube_position(f, z, epsilon, atol=atol)
    return [str(item) for item in list(position)]


_main.tube_position_as_list = tube_position_as_list
"""

TUBE_CASES = {
    "empty": (np.zeros(0), np.zeros(0), 0.1, 1e-3),
    "by_hand": (
        np.ones(4), np.array([1.5, 0.5, 1.52, 1.3]), 0.5, 0.01
    ),
}  # fmt: skip
for _name, (_C, _eps) in {
    "libsvm_a": (C, EPSILON),
    "libsvm_b": (10.0, 0.2),
}.items():
    _beta, _b, _ = optimum(K, Z, _C, _eps)
    TUBE_CASES[_name] = (K @ _beta + _b, Z, _eps, 1e-6)


def judge_tube_position(r):
    for name, (f, z, epsilon, atol) in TUBE_CASES.items():
        got = r[name]
        assert isinstance(got, list) and len(got) == len(z)
        distance = np.abs(z - f)
        for item, d in zip(got, distance, strict=True):
            # a distance within rounding of a threshold may go either way
            allowed = set()
            if d < epsilon - atol + 1e-12:
                allowed.add("inside")
            if d > epsilon + atol - 1e-12:
                allowed.add("outside")
            if epsilon - atol - 1e-12 <= d <= epsilon + atol + 1e-12:
                allowed.add("on")
            assert item in allowed, (name, item, d)
    # LIBSVM's models have points inside and on the tube
    assert "inside" in r["libsvm_a"] and "on" in r["libsvm_a"]


CHECKS = [
    Check(
        "test_primal",
        tuple(
            Probe(name, "eps_insensitive", case)
            for name, case in LOSS_CASES.items()
        )
        + tuple(
            Probe(name, "primal_objective", case)
            for name, case in PRIMAL_CASES.items()
        ),
        judge_primal,
        "the loss is max(0, |r| - epsilon) elementwise, for arrays of any "
        "shape; the objective is 0.5 beta' K beta plus C times the sum of "
        "the losses of the residuals z - (K beta + b), the intercept "
        "included",
    ),
    Check(
        "test_svr_dual",
        tuple(
            Probe(name, "svr_dual", case) for name, case in DUAL_CASES.items()
        ),
        judge_svr_dual,
        "with a = (alpha, alpha*) and y = (1, ..., 1, -1, ..., -1), "
        "0.5 a'Qa + p'a must equal 0.5 beta'K beta + epsilon sum(alpha + "
        "alpha*) - z'beta for beta = alpha - alpha*: Q = (y y') * [[K, K], "
        "[K, K]] and p = (epsilon - z, epsilon + z); every bound is C",
    ),
    Check(
        "test_solve_dual",
        tuple(
            Probe(name, "solve_dual", (Q, p, y, upper), {"tol": tol})
            for name, (Q, p, y, upper, tol) in SOLVE_CASES.items()
        )
        + (
            Probe("one_step", "solve_dual", ONE_STEP, {"max_iter": 1}),
            Probe("degenerate", "solve_dual", DEGENERATE),
        ),
        judge_solve_dual,
        "start from a = 0 with G = p; at each step take the maximal "
        "violating pair (i from I_up with the largest -y G, j from I_low "
        "with the smallest), stop when their difference is at most tol, "
        "move both along y'a = 0 by the unconstrained step clipped to each "
        "multiplier's own bound upper[i] (to the bound when the curvature "
        "is zero), and update G with the two columns of Q",
    ),
    Check(
        "test_coef_and_intercept",
        tuple(
            Probe(name, "coef_and_intercept", case)
            for name, case in COEF_CASES.items()
        ),
        judge_coef_and_intercept,
        "beta = alpha - alpha*; b is the average over the free multipliers "
        "of the b that puts their point on its edge of the tube (z - "
        "epsilon - (K beta)_i for 0 < alpha_i < C, z + epsilon - (K beta)_i "
        "for 0 < alpha*_i < C); with no free multiplier, the midpoint of "
        "the interval the KKT conditions leave for b",
    ),
    Check(
        "test_tube_position",
        tuple(
            Probe(name, "tube_position_as_list", case, stand_ins=AS_LIST)
            for name, case in TUBE_CASES.items()
        ),
        judge_tube_position,
        'for each point, "inside" if |z - f| < epsilon - atol, "outside" if '
        '|z - f| > epsilon + atol and "on" otherwise, as an array of the '
        "same length (an empty one for no points)",
    ),
]
