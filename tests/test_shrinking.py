"""Shrinking in SMO (LIBSVM's do_shrinking and reconstruct_gradient).

Shrinking must change the work, never the answer: the same stopping test
on all n points, the same dual objective, the same b; and with a cached
Gram matrix it must compute fewer kernel values.
"""

import numpy as np
import pytest

from svmlib.duality import max_violation
from svmlib.gram import CachedGram, DenseGram
from svmlib.kernels import rbf_kernel
from svmlib.solvers import smo


@pytest.fixture(scope="module")
def problem():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(1500, 5))
    y = np.where(
        X[:, 0] + 0.5 * X[:, 1] ** 2 + rng.normal(0, 0.3, 1500) > 0.5,
        1.0,
        -1.0,
    )
    return X, y


class CountingRBF:
    """rbf_kernel that counts the kernel values it computes."""

    def __init__(self):
        self.values = 0

    def __call__(self, A, B):
        self.values += A.shape[0] * B.shape[0]
        return rbf_kernel(A, B, sigma=1.0)


@pytest.mark.parametrize("C", [0.1, 10.0, 1000.0])
def test_same_solution_with_and_without_shrinking(problem, C):
    X, y = problem
    K = rbf_kernel(X, X, sigma=1.0)
    on = smo(K, y, C, tol=1e-4, shrinking=True)
    off = smo(K, y, C, tol=1e-4, shrinking=False)
    assert on.converged and off.converged
    assert on.kkt_violation <= 1e-4  # measured on all n points
    assert on.dual_objective == pytest.approx(off.dual_objective, rel=1e-6)
    assert on.b == pytest.approx(off.b, abs=1e-3)
    f_on = K @ (on.alpha * y) + on.b
    f_off = K @ (off.alpha * y) + off.b
    np.testing.assert_allclose(f_on, f_off, atol=5e-3)


def test_shrinking_sets_points_aside(problem, monkeypatch):
    X, y = problem
    sizes = []
    restrict = DenseGram.restrict

    def spy(self, rows):
        sizes.append(self.n if rows is None else rows.size)
        restrict(self, rows)

    monkeypatch.setattr(DenseGram, "restrict", spy)
    smo(rbf_kernel(X, X, sigma=1.0), y, 10.0, tol=1e-4)
    assert min(sizes) < 0.5 * X.shape[0]  # most points were set aside
    assert sizes[-1] == X.shape[0]  # and all are back at the end


def test_cached_shrinking_computes_fewer_kernel_values(problem):
    X, y = problem
    counts, results = {}, {}
    for shrinking in (False, True):
        kernel = CountingRBF()
        gram = CachedGram(X, kernel, cache_size=1.0)  # about 87 columns
        results[shrinking] = smo(gram, y, 10.0, tol=1e-3, shrinking=shrinking)
        counts[shrinking] = kernel.values
    assert counts[True] < 0.7 * counts[False]
    assert results[True].dual_objective == pytest.approx(
        results[False].dual_objective, rel=1e-5
    )


def test_max_iter_while_shrunk_still_returns_exact_errors(problem):
    X, y = problem
    K = rbf_kernel(X, X, sigma=1.0)
    with pytest.warns(Warning, match="max_iter"):
        result = smo(K, y, 10.0, tol=1e-6, max_iter=1500)
    E = K @ (result.alpha * y) - y
    # the reported violation is the one of the exact errors
    assert result.kkt_violation == pytest.approx(
        max_violation(result.alpha, y, 10.0, E), rel=1e-9
    )


def test_a_problem_that_shrinks_to_nothing_still_solves():
    # six points, shrinking every six steps: every point can be set aside
    X = np.array([[-2, 0], [-1, -1], [0, -2], [0, 2], [1, 1], [2, 0.0]])
    y = np.array([-1.0, -1, -1, 1, 1, 1])
    C = 1e-2 * np.array([1.0, 0.1, 10.0, 10.0, 0.1, 0.1])
    on = smo(X @ X.T, y, C, shrinking=True)
    off = smo(X @ X.T, y, C, shrinking=False)
    assert on.converged
    np.testing.assert_allclose(on.alpha, off.alpha)
    assert on.b == pytest.approx(off.b)


