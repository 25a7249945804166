"""svmlib.SVC: agreement with scikit-learn, conventions, bad input."""

import pickle
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.calibration import CalibratedClassifierCV
from sklearn.datasets import load_iris, make_blobs, make_moons
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC as SklearnSVC

from svmlib import SVC

X, y01 = make_moons(120, noise=0.25, random_state=0)
LABELS = np.array(["cat", "dog"])[y01]
X_iris, y_iris = load_iris(return_X_y=True)
X_iris = StandardScaler().fit_transform(X_iris)

KERNELS = [
    dict(kernel="linear", C=1.0),
    dict(kernel="rbf", C=10.0, gamma=0.7),
    dict(kernel="poly", C=1.0, degree=3, gamma=0.5, coef0=1.0),
    dict(kernel="sigmoid", C=0.5, gamma=0.1, coef0=0.0),
]


def _fitted_attributes(model):
    return [name for name in vars(model) if name.endswith("_")]


@pytest.mark.parametrize("params", KERNELS)
@pytest.mark.parametrize("selection", ["wss2", "platt"])
def test_two_classes_match_sklearn(params, selection):
    ours = SVC(selection=selection, tol=1e-6, random_state=0, **params)
    ours.fit(X, LABELS)
    reference = SklearnSVC(tol=1e-6, **params).fit(X, LABELS)
    np.testing.assert_array_equal(ours.classes_, reference.classes_)
    np.testing.assert_allclose(
        ours.decision_function(X), reference.decision_function(X), atol=1e-3
    )
    np.testing.assert_array_equal(ours.predict(X), reference.predict(X))
    # grouped by class, increasing within a class: scikit-learn's order
    np.testing.assert_array_equal(ours.support_, reference.support_)
    np.testing.assert_array_equal(ours.n_support_, reference.n_support_)
    np.testing.assert_allclose(
        ours.support_vectors_, reference.support_vectors_
    )
    np.testing.assert_allclose(
        ours.dual_coef_, reference.dual_coef_, atol=1e-4
    )
    np.testing.assert_allclose(
        ours.intercept_, reference.intercept_, atol=1e-3
    )
    assert ours.converged_
    assert isinstance(ours.n_iter_, np.ndarray) and ours.n_iter_.shape == (1,)
    assert ours.alpha_.shape == (len(X),)
    np.testing.assert_allclose(
        ours.alpha_[ours.support_], np.abs(ours.dual_coef_[0])
    )


def test_sigma_is_the_book_parametrization_of_gamma():
    by_sigma = SVC(C=3.0, sigma=0.5).fit(X, y01)
    by_gamma = SVC(C=3.0, gamma=1 / (2 * 0.5**2)).fit(X, y01)
    np.testing.assert_allclose(
        by_sigma.decision_function(X), by_gamma.decision_function(X)
    )


@pytest.mark.parametrize("gamma", ["scale", "auto"])
def test_gamma_scale_and_auto_match_sklearn(gamma):
    ours = SVC(gamma=gamma, tol=1e-6).fit(X, y01)
    reference = SklearnSVC(gamma=gamma, tol=1e-6).fit(X, y01)
    assert ours._gamma == pytest.approx(reference._gamma, rel=1e-12)
    np.testing.assert_allclose(
        ours.decision_function(X), reference.decision_function(X), atol=1e-3
    )


@pytest.mark.parametrize(
    "scale, dtype, message",
    [
        (1e200, np.float64, "too large for their variance"),
        (1e20, np.float32, "too large for their variance"),
        (1e-160, np.float64, "so small that gamma overflows"),
    ],
)
def test_gamma_scale_says_when_the_variance_is_not_usable(
    scale, dtype, message
):
    huge = (scale * np.random.default_rng(0).uniform(size=(10, 2))).astype(
        dtype
    )
    model = SVC()
    with pytest.raises(ValueError, match=message):
        model.fit(huge, np.arange(10) % 2)
    assert _fitted_attributes(model) == []


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
        ours.decision_function(X.astype(np.float32)),
        reference.decision_function(X),
        atol=2e-3,
    )


def test_callable_kernel_that_returns_the_wrong_shape():
    # the identity is a kernel on the 4 training points, not on the others
    model = SVC(kernel=lambda A, B: np.eye(len(A))).fit(X[:4], [0, 0, 1, 1])
    with pytest.raises(ValueError, match=r"kernel <lambda> returned a matrix"):
        model.predict(X[:6])


