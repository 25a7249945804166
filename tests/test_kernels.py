"""Kernels against scikit-learn's pairwise kernels and their definitions."""

import numpy as np
import pytest
from sklearn.metrics import pairwise

from svmlib import kernels
from svmlib.kernels import (
    linear_kernel,
    polynomial_kernel,
    rbf_gamma,
    rbf_kernel,
    sigmoid_kernel,
)

rng = np.random.default_rng(0)
X = rng.normal(size=(7, 4))
Z = rng.normal(size=(5, 4))


def test_linear():
    np.testing.assert_allclose(
        linear_kernel(X, Z), pairwise.linear_kernel(X, Z)
    )
    np.testing.assert_allclose(linear_kernel(X), X @ X.T)


def test_polynomial():
    expected = pairwise.polynomial_kernel(X, Z, degree=3, gamma=0.5, coef0=2.0)
    np.testing.assert_allclose(
        polynomial_kernel(X, Z, degree=3, gamma=0.5, coef0=2.0), expected
    )
    # defaults (gamma x.z + 1)^3
    np.testing.assert_allclose(polynomial_kernel(X, Z), (X @ Z.T + 1.0) ** 3)


def test_rbf_both_parametrizations():
    sigma = 1.3
    by_sigma = rbf_kernel(X, Z, sigma=sigma)
    by_gamma = rbf_kernel(X, Z, gamma=1 / (2 * sigma**2))
    direct = np.exp(
        -((X[:, None, :] - Z[None, :, :]) ** 2).sum(-1) / (2 * sigma**2)
    )
    np.testing.assert_allclose(by_sigma, direct, rtol=1e-12)
    np.testing.assert_allclose(
        by_gamma,
        pairwise.rbf_kernel(X, Z, gamma=1 / (2 * sigma**2)),
        rtol=1e-12,
    )
    np.testing.assert_allclose(np.diag(rbf_kernel(X, sigma=sigma)), 1.0)


def test_sigmoid():
    np.testing.assert_allclose(
        sigmoid_kernel(X, Z, gamma=0.3, coef0=-1.0),
        pairwise.sigmoid_kernel(X, Z, gamma=0.3, coef0=-1.0),
    )


def test_float32_in_float32_out():
    K = rbf_kernel(X.astype(np.float32), gamma=0.1)
    assert K.dtype == np.float32
    np.testing.assert_allclose(K, rbf_kernel(X, gamma=0.1), rtol=1e-5)
    assert linear_kernel(X.astype(np.int64)).dtype == np.float64


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: rbf_kernel(X, sigma=1.0, gamma=1.0), "not both"),
        (lambda: rbf_kernel(X), "needs sigma or gamma"),
        (lambda: rbf_kernel(X, sigma=0.0), "sigma must be a positive"),
        (lambda: rbf_kernel(X, gamma=-1.0), "gamma must be a positive"),
        (lambda: rbf_gamma(sigma=np.nan), "sigma must be a positive"),
        (
            lambda: polynomial_kernel(X, degree=0),
            "degree must be an integer >= 1",
        ),
        (
            lambda: polynomial_kernel(X, degree=2.5),
            "degree must be an integer >= 1",
        ),
        (lambda: sigmoid_kernel(X, gamma=0), "gamma must be a positive"),
        (lambda: linear_kernel(X, Z[:, :3]), "same number of features"),
        (lambda: linear_kernel(X[0]), "2-D"),
        (lambda: linear_kernel(np.full((2, 2), np.nan)), "NaN"),
    ],
)
def test_bad_parameters(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_features_zero_on_one_side_are_left_out_exactly():
    # 80 x 10 and 70 x 10 points: feature 0 is zero in X, feature 1 in Z,
    # feature 2 in both; the product over the other seven must be X @ Z.T
    rng = np.random.default_rng(0)
    X, Z = rng.normal(size=(80, 10)), rng.normal(size=(70, 10))
    X[:, [0, 2]] = 0.0
    Z[:, [1, 2]] = 0.0
    used_X, used_Z = kernels._without_zero_features(X, Z)
    assert used_X.shape == (80, 7) and used_Z.shape == (70, 7)
    np.testing.assert_allclose(
        kernels._inner_products(X, Z), X @ Z.T, rtol=1e-12, atol=1e-12
    )
    # with Z = X the two stay one array, so NumPy can use the symmetric
    # product; only the features zero in X go
    same_X, same_Z = kernels._without_zero_features(X, X)
    assert same_X is same_Z and same_X.shape == (80, 8)
    np.testing.assert_allclose(
        rbf_kernel(X, sigma=2.0),
        np.exp(-((X[:, None, :] - X[None, :, :]) ** 2).sum(-1) / 8.0),
        rtol=1e-12,
    )


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("threads", [1, 2])
def test_rbf_row_blocks_are_bitwise_the_whole_matrix_operations(
    dtype, threads
):
    # The RBF Gram matrix is computed a block of rows at a time (shared
    # among BLAS's threads above 2**20 values); each value must go through
    # the operations of the whole-matrix code in the same order.
    from threadpoolctl import threadpool_limits

    from svmlib.kernels import RBF, squared_norms

    rng = np.random.default_rng(0)
    X = rng.normal(size=(1100, 20)).astype(dtype)
    Z = rng.normal(size=(1000, 20)).astype(dtype)
    gamma = 0.05
    P = X @ Z.T
    assert P.size > 2**20  # the threaded route
    x_sq, z_sq = squared_norms(X), squared_norms(Z)
    expected = P * -2.0
    expected += x_sq[:, None]
    expected += z_sq[None, :]
    np.maximum(expected, 0.0, out=expected)
    expected *= -gamma
    np.exp(expected, out=expected)
    with threadpool_limits(limits=threads, user_api="blas"):
        K = RBF(gamma=gamma).from_inner_products(P.copy(), x_sq, z_sq)
        small = RBF(gamma=gamma).from_inner_products(
            P[:7].copy(), x_sq[:7], z_sq
        )
    assert K.dtype == dtype
    np.testing.assert_array_equal(K, expected)
    np.testing.assert_array_equal(small, expected[:7])
    np.testing.assert_allclose(
        RBF(gamma=gamma)(X, Z), pairwise.rbf_kernel(X, Z, gamma=gamma),
        rtol=1e-5 if dtype == np.float32 else 1e-12, atol=1e-6,
    )  # fmt: skip
