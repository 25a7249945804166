"""Linear SVR: svmlib.solvers.dual_cd_svr and svmlib.linear_svr.LinearSVR.

Checked against LIBLINEAR (scikit-learn's LinearSVR) on real and
synthetic data, strong duality, the optimality conditions of each loss,
and scikit-learn's conventions.
"""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn import svm
from sklearn.base import clone
from sklearn.datasets import load_diabetes, make_friedman1
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.preprocessing import StandardScaler

import svmlib.linear_svr as linear_svr_module
from svmlib.linear_svr import LinearSVR
from svmlib.solvers.coordinate_descent_svr import dual_cd_svr

LOSSES = ["epsilon_insensitive", "squared_epsilon_insensitive"]
TIGHT = dict(tol=1e-10, max_iter=10**6, random_state=0)


@pytest.fixture(scope="module")
def diabetes():
    X, y = load_diabetes(return_X_y=True)
    return StandardScaler().fit_transform(X), (y - y.mean()) / y.std()


@pytest.fixture(scope="module")
def friedman():
    X, y = make_friedman1(
        n_samples=6000, n_features=10, noise=1.0, random_state=0
    )
    return StandardScaler().fit_transform(X), y


def _primal(X, y, coef, intercept, C, epsilon, loss, weight=None):
    """1/2 (||w||^2 + b^2) + sum_i C_i loss_i (intercept_scaling = 1)."""
    weight = np.ones(len(y)) if weight is None else weight
    excess = np.maximum(0.0, np.abs(X @ coef + intercept - y) - epsilon)
    penalty = excess if loss == "epsilon_insensitive" else excess**2
    return 0.5 * (coef @ coef + intercept**2) + C * weight @ penalty


def _liblinear(X, y, **params):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return svm.LinearSVR(**params).fit(X, y)


# --------------------------------------------------------------------------
# The solver
# --------------------------------------------------------------------------


@pytest.mark.parametrize("loss", LOSSES)
@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
def test_same_objective_as_liblinear_on_diabetes(diabetes, loss, C):
    X, y = diabetes
    fit = dual_cd_svr(X, y, C, epsilon=0.1, loss=loss, **TIGHT)
    theirs = _liblinear(X, y, C=C, epsilon=0.1, loss=loss, dual=True, **TIGHT)
    ours = _primal(X, y, fit.w, fit.b, C, 0.1, loss)
    reference = _primal(X, y, theirs.coef_, theirs.intercept_[0], C, 0.1, loss)
    assert fit.converged
    assert ours == pytest.approx(fit.primal_objective, rel=1e-12)
    assert ours == pytest.approx(reference, rel=1e-6)
    np.testing.assert_allclose(
        X @ fit.w + fit.b, theirs.predict(X), rtol=1e-5, atol=1e-6
    )


@pytest.mark.parametrize("loss", LOSSES)
def test_strong_duality_and_optimality_conditions(diabetes, loss):
    X, y = diabetes
    C, epsilon = 1.0, 0.2
    fit = dual_cd_svr(X, y, C, epsilon=epsilon, loss=loss, **TIGHT)
    assert fit.primal_objective == pytest.approx(fit.dual_objective, 1e-8)
    np.testing.assert_allclose(fit.w, X.T @ fit.beta, atol=1e-10)
    assert fit.b == pytest.approx(fit.beta.sum(), abs=1e-10)  # B = 1
    r = X @ fit.w + fit.b - y  # residuals
    inside = np.abs(r) < epsilon - 1e-6
    assert np.all(fit.beta[inside] == 0.0)  # inside the tube: no weight
    # beta_i has the sign of -r_i (a point above the line pulls it up)
    assert np.all(fit.beta * r <= 1e-12)
    if loss == "epsilon_insensitive":
        assert np.all(np.abs(fit.beta) <= C)
        free = (np.abs(fit.beta) > 1e-8) & (np.abs(fit.beta) < C - 1e-8)
        assert free.any()
        np.testing.assert_allclose(np.abs(r[free]), epsilon, atol=1e-6)
        outside = np.abs(r) > epsilon + 1e-6
        np.testing.assert_allclose(np.abs(fit.beta[outside]), C)
    else:  # stationarity: beta_i = -2 C sign(r_i) max(0, |r_i| - epsilon)
        expected = -2 * C * np.sign(r) * np.maximum(0, np.abs(r) - epsilon)
        np.testing.assert_allclose(fit.beta, expected, atol=1e-6)


