"""The five formulations on one SMO solver, against LIBSVM (scikit-learn).

Each formulation of :mod:`svmlib.formulations` is solved on a precomputed
Gram matrix and compared with scikit-learn's LIBSVM estimator on the same
matrix: the dual objective (evaluated by one formula at both solutions)
within 1e-6 relative, the same support vectors, the same decision values.
The general solver's own invariants (the equality constraints it must keep,
bad input) are checked on their own.
"""

import numpy as np
import pytest
from sklearn import svm
from sklearn.datasets import load_diabetes, make_classification
from sklearn.metrics.pairwise import rbf_kernel

from svmlib import formulations
from svmlib.gram import CachedGram, DenseGram, DoubledGram
from svmlib.kernels import RBF
from svmlib.solvers import smo

TOL = 1e-9


@pytest.fixture(scope="module")
def classification():
    X, labels = make_classification(
        240, 6, n_informative=4, flip_y=0.1, random_state=3
    )
    # LIBSVM's binary machine has y = +1 for classes_[0]
    return X, labels, np.where(labels == 0, 1.0, -1.0)


@pytest.fixture(scope="module")
def regression():
    X, z = load_diabetes(return_X_y=True)
    X, z = X[:200], z[:200]
    return X, (z - z.mean()) / z.std()


def _svr_objective(K, z, epsilon, coef):
    """1/2 coef^T K coef + epsilon sum |coef| - z^T coef (the SVR dual)."""
    return 0.5 * coef @ K @ coef + epsilon * np.abs(coef).sum() - z @ coef


def _full(model, n):
    coef = np.zeros(n)
    coef[model.support_] = model.dual_coef_[0]
    return coef


def _same_support(ours, model):
    # scikit-learn lists the support vectors class by class
    assert np.array_equal(np.flatnonzero(ours.coef), np.sort(model.support_))


@pytest.mark.parametrize("C", [0.05, 1.0, 100.0])
@pytest.mark.parametrize("gamma", [0.01, 0.3])
def test_c_svc_matches_libsvm(classification, C, gamma):
    X, labels, y = classification
    K = rbf_kernel(X, gamma=gamma)
    model = svm.SVC(C=C, kernel="precomputed", tol=TOL).fit(K, labels)
    ours = formulations.c_svc(K, y, C, tol=TOL)
    coef = _full(model, len(y))  # scikit-learn flips the binary model
    objective = [0.5 * a @ K @ a - np.abs(a).sum() for a in (ours.coef, -coef)]
    assert objective[0] == pytest.approx(objective[1], rel=1e-6)
    assert -ours.dual_objective == pytest.approx(objective[0], rel=1e-9)
    _same_support(ours, model)
    np.testing.assert_allclose(
        K @ ours.coef + ours.intercept,
        -model.decision_function(K),
        atol=1e-4 * max(1.0, C),
    )


@pytest.mark.parametrize("nu", [0.15, 0.3, 0.7, 0.95])
def test_nu_svc_matches_libsvm(classification, nu):
    X, labels, y = classification
    K = rbf_kernel(X, gamma=0.1)
    model = svm.NuSVC(nu=nu, kernel="precomputed", tol=TOL).fit(K, labels)
    ours = formulations.nu_svc(K, y, nu, tol=TOL)
    _same_support(ours, model)
    # the multipliers themselves are not unique where K is nearly
    # singular (and LIBSVM keeps Q in single precision): compare the
    # objective that both minimise, 1/2 a'Qa with sum a = nu n (undoing
    # the division by r, which magnifies differences by 1/r^2), and the
    # decision values, relative to their size
    coef = -_full(model, len(y))
    objective = [
        0.5 * a @ K @ a * (nu * len(y) / np.abs(a).sum()) ** 2
        for a in (ours.coef, coef)
    ]
    assert objective[0] == pytest.approx(objective[1], rel=1e-6)
    decision = -model.decision_function(K)
    np.testing.assert_allclose(
        K @ ours.coef + ours.intercept,
        decision,
        atol=1e-4 * np.abs(decision).max(),
    )


