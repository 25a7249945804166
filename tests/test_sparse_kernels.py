"""Sparse input to the kernels and the Gram objects; the kernel names.

A scipy.sparse X or Z gives the same Gram matrix as the dense arrays, as a
dense ndarray, in the same dtype rule (float32 kept, else float64).
"""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.metrics import pairwise

from svmlib.gram import CachedGram, DenseGram, gram_fits, make_gram
from svmlib.kernels import (
    KERNEL_NAMES,
    RBF,
    Linear,
    Polynomial,
    Sigmoid,
    exponential_kernel,
    kernel_from_name,
    linear_kernel,
    polynomial_kernel,
    rbf_kernel,
    sigmoid_kernel,
    squared_distances,
)
from svmlib.solvers import smo

rng = np.random.default_rng(0)
# about 70% zeros, as in bag-of-words or MNIST pixels
X = rng.normal(size=(9, 6)) * (rng.random((9, 6)) < 0.3)
Z = rng.normal(size=(4, 6)) * (rng.random((4, 6)) < 0.3)

KERNELS = {
    "linear": linear_kernel,
    "poly": lambda A, B=None: polynomial_kernel(
        A, B, degree=2, gamma=0.5, coef0=1.0
    ),
    "rbf": lambda A, B=None: rbf_kernel(A, B, gamma=0.7),
    "sigmoid": lambda A, B=None: sigmoid_kernel(A, B, gamma=0.2, coef0=0.1),
    "exponential": lambda A, B=None: exponential_kernel(A, B, scale=0.3),
    "squared_distances": squared_distances,
    "objects": 0.5 * Linear() + RBF(sigma=2.0) * Polynomial(degree=2) + 1.0,
}
SPARSE_FORMATS = [sp.csr_matrix, sp.csc_matrix, sp.csr_array, sp.coo_matrix]


@pytest.mark.parametrize("fmt", SPARSE_FORMATS)
@pytest.mark.parametrize("name", sorted(KERNELS))
def test_sparse_gives_the_dense_gram(name, fmt):
    kernel = KERNELS[name]
    dense = kernel(X, Z)
    for A, B in [(fmt(X), fmt(Z)), (fmt(X), Z), (X, fmt(Z))]:
        K = kernel(A, B)
        assert isinstance(K, np.ndarray) and K.dtype == np.float64
        np.testing.assert_allclose(K, dense, rtol=1e-12, atol=1e-12)
    square = kernel(fmt(X))
    assert isinstance(square, np.ndarray)
    np.testing.assert_allclose(square, kernel(X), rtol=1e-12, atol=1e-12)


def test_sparse_squared_distances_are_euclidean():
    expected = pairwise.euclidean_distances(X, Z, squared=True)
    np.testing.assert_allclose(
        squared_distances(sp.csr_matrix(X), sp.csr_matrix(Z)),
        expected,
        atol=1e-12,
    )


def test_sparse_float32_stays_float32():
    X32 = sp.csr_matrix(X.astype(np.float32))
    K = rbf_kernel(X32, gamma=0.7)
    assert K.dtype == np.float32
    np.testing.assert_allclose(K, rbf_kernel(X, gamma=0.7), rtol=1e-5)
    assert linear_kernel(X32, Z).dtype == np.float32


def test_sparse_nan_is_refused():
    bad = sp.csr_matrix(X)
    bad.data[0] = np.nan
    with pytest.raises(ValueError, match="X contains NaN"):
        linear_kernel(bad)


def test_cached_gram_with_sparse_X_solves_like_the_dense_gram():
    y = np.where(X[:, 0] + X[:, 1] > 0, 1.0, -1.0)
    y[:2] = [1.0, -1.0]
    kernel = KERNELS["rbf"]
    # room for 2 columns of 9 float64 values: every column is recomputed
    cached = CachedGram(sp.csc_matrix(X), kernel, 2 * 9 * 8 / 2**20)
    np.testing.assert_allclose(cached.diagonal(), 1.0)
    for i in range(9):
        np.testing.assert_allclose(cached.column(i), kernel(X)[:, i])
    dense = smo(DenseGram(kernel(X)), y, 1.0, tol=1e-10)
    result = smo(cached, y, 1.0, tol=1e-10)
    np.testing.assert_allclose(result.alpha, dense.alpha, atol=1e-8)


@pytest.mark.parametrize(
    "n, dtype, cache_size, fits",
    [
        (1024, np.float64, 8.0, True),  # exactly 8 MiB
        (1025, np.float64, 8.0, False),
        (1448, np.float32, 8.0, True),  # float32: half the bytes
        (1449, np.float32, 8.0, False),
        (1024, np.int64, 8.0, True),  # integer data: float64 Gram
        (1025, np.int64, 8.0, False),
    ],
)
def test_gram_fits(n, dtype, cache_size, fits):
    assert gram_fits(n, dtype, cache_size) is fits


def test_make_gram_follows_gram_fits():
    kernel = KERNELS["linear"]
    small = 2 * 9 * 9 * 8 / 2**20
    assert isinstance(make_gram(X, kernel, small), DenseGram)
    assert isinstance(make_gram(X, kernel, small / 4), CachedGram)
    with pytest.raises(ValueError, match="cache_size must be a positive"):
        make_gram(X, kernel, 0)


@pytest.mark.parametrize(
    "name, expected",
    [
        ("linear", lambda: pairwise.linear_kernel(X, Z)),
        (
            "poly",
            lambda: pairwise.polynomial_kernel(
                X, Z, degree=2, gamma=0.5, coef0=1.5
            ),
        ),
        ("rbf", lambda: pairwise.rbf_kernel(X, Z, gamma=0.5)),
        (
            "sigmoid",
            lambda: pairwise.sigmoid_kernel(X, Z, gamma=0.5, coef0=1.5),
        ),
    ],
)
def test_kernel_from_name_is_sklearns_kernel(name, expected):
    kernel = kernel_from_name(name, gamma=0.5, degree=2, coef0=1.5)
    np.testing.assert_allclose(kernel(X, Z), expected(), rtol=1e-12)


def test_kernel_from_name_types_and_errors():
    assert KERNEL_NAMES == ("linear", "poly", "rbf", "sigmoid")
    assert isinstance(kernel_from_name("sigmoid"), Sigmoid)
    assert isinstance(kernel_from_name("linear"), Linear)
    with pytest.raises(ValueError, match=r"one of \('linear', 'poly'"):
        kernel_from_name("gaussian")
    with pytest.raises(ValueError, match="gamma must be a positive"):
        kernel_from_name("rbf", gamma=0.0)
    with pytest.raises(ValueError, match="degree must be an integer"):
        kernel_from_name("poly", degree=1.5)