def test_cached_path_equals_dense_path():
    dense = SVC(C=1.0, gamma=0.7, tol=1e-9).fit(X, y01)
    # 1 KiB: two kernel columns
    cached = SVC(C=1.0, gamma=0.7, tol=1e-9, cache_size=1e-3).fit(X, y01)
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


def test_max_iter_warns_once_per_fit_and_model_is_usable():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = SVC(C=100.0, max_iter=3).fit(X_iris, y_iris)
    convergence = [w for w in caught if w.category is ConvergenceWarning]
    assert len(convergence) == 1  # one warning, not one per machine
    assert "Solver terminated early (max_iter=3)" in str(
        convergence[0].message
    )
    assert "3 of 3 machine(s)" in str(convergence[0].message)
    np.testing.assert_array_equal(model.n_iter_, [3, 3, 3])
    assert not model.converged_
    assert model.predict(X_iris).shape == (len(X_iris),)


@pytest.mark.parametrize(
    "params, data, fit_params, message",
    [
        (dict(C=0), None, {}, "'C' parameter of SVC"),
        (dict(C=-2.0), None, {}, "'C' parameter of SVC"),
        (dict(C=np.nan), None, {}, "'C' parameter of SVC"),
        (dict(sigma=-1.0), None, {}, "'sigma' parameter of SVC"),
        (dict(gamma=0.0), None, {}, "'gamma' parameter of SVC"),
        (dict(gamma="wide"), None, {}, "'gamma' parameter of SVC"),
        (dict(gamma=1.0, sigma=1.0), None, {}, "not both"),
        (dict(kernel="linear", sigma=1.0), None, {}, "does not apply"),
        (dict(kernel="poly", degree=0), None, {}, "'degree' parameter"),
        (dict(kernel="laplace"), None, {}, "'kernel' parameter of SVC"),
        (dict(selection="newton"), None, {}, "'selection' parameter"),
        (dict(cache_size=0), None, {}, "'cache_size' parameter"),
        (dict(tol=-1e-3), None, {}, "'tol' parameter of SVC"),
        (dict(max_iter=0), None, {}, "'max_iter' parameter of SVC"),
        (dict(class_weight="even"), None, {}, "'class_weight' parameter"),
        (dict(decision_function_shape="ova"), None, {}, "'decision_funct"),
        (dict(class_weight={5: 2.0}), None, {}, "not in class_weight"),
        (
            {},
            (np.where(np.arange(20)[:, None] == 3, np.nan, 1.0), y01[:20]),
            {},
            "NaN",
        ),
        ({}, (np.full((10, 2), np.inf), y01[:10]), {}, "infinity"),
        ({}, (X[:10], y01[:9]), {}, "inconsistent numbers of samples"),
        ({}, (X[:10, 0], y01[:10]), {}, "2D array"),
        ({}, (X[:10], np.zeros(10)), {}, "two classes"),
        ({}, (X[:10], np.linspace(0, 1, 10)), {}, "Unknown label type"),
        ({}, None, dict(sample_weight=np.ones(5)), "sample_weight must be"),
        (
            {},
            None,
            dict(sample_weight=np.zeros(len(X))),
            "all samples have zero or negative weights",
        ),
        (
            dict(class_weight={0: 0.0, 1: 1.0}),
            None,
            {},
            "all samples with positive weights belong to the same class",
        ),
        (
            {},
            (X_iris, y_iris),
            dict(sample_weight=np.where(y_iris == 2, -1.0, 1.0)),
            r"no sample of the class \[2\] has a positive weight",
        ),
        (dict(kernel="precomputed"), (X, y01), {}, "must be square"),
    ],
)
def test_bad_input_raises_and_leaves_the_model_unfitted(
    params, data, fit_params, message
):
    Xb, yb = data if data is not None else (X, y01)
    model = SVC(**params)
    with pytest.raises(ValueError, match=message):
        model.fit(Xb, yb, **fit_params)
    assert _fitted_attributes(model) == []
    with pytest.raises(NotFittedError):
        model.predict(Xb)


def test_solver_is_now_selection():
    with pytest.raises(TypeError, match="solver"):
        SVC(solver="platt")


def test_sparse_precomputed_is_a_type_error():
    with pytest.raises(TypeError, match="Sparse precomputed"):
        SVC(kernel="precomputed").fit(sp.csr_matrix(np.eye(4)), [0, 0, 1, 1])


