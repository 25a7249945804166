"""Property-based tests of the SMO solvers on random small problems.

Each example draws a small data set (with duplicate points and badly scaled
features allowed), a kernel, and C from 1e-3 to 1e4, and checks what every
correct solution must satisfy: the box and equality constraints, the KKT
conditions to tol, a dual objective no worse than LIBSVM's (scikit-learn) on
the same Gram matrix, and max_iter as a hard limit.
"""

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC as SklearnSVC

from svmlib.duality import dual_objective
from svmlib.kernels import linear_kernel, rbf_kernel
from svmlib.solvers import simplified_smo, smo

SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@st.composite
def problems(draw):
    """(K, y, C): a random binary problem and its Gram matrix."""
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    n = draw(st.integers(4, 30))
    d = draw(st.integers(1, 4))
    X = rng.normal(size=(n, d))
    # duplicate points, possibly with opposite labels
    if draw(st.booleans()):
        k = draw(st.integers(1, n // 2))
        X[-k:] = X[:k]
    # features on scales up to 1000 times apart
    X *= 10.0 ** rng.uniform(-1.5, 1.5, size=d)
    y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    y[:2] = [-1.0, 1.0]
    if draw(st.booleans()):
        # the overall magnitude of K only rescales C (which is drawn below);
        # without this, entries of 1e4 with C = 1e4 take LIBSVM itself
        # millions of steps
        K = linear_kernel(X)
        K /= np.diag(K).max()
    else:
        K = rbf_kernel(
            X / X.std(axis=0).clip(1e-12), gamma=10.0 ** draw(st.floats(-2, 1))
        )
    C = 10.0 ** draw(st.floats(-3, 4))
    return K, y, C


def sklearn_objective(K, y, C):
    reference = SklearnSVC(kernel="precomputed", C=C, tol=1e-3).fit(K, y)
    alpha = np.zeros(len(y))
    alpha[reference.support_] = np.abs(reference.dual_coef_[0])
    return dual_objective(alpha, K, y)


@SETTINGS
@given(problem=problems(), selection=st.sampled_from(["wss2", "platt"]))
def test_smo_solution_is_feasible_optimal_and_no_worse_than_libsvm(
    problem, selection
):
    K, y, C = problem
    tol = 1e-6
    result = smo(K, y, C, tol=tol, selection=selection, random_state=0)
    alpha = result.alpha
    assert np.all(alpha >= 0) and np.all(alpha <= C)
    assert abs(np.dot(alpha, y)) <= 1e-8 * max(1.0, C)
    assert result.converged and result.kkt_violation <= tol
    # LIBSVM's alpha (default tol) is feasible, so by weak duality its
    # objective is at most the optimum, which ours (tol 1e-6) reaches to
    # rounding.
    W_reference = sklearn_objective(K, y, C)
    assert result.dual_objective >= W_reference - 1e-6 * abs(W_reference)


@SETTINGS
@given(
    problem=problems(),
    max_iter=st.integers(1, 20),
    solver=st.sampled_from(["wss2", "platt", "simplified"]),
)
def test_max_iter_is_a_hard_limit(problem, max_iter, solver):
    K, y, C = problem
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        if solver == "simplified":
            res = simplified_smo(K, y, C, max_iter=max_iter, random_state=0)
        else:
            res = smo(
                K, y, C, max_iter=max_iter, selection=solver, random_state=0
            )
    assert res.n_iter <= max_iter
    assert np.all(res.alpha >= 0) and np.all(res.alpha <= C)
    assert abs(np.dot(res.alpha, y)) <= 1e-8 * max(1.0, C)
    # one ConvergenceWarning exactly when the solver stopped short, and it
    # blames max_iter exactly when the limit was hit
    messages = [
        str(w.message) for w in caught if w.category is ConvergenceWarning
    ]
    assert len(messages) == (0 if res.converged else 1)
    if messages:
        hit_limit = res.n_iter == max_iter
        assert (f"max_iter={max_iter}" in messages[0]) == hit_limit


@pytest.mark.parametrize("max_iter", [1, 3])
def test_stopping_early_warns(max_iter):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 2))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=40) > 0, 1.0, -1.0)
    with pytest.warns(ConvergenceWarning):
        smo(rbf_kernel(X, gamma=1.0), y, 10.0, max_iter=max_iter)
