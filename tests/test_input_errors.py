"""Issue 24: bad and extreme input gets a clear error, or scikit-learn's
treatment; the helpers check their arguments; fits are atomic.

Each test here failed before the fix it names.
"""

import warnings

import numpy as np
import pytest
from sklearn.datasets import make_blobs
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.svm import SVC as SklearnSVC
from sklearn.svm import LinearSVC as SklearnLinearSVC

from svmlib import SVC, LinearSVC
from svmlib._validation import NO_LIMIT, check_max_iter
from svmlib.duality import recover_w
from svmlib.multiclass import (
    class_pairs,
    ovo_coef,
    ovo_decision,
    ovo_votes,
    ovr_from_ovo,
)
from svmlib.solvers import dual_cd, smo

rng = np.random.RandomState(0)
X = rng.randn(60, 3)
y = (X[:, 0] + 0.3 * rng.randn(60) > 0).astype(int)


# -- dual_cd and LinearSVC on features whose squares overflow -----------------


def test_dual_cd_refuses_rows_whose_squared_norm_overflows():
    """Before: w = 0, n_iter 1, "converged", training accuracy 0.43."""
    y_pm = np.where(y == 1, 1.0, -1.0)
    with pytest.raises(ValueError, match=r"squared norms .* overflow.*scale"):
        dual_cd(X * 1e155, y_pm)
    with pytest.raises(ValueError, match=r"overflow.*StandardScaler"):
        LinearSVC().fit(X * 1e155, y)
    # SVC refuses the same data too (its Gram matrix is not finite)
    with np.errstate(over="ignore"), pytest.raises(ValueError, match="NaN"):
        SVC(kernel="linear").fit(X * 1e155, y)
    # large but representable features still train
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        fit = dual_cd(X * 1e100, y_pm, C=1.0, tol=1e-3, random_state=0)
    assert np.all(np.isfinite(fit.w)) and np.any(fit.w != 0)
    assert np.mean(np.sign(X @ fit.w + fit.b) == y_pm) >= 0.7


# -- max_iter=-1 --------------------------------------------------------------


def test_max_iter_minus_one_means_no_limit():
    assert check_max_iter(-1, 10) == NO_LIMIT
    for bad in (0, -2, 1.5, True):
        with pytest.raises(ValueError, match="or -1 for no limit"):
            check_max_iter(bad, 10)
    reference = SVC(C=1.0, tol=1e-6).fit(X, y)
    unlimited = SVC(C=1.0, tol=1e-6, max_iter=-1).fit(X, y)
    np.testing.assert_allclose(unlimited.alpha_, reference.alpha_)
    assert unlimited.converged_
    theirs = SklearnSVC(C=1.0, tol=1e-6, max_iter=-1).fit(X, y)
    np.testing.assert_array_equal(unlimited.support_, theirs.support_)
    linear = LinearSVC(max_iter=-1, tol=1e-6, random_state=0).fit(X, y)
    np.testing.assert_allclose(
        linear.coef_,
        LinearSVC(max_iter=10**6, tol=1e-6, random_state=0).fit(X, y).coef_,
    )
    y_pm = np.where(y == 1, 1.0, -1.0)
    assert dual_cd(X, y_pm, max_iter=-1, tol=1e-6).converged
    assert smo(X @ X.T, y_pm, 1.0, max_iter=-1).converged
    with pytest.raises(ValueError, match="max_iter"):
        SVC(max_iter=0).fit(X, y)
    with pytest.raises(ValueError, match="max_iter"):
        LinearSVC(max_iter=-2).fit(X, y)


# -- sample_weight ------------------------------------------------------------


@pytest.mark.parametrize("loss", ["hinge", "squared_hinge"])
def test_linear_svc_drops_non_positive_sample_weights_as_sklearn(loss):
    """Before: a ValueError about "per-point C"; scikit-learn's LinearSVC
    trains, and its model is the one without those points."""
    weight = np.ones(60)
    weight[:8] = -1.0
    weight[8:12] = 0.0
    params = dict(loss=loss, tol=1e-8, max_iter=100000, random_state=0)
    ours = LinearSVC(**params).fit(X, y, sample_weight=weight)
    without = LinearSVC(**params).fit(X[12:], y[12:])
    theirs = SklearnLinearSVC(**params).fit(X, y, sample_weight=weight)
    np.testing.assert_allclose(ours.coef_, without.coef_, atol=1e-6)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-3)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, atol=1e-3)