def test_invalid_parameter_leaves_the_previous_model_intact():
    model = SVC(C=1.0).fit(X, y01)
    before = model.decision_function(X)
    model.set_params(C=-1.0)
    with pytest.raises(ValueError, match="'C' parameter"):
        model.fit(X_iris, y_iris)
    # validated before anything was touched: the two-class model remains
    assert model.n_features_in_ == 2 and model.classes_.size == 2
    np.testing.assert_array_equal(model.decision_function(X), before)


def test_refit_that_fails_leaves_the_earlier_model():
    model = SVC(probability=True, random_state=0).fit(X, y01)
    before = model.decision_function(X)
    model.set_params(probability=False)
    with pytest.raises(ValueError, match="two classes"):
        model.fit(X_iris, np.zeros(len(X_iris)))
    # n_features_in_ = 4 had been set by the failed fit; the old model has 2
    assert model.n_features_in_ == 2 and hasattr(model, "probA_")
    np.testing.assert_array_equal(model.decision_function(X), before)


def test_predict_checks_features_and_fit():
    with pytest.raises(NotFittedError):
        SVC().predict(X)
    model = SVC().fit(X, y01)
    with pytest.raises(ValueError, match="features"):
        model.predict(np.ones((3, 5)))


def _sparse_problem():
    rng = np.random.default_rng(0)
    dense = rng.normal(size=(150, 40)) * (rng.uniform(size=(150, 40)) < 0.1)
    labels = (dense[:, :20].sum(axis=1) > dense[:, 20:].sum(axis=1)).astype(
        int
    )
    return dense, labels


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
@pytest.mark.parametrize("container", [sp.csr_matrix, sp.csr_array])
def test_sparse_input_matches_sklearn(kernel, container):
    dense, labels = _sparse_problem()
    X_sparse = container(dense)
    ours = SVC(kernel=kernel, C=10.0, tol=1e-6).fit(X_sparse, labels)
    reference = SklearnSVC(kernel=kernel, C=10.0, tol=1e-6).fit(
        X_sparse, labels
    )
    assert sp.issparse(ours.support_vectors_) and sp.issparse(ours.dual_coef_)
    np.testing.assert_array_equal(ours.support_, reference.support_)
    np.testing.assert_allclose(
        ours.support_vectors_.toarray(), reference.support_vectors_.toarray()
    )
    np.testing.assert_allclose(
        ours.dual_coef_.toarray(), reference.dual_coef_.toarray(), atol=1e-4
    )
    np.testing.assert_allclose(
        ours.decision_function(X_sparse),
        reference.decision_function(X_sparse),
        atol=1e-3,
    )
    # a model fitted on sparse X takes dense X too, with the same values
    np.testing.assert_allclose(
        ours.decision_function(dense), ours.decision_function(X_sparse)
    )
    if kernel == "linear":
        assert sp.issparse(ours.coef_)
        np.testing.assert_allclose(
            ours.coef_.toarray(), reference.coef_.toarray(), atol=1e-3
        )


def test_sparse_input_to_a_dense_model_is_refused():
    model = SVC().fit(X, y01)
    with pytest.raises(ValueError, match="cannot use sparse input"):
        model.predict(sp.csr_matrix(X))


def test_nearly_dense_sparse_input_gives_the_dense_model():
    dense = SVC(kernel="poly", gamma=1.0).fit(X_iris, y_iris)
    sparse = SVC(kernel="poly", gamma=1.0).fit(sp.csr_matrix(X_iris), y_iris)
    # iris has no zeros: trained on as a dense array, bit for bit the same
    np.testing.assert_array_equal(
        sparse.dual_coef_.toarray(), dense.dual_coef_
    )
    np.testing.assert_array_equal(sparse.intercept_, dense.intercept_)
    assert sp.issparse(sparse.support_vectors_)


