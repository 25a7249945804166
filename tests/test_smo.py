"""SMO against LIBSVM (scikit-learn), KKT conditions, the two-variable step."""

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC as SklearnSVC

from svmlib.duality import (
    dual_objective,
    error_cache,
    index_sets,
    max_violation,
)
from svmlib.gram import CachedGram, DenseGram
from svmlib.kernels import linear_kernel, polynomial_kernel, rbf_kernel
from svmlib.solvers import smo, two_variable_step

SELECTIONS = ["wss2", "platt"]

KERNELS = {
    "linear": (linear_kernel, {"kernel": "linear"}),
    "rbf": (
        lambda X, Z=None: rbf_kernel(X, Z, gamma=0.5),
        {"kernel": "rbf", "gamma": 0.5},
    ),
    "poly": (
        lambda X, Z=None: polynomial_kernel(
            X, Z, degree=2, gamma=0.5, coef0=1.0
        ),
        {"kernel": "poly", "degree": 2, "gamma": 0.5, "coef0": 1.0},
    ),
}


def sklearn_alpha(X, y, C, params, tol=1e-7):
    """Full-length alpha and b of scikit-learn's solution."""
    reference = SklearnSVC(C=C, tol=tol, **params).fit(X, y)
    alpha = np.zeros(len(y))
    alpha[reference.support_] = np.abs(reference.dual_coef_[0])
    return alpha, reference


@pytest.mark.parametrize("selection", SELECTIONS)
@pytest.mark.parametrize("kernel", sorted(KERNELS))
@pytest.mark.parametrize("C", [0.1, 10.0])
def test_smo_matches_sklearn(problem, kernel, C, selection):
    _, X, y = problem
    kernel_function, params = KERNELS[kernel]
    K = kernel_function(X)
    result = smo(K, y, C, tol=1e-5, selection=selection, random_state=0)
    alpha_ref, reference = sklearn_alpha(X, y, C, params)

    assert result.converged
    W_ref = dual_objective(alpha_ref, K, y)
    assert result.dual_objective == pytest.approx(W_ref, rel=1e-4)
    assert result.dual_objective == pytest.approx(
        dual_objective(result.alpha, K, y), rel=1e-10
    )
    f = K @ (result.alpha * y) + result.b
    np.testing.assert_allclose(f, reference.decision_function(X), atol=1e-3)
    np.testing.assert_array_equal(
        np.flatnonzero(result.alpha), np.sort(reference.support_)
    )


def assert_kkt(alpha, b, y, K, C, tol):
    """The KKT conditions of the soft-margin dual, to tolerance tol."""
    assert np.all(alpha >= 0) and np.all(alpha <= C)
    assert abs(np.dot(alpha, y)) < 1e-8 * max(1.0, alpha.sum())
    margin = y * (K @ (alpha * y) + b)  # y_i f(x_i)
    assert np.all(margin[alpha == 0] >= 1 - tol)
    assert np.all(margin[alpha == C] <= 1 + tol)
    free = (alpha > 0) & (alpha < C)
    np.testing.assert_allclose(margin[free], 1.0, atol=tol)


@pytest.mark.parametrize("selection", SELECTIONS)
@pytest.mark.parametrize("C", [0.05, 1.0, 1e3])
def test_kkt_conditions_at_solution(problem, C, selection):
    _, X, y = problem
    K = rbf_kernel(X, gamma=1.0)
    tol = 1e-3
    result = smo(K, y, C, tol=tol, selection=selection, random_state=1)
    assert result.converged
    assert result.kkt_violation <= tol
    assert (
        max_violation(result.alpha, y, C, error_cache(result.alpha, K, y))
        <= tol
    )
    assert_kkt(result.alpha, result.b, y, K, C, tol)