def test_svc_drops_non_positive_sample_weights_as_sklearn():
    weight = np.ones(60)
    weight[:8] = -1.0
    ours = SVC(kernel="linear", tol=1e-8).fit(X, y, sample_weight=weight)
    theirs = SklearnSVC(kernel="linear", tol=1e-8).fit(
        X, y, sample_weight=weight
    )
    # scikit-learn's support_ indexes the points of positive weight
    np.testing.assert_array_equal(
        ours.support_, np.flatnonzero(weight > 0)[theirs.support_]
    )
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-5)


@pytest.mark.parametrize("Model", [SVC, LinearSVC])
def test_a_class_without_positive_weight_is_named_by_its_label(Model):
    """Before, LinearSVC named the class by its internal label -1."""
    labels = np.where(y == 1, "spam", "ham")
    weight = np.where(labels == "ham", 0.0, 1.0)
    with pytest.raises(ValueError, match=r"same class, 'spam'") as error:
        Model().fit(X, labels, sample_weight=weight)
    assert "-1" not in str(error.value)
    model = Model()
    with pytest.raises(ValueError, match=r"no sample of the class \['b'\]"):
        model.fit(
            X,
            np.array(["a", "b", "c"])[np.arange(60) % 3],
            sample_weight=np.where(np.arange(60) % 3 == 1, -1.0, 1.0),
        )
    with pytest.raises(NotFittedError):
        model.predict(X)
    with pytest.raises(ValueError, match="all samples have zero or negative"):
        Model().fit(X, y, sample_weight=np.zeros(60))


@pytest.mark.parametrize("Model", [SVC, LinearSVC])
@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_non_finite_sample_weight_names_sample_weight(Model, bad):
    """Before, SVC said "Input contains NaN." without naming it."""
    weight = np.ones(60)
    weight[7] = bad
    with pytest.raises(ValueError, match=r"sample_weight contains .* 7"):
        Model().fit(X, y, sample_weight=weight)


@pytest.mark.parametrize("Model", [SVC, LinearSVC])
def test_sample_weight_of_the_wrong_shape(Model):
    with pytest.raises(ValueError, match=r"sample_weight must be of shape"):
        Model().fit(X, y, sample_weight=np.ones(59))


# -- callable kernels ---------------------------------------------------------


def fixed_two_by_two(A, B):
    return np.eye(2)


def test_callable_kernel_of_the_wrong_shape_names_kernel_and_shapes():
    """Before: "y must be a 1-D array of length 2" from the solver."""
    with pytest.raises(
        ValueError,
        match=r"fixed_two_by_two returned a matrix of shape \(2, 2\) for 60 "
        r"and 60 points.*\(60, 60\)",
    ):
        SVC(kernel=fixed_two_by_two).fit(X, y)
    labels = np.arange(60) % 3  # three classes: the pairs' blocks
    with pytest.raises(ValueError, match="fixed_two_by_two returned"):
        SVC(kernel=fixed_two_by_two).fit(X, labels)


# -- LinearSVC: atomic fit, warnings ------------------------------------------


def test_linear_svc_failed_fit_leaves_the_earlier_model():
    """Before, classes_ and n_features_in_ of the failed fit stayed."""
    model = LinearSVC().fit(X, y)
    before = {k: v for k, v in vars(model).items() if k.endswith("_")}
    with pytest.raises(ValueError):
        model.fit(X, np.zeros(60))  # one class
    after = {k: v for k, v in vars(model).items() if k.endswith("_")}
    assert after.keys() == before.keys()
    assert all(after[k] is v for k, v in before.items())