# scikit-learn 1.9 deprecates its probability=True and probA_
@pytest.mark.filterwarnings("ignore::FutureWarning")
@pytest.mark.parametrize("data", ["two classes", "iris"])
def test_probabilities_are_close_to_sklearn(data):
    Xp, yp = (X, y01) if data == "two classes" else (X_iris, y_iris)
    ours = SVC(probability=True, random_state=0).fit(Xp, yp)
    reference = SklearnSVC(probability=True, random_state=0).fit(Xp, yp)
    assert ours.probA_.shape == reference.probA_.shape
    # the same method; the 5 folds are drawn differently (KFold here,
    # LIBSVM's rand() there), so only close
    np.testing.assert_allclose(ours.probA_, reference.probA_, rtol=0.25)
    proba = ours.predict_proba(Xp)
    np.testing.assert_allclose(proba, reference.predict_proba(Xp), atol=0.05)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_allclose(np.log(proba), ours.predict_log_proba(Xp))
    assert np.mean(ours.classes_[proba.argmax(axis=1)] == ours.predict(Xp)) > (
        0.95
    )


def test_probabilities_are_seeded_by_random_state():
    def proba(seed):
        model = SVC(probability=True, random_state=seed).fit(X_iris, y_iris)
        return model.predict_proba(X_iris)

    np.testing.assert_array_equal(proba(0), proba(0))
    assert not np.allclose(proba(0), proba(1))


def test_predict_proba_needs_probability_true_at_fit():
    model = SVC().fit(X, y01)
    assert not hasattr(model, "predict_proba")
    model.set_params(probability=True)
    with pytest.raises(NotFittedError, match="probability=False"):
        model.predict_proba(X)


def test_calibrated_classifier_cv_as_in_sklearn():
    ours = CalibratedClassifierCV(SVC(), ensemble=False).fit(X, y01)
    reference = CalibratedClassifierCV(SklearnSVC(), ensemble=False).fit(
        X, y01
    )
    np.testing.assert_allclose(
        ours.predict_proba(X), reference.predict_proba(X), atol=1e-3
    )


@pytest.mark.parametrize("data", ["two classes", "iris"])
def test_coef_of_the_linear_kernel_matches_sklearn(data):
    Xp, yp = (X, y01) if data == "two classes" else (X_iris, y_iris)
    ours = SVC(kernel="linear", tol=1e-6).fit(Xp, yp)
    reference = SklearnSVC(kernel="linear", tol=1e-6).fit(Xp, yp)
    assert ours.coef_.shape == reference.coef_.shape
    np.testing.assert_allclose(ours.coef_, reference.coef_, atol=1e-3)
    with pytest.raises(ValueError, match="read-only"):
        ours.coef_[0, 0] = 1.0
    shape = ours.decision_function_shape
    ours.set_params(decision_function_shape="ovo")
    decision = ours.decision_function(Xp)
    ours.set_params(decision_function_shape=shape)
    np.testing.assert_allclose(
        Xp @ ours.coef_.T + ours.intercept_, decision.reshape(len(Xp), -1)
    )


def test_coef_is_only_for_the_linear_kernel():
    model = SVC().fit(X, y01)
    assert not hasattr(model, "coef_")
    with pytest.raises(AttributeError, match="kernel='linear'"):
        model.coef_  # noqa: B018


def test_sample_weight_matches_sklearn():
    weight = np.random.default_rng(0).uniform(0, 3, size=len(X))
    weight[::7] = 0.0
    ours = SVC(C=5.0, tol=1e-6).fit(X, y01, sample_weight=weight)
    reference = SklearnSVC(C=5.0, tol=1e-6).fit(X, y01, sample_weight=weight)
    np.testing.assert_allclose(
        ours.support_vectors_, reference.support_vectors_
    )
    # indices into X (scikit-learn's count only the points of weight > 0)
    np.testing.assert_array_equal(X[ours.support_], ours.support_vectors_)
    assert np.all(weight[ours.support_] > 0)
    assert np.all(ours.alpha_ <= 5.0 * weight + 1e-12)
    np.testing.assert_allclose(
        ours.decision_function(X), reference.decision_function(X), atol=1e-3
    )


def test_integer_sample_weight_is_repetition():
    weight = np.random.default_rng(1).integers(0, 4, size=len(X))
    # gamma given: "scale" would see the variance of different data
    weighted = SVC(C=2.0, gamma=1.0, tol=1e-8)
    weighted.fit(X, y01, sample_weight=weight)
    repeated = SVC(C=2.0, gamma=1.0, tol=1e-8).fit(
        np.repeat(X, weight, axis=0), np.repeat(y01, weight)
    )
    np.testing.assert_allclose(
        weighted.decision_function(X), repeated.decision_function(X), atol=1e-5
    )