def test_shrinking_does_not_change_the_answer(diabetes):
    X, y = diabetes
    on = dual_cd_svr(X, y, 10.0, epsilon=0.1, shrinking=True, **TIGHT)
    off = dual_cd_svr(X, y, 10.0, epsilon=0.1, shrinking=False, **TIGHT)
    assert on.primal_objective == pytest.approx(off.primal_objective, 1e-9)
    np.testing.assert_allclose(on.w, off.w, rtol=1e-5, atol=1e-7)


def test_seeded_runs_repeat_and_sparse_equals_dense(diabetes):
    X, y = diabetes
    first = dual_cd_svr(X, y, 1.0, epsilon=0.1, random_state=7)
    again = dual_cd_svr(X, y, 1.0, epsilon=0.1, random_state=7)
    sparse = dual_cd_svr(sp.csr_array(X), y, 1.0, epsilon=0.1, random_state=7)
    np.testing.assert_array_equal(first.beta, again.beta)
    np.testing.assert_array_equal(first.beta, sparse.beta)
    assert first.b == sparse.b


def test_zero_C_point_is_as_if_absent(diabetes):
    X, y = diabetes
    C = np.ones(len(y))
    C[:5] = 0.0
    weighted = dual_cd_svr(X, y, C, epsilon=0.1, **TIGHT)
    absent = dual_cd_svr(X[5:], y[5:], 1.0, epsilon=0.1, **TIGHT)
    assert np.all(weighted.beta[:5] == 0.0)
    np.testing.assert_allclose(weighted.w, absent.w, rtol=1e-6, atol=1e-8)


def test_zero_row_without_bias_goes_to_its_bound():
    # x_i = 0, no bias, L1 loss: H_ii = 0 and f is linear in beta_i, so
    # beta_i goes to +-C (|y_i| > epsilon) or stays 0 (|y_i| <= epsilon).
    X = np.array([[0.0], [1.0], [0.0], [2.0]])
    y = np.array([3.0, 1.0, 0.05, 2.0])
    fit = dual_cd_svr(X, y, 2.0, epsilon=0.1, bias=0.0, **TIGHT)
    assert fit.beta[0] == 2.0 and fit.beta[2] == 0.0
    assert fit.primal_objective == pytest.approx(fit.dual_objective, 1e-9)


def test_a_tiny_step_to_zero_is_taken():
    # Two points on the line y = x, no bias, epsilon = 0.1: at the optimum
    # w = 0.95, point 1 inside the tube (beta_1 = 0) and point 2 on its
    # edge. Coordinate descent brings beta_1 down to about 1e-15, where
    # LIBLINEAR skips the step to 0 (|step| < 1e-12) and keeps a violation
    # of 0.05 forever (scikit-learn's LinearSVR: max_iter reached at any
    # max_iter); svmlib takes the step to the kink and stops.
    X, y = np.array([[1.0], [2.0]]), np.array([1.0, 2.0])
    fit = dual_cd_svr(X, y, 2.0, epsilon=0.1, bias=0.0, **TIGHT)
    assert fit.converged and fit.n_iter < 10_000
    assert fit.beta[0] == 0.0 and fit.w[0] == pytest.approx(0.95)


