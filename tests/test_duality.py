"""Duality tools: hand-computed values, duality, KKT residuals, b."""

import numpy as np
import pytest
from scipy.optimize import minimize
from sklearn.svm import SVC as SklearnSVC

from svmlib.duality import (
    dual_objective,
    duality_gap,
    error_cache,
    intercept_from_errors,
    kkt_violations,
    primal_objective,
    recover_b,
    recover_w,
)
from svmlib.kernels import linear_kernel, rbf_kernel
from svmlib.solvers import smo

# Three points: the first two are the support vectors of the hard margin,
# w = (1, 0), b = 0, alpha = (1/2, 1/2, 0); the third lies far outside.
X3 = np.array([[1.0, 0.0], [-1.0, 0.0], [3.0, 1.0]])
Y3 = np.array([1.0, -1.0, 1.0])
ALPHA3 = np.array([0.5, 0.5, 0.0])


def test_hand_computed_values():
    K = linear_kernel(X3)
    # W = sum(alpha) - 1/2 ||sum alpha_i y_i x_i||^2 = 1 - 1/2 * 1
    assert dual_objective(ALPHA3, K, Y3) == pytest.approx(0.5)
    np.testing.assert_allclose(recover_w(ALPHA3, X3, Y3), [1.0, 0.0])
    # margins y f at b = 0.5: 1.5, 0.5, 3.5; hinge: 0, 0.5, 0
    assert primal_objective([1.0, 0.0], 0.5, X3, Y3, C=2.0) == pytest.approx(
        0.5 + 2.0 * 0.5
    )
    assert primal_objective(
        [1.0, 0.0], 0.0, X3, Y3, C=np.inf
    ) == pytest.approx(0.5)
    assert (
        primal_objective([1.0, 0.0], 0.5, X3, Y3, C=np.inf) == np.inf
    )  # infeasible
    assert duality_gap(ALPHA3, K, Y3, 0.0, np.inf) == pytest.approx(
        0.0, abs=1e-15
    )
    np.testing.assert_allclose(
        kkt_violations(ALPHA3, K, Y3, 0.0, np.inf), 0.0, atol=1e-15
    )
    # with b = 0.5 the free point 2 is off its margin by 0.5, the others
    # are fine
    np.testing.assert_allclose(
        kkt_violations(ALPHA3, K, Y3, 0.5, np.inf), [0.5, 0.5, 0.0]
    )
    for method in ("free_mean", "single", "extreme"):
        assert recover_b(
            ALPHA3, K, Y3, np.inf, method=method
        ) == pytest.approx(0.0, abs=1e-15)


def test_kkt_residual_cases():
    # one point per case: alpha = 0 (inside its margin), free (off
    # margin), alpha = C (outside margin)
    K = np.eye(3)
    y = np.array([1.0, -1.0, 1.0])
    alpha = np.array([0.0, 0.5, 1.0])
    # f = K (alpha y) + b = (0, -0.5, 1) + 0.2; margins y f = 0.2, 0.3, 1.2
    np.testing.assert_allclose(
        kkt_violations(alpha, K, y, 0.2, C=1.0), [0.8, 0.7, 0.2]
    )


@pytest.mark.parametrize("C", [0.1, 1.0, np.inf])
def test_strong_duality_at_the_optimum(C):
    X, y = _separable()
    K = linear_kernel(X)
    result = smo(K, y, C, tol=1e-8)
    w = recover_w(result.alpha, X, y)
    P = primal_objective(w, result.b, X, y, C)
    assert P == pytest.approx(result.dual_objective, rel=1e-6)
    assert duality_gap(result.alpha, K, y, result.b, C) == pytest.approx(
        P - result.dual_objective, abs=1e-9
    )
    # and the same optimum as scikit-learn (a large C stands in for the
    # hard margin)
    reference = SklearnSVC(kernel="linear", C=min(C, 1e8), tol=1e-10).fit(X, y)
    assert P == pytest.approx(
        primal_objective(reference.coef_[0], reference.intercept_[0], X, y, C),
        rel=1e-4,
    )


