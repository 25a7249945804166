"""svmlib.NuSVC: agreement with LIBSVM (scikit-learn's NuSVC), nu and C.

scikit-learn's LIBSVM keeps the kernel matrix Q in single precision, so at
tol=1e-8 the two solvers agree to about 1e-6 relative on the coefficients
(measured: 3e-7 .. 4e-6 on these data), not to machine precision.
"""

import inspect
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import (
    load_breast_cancer,
    load_digits,
    load_iris,
    make_blobs,
)
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.preprocessing import StandardScaler
from sklearn.svm import NuSVC as SklearnNuSVC

from svmlib import SVC, NuSVC
from svmlib.multiclass import class_pairs

# scikit-learn 1.9 deprecates its probability=True and probA_
pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")

X_iris, y_iris = load_iris(return_X_y=True)
# iris's points 101 and 142 are equal: a multiplier may be split between
# them in any way, so the comparisons of coefficients use 149 points
X_iris_scaled = StandardScaler().fit_transform(np.delete(X_iris, 142, 0))
y_iris_scaled = np.delete(y_iris, 142)
X_cancer, y_cancer = load_breast_cancer(return_X_y=True)
X_cancer = StandardScaler().fit_transform(X_cancer)
X_digits, y_digits = load_digits(return_X_y=True)
X_digits = X_digits / 16.0


def _largest_nu(y, weight=None):
    """2 min(n_i, n_j) / (n_i + n_j) over the pairs of classes."""
    _, y_index = np.unique(y, return_inverse=True)
    n = np.bincount(y_index, weights=weight)
    return min(
        2 * min(n[i], n[j]) / (n[i] + n[j]) for i, j in class_pairs(n.size)
    )


def _assert_same_model(ours, reference, X, rtol=1e-5, kept=None):
    """Same support vectors; coefficients within rtol of their largest.

    With sample weights <= 0, scikit-learn's ``support_`` indexes the
    points ``kept`` (weight > 0), svmlib's all the points.
    """
    np.testing.assert_array_equal(ours.classes_, reference.classes_)
    support = reference.support_ if kept is None else kept[reference.support_]
    np.testing.assert_array_equal(ours.support_, support)
    np.testing.assert_array_equal(ours.n_support_, reference.n_support_)
    scale = np.abs(reference.dual_coef_).max()
    np.testing.assert_allclose(
        ours.dual_coef_, reference.dual_coef_, rtol=0, atol=rtol * scale
    )
    np.testing.assert_allclose(
        ours.intercept_, reference.intercept_, rtol=0, atol=rtol * scale
    )
    np.testing.assert_allclose(
        ours.decision_function(X),
        reference.decision_function(X),
        rtol=0,
        atol=rtol * scale * max(1, np.abs(reference.dual_coef_).sum()),
    )
    np.testing.assert_array_equal(ours.predict(X), reference.predict(X))


CASES = [
    ("iris, scaled", X_iris_scaled, y_iris_scaled, [0.05, 0.2, 0.5]),
    ("breast cancer, scaled", X_cancer, y_cancer, [0.05, 0.2, 0.5, "max"]),
    ("digits, 600 points", X_digits[:600], y_digits[:600], [0.05, 0.5]),
]


@pytest.mark.parametrize(
    "X, y, nu",
    [
        pytest.param(X, y, nu, id=f"{name}, nu={nu}")
        for name, X, y, nus in CASES
        for nu in nus
    ],
)
def test_matches_libsvm(X, y, nu):
    if nu == "max":  # just below it: at it, LIBSVM's r is 0 (not finite)
        nu = 0.99 * _largest_nu(y)
    ours = NuSVC(nu=nu, tol=1e-8).fit(X, y)
    reference = SklearnNuSVC(nu=nu, tol=1e-8).fit(X, y)
    _assert_same_model(ours, reference, X)
    assert ours.converged_ and ours.fit_status_ == 0
    assert ours.n_iter_.shape == (
        len(ours.classes_) * (ours.classes_.size - 1) // 2,
    )
    assert ours.shape_fit_ == X.shape and ours.n_features_in_ == X.shape[1]


def test_ten_digits_match_libsvm():
    ours = NuSVC(nu=0.5, tol=1e-8).fit(X_digits, y_digits)
    reference = SklearnNuSVC(nu=0.5, tol=1e-8).fit(X_digits, y_digits)
    _assert_same_model(ours, reference, X_digits)
    assert ours.n_iter_.shape == (45,)