def test_max_iter_warns_with_the_reason(diabetes):
    X, y = diabetes
    with pytest.warns(ConvergenceWarning, match="max_iter=2 passes"):
        fit = dual_cd_svr(X, y, 10.0, tol=1e-10, max_iter=2, random_state=0)
    assert not fit.converged and fit.n_iter == 2
    assert fit.violation_ratio > 1e-10


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"loss": "hinge"}, "loss must be one of"),
        ({"C": -1.0}, "C must be a positive number"),
        ({"C": np.inf}, "C must be finite"),
        ({"C": np.zeros(442)}, "nothing to fit"),
        ({"C": np.ones(3)}, r"shape \(442,\)"),
        ({"epsilon": -0.1}, "epsilon"),
        ({"tol": 0.0}, "tol"),
        ({"bias": -1.0}, "bias"),
    ],
)
def test_bad_arguments_are_named(diabetes, kwargs, message):
    X, y = diabetes
    with pytest.raises(ValueError, match=message):
        dual_cd_svr(X, y, **kwargs)


def test_bad_data_is_named(diabetes):
    X, y = diabetes
    X_nan = X.copy()
    X_nan[0, 0] = np.nan
    with pytest.raises(ValueError, match="X contains NaN"):
        dual_cd_svr(X_nan, y)
    with pytest.raises(ValueError, match="y contains NaN"):
        dual_cd_svr(X, np.where(np.arange(len(y)) == 3, np.inf, y))
    with pytest.raises(ValueError, match=r"y must be of shape \(442,\)"):
        dual_cd_svr(X, y[:-1])
    with pytest.raises(ValueError, match="overflow"):
        dual_cd_svr(X * 1e160, y)


# --------------------------------------------------------------------------
# svmlib.linear_svr.LinearSVR against scikit-learn's
# --------------------------------------------------------------------------


@pytest.mark.parametrize("loss", LOSSES)
def test_estimator_matches_liblinear_on_5000_plus_points(friedman, loss):
    X, y = friedman
    params = dict(C=1.0, epsilon=0.5, loss=loss, dual=True, **TIGHT)
    params["tol"] = 1e-8
    ours = LinearSVR(**params).fit(X, y)
    theirs = _liblinear(X, y, **params)
    assert ours.coef_.shape == theirs.coef_.shape == (10,)
    assert ours.intercept_.shape == theirs.intercept_.shape == (1,)
    objective = _primal(X, y, ours.coef_, ours.intercept_[0], 1.0, 0.5, loss)
    reference = _primal(
        X, y, theirs.coef_, theirs.intercept_[0], 1.0, 0.5, loss
    )
    assert objective == pytest.approx(reference, rel=1e-6)
    np.testing.assert_allclose(
        ours.predict(X), theirs.predict(X), rtol=1e-4, atol=1e-4
    )


def test_primal_newton_matches_liblinear_and_the_dual(diabetes):
    X, y = diabetes
    params = dict(C=10.0, epsilon=0.1, loss="squared_epsilon_insensitive")
    primal = LinearSVR(dual=False, tol=1e-10, **params).fit(X, y)
    dual = LinearSVR(dual=True, **TIGHT, **params).fit(X, y)
    theirs = _liblinear(X, y, dual=False, tol=1e-10, **params)
    np.testing.assert_allclose(primal.coef_, theirs.coef_, rtol=1e-6)
    np.testing.assert_allclose(primal.coef_, dual.coef_, rtol=1e-6)
    assert primal.intercept_[0] == pytest.approx(theirs.intercept_[0], 1e-6)
    assert 0 < primal.n_iter_ < 100  # Newton steps, not passes


def test_auto_is_scikit_learns_choice(diabetes):
    X, y = diabetes
    squared = dict(
        loss="squared_epsilon_insensitive", epsilon=0.1, max_iter=10**5
    )
    # more samples than features: the primal (deterministic, no seed)
    auto = LinearSVR(**squared).fit(X, y)
    primal = LinearSVR(dual=False, **squared).fit(X, y)
    np.testing.assert_array_equal(auto.coef_, primal.coef_)
    # fewer samples than features: the dual
    X_wide, y_wide = X[:8], y[:8]
    auto = LinearSVR(random_state=3, **squared).fit(X_wide, y_wide)
    dual = LinearSVR(dual=True, random_state=3, **squared)
    dual.fit(X_wide, y_wide)
    np.testing.assert_array_equal(auto.coef_, dual.coef_)
    # the L1 loss: always the dual
    auto = LinearSVR(random_state=3, max_iter=10**5).fit(X, y)
    dual = LinearSVR(dual=True, random_state=3, max_iter=10**5).fit(X, y)
    np.testing.assert_array_equal(auto.coef_, dual.coef_)


