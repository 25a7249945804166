"""Simplified SMO (CS229): near-optimal on small problems, safe on hard."""

import numpy as np
import pytest
from sklearn.datasets import make_blobs, make_moons
from sklearn.exceptions import ConvergenceWarning

from svmlib.duality import dual_objective
from svmlib.kernels import linear_kernel, rbf_kernel, sigmoid_kernel
from svmlib.solvers import simplified_smo, smo


def _data(kind):
    if kind == "blobs":
        X, y = make_blobs(
            50,
            centers=[[-1.5, -1.5], [1.5, 1.5]],
            cluster_std=1.0,
            random_state=0,
        )
    else:
        X, y = make_moons(60, noise=0.2, random_state=0)
    return X, np.where(y == 1, 1.0, -1.0)


@pytest.mark.parametrize(
    "kind, C", [("blobs", 0.5), ("moons", 0.5), ("moons", 10.0)]
)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_close_to_the_optimum(kind, C, seed):
    X, y = _data(kind)
    K = rbf_kernel(X, sigma=1.0) if kind == "moons" else linear_kernel(X)
    optimum = smo(K, y, C, tol=1e-8).dual_objective
    result = simplified_smo(K, y, C, random_state=seed)
    assert result.converged
    assert result.dual_objective == pytest.approx(optimum, rel=1e-2)
    assert result.dual_objective <= optimum + 1e-9  # never above the optimum
    assert result.dual_objective == pytest.approx(
        dual_objective(result.alpha, K, y), rel=1e-9
    )
    assert abs(np.dot(result.alpha, y)) < 1e-9 and np.all(
        (result.alpha >= 0) & (result.alpha <= C)
    )


def test_the_handouts_caveat_no_guarantee_of_the_optimum():
    """Overlapping classes, linear kernel, C=10: quiet passes stop early."""
    X, y = _data("blobs")
    K = linear_kernel(X)
    optimum = smo(K, y, 10.0, tol=1e-8).dual_objective
    short = [
        simplified_smo(K, y, 10.0, random_state=seed) for seed in range(5)
    ]
    gaps = [(optimum - result.dual_objective) / optimum for result in short]
    assert max(gaps) > 0.05
    assert all(
        result.converged for result in short
    )  # its own criterion is met all the same
    assert max(result.kkt_violation for result in short) > 1e-3
    # more patience closes the gap
    patient = simplified_smo(K, y, 10.0, random_state=1, max_passes=200)
    assert patient.dual_objective == pytest.approx(optimum, rel=1e-3)


def test_reproducible_with_random_state():
    X, y = _data("moons")
    K = rbf_kernel(X, sigma=1.0)
    first, second = (
        simplified_smo(K, y, 1.0, random_state=7),
        simplified_smo(K, y, 1.0, random_state=7),
    )
    np.testing.assert_array_equal(first.alpha, second.alpha)
    assert first.b == second.b


def test_history_is_monotone():
    X, y = _data("moons")
    result = simplified_smo(
        rbf_kernel(X, sigma=1.0), y, 1.0, random_state=0, record_history=True
    )
    W = result.history["dual_objective"]
    assert len(W) == result.n_iter + 1
    assert np.all(np.diff(W) >= -1e-12)


def test_indefinite_kernel_and_duplicates_terminate():
    X, y = _data("moons")
    X = np.vstack([X, X[:5]])  # duplicate points: eta = 0 for those pairs
    y = np.r_[y, y[:5]]
    K = sigmoid_kernel(X, gamma=2.0, coef0=-1.0)  # not positive semi-definite
    assert np.linalg.eigvalsh(K).min() < 0
    result = simplified_smo(K, y, 1.0, random_state=0, max_iter=20000)
    assert np.all(np.isfinite(result.alpha)) and np.isfinite(result.b)


def test_max_iter_warns():
    X, y = _data("moons")
    with pytest.warns(ConvergenceWarning, match="max_iter=3"):
        result = simplified_smo(
            rbf_kernel(X, sigma=1.0), y, 10.0, max_iter=3, random_state=0
        )
    assert result.n_iter == 3 and not result.converged


@pytest.mark.parametrize(
    "kwargs, message",
    [(dict(max_passes=0), "max_passes"), (dict(max_passes=2.5), "max_passes")],
)
def test_bad_input(kwargs, message):
    X, y = _data("blobs")
    with pytest.raises(ValueError, match=message):
        simplified_smo(linear_kernel(X), y, 1.0, **kwargs)
