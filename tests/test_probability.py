"""svmlib.probability: LIBSVM's Platt scaling and pairwise coupling."""

import numpy as np
import pytest
from scipy.optimize import minimize
from sklearn.datasets import make_blobs
from sklearn.svm import SVC as SklearnSVC

from svmlib.probability import (
    class_probabilities,
    cross_val_decision,
    fit_sigmoid,
    pairwise_coupling,
    pairwise_probabilities,
    sigmoid_predict,
)

# scikit-learn 1.9 deprecates its probability=True and probA_: its fitted
# sigmoids are the reference here all the same
pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")


@pytest.mark.parametrize("n_classes", [2, 3, 5])
def test_probabilities_equal_libsvm_for_its_sigmoids(n_classes):
    X, y = make_blobs(
        200, centers=n_classes, cluster_std=2.5, random_state=n_classes
    )
    reference = SklearnSVC(
        probability=True, decision_function_shape="ovo", random_state=0
    ).fit(X, y)
    decision = reference.decision_function(X).reshape(len(X), -1)
    if n_classes == 2:
        decision = -decision  # LIBSVM's sign: positive for classes_[0]
    np.testing.assert_allclose(
        class_probabilities(decision, reference.probA_, reference.probB_),
        reference.predict_proba(X),
        rtol=0,
        atol=1e-12,
    )


def _negative_log_likelihood(params, f, t):
    p = sigmoid_predict(f, *params)
    return -np.sum(t * np.log(p) + (1 - t) * np.log(1 - p))


def test_fit_sigmoid_is_the_maximum_likelihood_for_platts_targets():
    rng = np.random.default_rng(0)
    y = np.where(rng.uniform(size=300) < 0.3, 1, -1)
    f = 1.5 * y + rng.normal(size=300)
    A, B = fit_sigmoid(f, y)
    n_pos, n_neg = np.sum(y > 0), np.sum(y < 0)
    t = np.where(y > 0, (n_pos + 1) / (n_pos + 2), 1 / (n_neg + 2))
    best = minimize(_negative_log_likelihood, [0.0, 0.0], args=(f, t))
    np.testing.assert_allclose([A, B], best.x, atol=1e-4)


def test_fit_sigmoid_on_separable_values_stays_finite():
    # without the prior correction the likelihood has no maximum here
    f = np.array([-3.0, -2.0, -1.0, 1.0, 2.0, 3.0])
    y = np.sign(f)
    A, B = fit_sigmoid(f, y)
    assert np.isfinite(A) and A < 0 and abs(B) < 1e-6
    # the gradient of the likelihood vanishes (to the stopping eps = 1e-5)
    t = np.where(y > 0, 4 / 5, 1 / 5)
    residual = t - sigmoid_predict(f, A, B)
    assert abs(residual.sum()) < 1e-5 and abs(f @ residual) < 1e-5


@pytest.mark.parametrize(
    "f, y, message",
    [
        (np.zeros(3), np.ones(4), "one length"),
        (np.array([0.0, np.nan]), np.ones(2), "NaN"),
    ],
)
def test_fit_sigmoid_bad_input(f, y, message):
    with pytest.raises(ValueError, match=message):
        fit_sigmoid(f, y)


def test_sigmoid_predict_does_not_overflow():
    with np.errstate(over="raise"):
        p = sigmoid_predict([-1e300, 0.0, 1e300], A=-10.0, B=0.0)
    np.testing.assert_array_equal(p, [0.0, 0.5, 1.0])


def test_pairwise_coupling_recovers_consistent_probabilities():
    rng = np.random.default_rng(1)
    p = rng.dirichlet(np.ones(4), size=20)
    r = p[:, :, None] / (p[:, :, None] + p[:, None, :])
    coupled = pairwise_coupling(r)
    np.testing.assert_allclose(coupled.sum(axis=1), 1.0)
    # the stopping tolerance of LIBSVM is 0.005 / K on the optimality gap
    np.testing.assert_allclose(coupled, p, atol=2e-3)


@pytest.mark.parametrize(
    "r, message",
    [
        (np.full((2, 3, 4), 0.5), "shape"),
        (np.full((2, 1, 1), 0.5), "K >= 2"),
        (np.ones((2, 3, 3)), r"in \(0, 1\)"),
    ],
)
def test_pairwise_coupling_bad_input(r, message):
    with pytest.raises(ValueError, match=message):
        pairwise_coupling(r)


@pytest.mark.parametrize(
    "n_columns, A_shape, message",
    [(4, (4,), "K \\(K - 1\\) / 2 columns"), (3, (2,), "one entry per")],
)
def test_pairwise_probabilities_bad_input(n_columns, A_shape, message):
    with pytest.raises(ValueError, match=message):
        pairwise_probabilities(
            np.zeros((5, n_columns)), np.zeros(A_shape), np.zeros(A_shape)
        )


def test_cross_val_decision_is_out_of_fold():
    y = np.array([-1.0] * 6 + [1.0] * 6)
    calls = []

    def fit_decision(train, test):
        calls.append((train, test))
        assert np.intersect1d(train, test).size == 0
        return np.full(test.size, float(test.size))

    f = cross_val_decision(y, fit_decision, random_state=0)
    assert len(calls) == 5
    tested = np.concatenate([test for _, test in calls])
    np.testing.assert_array_equal(np.sort(tested), np.arange(12))
    np.testing.assert_array_equal(np.sort(np.unique(f)), [2.0, 3.0])


def test_cross_val_decision_when_a_fold_trains_on_one_class():
    # three points, one of class +1: the fold that holds it out trains on
    # class -1 alone, and gets LIBSVM's value -1 without a machine
    y = np.array([-1.0, -1.0, 1.0])

    def fit_decision(train, test):
        assert np.unique(y[train]).size == 2
        return np.zeros(test.size)

    f = cross_val_decision(y, fit_decision, random_state=0)
    np.testing.assert_array_equal(f, [0.0, 0.0, -1.0])


def test_cross_val_decision_needs_two_points():
    with pytest.raises(ValueError, match="at least two points"):
        cross_val_decision(np.array([1.0]), None)
