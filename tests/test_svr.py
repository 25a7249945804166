"""svmlib.SVR and svmlib.NuSVR against scikit-learn's (LIBSVM), and alone.

Agreement at a tight tolerance (tol=1e-8): the dual objective of LIBSVM's
solution, evaluated here from its dual coefficients, within 1e-6 relative
of svmlib's; the same support vectors; predictions within 2e-5 of the targets'
range and dual coefficients within 1e-3 C (LIBSVM keeps kernel values in
single precision, and on ill-conditioned problems, C = 1000 and gamma = 5
on the diabetes data, free coefficients move by up to 3e-4 C with them).
Then the properties of the solutions (nu-SVR's bounds, the tube's KKT
conditions, the width nu-SVR finds), sample weights, sparse input,
precomputed and callable kernels, and bad input.
"""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose, assert_array_equal
from sklearn import svm
from sklearn.datasets import load_diabetes, make_friedman1
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.metrics.pairwise import linear_kernel, rbf_kernel
from sklearn.preprocessing import StandardScaler

from svmlib.svr import SVR, NuSVR

TOL = 1e-8


def _diabetes():
    return load_diabetes(return_X_y=True)


def _friedman():
    X, y = make_friedman1(n_samples=300, noise=1.0, random_state=0)
    return StandardScaler().fit_transform(X), y


DATA = {"diabetes": _diabetes, "friedman1": _friedman}


def _gram(model, X):
    """The training Gram matrix of a fitted rbf or linear model."""
    if model.kernel == "linear":
        return linear_kernel(X)
    return rbf_kernel(X, gamma=model._gamma)


def _full_coef(model, n):
    coef = np.zeros(n)
    dual_coef = model.dual_coef_
    if sp.issparse(dual_coef):
        dual_coef = dual_coef.toarray()
    coef[model.support_] = dual_coef[0]
    return coef


def _svr_dual(K, z, coef, epsilon):
    """LIBSVM's epsilon-SVR dual objective -(1/2 a'Qa + p'a) from beta.

    With a = (alpha, alpha*) and alpha_i alpha*_i = 0 at the optimum,
    a'Qa = beta'K beta and p'a = epsilon sum |beta| - z'beta.
    """
    return -(0.5 * coef @ K @ coef + epsilon * np.abs(coef).sum() - z @ coef)


def _nu_svr_dual(K, z, coef):
    """LIBSVM's nu-SVR dual objective -(1/2 beta'K beta - z'beta)."""
    return -(0.5 * coef @ K @ coef - z @ coef)


def _assert_agree(ours, theirs, X, y, objective):
    """Same support vectors, dual objective, predictions and intercept."""
    n = len(y)
    K = _gram(ours, X)
    ours_value = objective(K, y, _full_coef(ours, n))
    theirs_value = objective(K, y, _full_coef(theirs, n))
    assert_allclose(ours.dual_objective_, ours_value, rtol=1e-9)
    assert abs(ours_value - theirs_value) <= 1e-6 * abs(theirs_value)
    assert ours_value >= theirs_value - 1e-9 * abs(theirs_value)
    assert_array_equal(ours.support_, theirs.support_)
    scale = np.ptp(y)
    assert_allclose(ours.predict(X), theirs.predict(X), atol=2e-5 * scale)
    assert_allclose(ours.intercept_, theirs.intercept_, atol=2e-5 * scale)
    assert_allclose(
        ours.dual_coef_, theirs.dual_coef_, atol=1e-3 * np.abs(ours.C)
    )


@pytest.mark.parametrize(
    "data, params",
    [
        ("diabetes", dict(C=100.0, epsilon=10.0)),
        ("diabetes", dict(C=1000.0, epsilon=1.0, gamma=5.0)),
        ("diabetes", dict(kernel="linear", C=10.0, epsilon=5.0)),
        ("friedman1", dict(C=10.0, epsilon=0.5)),
        ("friedman1", dict(C=1.0, epsilon=0.1, gamma=0.05)),
    ],
)
def test_svr_agrees_with_libsvm(data, params):
    X, y = DATA[data]()
    ours = SVR(tol=TOL, **params).fit(X, y)
    theirs = svm.SVR(tol=TOL, **params).fit(X, y)
    epsilon = params["epsilon"]
    _assert_agree(
        ours, theirs, X, y, lambda K, z, c: _svr_dual(K, z, c, epsilon)
    )
    assert ours.fit_status_ == 0 and ours.converged_
    assert isinstance(ours.n_iter_, int) and ours.n_iter_ > 0


