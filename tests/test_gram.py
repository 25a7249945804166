"""svmlib.gram: cached columns (one pass per miss) equal the dense Gram."""

import numpy as np
import pytest
import scipy.sparse as sp

from svmlib.gram import CachedGram, DenseGram
from svmlib.kernels import (
    RBF,
    Exponential,
    Kernel,
    Linear,
    Polynomial,
    Sigmoid,
)

rng = np.random.default_rng(0)
X = rng.normal(size=(40, 6))

KERNELS = [
    Linear(),
    Polynomial(degree=3, gamma=0.5, coef0=1.0),
    RBF(gamma=0.3),
    Sigmoid(gamma=0.1, coef0=0.2),
    Exponential(scale=0.1),
    0.5 * Linear() + RBF(sigma=2.0) * Polynomial(degree=2) + 1.0,
    (0.1 * Linear()).exp(),
]


@pytest.mark.parametrize("kernel", KERNELS, ids=repr)
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_cached_columns_are_the_gram_matrix(kernel, sparse, dtype):
    data = X.astype(dtype)
    K = kernel(data)
    gram = CachedGram(sp.csr_matrix(data) if sparse else data, kernel, 1.0)
    assert gram._one_pass
    tol = 1e-4 if dtype == np.float32 else 1e-10
    for i in (0, 17, 39):
        column = gram.column(i)
        assert column.dtype == dtype
        np.testing.assert_allclose(column, K[:, i], rtol=tol, atol=tol)
    rows = np.array([3, 17, 8, 30])
    gram.restrict(rows)
    for i in (17, 5):
        np.testing.assert_allclose(
            gram.column(i), K[rows, i], rtol=tol, atol=tol
        )
    np.testing.assert_allclose(gram.diagonal(), np.diag(K), rtol=tol)


def test_a_miss_costs_one_product_and_no_recheck(monkeypatch):
    """X is checked and its norms computed once, not at every miss."""
    import svmlib.gram as gram_module

    calls = {"check": 0, "norms": 0}
    check, norms = gram_module.check_data, gram_module.squared_norms

    def counted_check(*args, **kwargs):
        calls["check"] += 1
        return check(*args, **kwargs)

    def counted_norms(*args, **kwargs):
        calls["norms"] += 1
        return norms(*args, **kwargs)

    monkeypatch.setattr(gram_module, "check_data", counted_check)
    monkeypatch.setattr(gram_module, "squared_norms", counted_norms)
    gram = CachedGram(X, RBF(gamma=0.3), cache_size=1e-3)  # 3 columns
    for i in range(20):
        gram.column(i)
    assert gram.misses == 20 and calls == {"check": 1, "norms": 1}


class TwiceLinear(Kernel):
    """A user's kernel that implements _gram only."""

    def _gram(self, A, B):
        return 2.0 * (A @ B.T)


def test_other_kernels_are_called_per_column():
    for kernel in (TwiceLinear(), lambda A, B: 2.0 * (A @ B.T)):
        gram = CachedGram(X, kernel, 1.0)
        assert not gram._one_pass
        np.testing.assert_allclose(gram.column(4), 2.0 * X @ X[4])


def test_user_kernel_without_either_method_names_them():
    class Empty(Kernel):
        pass

    with pytest.raises(NotImplementedError, match="from_inner_products"):
        Empty()(X)


def test_dense_gram_columns_and_blocks():
    K = RBF(gamma=0.3)(X)
    gram = DenseGram(K)
    # a column is row i, by symmetry (up to rounding in the last bit)
    np.testing.assert_allclose(gram.column(3), K[:, 3], rtol=1e-14)
    gram.restrict(np.array([1, 2]))
    np.testing.assert_allclose(gram.column(3), K[[1, 2], 3], rtol=1e-14)
    np.testing.assert_array_equal(gram.block([0, 5], [1]), K[[0, 5]][:, [1]])


@pytest.mark.parametrize("cached", [False, True])
def test_products_are_the_block_times_coef(cached):
    kernel = RBF(gamma=0.3)
    K = kernel(X)
    gram = CachedGram(X, kernel, 1e-3) if cached else DenseGram(K)
    rows, cols = np.array([0, 7, 33, 2]), np.array([5, 1, 39])
    coef = np.array([0.5, -2.0, 1.5])
    expected = K[np.ix_(rows, cols)] @ coef
    np.testing.assert_allclose(gram.products(rows, cols, coef), expected)
    if cached:  # in chunks of columns: the same sum
        chunked = gram.products(rows, cols, coef, chunk=2)
        np.testing.assert_allclose(chunked, expected)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_gram_entries_are_found_in_any_chunk(bad):
    from svmlib._validation import _all_finite

    K = np.ones((50, 50))
    assert _all_finite(K, chunk_bytes=64)
    K[47, 3] = bad  # in the last chunk of 2 rows
    assert not _all_finite(K, chunk_bytes=2 * 50 * 8)
    with pytest.raises(ValueError, match="NaN or infinity"):
        DenseGram(K)


def _old_products(gram, rows, cols, coef, chunk=1024):
    """CachedGram.products before issue 24: whole 1024-column blocks."""
    result = np.zeros(len(rows))
    for start in range(0, len(cols), chunk):
        part = slice(start, start + chunk)
        result += gram.block(rows, cols[part]) @ coef[part]
    return result


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_restoring_shrunk_points_stays_within_cache_size(dtype):
    """Issue 24: the reconstruction's blocks fit the Gram's budget.

    Before, products() built 1024-column blocks over all the rows
    (2000 x 1024 float64: 16 MiB) plus a copy of X[rows], whatever
    cache_size said: a peak of 16.4 MiB here against a budget of 4 MiB.
    """
    import tracemalloc

    data = np.random.default_rng(1).normal(size=(4000, 30)).astype(dtype)
    gram = CachedGram(data, RBF(gamma=0.05), cache_size=4)
    rows = np.arange(0, 4000, 2)
    cols = np.arange(1, 4000, 3)
    coef = np.random.default_rng(2).uniform(-1, 1, cols.size)
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        result = gram.products(rows, cols, coef)
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    assert peak <= 4 * 2**20 + 2**17, peak / 2**20
    expected = gram.kernel(data[rows], data[cols]) @ coef
    tol = 1e-4 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(result, expected, rtol=tol, atol=tol)
    np.testing.assert_allclose(
        result, _old_products(gram, rows, cols, coef), rtol=tol, atol=tol
    )
