"""svmlib.SVC: agreement with scikit-learn, estimator conventions, bad input."""

import pickle

import numpy as np
import pytest
from sklearn.datasets import make_moons
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC as SklearnSVC

from svmlib import SVC

X, y01 = make_moons(120, noise=0.25, random_state=0)
LABELS = np.array(["cat", "dog"])[y01]


@pytest.mark.parametrize(
    "params",
    [
        dict(kernel="linear", C=1.0),
        dict(kernel="rbf", C=10.0, gamma=0.7),
        dict(kernel="poly", C=1.0, degree=3, gamma=0.5, coef0=1.0),
        dict(kernel="sigmoid", C=0.5, gamma=0.1, coef0=0.0),
    ],
)
@pytest.mark.parametrize("solver", ["smo", "platt"])
def test_matches_sklearn(params, solver):
    ours = SVC(solver=solver, tol=1e-6, random_state=0, **params).fit(
        X, LABELS
    )
    reference = SklearnSVC(tol=1e-6, **params).fit(X, LABELS)
    np.testing.assert_array_equal(ours.classes_, reference.classes_)
    np.testing.assert_allclose(
        ours.decision_function(X), reference.decision_function(X), atol=1e-3
    )
    np.testing.assert_array_equal(ours.predict(X), reference.predict(X))
    np.testing.assert_array_equal(ours.support_, np.sort(reference.support_))
    np.testing.assert_array_equal(ours.n_support_, reference.n_support_)
    order = np.argsort(reference.support_)
    np.testing.assert_allclose(
        ours.dual_coef_, reference.dual_coef_[:, order], atol=1e-4
    )
    np.testing.assert_allclose(
        ours.intercept_, reference.intercept_, atol=1e-3
    )
    assert ours.converged_ and ours.n_iter_ > 0


def test_sigma_is_the_book_parametrization_of_gamma():
    by_sigma = SVC(C=3.0, sigma=0.5).fit(X, y01)
    by_gamma = SVC(C=3.0, gamma=1 / (2 * 0.5**2)).fit(X, y01)
    np.testing.assert_allclose(
        by_sigma.decision_function(X), by_gamma.decision_function(X)
    )


def test_gamma_scale_and_auto_match_sklearn():
    for gamma in ("scale", "auto"):
        ours = SVC(gamma=gamma, tol=1e-6).fit(X, y01)
        reference = SklearnSVC(gamma=gamma, tol=1e-6).fit(X, y01)
        np.testing.assert_allclose(
            ours.decision_function(X),
            reference.decision_function(X),
            atol=1e-3,
        )


def test_callable_kernel_and_float32():
    ours = SVC(kernel=lambda A, B: (A @ B.T + 1.0) ** 2, C=1.0, tol=1e-6).fit(
        X.astype(np.float32), y01
    )
    reference = SklearnSVC(
        kernel="poly", degree=2, gamma=1.0, coef0=1.0, C=1.0, tol=1e-6
    ).fit(X, y01)
    assert ours.support_vectors_.dtype == np.float32
    # float32 Gram entries carry about 7 significant digits
    np.testing.assert_allclose(
        ours.decision_function(X), reference.decision_function(X), atol=2e-3
    )


def test_cached_path_equals_dense_path():
    dense = SVC(C=1.0, gamma=0.7, tol=1e-9).fit(X, y01)
    cached = SVC(C=1.0, gamma=0.7, tol=1e-9, cache_size=1e-3).fit(
        X, y01
    )  # 1 KiB: two columns
    np.testing.assert_allclose(
        cached.decision_function(X), dense.decision_function(X), atol=1e-6
    )
    np.testing.assert_array_equal(cached.support_, dense.support_)


def test_pipeline_gridsearch_and_pickle():
    pipe = make_pipeline(StandardScaler(), SVC())
    search = GridSearchCV(
        pipe, {"svc__C": [0.1, 10.0], "svc__sigma": [0.3, 1.0]}, cv=3
    ).fit(X, y01)
    assert search.best_score_ > 0.85
    clone = pickle.loads(pickle.dumps(search.best_estimator_))
    np.testing.assert_array_equal(clone.predict(X), search.predict(X))


def test_max_iter_warns_and_model_is_usable():
    with pytest.warns(ConvergenceWarning):
        model = SVC(C=100.0, max_iter=3).fit(X, y01)
    assert model.n_iter_ == 3 and not model.converged_
    assert model.predict(X).shape == (len(X),)


@pytest.mark.parametrize(
    "params, data, message",
    [
        (dict(C=0), None, "C must be a positive"),
        (dict(C=-2.0), None, "C must be a positive"),
        (dict(sigma=-1.0), None, "sigma must be a positive"),
        (dict(gamma=0.0), None, "gamma must be a positive"),
        (dict(gamma="wide"), None, "gamma must be a positive"),
        (dict(gamma=1.0, sigma=1.0), None, "not both"),
        (dict(kernel="linear", sigma=1.0), None, "does not apply"),
        (
            dict(kernel="poly", degree=0),
            None,
            "degree must be an integer >= 1",
        ),
        (dict(kernel="laplace"), None, "kernel must be one of"),
        (dict(solver="newton"), None, "solver must be one of"),
        (dict(cache_size=0), None, "cache_size"),
        (
            {},
            (
                np.where(np.arange(10)[:, None] == 3, np.nan, 1.0)
                * np.ones((10, 2)),
                np.arange(10) % 2,
            ),
            "NaN",
        ),
        ({}, (np.ones((10, 2)) * np.inf, np.arange(10) % 2), "infinity"),
        (
            {},
            (np.ones((10, 2)), np.arange(9) % 2),
            "inconsistent numbers of samples",
        ),
        ({}, (np.ones(10), np.arange(10) % 2), "2D array"),
        (
            {},
            (np.random.default_rng(0).normal(size=(10, 2)), np.zeros(10)),
            "two classes",
        ),
        (
            dict(decision_function_shape="ova"),
            None,
            "decision_function_shape must be one of",
        ),
        ({}, (np.ones((10, 2)), np.linspace(0, 1, 10)), "Unknown label type"),
    ],
)
def test_bad_input(params, data, message):
    Xb, yb = data if data is not None else (X, y01)
    with pytest.raises(ValueError, match=message):
        SVC(**params).fit(Xb, yb)


def test_predict_checks_features_and_fit():
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        SVC().predict(X)
    model = SVC().fit(X, y01)
    with pytest.raises(ValueError, match="features"):
        model.predict(np.ones((3, 5)))