def _nu_objectives(model, K, y_index):
    """1/2 a^T Q a of each machine, a = |dual coef| r (sum a = nu n)."""
    cls = y_index[model.support_]
    objectives = []
    for i, j in class_pairs(model.classes_.size):
        coef = np.zeros(len(y_index))
        coef[model.support_[cls == i]] = model.dual_coef_[j - 1, cls == i]
        coef[model.support_[cls == j]] = model.dual_coef_[i, cls == j]
        n = np.sum((y_index == i) | (y_index == j))
        r = model.nu * n / np.abs(coef).sum()
        objectives.append(0.5 * r * r * coef @ K @ coef)
    return np.array(objectives)


@pytest.mark.parametrize("nu", [0.1, 0.2, 0.9])
def test_degenerate_machines_have_libsvm_optimum(nu):
    # raw iris: setosa is separable from the others, and in the machines
    # (0, 1), (0, 2) a class can have no multiplier strictly inside (0, 1);
    # r and b are then any point of an interval (LIBSVM takes its middle,
    # or the gradient at a multiplier of 1e-15 that it counts as free, and
    # then a support vector that svmlib's solver sets to 0), so the scaled
    # coefficients may differ; the nu-SVC optimum may not
    ours = NuSVC(nu=nu, tol=1e-8).fit(X_iris, y_iris)
    reference = SklearnNuSVC(nu=nu, tol=1e-8).fit(X_iris, y_iris)
    K = rbf_kernel(X_iris, gamma=ours._gamma)
    np.testing.assert_allclose(
        _nu_objectives(ours, K, y_iris),
        _nu_objectives(reference, K, y_iris),
        rtol=1e-10,
    )
    assert np.mean(ours.predict(X_iris) == reference.predict(X_iris)) >= 0.99


@pytest.mark.parametrize("nu", [0.05, 0.3, 0.7])
def test_nu_svc_is_c_svc_with_c_one_over_r(nu):
    # Chang & Lin (2001), Theorem 2: the scaled nu-SVC solution is the C-SVC
    # solution for C = 1 / r; NuSVC reports that C as C_
    nu_model = NuSVC(nu=nu, tol=1e-10).fit(X_cancer, y_cancer)
    c_model = SVC(C=nu_model.C_[0], gamma="scale", tol=1e-10)
    c_model.fit(X_cancer, y_cancer)
    np.testing.assert_array_equal(nu_model.support_, c_model.support_)
    np.testing.assert_allclose(
        nu_model.dual_coef_, c_model.dual_coef_, rtol=0, atol=1e-7
    )
    np.testing.assert_allclose(nu_model.intercept_, c_model.intercept_)
    np.testing.assert_allclose(
        nu_model.dual_objective_, c_model.dual_objective_, rtol=1e-12
    )
    np.testing.assert_allclose(nu_model.alpha_, c_model.alpha_, atol=1e-7)
    # and alpha_ is at most C_: the box of the C-SVC
    assert nu_model.alpha_.max() <= nu_model.C_[0] * (1 + 1e-12)


@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
def test_c_svc_is_nu_svc_with_nu_sum_alpha_over_c_n(C):
    # the converse map: a C-SVC solution is the nu-SVC solution for
    # nu = sum_i alpha_i / (C n) (Chang & Lin 2001)
    c_model = SVC(C=C, gamma="scale", tol=1e-10).fit(X_cancer, y_cancer)
    nu = c_model.alpha_.sum() / (C * len(y_cancer))
    nu_model = NuSVC(nu=nu, tol=1e-10).fit(X_cancer, y_cancer)
    np.testing.assert_allclose(nu_model.C_, [C], rtol=1e-6)
    np.testing.assert_array_equal(nu_model.support_, c_model.support_)
    np.testing.assert_allclose(
        nu_model.dual_coef_, c_model.dual_coef_, rtol=0, atol=1e-6 * C
    )


@pytest.mark.parametrize("nu", [0.05, 0.2, 0.5])
def test_nu_bounds_margin_errors_and_support_vectors(nu):
    # Schoelkopf et al. (2000), Proposition 5: margin errors / n <= nu <=
    # support vectors / n; margin errors have alpha at the bound C = 1 / r
    model = NuSVC(nu=nu, tol=1e-10).fit(X_cancer, y_cancer)
    n = len(y_cancer)
    at_bound = np.isclose(model.alpha_, model.C_[0], rtol=1e-9, atol=0)
    assert at_bound.sum() / n <= nu + 1e-12
    assert model.support_.size / n >= nu - 1e-12


