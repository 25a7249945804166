"""primal_gd: scikit-learn's linear SVC optimum, objective, histories."""

import numpy as np
import pytest
from sklearn.datasets import make_blobs
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC as SklearnSVC

from svmlib.duality import primal_objective
from svmlib.solvers.primal import (
    PrimalResult,
    primal_gd,
    regularised_hinge_objective,
    step_size,
)


def sklearn_optimum(X, y, lam):
    """lam/2 ||w||^2 + mean hinge at scikit-learn's solution, C = 1/(lam n)."""
    C = 1.0 / (lam * len(y))
    reference = SklearnSVC(kernel="linear", C=C, tol=1e-8).fit(X, y)
    return lam * primal_objective(
        reference.coef_[0], reference.intercept_[0], X, y, C
    )


@pytest.mark.parametrize("lam", [1e-1, 1e-2, 1e-3])
def test_objective_within_one_percent_of_sklearn(problem, lam):
    _, X, y = problem
    result = primal_gd(X, y, lam, batch_size=20, random_state=0)
    assert isinstance(result, PrimalResult) and result.converged
    optimum = sklearn_optimum(X, y, lam)
    assert result.objective >= optimum * (1 - 1e-9)  # nobody beats the optimum
    assert result.objective == pytest.approx(optimum, rel=1e-2)
    assert result.objective == pytest.approx(
        regularised_hinge_objective(result.w, result.b, X, y, lam)
    )


def test_small_lambda_on_larger_data():
    X, y01 = make_blobs(
        400, centers=[[-2, -2], [2, 2]], cluster_std=1.2, random_state=0
    )
    y = np.where(y01 == 1, 1.0, -1.0)
    result = primal_gd(X, y, 1e-4, random_state=0)
    assert result.objective == pytest.approx(
        sklearn_optimum(X, y, 1e-4), rel=1e-2
    )


def test_objective_is_lambda_times_C_form():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(30, 3)), np.r_[np.ones(15), -np.ones(15)]
    w, b, lam = rng.normal(size=3), 0.3, 0.05
    J = regularised_hinge_objective(w, b, X, y, lam)
    assert J == pytest.approx(
        lam * primal_objective(w, b, X, y, C=1 / (lam * len(y)))
    )
    # by hand at w = 0, b = 0: every hinge is 1
    assert regularised_hinge_objective(np.zeros(3), 0.0, X, y, lam) == 1.0


def test_history_reproducibility_and_full_batch(problem):
    _, X, y = problem
    a = primal_gd(
        X, y, 1e-2, batch_size=16, random_state=3, record_history=True
    )
    b = primal_gd(X, y, 1e-2, batch_size=16, random_state=3)
    np.testing.assert_array_equal(a.w, b.w)
    assert a.b == b.b and a.n_iter == b.n_iter
    h = a.history
    assert h["objective"].shape == (a.n_iter + 1,) and h["w"].shape == (
        a.n_iter + 1,
        X.shape[1],
    )
    assert h["b"].shape == (a.n_iter + 1,) and h["objective"][0] == 1.0
    np.testing.assert_allclose(
        h["objective"][-1],
        regularised_hinge_objective(h["w"][-1], h["b"][-1], X, y, 1e-2),
    )
    assert (
        a.objective <= h["objective"][-1] + 1e-15
    )  # the best iterate checked is returned
    assert np.any(np.isclose(h["objective"], a.objective, rtol=0, atol=1e-15))
    full = primal_gd(X, y, 1e-2, batch_size=10**6, random_state=0)
    assert full.objective == pytest.approx(
        sklearn_optimum(X, y, 1e-2), rel=1e-2
    )


def test_step_size_schedule():
    assert step_size(5, 0.1, 0.0) == 0.1
    assert step_size(1, 0.1, 1e-2) == pytest.approx(0.1 / 1.001)
    # large t: the Pegasos step 1 / (lam t)
    assert step_size(10**9, 0.1, 1e-2) == pytest.approx(
        1 / (1e-2 * 10**9), rel=1e-5
    )


def test_lambda_zero_separable_reaches_zero_hinge():
    X, y01 = make_blobs(
        100, centers=[[-3, -3], [3, 3]], cluster_std=0.7, random_state=0
    )
    y = np.where(y01 == 1, 1.0, -1.0)
    result = primal_gd(X, y, 0.0, random_state=0)
    assert result.objective == 0.0
    assert np.all(y * (X @ result.w + result.b) >= 1)


def test_max_iter_warns():
    X, y01 = make_blobs(100, centers=[[-1, -1], [1, 1]], random_state=0)
    y = np.where(y01 == 1, 1.0, -1.0)
    with pytest.warns(ConvergenceWarning, match="max_iter=3"):
        result = primal_gd(X, y, 1e-3, max_iter=3, random_state=0)
    assert result.n_iter == 3 and not result.converged


@pytest.mark.parametrize(
    "change, message",
    [
        (dict(lam=-1.0), "lam must be"),
        (dict(lam=np.inf), "lam must be"),
        (dict(learning_rate=0.0), "learning_rate must be"),
        (dict(batch_size=0), "batch_size must be"),
        (dict(batch_size=2.5), "batch_size must be"),
        (dict(max_iter=0), "max_iter must be"),
        (dict(tol=-1.0), "tol must be"),
        (dict(y=np.array([0.0, 1.0, 0.0, 1.0])), r"labels in \{-1, \+1\}"),
        (dict(y=np.ones(4)), "only one class"),
        (dict(y=np.array([1.0, -1.0])), "length 4"),
        (dict(X=np.ones(4)), "2D array"),
        (dict(X=np.full((4, 2), np.nan)), "NaN"),
    ],
)
def test_bad_input(change, message):
    args = dict(
        X=np.eye(4)[:, :2], y=np.array([1.0, -1.0, 1.0, -1.0]), lam=0.1
    )
    args.update(change)
    X, y, lam = args.pop("X"), args.pop("y"), args.pop("lam")
    with pytest.raises(ValueError, match=message):
        primal_gd(X, y, lam, **args)
