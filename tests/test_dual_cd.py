"""Dual coordinate descent (svmlib.solvers.dual_cd) and svmlib.LinearSVC.

Checked against LIBLINEAR (scikit-learn's LinearSVC), strong duality, the
KKT conditions of each loss, and scikit-learn's conventions.
"""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn import svm
from sklearn.datasets import load_iris, make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.preprocessing import StandardScaler

from svmlib import LinearSVC
from svmlib.solvers import dual_cd

TIGHT = dict(tol=1e-8, max_iter=100_000, random_state=0)


@pytest.fixture(scope="module")
def data():
    X, y = make_classification(
        n_samples=200, n_features=8, flip_y=0.1, random_state=3
    )
    return StandardScaler().fit_transform(X), np.where(y == 1, 1.0, -1.0)


def _liblinear(X, y, C, loss, fit_intercept=True):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = svm.LinearSVC(
            C=C, loss=loss, dual=True, tol=1e-10, max_iter=1_000_000,
            fit_intercept=fit_intercept, random_state=0,
        ).fit(X, y)  # fmt: skip
    return model.coef_.ravel(), float(np.ravel(model.intercept_)[0])


@pytest.mark.parametrize("loss", ["hinge", "squared_hinge"])
@pytest.mark.parametrize("C", [0.01, 1.0, 100.0])
def test_same_solution_as_liblinear(data, loss, C):
    X, y = data
    fit = dual_cd(X, y, C, loss=loss, tol=1e-6, max_iter=10**6, random_state=0)
    w, b = _liblinear(X, y, C, loss)
    assert fit.converged
    np.testing.assert_allclose(fit.w, w, rtol=1e-3, atol=1e-4)
    assert fit.b == pytest.approx(b, rel=1e-3, abs=1e-4)


@pytest.mark.parametrize("loss", ["hinge", "squared_hinge"])
def test_strong_duality_and_kkt(data, loss):
    X, y = data
    C = 1.0
    fit = dual_cd(X, y, C, loss=loss, **TIGHT)
    assert fit.primal_objective == pytest.approx(fit.dual_objective, rel=1e-7)
    margin = y * (X @ fit.w + fit.b)
    if loss == "hinge":
        assert np.all((fit.alpha >= 0) & (fit.alpha <= C))
        free = (fit.alpha > 1e-8) & (fit.alpha < C - 1e-8)
        assert free.any()
        np.testing.assert_allclose(margin[free], 1.0, atol=1e-6)
        assert np.all(margin[fit.alpha <= 1e-8] >= 1 - 1e-6)
        assert np.all(margin[fit.alpha >= C - 1e-8] <= 1 + 1e-6)
    else:  # stationarity of the L2-SVM: alpha_i = 2 C max(0, 1 - y_i f_i)
        np.testing.assert_allclose(
            fit.alpha, 2 * C * np.maximum(0, 1 - margin), atol=1e-6
        )
    w_from_alpha = (fit.alpha * y) @ X
    np.testing.assert_allclose(fit.w, w_from_alpha, atol=1e-10)


def test_shrinking_does_not_change_the_answer(data):
    X, y = data
    on = dual_cd(X, y, 10.0, shrinking=True, **TIGHT)
    off = dual_cd(X, y, 10.0, shrinking=False, **TIGHT)
    assert on.primal_objective == pytest.approx(off.primal_objective, 1e-9)
    np.testing.assert_allclose(on.w, off.w, rtol=1e-5, atol=1e-7)


def test_seeded_runs_repeat_and_sparse_equals_dense(data):
    X, y = data
    first = dual_cd(X, y, 1.0, random_state=7)
    again = dual_cd(X, y, 1.0, random_state=7)
    sparse = dual_cd(sp.csr_array(X), y, 1.0, random_state=7)
    np.testing.assert_array_equal(first.alpha, again.alpha)
    np.testing.assert_array_equal(first.alpha, sparse.alpha)
    assert first.b == sparse.b


def test_zero_weight_point_is_as_if_absent(data):
    X, y = data
    C = np.ones(len(y))
    C[0] = 0.0
    weighted = dual_cd(X, y, C, **TIGHT)
    absent = dual_cd(X[1:], y[1:], 1.0, **TIGHT)
    assert weighted.alpha[0] == 0.0
    np.testing.assert_allclose(weighted.w, absent.w, rtol=1e-6, atol=1e-8)