def test_sparse_input_gives_the_dense_model_and_libsvms():
    X = X_cancer.copy()
    X[np.abs(X) < 0.8] = 0.0  # about half zeros: trained on as sparse
    X_sparse = sp.csr_matrix(X)
    sparse = NuSVC(nu=0.3, tol=1e-8).fit(X_sparse, y_cancer)
    dense = NuSVC(nu=0.3, tol=1e-8).fit(X, y_cancer)
    assert sp.issparse(sparse.support_vectors_)
    assert sp.issparse(sparse.dual_coef_)
    np.testing.assert_array_equal(sparse.support_, dense.support_)
    np.testing.assert_allclose(
        sparse.dual_coef_.toarray(), dense.dual_coef_, atol=1e-10
    )
    np.testing.assert_allclose(
        sparse.decision_function(X_sparse), dense.decision_function(X)
    )
    reference = SklearnNuSVC(nu=0.3, tol=1e-8).fit(X_sparse, y_cancer)
    np.testing.assert_array_equal(sparse.support_, reference.support_)
    np.testing.assert_allclose(
        sparse.dual_coef_.toarray(),
        reference.dual_coef_.toarray(),
        atol=1e-5 * np.abs(reference.dual_coef_).max(),
    )


def test_precomputed_and_callable_kernels_give_the_same_model():
    X, y = X_iris_scaled, y_iris_scaled
    gamma = 0.3
    by_name = NuSVC(nu=0.2, gamma=gamma, tol=1e-8).fit(X, y)
    K = rbf_kernel(X, gamma=gamma)
    precomputed = NuSVC(nu=0.2, kernel="precomputed", tol=1e-8).fit(K, y)
    callable_kernel = NuSVC(
        nu=0.2, kernel=lambda A, B: rbf_kernel(A, B, gamma=gamma), tol=1e-8
    ).fit(X, y)
    # the same kernel values: the same model
    np.testing.assert_array_equal(
        precomputed.support_, callable_kernel.support_
    )
    np.testing.assert_array_equal(
        precomputed.dual_coef_, callable_kernel.dual_coef_
    )
    # svmlib's own rbf kernel rounds otherwise: the model within tol
    _assert_same_model(callable_kernel, by_name, X)
    reference = SklearnNuSVC(nu=0.2, kernel="precomputed", tol=1e-8)
    _assert_same_model(precomputed, reference.fit(K, y), K)
    np.testing.assert_array_equal(precomputed.predict(K), by_name.predict(X))
    np.testing.assert_allclose(
        callable_kernel.decision_function(X), by_name.decision_function(X)
    )
    assert precomputed.support_vectors_.shape == (0, 0)


def test_sample_weight_matches_libsvm():
    # LIBSVM: 0 <= a_i <= w_i and sum_i a_i = nu sum_i w_i
    weight = np.random.default_rng(0).uniform(0.2, 3.0, len(y_cancer))
    ours = NuSVC(nu=0.3, tol=1e-8).fit(X_cancer, y_cancer, weight)
    reference = SklearnNuSVC(nu=0.3, tol=1e-8)
    reference.fit(X_cancer, y_cancer, sample_weight=weight)
    _assert_same_model(ours, reference, X_cancer)
    # C_ = 1 / r: the C-SVC with C_i = w_i / r has this solution
    c_model = SVC(C=ours.C_[0], tol=1e-10).fit(X_cancer, y_cancer, weight)
    np.testing.assert_allclose(
        ours.dual_coef_, c_model.dual_coef_, rtol=0, atol=1e-6
    )


def test_zero_weights_leave_points_out_as_libsvm():
    weight = np.ones(len(y_iris_scaled))
    weight[::7] = 0.0
    weight[1::11] = -1.0
    ours = NuSVC(nu=0.3, tol=1e-8).fit(X_iris_scaled, y_iris_scaled, weight)
    reference = SklearnNuSVC(nu=0.3, tol=1e-8)
    reference.fit(X_iris_scaled, y_iris_scaled, sample_weight=weight)
    kept = np.flatnonzero(weight > 0)
    _assert_same_model(ours, reference, X_iris_scaled, kept=kept)
    assert not np.isin(ours.support_, np.flatnonzero(weight <= 0)).any()