def test_linear_svc_lets_other_warnings_through(monkeypatch):
    """Before, catch_warnings(record=True) swallowed every warning."""
    import svmlib.linear_svc as linear_svc

    real = linear_svc.dual_cd

    def noisy(*args, **kwargs):
        warnings.warn("something the user must see", UserWarning, stacklevel=2)
        return real(*args, **kwargs)

    monkeypatch.setattr(linear_svc, "dual_cd", noisy)
    with pytest.warns(UserWarning, match="the user must see"):
        LinearSVC(random_state=0).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        with pytest.warns(ConvergenceWarning, match="max_iter=2"):
            LinearSVC(max_iter=2, tol=1e-12, random_state=0).fit(X, y)


# -- recover_w ----------------------------------------------------------------


def test_recover_w_checks_labels_and_shapes():
    """Before, labels 0-3 gave a w silently."""
    alpha = np.full(60, 0.1)
    with pytest.raises(ValueError, match=r"labels in \{-1, \+1\}"):
        recover_w(alpha, X, np.arange(60) % 4)
    with pytest.raises(ValueError, match="alpha must be a finite array"):
        recover_w(alpha[:-1], X, np.where(y == 1, 1, -1))
    with pytest.raises(ValueError, match="y must be a 1-D array of length"):
        recover_w(alpha, X, np.ones(59))
    with pytest.raises(ValueError, match="X must be a 2-D array"):
        recover_w(alpha, X[:, 0], np.where(y == 1, 1, -1))
    y_pm = np.where(y == 1, 1.0, -1.0)
    np.testing.assert_allclose(recover_w(alpha, X, y_pm), (alpha * y_pm) @ X)


# -- the multiclass helpers ---------------------------------------------------


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: class_pairs(1), "n_classes must be an integer >= 2"),
        (lambda: class_pairs(2.5), "n_classes must be an integer >= 2"),
        (lambda: ovo_votes(np.zeros((4, 2)), 3), r"shape \(n_samples, 3\)"),
        (lambda: ovo_votes(np.zeros(3), 3), r"shape \(n_samples, 3\)"),
        (lambda: ovo_votes([[np.nan, 0, 0]], 3), "decision contains NaN"),
        (lambda: ovo_votes([["a", "b", "c"]], 3), "must hold numbers"),
        (lambda: ovr_from_ovo(np.zeros((4, 6)), 3), r"\(n_samples, 3\)"),
        (lambda: ovr_from_ovo(np.zeros((4, 3)), 1), "n_classes must be"),
        (
            lambda: ovo_decision(
                np.ones((5, 4)), np.ones((2, 4)), [0, 0, 0], [2, 1, 2]
            ),
            "n_support sums to 5 support vectors but K has 4",
        ),
        (
            lambda: ovo_decision(
                np.ones((5, 4)), np.ones((1, 4)), [0, 0, 0], [2, 1, 1]
            ),
            r"dual_coef must be of shape \(2, 4\)",
        ),
        (
            lambda: ovo_decision(
                np.ones((5, 4)), np.ones((2, 4)), [0, 0], [2, 1, 1]
            ),
            r"intercept must be of shape \(3,\)",
        ),
        (
            lambda: ovo_decision(
                np.ones((5, 4)), np.ones((2, 4)), [0, 0, 0], [4.0, 0]
            ),
            "n_support must be a 1-D array",
        ),
        (
            lambda: ovo_coef(np.ones((2, 4)), [2, 1, 1], np.ones((3, 2))),
            "n_support sums to 4 support vectors but support_vectors has 3",
        ),
    ],
)
def test_multiclass_helpers_check_their_input(call, message):
    """Before, wrong shapes broadcast or failed deep inside with IndexError."""
    with pytest.raises(ValueError, match=message):
        call()


def test_helpers_still_agree_with_svc():
    X3, y3 = make_blobs(90, centers=3, random_state=0)
    model = SVC(kernel="linear", decision_function_shape="ovo").fit(X3, y3)
    K = X3 @ model.support_vectors_.T
    decision = ovo_decision(
        K, model.dual_coef_, model.intercept_, model.n_support_
    )
    np.testing.assert_allclose(decision, model.decision_function(X3))
    np.testing.assert_array_equal(
        np.argmax(ovo_votes(decision, 3), axis=1), model.predict(X3)
    )
    np.testing.assert_allclose(
        ovo_coef(model.dual_coef_, model.n_support_, model.support_vectors_),
        model.coef_,
    )