@pytest.mark.parametrize(
    "data, params",
    [
        ("diabetes", dict(C=100.0, nu=0.3)),
        ("diabetes", dict(C=10.0, nu=0.7, gamma=2.0)),
        ("friedman1", dict(C=10.0, nu=0.2)),
        ("friedman1", dict(kernel="linear", C=1.0, nu=0.5)),
    ],
)
def test_nu_svr_agrees_with_libsvm(data, params):
    X, y = DATA[data]()
    ours = NuSVR(tol=TOL, **params).fit(X, y)
    theirs = svm.NuSVR(tol=TOL, **params).fit(X, y)
    _assert_agree(ours, theirs, X, y, _nu_svr_dual)


@pytest.mark.parametrize("nu", [0.1, 0.4, 0.8])
def test_nu_svr_bounds_errors_and_support_vectors(nu):
    """Errors <= nu n <= support vectors (Schoelkopf et al. 2000)."""
    X, y = _friedman()
    model = NuSVR(C=10.0, nu=nu, tol=TOL).fit(X, y)
    n = len(y)
    residual = np.abs(y - model.predict(X))
    errors = np.sum(residual > model.epsilon_ + 1e-6)
    at_bound = np.sum(np.isclose(np.abs(model.dual_coef_), model.C))
    assert errors <= at_bound <= nu * n + 1e-9
    assert model.n_support_[0] >= nu * n - 1e-9
    assert model.epsilon_ > 0


def test_nu_svr_epsilon_is_the_tube_of_the_same_svr():
    """epsilon-SVR with nu-SVR's C and epsilon_ finds the same function."""
    X, y = _diabetes()
    nu_model = NuSVR(C=50.0, nu=0.4, tol=TOL).fit(X, y)
    model = SVR(C=50.0, epsilon=nu_model.epsilon_, tol=TOL).fit(X, y)
    assert_allclose(model.predict(X), nu_model.predict(X), atol=1e-5)
    assert_array_equal(model.support_, nu_model.support_)


def test_svr_kkt_conditions_of_the_tube():
    """Inside the tube coef = 0, outside |coef| = C, free SVs on the edge."""
    X, y = _friedman()
    C, epsilon = 5.0, 0.8
    model = SVR(C=C, epsilon=epsilon, tol=TOL).fit(X, y)
    coef = _full_coef(model, len(y))
    residual = y - model.predict(X)
    inside = np.abs(residual) < epsilon - 1e-5
    outside = np.abs(residual) > epsilon + 1e-5
    assert inside.any() and outside.any()
    assert np.all(coef[inside] == 0)
    assert_allclose(np.abs(coef[outside]), C)
    assert np.all(np.sign(coef[outside]) == np.sign(residual[outside]))
    free = (np.abs(coef) > 1e-8) & (np.abs(coef) < C - 1e-8)
    assert free.any()
    assert_allclose(np.abs(residual[free]), epsilon, atol=1e-5)


@pytest.mark.parametrize("Estimator, extra", [(SVR, {}), (NuSVR, {})])
def test_sample_weight_agrees_with_libsvm(Estimator, extra):
    X, y = _friedman()
    weight = np.random.default_rng(0).uniform(0.2, 3.0, size=len(y))
    weight[:10] = 0.0  # left out
    weight[10:15] = -1.0  # left out
    reference = getattr(svm, Estimator.__name__)
    ours = Estimator(C=3.0, tol=TOL, **extra).fit(X, y, sample_weight=weight)
    theirs = reference(C=3.0, tol=TOL, **extra).fit(X, y, sample_weight=weight)
    # scikit-learn's support_ counts only the points with weight > 0
    # (LIBSVM's sv_ind, in the reduced problem); svmlib's indexes X
    kept = np.flatnonzero(weight > 0)
    assert_array_equal(ours.support_, kept[theirs.support_])
    assert not np.isin(np.arange(15), ours.support_).any()
    assert_allclose(ours.predict(X), theirs.predict(X), atol=1e-5)


@pytest.mark.parametrize("Estimator", [SVR, NuSVR])
def test_dropped_points_are_as_if_absent(Estimator):
    X, y = _friedman()
    weight = np.ones(len(y))
    weight[::7] = 0.0
    kept = weight > 0
    # gamma="scale" would see the left-out points too (as scikit-learn's)
    weighted = Estimator(gamma=0.1, tol=TOL).fit(X, y, sample_weight=weight)
    without = Estimator(gamma=0.1, tol=TOL).fit(X[kept], y[kept])
    assert_allclose(weighted.predict(X), without.predict(X), atol=1e-8)
    assert_array_equal(
        weighted.support_, np.flatnonzero(kept)[without.support_]
    )