def test_class_weight_is_a_weight_on_every_point_of_the_class():
    # svmlib applies class_weight (scikit-learn's NuSVC computes
    # class_weight_ but trains without it): it is sample_weight by class
    class_weight = {0: 2.0, 1: 0.5, 2: 1.0}
    ours = NuSVC(nu=0.2, class_weight=class_weight, tol=1e-8)
    ours.fit(X_iris_scaled, y_iris_scaled)
    reference = SklearnNuSVC(nu=0.2, class_weight=class_weight, tol=1e-8)
    reference.fit(X_iris_scaled, y_iris_scaled)
    np.testing.assert_array_equal(ours.class_weight_, reference.class_weight_)
    by_sample = SklearnNuSVC(nu=0.2, tol=1e-8).fit(
        X_iris_scaled,
        y_iris_scaled,
        sample_weight=np.array([2.0, 0.5, 1.0])[y_iris_scaled],
    )
    _assert_same_model(ours, by_sample, X_iris_scaled)
    assert not np.allclose(ours.intercept_, reference.intercept_, atol=1e-3)


def test_balanced_class_weight_makes_every_nu_feasible():
    X, y = make_blobs([90, 10], centers=None, random_state=0)
    assert _largest_nu(y) == pytest.approx(0.2)
    with pytest.raises(ValueError, match="specified nu is infeasible"):
        NuSVC(nu=0.5).fit(X, y)
    model = NuSVC(nu=0.9, class_weight="balanced").fit(X, y)
    np.testing.assert_allclose(model.class_weight_, [100 / 180, 100 / 20])
    assert model.score(X, y) > 0.9


@pytest.mark.parametrize(
    "y, nu, weight, pair, largest",
    [
        ((np.arange(150) < 20).astype(int), 0.5, None, (0, 1), 40 / 150),
        (
            np.repeat(["a", "b", "c"], [100, 30, 20]),
            0.6,
            None,
            ("a", "b"),
            60 / 130,
        ),
        (y_iris, 0.3, np.where(y_iris == 1, 0.1, 1.0), (0, 1), 10 / 55),
    ],
    ids=["two classes", "three classes", "weighted"],
)
def test_infeasible_nu_is_a_clear_error(y, nu, weight, pair, largest):
    assert nu > _largest_nu(y, weight)
    model = NuSVC(nu=nu)
    with pytest.raises(ValueError, match="specified nu is infeasible") as e:
        model.fit(X_iris, y, sample_weight=weight)
    message = str(e.value)
    assert f"classes {pair[0]!r} and {pair[1]!r}" in message
    assert f"at most {largest:.6g}" in message
    assert not [name for name in vars(model) if name.endswith("_")]


def test_a_class_without_positive_weight_makes_nu_infeasible():
    # scikit-learn's test_negative_weights_svc_leave_just_one_label
    weight = np.where(y_iris == 0, 0.0, 1.0)
    with pytest.raises(ValueError, match="specified nu is infeasible"):
        NuSVC().fit(X_iris, y_iris, sample_weight=weight)


def test_failed_fit_is_atomic():
    model = NuSVC(nu=0.3).fit(X_iris, y_iris)
    before = model.decision_function(X_iris)
    # an invalid parameter is found before anything is touched
    model.set_params(nu=1.5)
    with pytest.raises(ValueError, match="'nu' parameter"):
        model.fit(X_cancer, y_cancer)
    np.testing.assert_array_equal(model.decision_function(X_iris), before)
    # a refit that fails on the data leaves the earlier model (as SVC)
    model.set_params(nu=0.9)
    with pytest.raises(ValueError, match="specified nu is infeasible"):
        model.fit(X_cancer, y_cancer)
    np.testing.assert_array_equal(model.decision_function(X_iris), before)


