"""Toy data generators: shapes, labels, seeds, the geometry they promise."""

import numpy as np
import pytest
from sklearn.svm import SVC as SklearnSVC

from svmlib.datasets.toy import (
    make_outlier_data,
    make_separable,
    make_sine_separated,
)
from svmlib.duality import recover_w
from svmlib.kernels import linear_kernel
from svmlib.solvers import smo

GENERATORS = [make_separable, make_outlier_data, make_sine_separated]


@pytest.mark.parametrize("generator", GENERATORS)
@pytest.mark.parametrize("n", [3, 101])
def test_shapes_labels_and_seeds(generator, n):
    X, y = generator(n, random_state=0)
    assert X.shape == (n, 2) and X.dtype == np.float64
    assert y.shape == (n,) and y.dtype == np.float64
    assert set(np.unique(y)) == {-1.0, 1.0}
    assert abs(np.sum(y == 1) - np.sum(y == -1)) <= 2
    X2, y2 = generator(n, random_state=0)
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(y, y2)
    X3, _ = generator(n, random_state=1)
    assert not np.array_equal(X, X3)


@pytest.mark.parametrize("margin", [0.5, 2.0])
def test_separable_has_an_empty_strip(margin):
    angle = 0.4
    X, y = make_separable(200, margin=margin, angle=angle, random_state=1)
    normal = np.array([np.cos(angle), np.sin(angle)])
    assert np.all(y * (X @ normal) >= margin / 2 - 1e-12)
    # the hard-margin SVM exists and its margin 1 / ||w|| is at least half
    # the strip
    result = smo(linear_kernel(X), y, np.inf, tol=1e-6)
    assert result.converged
    assert (
        1 / np.linalg.norm(recover_w(result.alpha, X, y)) >= margin / 2 - 1e-6
    )


def test_outlier_position_and_separability():
    X, y = make_outlier_data(
        60, margin=2.0, outlier_position=-0.6, angle=0.0, random_state=0
    )
    assert y[-1] == 1.0
    np.testing.assert_allclose(X[-1], [-0.6, 0.0])
    # still separable, with a much narrower margin than without the outlier
    hard = smo(linear_kernel(X), y, np.inf, tol=1e-6)
    clean = smo(linear_kernel(X[:-1]), y[:-1], np.inf, tol=1e-6)
    assert hard.converged and hard.alpha[-1] > 0
    margin_with = 1 / np.linalg.norm(recover_w(hard.alpha, X, y))
    margin_without = 1 / np.linalg.norm(recover_w(clean.alpha, X[:-1], y[:-1]))
    assert margin_with < 0.5 * margin_without
    # deep inside class -1 it cannot be separated
    X, y = make_outlier_data(60, outlier_position=-3.0, random_state=0)
    assert SklearnSVC(kernel="linear", C=1e4).fit(X, y).score(X, y) < 1.0


def test_sine_sides_and_nonlinearity():
    X, y = make_sine_separated(300, gap=0.5, random_state=0)
    assert np.all(y * (X[:, 1] - np.sin(X[:, 0])) >= 0.25 - 1e-12)
    assert np.all(np.abs(X[:, 0]) <= 6.0)
    assert SklearnSVC(kernel="linear", C=100).fit(X, y).score(X, y) < 0.99
    assert (
        SklearnSVC(kernel="rbf", C=100, gamma=0.5).fit(X, y).score(X, y) == 1.0
    )
    # noise lets points cross the curve
    Xn, yn = make_sine_separated(300, noise=0.5, random_state=0)
    assert np.any(yn * (Xn[:, 1] - np.sin(Xn[:, 0])) < 0)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: make_separable(1), "n_samples must be"),
        (lambda: make_separable(10.5), "n_samples must be"),
        (lambda: make_separable(10, margin=0.0), "margin must be a positive"),
        (lambda: make_separable(10, scale=-1.0), "scale must be a positive"),
        (lambda: make_separable(10, angle=np.nan), "angle must be"),
        (lambda: make_outlier_data(2), "n_samples must be an integer >= 3"),
        (
            lambda: make_outlier_data(10, outlier_position=np.inf),
            "outlier_position",
        ),
        (
            lambda: make_sine_separated(10, noise=-0.1),
            "noise must be a non-negative",
        ),
        (lambda: make_sine_separated(10, gap=np.nan), "gap must be"),
        (
            lambda: make_sine_separated(10, width=0.0),
            "width must be a positive",
        ),
    ],
)
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()