def test_no_bias_feature_means_no_intercept(data):
    X, y = data
    fit = dual_cd(X, y, 1.0, bias=0.0, **TIGHT)
    w, b = _liblinear(X, y, 1.0, "hinge", fit_intercept=False)
    assert fit.b == 0.0 and b == 0.0
    np.testing.assert_allclose(fit.w, w, rtol=1e-4, atol=1e-5)


def test_max_iter_warns_and_reports(data):
    X, y = data
    with pytest.warns(ConvergenceWarning, match="max_iter=2"):
        fit = dual_cd(X, y, 100.0, tol=1e-10, max_iter=2, random_state=0)
    assert not fit.converged and fit.n_iter == 2
    assert fit.kkt_violation > 1e-10


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"loss": "log"}, "loss must be one of"),
        ({"C": -1.0}, "C must be a positive number"),
        ({"tol": 0.0}, "tol"),
        ({"bias": -1.0}, "bias"),
    ],
)
def test_bad_arguments_are_named(data, kwargs, message):
    X, y = data
    with pytest.raises(ValueError, match=message):
        dual_cd(X, y, **kwargs)


def test_bad_data_is_named(data):
    X, y = data
    X = X.copy()
    X[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN|finite"):
        dual_cd(X, y)
    with pytest.raises(ValueError, match=r"-1|\+1"):
        dual_cd(data[0], np.arange(len(y)))


# --------------------------------------------------------------------------
# svmlib.LinearSVC against scikit-learn's
# --------------------------------------------------------------------------


@pytest.mark.parametrize("loss", ["hinge", "squared_hinge"])
def test_multiclass_matches_scikit_learn(loss):
    X, y = load_iris(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    ours = LinearSVC(loss=loss, C=0.5, tol=1e-8, max_iter=100_000).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        theirs = svm.LinearSVC(
            loss=loss, C=0.5, tol=1e-10, max_iter=1_000_000, random_state=0
        ).fit(X, y)
    assert ours.coef_.shape == theirs.coef_.shape == (3, 4)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-3, atol=1e-4)
    np.testing.assert_allclose(
        ours.intercept_, theirs.intercept_, rtol=1e-3, atol=1e-4
    )
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


def test_binary_shapes_and_labels(data):
    X, y = data
    labels = np.where(y > 0, "yes", "no")
    model = LinearSVC(random_state=0).fit(X, labels)
    assert model.coef_.shape == (1, X.shape[1])
    assert model.intercept_.shape == (1,)
    assert model.classes_.tolist() == ["no", "yes"]
    positive = model.decision_function(X) > 0
    np.testing.assert_array_equal(model.predict(X) == "yes", positive)


def test_class_and_sample_weights_scale_C(data):
    X, y = data
    weights = {-1.0: 2.0, 1.0: 0.5}
    by_class = LinearSVC(class_weight=weights, tol=1e-8, max_iter=10**5)
    by_sample = LinearSVC(tol=1e-8, max_iter=10**5)
    by_class.fit(X, y)
    by_sample.fit(X, y, sample_weight=np.where(y > 0, 0.5, 2.0))
    np.testing.assert_allclose(by_class.coef_, by_sample.coef_, rtol=1e-6)


def test_intercept_scaling_is_the_bias_feature(data):
    X, y = data
    model = LinearSVC(loss="hinge", intercept_scaling=10.0, **TIGHT)
    model.fit(X, y)
    fit = dual_cd(X, y, 1.0, bias=10.0, **TIGHT)
    np.testing.assert_allclose(model.coef_.ravel(), fit.w)
    assert model.intercept_[0] == pytest.approx(fit.b)


def test_primal_only_options_are_refused(data):
    X, y = data
    with pytest.raises(ValueError, match="dual only"):
        LinearSVC(dual=False).fit(X, y)
    with pytest.raises(ValueError, match="penalty"):
        LinearSVC(penalty="l1").fit(X, y)


def test_one_warning_for_all_machines():
    X, y = load_iris(return_X_y=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        LinearSVC(max_iter=1, tol=1e-12, random_state=0).fit(X, y)
    messages = [w for w in caught if w.category is ConvergenceWarning]
    assert len(messages) == 1
    assert "max_iter=1" in str(messages[0].message)