def test_nu_svc_is_c_svc_with_C_one_over_r(classification):
    """Chang & Lin (2001): nu-SVC's rescaled solution solves C-SVC, C=1/r."""
    X, _, y = classification
    K = rbf_kernel(X, gamma=0.1)
    result = smo(
        K,
        y,
        np.ones(len(y)),
        p=np.zeros(len(y)),
        alpha_init=_nu_start(y, 0.4),
        per_class=True,
        tol=1e-10,
    )
    nu_solution = formulations.nu_svc(K, y, 0.4, tol=1e-10)
    c_solution = formulations.c_svc(K, y, 1.0 / result.r, tol=1e-10)
    np.testing.assert_allclose(
        nu_solution.coef, c_solution.coef, rtol=1e-5, atol=1e-6
    )
    assert nu_solution.intercept == pytest.approx(
        c_solution.intercept, abs=1e-5
    )


def _nu_start(y, nu):
    alpha = np.zeros(len(y))
    for label in (1, -1):
        members = np.flatnonzero(y == label)
        alpha[members] = formulations._greedy_fill(
            nu * len(y) / 2, np.ones(members.size)
        )
    return alpha


def test_nu_svc_infeasible_nu_is_an_error(classification):
    X, _, y = classification
    y = y.copy()
    y[: len(y) - 20] = 1.0
    y[len(y) - 20 :] = -1.0  # 20 negatives of 240: nu <= 40/240
    with pytest.raises(ValueError, match="specified nu is infeasible"):
        formulations.nu_svc(rbf_kernel(X), y, 0.2)


@pytest.mark.parametrize("nu", [0.02, 0.2, 0.6])
@pytest.mark.parametrize("gamma", [0.05, 1.0])
def test_one_class_matches_libsvm(classification, nu, gamma):
    X = classification[0]
    K = rbf_kernel(X, gamma=gamma)
    model = svm.OneClassSVM(nu=nu, kernel="precomputed", tol=TOL).fit(K)
    ours = formulations.one_class(K, nu, tol=TOL)
    coef = _full(model, len(X))
    objective = [0.5 * a @ K @ a for a in (ours.coef, coef)]
    assert objective[0] == pytest.approx(objective[1], rel=1e-6)
    _same_support(ours, model)
    np.testing.assert_allclose(
        K @ ours.coef + ours.intercept, model.decision_function(K), atol=1e-5
    )
    # Schoelkopf et al. (2001), Proposition 4: outliers <= nu <= SVs
    decision = K @ ours.coef + ours.intercept
    assert np.mean(decision < -1e-6) <= nu <= np.mean(ours.coef > 0)


@pytest.mark.parametrize(
    "C, epsilon", [(0.1, 0.0), (1.0, 0.1), (10.0, 0.5), (100.0, 0.2)]
)
def test_epsilon_svr_matches_libsvm(regression, C, epsilon):
    X, z = regression
    K = rbf_kernel(X, gamma=2.0)
    model = svm.SVR(C=C, epsilon=epsilon, kernel="precomputed", tol=TOL)
    model.fit(K, z)
    ours = formulations.epsilon_svr(K, z, C, epsilon, tol=TOL)
    objective = [
        _svr_objective(K, z, epsilon, a)
        for a in (ours.coef, _full(model, len(z)))
    ]
    assert objective[0] == pytest.approx(objective[1], rel=1e-6)
    assert -ours.dual_objective == pytest.approx(objective[0], rel=1e-9)
    _same_support(ours, model)
    np.testing.assert_allclose(
        K @ ours.coef + ours.intercept, model.predict(K), atol=1e-4
    )


@pytest.mark.parametrize("C, nu", [(1.0, 0.2), (10.0, 0.6), (0.5, 0.95)])
def test_nu_svr_matches_libsvm(regression, C, nu):
    X, z = regression
    K = rbf_kernel(X, gamma=2.0)
    model = svm.NuSVR(C=C, nu=nu, kernel="precomputed", tol=TOL).fit(K, z)
    ours = formulations.nu_svr(K, z, C, nu, tol=TOL)
    _same_support(ours, model)
    np.testing.assert_allclose(
        K @ ours.coef + ours.intercept, model.predict(K), atol=1e-4
    )
    # the same solution is the epsilon-SVR solution with nu's epsilon
    tube = formulations.epsilon_svr(K, z, C, ours.epsilon, tol=TOL)
    np.testing.assert_allclose(
        K @ tube.coef + tube.intercept, model.predict(K), atol=1e-4
    )
    # Schoelkopf et al. (2000), Proposition 1: errors <= nu <= SVs
    residual = np.abs(K @ ours.coef + ours.intercept - z)
    outside = np.mean(residual > ours.epsilon + 1e-6)
    assert outside <= nu <= np.mean(ours.coef != 0)