@pytest.mark.parametrize("loss", LOSSES)
def test_sample_weight_scales_C_per_point(diabetes, loss):
    X, y = diabetes
    rng = np.random.default_rng(0)
    weight = rng.uniform(0.2, 3.0, size=len(y))
    weight[:10] = 0.0
    params = dict(C=2.0, epsilon=0.1, loss=loss, dual=True, **TIGHT)
    ours = LinearSVR(**params).fit(X, y, sample_weight=weight)
    theirs = _liblinear(X[10:], y[10:], **params)  # zero weight: absent
    theirs.fit(X, y, sample_weight=weight)
    objective = _primal(
        X, y, ours.coef_, ours.intercept_[0], 2.0, 0.1, loss, weight
    )
    reference = _primal(
        X, y, theirs.coef_, theirs.intercept_[0], 2.0, 0.1, loss, weight
    )
    assert objective == pytest.approx(reference, rel=1e-6)
    # an integer weight is a repeated point
    doubled = LinearSVR(**params).fit(
        X, y, sample_weight=np.where(np.arange(len(y)) < 20, 2.0, 1.0)
    )
    repeated = LinearSVR(**params).fit(
        np.vstack([X, X[:20]]), np.append(y, y[:20])
    )
    np.testing.assert_allclose(doubled.coef_, repeated.coef_, rtol=1e-6)


def test_sparse_input_equals_dense(diabetes):
    X, y = diabetes
    model = LinearSVR(epsilon=0.1, random_state=0, max_iter=10**5)
    dense = clone(model).fit(X, y)
    sparse = clone(model).fit(sp.csr_matrix(X), y)
    np.testing.assert_array_equal(dense.coef_, sparse.coef_)
    np.testing.assert_allclose(  # sparse and dense products round apart
        dense.predict(X), sparse.predict(sp.csr_matrix(X)), rtol=1e-12
    )


def test_no_intercept_is_a_float_zero_as_in_scikit_learn(diabetes):
    X, y = diabetes
    params = dict(fit_intercept=False, epsilon=0.1, dual=True, **TIGHT)
    ours = LinearSVR(**params).fit(X, y)
    theirs = _liblinear(X, y, **params)
    assert ours.intercept_ == theirs.intercept_ == 0.0
    assert isinstance(ours.intercept_, float)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-5, atol=1e-8)


def test_intercept_scaling_is_the_bias_feature(diabetes):
    X, y = diabetes
    model = LinearSVR(intercept_scaling=10.0, **TIGHT).fit(X, y + 3.0)
    fit = dual_cd_svr(X, y + 3.0, 1.0, bias=10.0, **TIGHT)
    np.testing.assert_allclose(model.coef_, fit.w)
    assert model.intercept_[0] == pytest.approx(fit.b)
    theirs = _liblinear(X, y + 3.0, intercept_scaling=10.0, dual=True, **TIGHT)
    assert model.intercept_[0] == pytest.approx(theirs.intercept_[0], 1e-5)


def test_convergence_warning_says_why(diabetes):
    X, y = diabetes
    with pytest.warns(ConvergenceWarning, match=r"max_iter=1 passes.*tol"):
        model = LinearSVR(max_iter=1, tol=1e-12, random_state=0).fit(X, y)
    assert model.n_iter_ == 1
    with pytest.warns(ConvergenceWarning, match="Newton steps"):
        LinearSVR(
            loss="squared_epsilon_insensitive", dual=False, max_iter=1,
            tol=1e-12,
        ).fit(X, y)  # fmt: skip
    with pytest.warns(ConvergenceWarning):  # as scikit-learn: w = 0
        model = LinearSVR(max_iter=0).fit(X, y)
    assert model.n_iter_ == 0 and not model.coef_.any()