def test_svr_integer_weights_are_repetitions():
    """C_i = C w_i is the same problem as w_i copies of point i."""
    X, y = _friedman()
    X, y = X[:120], y[:120]
    weight = np.random.default_rng(3).integers(0, 4, size=len(y))
    weighted = SVR(C=2.0, gamma=0.1, tol=TOL).fit(X, y, sample_weight=weight)
    repeated = SVR(C=2.0, gamma=0.1, tol=TOL).fit(
        np.repeat(X, weight, axis=0), np.repeat(y, weight)
    )
    assert_allclose(weighted.predict(X), repeated.predict(X), atol=1e-6)
    assert_allclose(weighted.dual_objective_, repeated.dual_objective_)


def test_svr_uniform_weight_is_C():
    X, y = _diabetes()
    weighted = SVR(C=100.0, tol=TOL).fit(X, y, sample_weight=np.full(442, 0.1))
    plain = SVR(C=10.0, tol=TOL).fit(X, y)
    assert_allclose(weighted.dual_coef_, plain.dual_coef_, atol=1e-7)


@pytest.mark.parametrize("Estimator", [SVR, NuSVR])
@pytest.mark.parametrize("kernel", ["linear", "rbf", "poly"])
def test_sparse_input_gives_the_dense_model(Estimator, kernel):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(80, 12)) * (rng.uniform(size=(80, 12)) < 0.3)
    y = X @ rng.normal(size=12) + 0.1 * rng.normal(size=80)
    dense = Estimator(kernel=kernel, gamma=0.1, tol=TOL).fit(X, y)
    sparse = Estimator(kernel=kernel, gamma=0.1, tol=TOL).fit(
        sp.csr_matrix(X), y
    )
    assert sp.issparse(sparse.support_vectors_)
    assert sp.issparse(sparse.dual_coef_)
    assert_array_equal(dense.support_, sparse.support_)
    assert_allclose(dense.support_vectors_, sparse.support_vectors_.toarray())
    # the sparse kernel sums its products in another order: the solutions
    # differ by rounding, amplified by the solver to about 1e-7
    assert_allclose(
        dense.predict(X), sparse.predict(sp.csr_matrix(X)), atol=1e-6
    )
    assert_allclose(dense.predict(X), sparse.predict(X), atol=1e-6)
    if kernel == "linear":
        assert sp.issparse(sparse.coef_)
        assert_allclose(dense.coef_, sparse.coef_.toarray(), atol=1e-10)
    with pytest.raises(ValueError, match="cannot use sparse input"):
        dense.predict(sp.csr_matrix(X))


@pytest.mark.parametrize("Estimator", [SVR, NuSVR])
def test_precomputed_and_callable_kernels(Estimator):
    X, y = _friedman()
    train, test = slice(0, 200), slice(200, None)
    rbf = Estimator(gamma=0.1, tol=TOL).fit(X[train], y[train])
    K = rbf_kernel(X[train], gamma=0.1)
    pre = Estimator(kernel="precomputed", tol=TOL).fit(K, y[train])
    assert_array_equal(pre.support_, rbf.support_)
    assert pre.support_vectors_.shape == (0, 0)
    K_test = rbf_kernel(X[test], X[train], gamma=0.1)
    assert_allclose(pre.predict(K_test), rbf.predict(X[test]), atol=1e-8)
    with pytest.raises(ValueError, match="200"):
        pre.predict(K_test[:, :50])

    def kernel(A, B):
        return rbf_kernel(A, B, gamma=0.1)

    own = Estimator(kernel=kernel, tol=TOL).fit(X[train], y[train])
    assert_allclose(own.predict(X[test]), rbf.predict(X[test]), atol=1e-8)
    assert not hasattr(own, "n_features_in_")


def test_linear_coef_matches_libsvm_and_is_read_only():
    X, y = _diabetes()
    ours = SVR(kernel="linear", C=100.0, epsilon=5.0, tol=TOL).fit(X, y)
    theirs = svm.SVR(kernel="linear", C=100.0, epsilon=5.0, tol=TOL)
    theirs.fit(X, y)
    assert ours.coef_.shape == (1, X.shape[1])
    assert_allclose(ours.coef_, theirs.coef_, rtol=1e-5)
    assert_allclose(ours.predict(X), X @ ours.coef_[0] + ours.intercept_[0])
    with pytest.raises(ValueError):
        ours.coef_[0, 0] = 1.0
    with pytest.raises(AttributeError, match="linear"):
        _ = SVR().fit(X, y).coef_