def test_svr_on_a_cache_with_shrinking_matches_dense(regression):
    """DoubledGram over a small column cache, shrinking on: same answer."""
    X, z = regression
    kernel = RBF(gamma=2.0)
    dense = formulations.epsilon_svr(
        kernel(X, X), z, 3.0, 0.1, tol=1e-6, shrinking=False
    )
    cached = CachedGram(X, kernel, cache_size=0.05)  # 32 of 200 columns
    shrunk = formulations.epsilon_svr(cached, z, 3.0, 0.1, tol=1e-6)
    assert cached.misses > 0
    np.testing.assert_allclose(shrunk.coef, dense.coef, atol=1e-3)
    assert shrunk.intercept == pytest.approx(dense.intercept, abs=1e-3)
    assert np.array_equal(
        np.flatnonzero(shrunk.coef), np.flatnonzero(dense.coef)
    )


def test_per_class_keeps_both_sums(classification):
    X, _, y = classification
    start = _nu_start(y, 0.5)
    result = smo(
        rbf_kernel(X, gamma=0.3),
        y,
        np.ones(len(y)),
        p=np.zeros(len(y)),
        alpha_init=start,
        per_class=True,
        tol=1e-8,
    )
    for label in (1, -1):
        members = y == label
        assert result.alpha[members].sum() == pytest.approx(
            start[members].sum(), rel=1e-12
        )
    assert result.r > 0 and result.converged


def test_doubled_gram_blocks_and_products():
    K = rbf_kernel(np.arange(8.0).reshape(4, 2), gamma=0.1)
    doubled = DoubledGram(DenseGram(K))
    full = np.block([[K, K], [K, K]])
    rows, cols = np.array([0, 5, 7, 2]), np.array([1, 5, 6])
    coef = np.array([0.5, -2.0, 3.0])
    np.testing.assert_allclose(
        doubled.block(rows, cols), full[np.ix_(rows, cols)]
    )
    np.testing.assert_allclose(
        doubled.products(rows, cols, coef), full[np.ix_(rows, cols)] @ coef
    )
    doubled.restrict(np.array([1, 4, 6]))
    np.testing.assert_allclose(doubled.column(7), full[[1, 4, 6], 7])


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"p": np.zeros(3)}, "p must be a finite array"),
        ({"p": np.array([0.0, np.nan, 0.0, 0.0])}, "NaN or infinity"),
        ({"alpha_init": np.array([0.0, 2.0, 0.0, 0.0])}, "alpha_init"),
        ({"alpha_init": np.zeros(3)}, "alpha_init must have shape"),
        ({"per_class": True, "selection": "platt"}, "platt"),
    ],
)
def test_general_form_bad_input(kwargs, message):
    K = np.eye(4)
    with pytest.raises(ValueError, match=message):
        smo(K, [1, -1, 1, -1], 1.0, **kwargs)


def test_one_class_labels_allowed_only_in_the_general_form():
    with pytest.raises(ValueError, match="only one class"):
        smo(np.eye(3), [1, 1, 1], 1.0)
    result = smo(
        np.eye(3), [1, 1, 1], 1.0, p=np.zeros(3), alpha_init=[1.0, 0.5, 0.0]
    )
    assert result.alpha.sum() == pytest.approx(1.5)
    np.testing.assert_allclose(result.alpha, [0.5, 0.5, 0.5])


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda K: formulations.nu_svc(K, [1, -1], 1.5), "nu must be in"),
        (lambda K: formulations.one_class(K, 0.0), "nu must be"),
        (
            lambda K: formulations.epsilon_svr(K, [0, 1], 1.0, -0.1),
            "epsilon must be",
        ),
        (
            lambda K: formulations.epsilon_svr(K, [0, np.inf], 1.0, 0.1),
            "targets z",
        ),
        (lambda K: formulations.nu_svr(K, [0, 1], -1.0, 0.5), "C must"),
    ],
)
def test_formulation_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call(np.eye(2))