def test_weak_duality_for_random_feasible_points():
    rng = np.random.default_rng(0)
    X, y = _separable()
    K = rbf_kernel(X, gamma=0.5)
    C = 2.0
    for _ in range(50):
        alpha = rng.uniform(0, C, len(y))
        # make sum alpha_i y_i = 0 by shrinking the heavier class
        pos, neg = alpha[y > 0].sum(), alpha[y < 0].sum()
        alpha[y > 0 if pos > neg else y < 0] *= min(pos, neg) / max(pos, neg)
        assert abs(alpha @ y) < 1e-10
        b = rng.normal()
        assert duality_gap(alpha, K, y, b, C) >= -1e-10


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
@pytest.mark.parametrize("C", [0.5, 10.0])
def test_kkt_zero_at_solution_and_not_after_perturbation(problem, kernel, C):
    _, X, y = problem
    K = linear_kernel(X) if kernel == "linear" else rbf_kernel(X, gamma=0.5)
    tol = 1e-6
    result = smo(K, y, C, tol=tol)
    residuals = kkt_violations(result.alpha, K, y, result.b, C)
    assert residuals.shape == y.shape and np.all(residuals >= 0)
    assert residuals.max() <= tol
    # move the intercept: every free support vector leaves its margin
    free = (result.alpha > 0) & (result.alpha < C)
    moved = kkt_violations(result.alpha, K, y, result.b + 0.1, C)
    np.testing.assert_allclose(moved[free], 0.1, atol=tol)
    # move multipliers along a feasible direction: the KKT conditions break
    i, j = (
        np.flatnonzero(free & (y > 0))[0],
        np.flatnonzero((result.alpha < C) & (y < 0))[0],
    )
    alpha = result.alpha.copy()
    step = 0.5 * min(alpha[i], C - alpha[j])
    alpha[i] -= step
    alpha[j] += step
    assert kkt_violations(alpha, K, y, result.b, C).max() > 10 * tol
    assert duality_gap(alpha, K, y, result.b, C) > 0


def test_recover_b_methods_agree_at_optimum_and_mean_is_stable():
    X, y = _separable()
    K = linear_kernel(X)
    C = 1.0
    result = smo(K, y, C, tol=1e-10)
    free = np.flatnonzero((result.alpha > 0) & (result.alpha < C))
    assert len(free) >= 2
    values = {
        m: recover_b(result.alpha, K, y, C, method=m)
        for m in ("free_mean", "single", "extreme")
    }
    for value in values.values():
        assert value == pytest.approx(result.b, abs=1e-8)
    assert values["free_mean"] == intercept_from_errors(
        result.alpha, y, C, error_cache(result.alpha, K, y)
    )
    for i in free:
        assert recover_b(
            result.alpha, K, y, C, method="single", index=i
        ) == pytest.approx(result.b, abs=1e-8)
    # an inexact alpha: the mean over free support vectors is never worse
    # than the worst single one
    rng = np.random.default_rng(1)
    alpha = result.alpha.copy()
    alpha[free] = np.clip(
        alpha[free] * (1 + 0.05 * rng.standard_normal(len(free))),
        1e-6,
        C - 1e-6,
    )
    singles = np.array(
        [recover_b(alpha, K, y, C, method="single", index=i) for i in free]
    )
    mean = recover_b(alpha, K, y, C)
    assert abs(mean - result.b) <= np.max(np.abs(singles - result.b)) + 1e-12
    assert mean == pytest.approx(singles.mean())


def test_general_purpose_qp_reaches_the_smo_optimum():
    """SLSQP on the dual, with per-point bounds: the same W, a zero gap."""
    X, y = _separable()
    K = rbf_kernel(X, gamma=0.5)
    C_i = np.where(y > 0, 0.5, 2.0)
    Q = (y[:, None] * y[None, :]) * K
    numeric = minimize(
        lambda a: 0.5 * a @ Q @ a - a.sum(),
        x0=np.zeros(len(y)),
        jac=lambda a: Q @ a - 1.0,
        bounds=list(zip(np.zeros(len(y)), C_i, strict=True)),
        constraints=[
            {"type": "eq", "fun": lambda a: a @ y, "jac": lambda a: y}
        ],
        method="SLSQP",
        options={"ftol": 1e-12, "maxiter": 1000},
    )
    assert numeric.success
    # SLSQP stops near the bounds, not on them: put those alpha_i there
    alpha = np.clip(numeric.x, 0.0, C_i)
    alpha[alpha < 1e-6] = 0.0
    alpha = np.where(alpha > C_i - 1e-6, C_i, alpha)
    result = smo(K, y, C_i, tol=1e-8)
    assert dual_objective(alpha, K, y) == pytest.approx(
        result.dual_objective, rel=1e-6
    )
    b = recover_b(alpha, K, y, C_i)
    assert b == pytest.approx(result.b, abs=1e-3)
    assert 0 <= duality_gap(alpha, K, y, b, C_i) < 1e-3
    assert duality_gap(result.alpha, K, y, result.b, C_i) == pytest.approx(
        0.0, abs=1e-6
    )