def test_hard_margin_separable():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(-3, 1, (30, 2)), rng.normal(3, 1, (30, 2))])
    y = np.r_[-np.ones(30), np.ones(30)]
    K = linear_kernel(X)
    result = smo(K, y, np.inf, tol=1e-6)
    assert result.converged
    assert np.all(np.isfinite(result.alpha))
    assert_kkt(result.alpha, result.b, y, K, np.inf, 1e-5)
    # the hard margin is the soft margin with C above every multiplier
    soft = smo(K, y, 10 * result.alpha.max() + 1, tol=1e-6)
    np.testing.assert_allclose(soft.alpha, result.alpha, atol=1e-5)
    # geometric margin 1 / ||w|| agrees with scikit-learn's hard-margin limit
    w = (result.alpha * y) @ X
    reference = SklearnSVC(kernel="linear", C=1e8, tol=1e-8).fit(X, y)
    np.testing.assert_allclose(w, reference.coef_[0], rtol=1e-4)


def test_hard_margin_with_contradicting_duplicates_raises():
    X = np.array([[0.0, 0.0], [0.0, 0.0], [1.0, 1.0], [-1.0, -1.0]])
    y = np.array([1.0, -1.0, 1.0, -1.0])
    with pytest.raises(ValueError, match="not separable"):
        smo(linear_kernel(X), y, np.inf)


@pytest.mark.parametrize("selection", SELECTIONS)
def test_history_is_monotone_and_ends_below_tol(selection):
    X, y = (
        np.random.default_rng(3).normal(size=(50, 3)),
        np.r_[np.ones(25), -np.ones(25)],
    )
    K = rbf_kernel(X, sigma=1.0)
    result = smo(
        K, y, 1.0, selection=selection, record_history=True, random_state=0
    )
    W = result.history["dual_objective"]
    assert W.shape == result.history["kkt_violation"].shape
    assert W[0] == 0.0 and W[-1] == pytest.approx(result.dual_objective)
    # every SMO step is an ascent step
    assert np.all(np.diff(W) >= -1e-12)
    assert result.history["kkt_violation"][-1] <= 1e-3


@pytest.mark.parametrize("selection", SELECTIONS)
def test_max_iter_warns_and_gives_feasible_model(selection):
    X, y = PROBLEM_MOONS()
    K = rbf_kernel(X, gamma=0.5)
    with pytest.warns(ConvergenceWarning, match="max_iter=5"):
        result = smo(
            K, y, 10.0, max_iter=5, selection=selection, random_state=0
        )
    assert result.n_iter == 5 and not result.converged
    assert abs(np.dot(result.alpha, y)) < 1e-10
    assert np.all((result.alpha >= 0) & (result.alpha <= 10.0))


def PROBLEM_MOONS():
    from sklearn.datasets import make_moons

    X, y = make_moons(60, noise=0.3, random_state=0)
    return X, np.where(y == 1, 1.0, -1.0)


def test_cached_gram_gives_the_dense_solution():
    X, y = PROBLEM_MOONS()
    kernel = lambda A, B: rbf_kernel(A, B, gamma=0.5)  # noqa: E731
    dense = smo(DenseGram(kernel(X, X)), y, 1.0, tol=1e-10)
    # room for 3 columns of 60 float64 values: the cache must evict
    cached_gram = CachedGram(X, kernel, cache_size=3 * 60 * 8 / 2**20)
    cached = smo(cached_gram, y, 1.0, tol=1e-10)
    assert cached_gram.max_columns == 3 and cached_gram.misses > 3
    # a column computed alone differs from the dense one in the last bits, so
    # the paths may differ; the optimum they reach is the same
    np.testing.assert_allclose(cached.alpha, dense.alpha, atol=1e-7)
    assert cached.b == pytest.approx(dense.b, abs=1e-7)


