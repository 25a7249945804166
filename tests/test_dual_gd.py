"""dual_gd: the SMO and scikit-learn optimum, KKT, the pure penalty's bias."""

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC as SklearnSVC

from svmlib.duality import dual_objective, kkt_violations
from svmlib.kernels import linear_kernel, rbf_kernel
from svmlib.solvers import SolverResult, smo
from svmlib.solvers.gradient_ascent import dual_gd, largest_eigenvalue

KERNELS = {
    "linear": (linear_kernel, {"kernel": "linear"}),
    "rbf": (
        lambda X: rbf_kernel(X, gamma=0.5),
        {"kernel": "rbf", "gamma": 0.5},
    ),
}


@pytest.mark.parametrize("kernel", sorted(KERNELS))
@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
def test_reaches_smo_and_sklearn_optimum(problem, kernel, C):
    _, X, y = problem
    kernel_function, params = KERNELS[kernel]
    K = kernel_function(X)
    result = dual_gd(K, y, C)
    assert isinstance(result, SolverResult) and result.converged
    reference = smo(K, y, C, tol=1e-8)
    assert result.dual_objective == pytest.approx(
        reference.dual_objective, rel=1e-3
    )
    assert result.dual_objective == pytest.approx(
        dual_objective(result.alpha, K, y), rel=1e-12
    )
    assert np.all((result.alpha >= 0) & (result.alpha <= C))
    assert abs(result.alpha @ y) <= 1e-3
    sk = SklearnSVC(C=C, tol=1e-8, **params).fit(X, y)
    f = K @ (result.alpha * y) + result.b
    np.testing.assert_allclose(f, sk.decision_function(X), atol=2e-2)


def test_hard_margin_on_separable_data():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(-2, 1, (30, 2)), rng.normal(2, 1, (30, 2))])
    y = np.r_[-np.ones(30), np.ones(30)]
    K = linear_kernel(X)
    result = dual_gd(K, y, tol=1e-5)
    reference = smo(K, y, np.inf, tol=1e-8)
    assert result.converged
    assert result.dual_objective == pytest.approx(
        reference.dual_objective, rel=1e-4
    )
    assert result.b == pytest.approx(reference.b, abs=1e-3)
    # the same support vectors, and the KKT residuals of the final state are
    # small
    big = result.alpha > 1e-3 * result.alpha.max()
    np.testing.assert_array_equal(
        np.flatnonzero(big), np.flatnonzero(reference.alpha)
    )
    assert kkt_violations(result.alpha, K, y, result.b, np.inf).max() < 1e-4


def test_pure_penalty_leaves_sum_alpha_y_equal_b_over_c(problem):
    _, X, y = problem
    K = rbf_kernel(X, gamma=0.5)
    c = 0.5
    result = dual_gd(
        K, y, 1.0, penalty=c, augmented=False, tol=1e-8, max_iter=200_000
    )
    assert result.converged
    s = result.alpha @ y
    # at the fixed point the gradient is y (E + c s): c s plays the role of b
    assert c * s == pytest.approx(result.b, abs=1e-6)
    exact = dual_gd(K, y, 1.0, penalty=c, tol=1e-8, max_iter=200_000)
    assert abs(exact.alpha @ y) <= 1e-8


def test_history_callback_and_eigenvalue():
    X, y = (
        np.random.default_rng(2).normal(size=(40, 3)),
        np.r_[np.ones(20), -np.ones(20)],
    )
    K = rbf_kernel(X, sigma=1.0)
    calls = []
    result = dual_gd(
        K,
        y,
        1.0,
        record_history=True,
        callback=lambda k, a: calls.append((k, a.sum())),
    )
    h = result.history
    for key in ("dual_objective", "kkt_violation", "equality_residual"):
        assert h[key].shape == (result.n_iter + 1,)
    assert h["dual_objective"][0] == 0.0 and h["dual_objective"][
        -1
    ] == pytest.approx(result.dual_objective)
    assert h["kkt_violation"][-1] == result.kkt_violation <= 1e-3
    assert [k for k, _ in calls] == list(range(1, result.n_iter + 1))
    Q = np.outer(y, y) * K
    assert largest_eigenvalue(K, y) == pytest.approx(
        np.linalg.eigvalsh(Q)[-1], rel=1e-6
    )
    assert largest_eigenvalue(K, y, 0.3) == pytest.approx(
        np.linalg.eigvalsh(Q + 0.3 * np.outer(y, y))[-1], rel=1e-6
    )


def test_max_iter_warns_and_stays_in_box():
    X, y = (
        np.random.default_rng(3).normal(size=(30, 2)),
        np.r_[np.ones(15), -np.ones(15)],
    )
    with pytest.warns(ConvergenceWarning, match="max_iter=5"):
        result = dual_gd(linear_kernel(X), y, 2.0, max_iter=5)
    assert result.n_iter == 5 and not result.converged
    assert np.all((result.alpha >= 0) & (result.alpha <= 2.0))


@pytest.mark.parametrize(
    "change, message",
    [
        (dict(learning_rate=0.0), "learning_rate must be"),
        (dict(learning_rate=np.inf), "learning_rate must be"),
        (dict(penalty=-1.0), "penalty must be"),
        (dict(callback=3), "callback must be callable"),
    ],
)
def test_bad_input(change, message):
    args = dict(K=np.eye(4), y=np.array([1.0, -1.0, 1.0, -1.0]), C=1.0)
    args.update(change)
    K, y = args.pop("K"), args.pop("y")
    with pytest.raises(ValueError, match=message):
        dual_gd(K, y, **args)