def test_per_point_C_primal_is_the_weighted_hinge():
    X, y = _separable()
    C_i = np.linspace(0.1, 2.0, len(y))
    w, b = np.array([0.3, -0.2]), 0.1
    hinge = np.maximum(0.0, 1.0 - y * (X @ w + b))
    assert primal_objective(w, b, X, y, C_i) == pytest.approx(
        0.5 * w @ w + C_i @ hinge
    )
    # at the weighted optimum the primal and the dual meet
    result = smo(linear_kernel(X), y, C_i, tol=1e-9)
    P = primal_objective(recover_w(result.alpha, X, y), result.b, X, y, C_i)
    assert P == pytest.approx(result.dual_objective, rel=1e-6)


@pytest.mark.parametrize(
    "call, message",
    [
        (
            lambda: recover_b(
                ALPHA3, linear_kernel(X3), Y3, np.inf, method="median"
            ),
            "method must be",
        ),
        (
            lambda: recover_b(
                np.array([0.0, 0.0, 0.0]), np.eye(3), Y3, 1.0, method="single"
            ),
            "free support",
        ),
        (
            lambda: recover_b(
                ALPHA3, linear_kernel(X3), Y3, np.inf, method="single", index=2
            ),
            "not a free",
        ),
        (
            lambda: recover_b(
                np.array([1.0, 1.0, 0.0]),
                np.eye(3),
                np.array([1.0, 1.0, -1.0]),
                1.0,
                method="extreme",
            ),
            "I_up and I_low",
        ),
        (
            lambda: kkt_violations(
                np.array([-0.5, 0.5, 0.0]), np.eye(3), Y3, 0.0, 1.0
            ),
            "alpha must lie in the box",
        ),
        (
            lambda: kkt_violations(
                np.array([2.0, 0.5, 0.0]), np.eye(3), Y3, 0.0, 1.0
            ),
            "alpha must lie in the box",
        ),
        (
            lambda: kkt_violations(ALPHA3[:2], np.eye(3), Y3, 0.0, 1.0),
            "length 3",
        ),
        (
            lambda: kkt_violations(
                ALPHA3, np.eye(3), np.array([1.0, 0.0, 1.0]), 0.0, 1.0
            ),
            r"\{-1, \+1\}",
        ),
        (lambda: duality_gap(ALPHA3, np.ones((3, 2)), Y3, 0.0, 1.0), "square"),
        (
            lambda: duality_gap(ALPHA3, np.eye(3), Y3, 0.0, 0.0),
            "C must be a positive",
        ),
        (
            lambda: duality_gap(
                np.array([np.nan, 0, 0]), np.eye(3), Y3, 0.0, 1.0
            ),
            "NaN",
        ),
        (
            lambda: primal_objective([1.0, 0.0, 0.0], 0.0, X3, Y3, 1.0),
            "w must have shape",
        ),
        (lambda: primal_objective([1.0, 0.0], 0.0, X3[0], Y3, 1.0), "2-D"),
        (
            lambda: primal_objective([1.0, 0.0], 0.0, X3, np.ones(3), 1.0),
            "only one class",
        ),
        (
            lambda: primal_objective([1.0, 0.0], 0.0, X3, Y3, -1.0),
            "C must be a positive",
        ),
    ],
)
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def _separable():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(-2, 1, (25, 2)), rng.normal(2, 1, (25, 2))])
    return X, np.r_[-np.ones(25), np.ones(25)]