@pytest.mark.parametrize("n_classes", [2, 3])
def test_probability_is_platt_scaling_of_the_nu_machines(n_classes):
    X, y = make_blobs(
        150, centers=n_classes, cluster_std=3.0, random_state=n_classes
    )
    model = NuSVC(nu=0.3, probability=True, random_state=0).fit(X, y)
    plain = NuSVC(nu=0.3).fit(X, y)
    # the model itself is not changed by probability=True
    np.testing.assert_allclose(
        model.decision_function(X), plain.decision_function(X)
    )
    p = model.predict_proba(X)
    assert p.shape == (150, n_classes)
    np.testing.assert_allclose(p.sum(axis=1), 1.0)
    np.testing.assert_allclose(np.log(p), model.predict_log_proba(X))
    assert model.probA_.shape == (n_classes * (n_classes - 1) // 2,)
    assert np.all(model.probA_ < 0)  # rising with LIBSVM's decision value
    # LIBSVM's folds are drawn otherwise: its probabilities are close only
    reference = SklearnNuSVC(nu=0.3, probability=True, random_state=0)
    reference.fit(X, y)
    assert np.abs(p - reference.predict_proba(X)).mean() < 0.05
    assert np.mean(p.argmax(1) == reference.predict_proba(X).argmax(1)) > 0.95


def test_probability_with_a_fold_that_makes_nu_infeasible():
    # nu = 0.99 * its largest value: a fold that holds out more of the
    # small class allows less; that fold's machine gets the largest nu it
    # allows (LIBSVM trains it anyway, with uneven class sums)
    X, y = make_blobs([40, 20], centers=None, random_state=1)
    model = NuSVC(nu=0.99 * _largest_nu(y), probability=True, random_state=0)
    p = model.fit(X, y).predict_proba(X)
    assert np.all(np.isfinite(p)) and p.shape == (60, 2)


def test_without_probability_predict_proba_is_missing():
    model = NuSVC().fit(X_iris, y_iris)
    assert not hasattr(model, "predict_proba")
    with pytest.raises(AttributeError, match="predict_proba"):
        model.predict_proba(X_iris)


def test_linear_kernel_coef_and_scikit_learns_two_label_case():
    # scikit-learn's test_negative_weights_svc_leave_two_labels (NuSVC)
    X = np.array([[-2, -1], [-1, -1], [-1, -2], [1, 1], [1, 2], [2, 1]])
    y = [1, 1, 1, 2, 2, 2]
    for weight in ([1, -0.5, 1, 1, 1, 1], [1, 1, 1, 0, 1, 1]):
        model = NuSVC(kernel="linear").fit(X, y, sample_weight=weight)
        np.testing.assert_allclose(model.coef_, [[0.3333, 0.3333]], rtol=1e-3)
        reference = SklearnNuSVC(kernel="linear").fit(X, y, weight)
        np.testing.assert_allclose(model.coef_, reference.coef_, atol=1e-6)


def test_parameters_are_scikit_learns():
    ours = inspect.signature(NuSVC).parameters
    theirs = inspect.signature(SklearnNuSVC).parameters
    assert list(ours) == list(theirs)
    defaults = {
        name: p.default for name, p in ours.items() if name != "probability"
    }
    expected = {
        name: p.default for name, p in theirs.items() if name != "probability"
    }
    expected["cache_size"] = 1024  # svmlib's: the Gram matrix within it
    assert defaults == expected
    assert ours["probability"].default is False
    assert not hasattr(NuSVC(), "C") and not hasattr(NuSVC(), "sigma")


def test_sklearn_attributes_are_there():
    model = NuSVC(nu=0.2).fit(X_iris, y_iris)
    reference = SklearnNuSVC(nu=0.2).fit(X_iris, y_iris)
    sklearn_attributes = {
        name
        for name in vars(reference)
        if name.endswith("_") and not name.startswith("_")
    }
    sklearn_attributes -= {"probA_", "probB_"}  # deprecated there
    missing = [name for name in sklearn_attributes if not hasattr(model, name)]
    assert not missing
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model.fit(X_iris, y_iris)  # no warning at the defaults


def test_nu_below_nu_min_is_refused_where_libsvm_returns_noise():
    """r zero within rounding: no classifier, a clear error, not 1e15 C.

    Eight alternating labels on a line: for nu up to 0.8 the classes'
    reduced convex hulls (weights at most 2 / (nu n)) overlap, so the
    nu-SVC optimum has w = 0 and r = 0; LIBSVM divides by an r of 1e-16
    and returns coefficients of 1e8 or more. From nu = 0.9 the hulls
    separate and both libraries give the same model.
    """
    X = np.array(
        [0.979, 2.241, 1.868, -0.977, 0.950, -0.151, -0.103, 0.411]
    ).reshape(-1, 1)
    y = np.arange(8) % 2
    for nu in (0.5, 0.8):
        with pytest.raises(ValueError, match="defines no classifier"):
            NuSVC(nu=nu, kernel="linear").fit(X, y)
        noise = SklearnNuSVC(nu=nu, kernel="linear").fit(X, y)
        assert np.abs(noise.dual_coef_).max() > 1e6
    ours = NuSVC(nu=0.9, kernel="linear", tol=1e-8).fit(X, y)
    reference = SklearnNuSVC(nu=0.9, kernel="linear", tol=1e-8).fit(X, y)
    np.testing.assert_allclose(
        ours.decision_function(X), reference.decision_function(X), atol=1e-6
    )