def test_fitted_attributes_like_sklearn():
    X, y = _diabetes()
    ours, theirs = SVR().fit(X, y), svm.SVR().fit(X, y)
    for name in [
        "support_",
        "support_vectors_",
        "n_support_",
        "dual_coef_",
        "intercept_",
        "shape_fit_",
        "n_features_in_",
    ]:
        mine, ref = getattr(ours, name), getattr(theirs, name)
        assert np.shape(mine) == np.shape(ref), name
    assert ours.n_support_.dtype == theirs.n_support_.dtype
    assert ours.n_support_[0] == ours.support_vectors_.shape[0]
    assert ours.fit_status_ == 0 and isinstance(ours.n_iter_, int)


def test_constant_targets():
    X, _ = _diabetes()
    model = SVR().fit(X, np.ones(len(X)))
    assert_allclose(model.predict(X), 1.0)
    assert model.n_support_[0] == 0


@pytest.mark.parametrize(
    "Estimator, params, message",
    [
        (SVR, dict(C=0.0), "'C' parameter"),
        (SVR, dict(epsilon=-1.0), "'epsilon' parameter"),
        (SVR, dict(gamma=-1.0), "'gamma' parameter"),
        (SVR, dict(kernel="cubic"), "'kernel' parameter"),
        (SVR, dict(max_iter=0), "'max_iter' parameter"),
        (NuSVR, dict(nu=0.0), "'nu' parameter"),
        (NuSVR, dict(nu=1.5), "'nu' parameter"),
        (NuSVR, dict(C=np.inf), "'C' parameter"),
        (SVR, dict(tol=0.0), "'tol' parameter"),
    ],
)
def test_bad_parameters(Estimator, params, message):
    X, y = _friedman()
    model = Estimator(**params)
    with pytest.raises(ValueError, match=message):
        model.fit(X, y)
    assert not hasattr(model, "support_")


@pytest.mark.parametrize("Estimator", [SVR, NuSVR])
def test_bad_data(Estimator):
    X, y = _friedman()
    y_nan = y.copy()
    y_nan[3] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        Estimator().fit(X, y_nan)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        Estimator().fit(X, y[:-1])
    with pytest.raises(ValueError, match="all samples have zero or negative"):
        Estimator().fit(X, y, sample_weight=np.zeros(len(y)))
    with pytest.raises(ValueError, match="sample_weight"):
        Estimator().fit(X, y, sample_weight=np.ones(3))
    with pytest.raises(TypeError, match="Sparse precomputed"):
        Estimator(kernel="precomputed").fit(sp.csr_matrix(np.eye(3)), y[:3])
    with pytest.raises(ValueError, match="square"):
        Estimator(kernel="precomputed").fit(X[:, :5], y)
    with pytest.raises(NotFittedError):
        Estimator().predict(X)
    model = Estimator().fit(X, y)
    with pytest.raises(ValueError, match="features"):
        model.predict(X[:, :3])


def test_failed_fit_leaves_the_estimator_as_it_was():
    X, y = _friedman()
    model = SVR()
    with pytest.raises(ValueError):
        model.fit(X, y, sample_weight=-np.ones(len(y)))
    assert not hasattr(model, "n_features_in_")
    with pytest.raises(NotFittedError):
        model.predict(X)
    model.fit(X, y)
    before = model.predict(X)
    with pytest.raises(ValueError):
        model.fit(X[:, :3], y, sample_weight=-np.ones(len(y)))
    assert model.n_features_in_ == X.shape[1]
    np.testing.assert_array_equal(model.predict(X), before)


def test_one_convergence_warning_from_the_status():
    X, y = _diabetes()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = SVR(C=100.0, max_iter=5).fit(X, y)
    messages = [
        w for w in caught if issubclass(w.category, ConvergenceWarning)
    ]
    assert len(messages) == 1
    assert "Solver terminated early (max_iter=5)" in str(messages[0].message)
    assert model.fit_status_ == 1 and not model.converged_
    assert model.n_iter_ == 5


def test_infinite_C_is_a_large_C():
    X, y = _friedman()
    infinite = SVR(C=np.inf).fit(X, y)
    large = SVR(C=1e10).fit(X, y)
    assert_allclose(infinite.predict(X), large.predict(X), atol=1e-6)