@pytest.mark.parametrize("seed", range(20))
def test_two_variable_step_is_the_line_maximum(seed):
    """The analytic step equals a brute-force maximisation along the line."""
    rng = np.random.default_rng(seed)
    n, C = 6, 2.0
    X = rng.normal(size=(n, 2))
    y = rng.choice([-1.0, 1.0], size=n)
    K = rbf_kernel(X, sigma=1.0) if seed % 2 else linear_kernel(X)
    alpha = rng.uniform(0, C, size=n)
    i, j = 0, 1
    E = error_cache(alpha, K, y)
    new_i, new_j = two_variable_step(
        alpha[i], alpha[j], y[i], y[j], E[i], E[j], K[i, i], K[j, j], K[i, j],
        C,
    )  # fmt: skip
    # feasibility: the equality constraint is preserved, the box respected
    assert new_i * y[i] + new_j * y[j] == pytest.approx(
        alpha[i] * y[i] + alpha[j] * y[j]
    )
    assert 0 <= new_i <= C and 0 <= new_j <= C

    def W_at(aj):
        a = alpha.copy()
        a[j] = aj
        a[i] = alpha[i] + y[i] * y[j] * (alpha[j] - aj)
        return dual_objective(a, K, y)

    s = y[i] * y[j]
    L = (
        max(0, alpha[j] - alpha[i])
        if s < 0
        else max(0, alpha[i] + alpha[j] - C)
    )
    H = (
        min(C, C + alpha[j] - alpha[i])
        if s < 0
        else min(C, alpha[i] + alpha[j])
    )
    grid = np.linspace(L, H, 20001)
    best = max(W_at(a) for a in grid)
    assert W_at(new_j) >= best - 1e-9


def test_two_variable_step_indefinite_takes_better_end():
    # eta = K_ii + K_jj - 2 K_ij < 0: W is convex along the line, so an end
    # wins
    new_i, new_j = two_variable_step(
        0.5, 0.5, 1.0, 1.0, 0.3, -0.2, 0.0, 0.0, 1.0, 1.0
    )
    assert (new_i, new_j) in {(0.0, 1.0), (1.0, 0.0)}
    assert new_i + new_j == pytest.approx(1.0)


def test_index_sets():
    alpha = np.array([0.0, 1.0, 0.5, 0.0, 1.0, 0.5])
    y = np.array([1.0, 1.0, 1.0, -1.0, -1.0, -1.0])
    up, low = index_sets(alpha, y, 1.0)
    np.testing.assert_array_equal(up, [True, False, True, False, True, True])
    np.testing.assert_array_equal(low, [False, True, True, True, False, True])


@pytest.mark.parametrize(
    "change, message",
    [
        (dict(selection="random"), "selection must be"),
    ],
)
def test_bad_input(change, message):
    args = dict(K=np.eye(4), y=np.array([1.0, -1.0, 1.0, -1.0]), C=1.0)
    args.update(change)
    K, y, C = args.pop("K"), args.pop("y"), args.pop("C")
    with pytest.raises(ValueError, match=message):
        smo(K, y, C, **args)


@pytest.mark.parametrize("selection", SELECTIONS)
def test_no_warning_when_converged(selection):
    X, y = PROBLEM_MOONS()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = smo(
            rbf_kernel(X, gamma=0.5), y, 1.0, selection=selection,
            random_state=0,
        )  # fmt: skip
    assert result.converged and result.kkt_violation <= 1e-3
    assert [str(w.message) for w in caught] == []


def test_step_lands_exactly_on_the_bounds():
    """0.7 + 0.2 rounds to 0.8999999999999999: H must still become C exactly.

    A multiplier left one ulp below C stays in I_low, and WSS2 would keep
    choosing a pair that cannot move (found through a stalled run).
    """
    new_i, new_j = two_variable_step(
        0.7, 0.2, 1.0, 1.0, 10.0, -10.0, 1.0, 1.0, 0.0, 0.9
    )
    assert (new_i, new_j) == (0.0, 0.9)


def test_hard_margin_on_xor_warns_that_the_data_are_not_separable():
    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    y = np.array([1.0, 1.0, -1.0, -1.0])
    with pytest.warns(ConvergenceWarning, match="not separable"):
        result = smo(linear_kernel(X), y, np.inf, max_iter=1000)
    assert not result.converged