def test_other_warnings_of_the_solver_go_through(diabetes, monkeypatch):
    X, y = diabetes
    real = linear_svr_module.dual_cd_svr

    def noisy(*args, **kwargs):
        warnings.warn("a warning of the solver", UserWarning, stacklevel=2)
        return real(*args, **kwargs)

    monkeypatch.setattr(linear_svr_module, "dual_cd_svr", noisy)
    with pytest.warns(UserWarning, match="a warning of the solver"):
        LinearSVR(random_state=0, max_iter=10**5).fit(X, y)


def test_verbose_prints_the_stopping_measure(diabetes, capsys):
    X, y = diabetes
    LinearSVR(verbose=1, random_state=0, max_iter=10**5).fit(X, y)
    assert "[LinearSVR]" in capsys.readouterr().out


@pytest.mark.parametrize(
    "params, message",
    [
        ({"epsilon": -0.1}, "epsilon must be >= 0"),
        ({"dual": False}, "dual only"),
        ({"C": 0.0}, "'C' parameter"),
        ({"loss": "hinge"}, "'loss' parameter"),
        ({"max_iter": -1}, "'max_iter' parameter"),
    ],
)
def test_bad_parameters_are_named_before_fit_touches_the_model(
    diabetes, params, message
):
    X, y = diabetes
    model = LinearSVR(random_state=0, max_iter=10**5).fit(X, y)
    coef = model.coef_
    model.set_params(**params)
    with pytest.raises(ValueError, match=message):
        model.fit(X, y)
    assert model.coef_ is coef  # the earlier model is left as it was


@pytest.mark.parametrize(
    "fit_kwargs, message",
    [
        ({"sample_weight": np.ones(3)}, r"sample_weight must be of shape"),
        ({"sample_weight": np.zeros(442)}, "no positive weight"),
        ({"sample_weight": np.full(442, np.nan)}, "sample_weight contains"),
    ],
)
def test_bad_sample_weight_is_named(diabetes, fit_kwargs, message):
    X, y = diabetes
    with pytest.raises(ValueError, match=message):
        LinearSVR().fit(X, y, **fit_kwargs)


def test_failed_fit_leaves_no_half_model(diabetes):
    X, y = diabetes
    model = LinearSVR(random_state=0, max_iter=10**5)
    with pytest.raises(ValueError, match="no positive weight"):
        model.fit(X, y, sample_weight=np.zeros(len(y)))
    assert not hasattr(model, "n_features_in_")
    with pytest.raises(NotFittedError):
        model.predict(X)
    model.fit(X, y)  # a fitted model, then a failed fit: the earlier model
    before = model.predict(X)
    with pytest.raises(ValueError, match="X contains NaN|NaN"):
        model.fit(np.full_like(X, np.nan), y)
    np.testing.assert_array_equal(model.predict(X), before)


def test_primal_takes_sparse_input_and_sample_weight(diabetes):
    X, y = diabetes
    weight = np.random.default_rng(1).uniform(0.0, 2.0, size=len(y))
    params = dict(loss="squared_epsilon_insensitive", C=3.0, epsilon=0.2)
    primal = LinearSVR(dual=False, tol=1e-10, **params)
    dense = clone(primal).fit(X, y, sample_weight=weight)
    sparse = clone(primal).fit(sp.csr_array(X), y, sample_weight=weight)
    dual = LinearSVR(dual=True, **TIGHT, **params)
    dual.fit(X, y, sample_weight=weight)
    np.testing.assert_allclose(sparse.coef_, dense.coef_, rtol=1e-9)
    np.testing.assert_allclose(dense.coef_, dual.coef_, rtol=1e-6)
    assert dense.intercept_[0] == pytest.approx(dual.intercept_[0], 1e-6)
