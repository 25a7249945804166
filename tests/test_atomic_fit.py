"""A failed fit leaves every estimator as it was (issue 26).

``fit`` is atomic: the data are checked, then the model is built, and if
anything fails on the way the estimator keeps the model of its earlier fit
(or stays unfitted), never half of a new one. scikit-learn's
``validate_data`` sets ``n_features_in_`` before the checks that may still
fail, so each estimator is refitted here with data that pass that first
step and fail a later one.
"""

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError

import svmlib

ESTIMATORS = [
    "SVC",
    "NuSVC",
    "SVR",
    "NuSVR",
    "OneClassSVM",
    "LinearSVC",
    "LinearSVR",
]


def _data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    y = (X[:, 0] + 0.5 * rng.normal(size=40) > 0).astype(int)
    return X, y


def _output(model, X):
    if hasattr(model, "decision_function"):
        return model.decision_function(X)
    return model.predict(X)


@pytest.mark.parametrize("name", ESTIMATORS)
def test_a_failed_refit_keeps_the_earlier_model(name):
    X, y = _data()
    model = getattr(svmlib, name)().fit(X, y)
    fitted = {k: v for k, v in vars(model).items() if k.endswith("_")}
    before = _output(model, X)
    bad_weight = np.full(20, np.nan)  # 2 features, then NaN weights
    with pytest.raises(ValueError):
        model.fit(X[:20, :2], y[:20], sample_weight=bad_weight)
    assert {k for k in vars(model) if k.endswith("_")} == set(fitted)
    assert all(vars(model)[k] is v for k, v in fitted.items())
    np.testing.assert_array_equal(_output(model, X), before)


@pytest.mark.parametrize("name", ESTIMATORS)
def test_a_failed_first_fit_leaves_it_unfitted(name):
    X, y = _data()
    model = getattr(svmlib, name)()
    with pytest.raises(ValueError):
        model.fit(X, y, sample_weight=np.full(len(y), np.nan))
    assert not [k for k in vars(model) if k.endswith("_")]
    with pytest.raises(NotFittedError):
        model.predict(X)