# --- LIBSVM's design: G_bar, and cache columns that survive restriction


def test_errors_reconstructed_from_E_bar_and_free_vectors(problem):
    # E_bar (LIBSVM's G_bar times y) kept through the steps equals the sum
    # over the multipliers at C computed afresh, and shrinking then gives
    # the errors of every point
    from svmlib.solvers import sequential_minimal as sm

    X, y = problem
    K = rbf_kernel(X, X, sigma=1.0)
    C = 1.0
    seen = {}
    unshrink = sm._SMOState.unshrink

    def spy(state):
        unshrink(state)
        at_c = state.alpha >= state.C
        seen["bar"] = state.E_bar.copy()
        seen["exact"] = K[:, at_c] @ (state.C[at_c] * y[at_c])
        seen["E"] = state.E.copy()
        seen["E_exact"] = K @ (state.alpha * y) - y
        seen["n_at_c"] = int(at_c.sum())

    sm._SMOState.unshrink = spy
    try:
        result = smo(K, y, C, tol=1e-4)
    finally:
        sm._SMOState.unshrink = unshrink
    assert result.converged and seen["n_at_c"] > 50
    np.testing.assert_allclose(seen["bar"], seen["exact"], atol=1e-9)
    np.testing.assert_allclose(seen["E"], seen["E_exact"], atol=1e-9)


def test_cached_columns_survive_restriction():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(50, 3))
    K = rbf_kernel(X, X, sigma=1.0)
    gram = CachedGram(X, lambda A, B: rbf_kernel(A, B, sigma=1.0), 1.0)
    assert gram.capacity == 2**20 // 8  # float64 values, not columns
    np.testing.assert_allclose(gram.column(3), K[:, 3])
    computed = gram.computed
    rows = np.arange(0, 50, 2)
    gram.restrict(rows)  # a subset: served from the cached column
    np.testing.assert_allclose(gram.column(3), K[rows, 3])
    assert gram.computed == computed and gram.misses == 1
    np.testing.assert_allclose(gram.column(5), K[rows, 5])  # 25 values
    assert gram.computed == computed + rows.size
    more = np.arange(0, 50, 2)[:-2].tolist() + [1, 3]
    gram.restrict(np.sort(more))  # two rows column 5 lacks: extended
    np.testing.assert_allclose(gram.column(5), K[np.sort(more), 5])
    assert gram.extended == 1 and gram.computed == computed + rows.size + 2
    gram.restrict(None)  # most rows lacking: computed again, whole
    np.testing.assert_allclose(gram.column(5), K[:, 5])
    np.testing.assert_allclose(gram.full_column(7), K[:, 7])


def test_cache_capacity_counts_values():
    # room for 3 whole columns: 6 columns of half the rows fit
    X = np.random.default_rng(2).normal(size=(40, 2))
    kernel = CountingRBF()
    gram = CachedGram(X, kernel, cache_size=3 * 40 * 8 / 2**20)
    assert gram.max_columns == 3
    gram.restrict(np.arange(20))
    for i in range(6):
        gram.column(i)
    values = kernel.values
    for i in range(6):
        gram.column(i)
    assert kernel.values == values and gram.hits == 6
    gram.column(6)  # a seventh evicts the least recently used
    gram.column(0)
    assert kernel.values == values + 2 * 20


def test_gram_object_without_full_column_is_solved_unshrunk(problem):
    # a Gram object of the user's with restrict but no full_column: E_bar
    # cannot be kept, so the solver does not shrink (and does not fail)
    X, y = problem
    K = rbf_kernel(X[:300], X[:300], sigma=1.0)
    dense = DenseGram(K)
    restricted = []

    class Minimal:
        n = dense.n
        column, diagonal = dense.column, dense.diagonal
        block, products = dense.block, dense.products

        def restrict(self, rows):
            restricted.append(rows)
            dense.restrict(rows)

    result = smo(Minimal(), y[:300], 10.0, tol=1e-4)
    reference = smo(K, y[:300], 10.0, tol=1e-4, shrinking=False)
    assert result.converged and not restricted
    np.testing.assert_allclose(result.alpha, reference.alpha)