@pytest.mark.parametrize(
    "class_weight", [{0: 0.5, 1: 3.0, 2: 1.0}, "balanced"]
)
def test_class_weight_matches_sklearn(class_weight):
    unbalanced = np.flatnonzero((y_iris != 1) | (np.arange(150) % 3 == 0))
    Xw, yw = X_iris[unbalanced], y_iris[unbalanced]
    ours = SVC(class_weight=class_weight, tol=1e-6).fit(Xw, yw)
    reference = SklearnSVC(class_weight=class_weight, tol=1e-6).fit(Xw, yw)
    np.testing.assert_allclose(ours.class_weight_, reference.class_weight_)
    np.testing.assert_array_equal(ours.support_, reference.support_)
    np.testing.assert_allclose(
        ours.decision_function(Xw), reference.decision_function(Xw), atol=1e-3
    )


def test_precomputed_kernel_is_the_named_kernel():
    K = rbf_kernel(X, X, gamma=0.7)
    precomputed = SVC(kernel="precomputed").fit(K, y01)
    named = SVC(kernel="rbf", gamma=0.7).fit(X, y01)
    reference = SklearnSVC(kernel="precomputed").fit(K, y01)
    np.testing.assert_array_equal(precomputed.support_, named.support_)
    np.testing.assert_allclose(precomputed.dual_coef_, named.dual_coef_)
    np.testing.assert_array_equal(precomputed.support_, reference.support_)
    assert precomputed.support_vectors_.shape == (0, 0)  # as scikit-learn
    X_new = X[:10] + 0.1
    K_new = rbf_kernel(X_new, X, gamma=0.7)
    np.testing.assert_allclose(
        precomputed.decision_function(K_new), named.decision_function(X_new)
    )
    with pytest.raises(ValueError, match="features"):
        precomputed.predict(K_new[:, :-1])


def _tie_problem():
    # gamma = 1e6: away from the points the kernel is 0 and every pairwise
    # decision value is its intercept; three classes vote in a cycle
    X_ties, y_ties = make_blobs(n_samples=20, n_features=2, random_state=42)
    low, high = X_ties.min(axis=0), X_ties.max(axis=0)
    axes = [np.linspace(lo, hi, 30) for lo, hi in zip(low, high, strict=True)]
    grid = np.stack(np.meshgrid(*axes), -1).reshape(-1, 2)
    return X_ties, y_ties, grid


@pytest.mark.parametrize("break_ties", [False, True])
def test_break_ties_as_sklearn(break_ties):
    X_ties, y_ties, grid = _tie_problem()
    params = dict(gamma=1e6, break_ties=break_ties)
    ours = SVC(**params).fit(X_ties, y_ties)
    reference = SklearnSVC(**params).fit(X_ties, y_ties)
    np.testing.assert_array_equal(ours.predict(grid), reference.predict(grid))
    by_score = np.argmax(ours.decision_function(grid), axis=1)
    assert np.array_equal(ours.predict(grid), by_score) == break_ties


def test_break_ties_needs_ovr():
    model = SVC(break_ties=True, decision_function_shape="ovo")
    model.fit(X_iris, y_iris)
    with pytest.raises(ValueError, match="break_ties must be False"):
        model.predict(X_iris)


@pytest.mark.parametrize("n_classes", [2, 4])
def test_predictions_in_blocks_within_cache_size(n_classes):
    """Issue 24: decision_function holds n_test x n_SV kernel values no more.

    Before, the kernel values between all the test points and the support
    vectors were one array: with four classes 8000 x 1096 float64, a
    traced peak of 67 MiB against a budget of 1 MiB (1.7 MiB now).
    """
    import tracemalloc

    from sklearn.datasets import make_blobs

    X_fit, y_fit = make_blobs(
        1200, centers=n_classes, cluster_std=4.0, random_state=0
    )
    X_new = np.random.default_rng(0).normal(scale=5.0, size=(8000, 2))
    small = SVC(C=10.0, gamma=0.5, cache_size=1).fit(X_fit, y_fit)
    assert small.support_.size >= 500
    whole = pickle.loads(pickle.dumps(small)).set_params(cache_size=1024)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        decision = small.decision_function(X_new)
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    output = decision.nbytes * (2 if n_classes > 2 else 1)  # ovo and ovr
    assert peak <= 2**20 + output + 2**18, peak / 2**20
    np.testing.assert_allclose(
        decision, whole.decision_function(X_new), rtol=1e-12, atol=1e-12
    )
    np.testing.assert_array_equal(small.predict(X_new), whole.predict(X_new))
