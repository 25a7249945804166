"""EM for coin and Gaussian mixtures: known parameters, monotone likelihood,
closed forms, agreement with scikit-learn, degenerate and bad input."""

import numpy as np
import pytest
from scipy.optimize import minimize
from scipy.special import logsumexp
from scipy.stats import binom, multivariate_normal
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.mixture import GaussianMixture

from svmlib.mixture import (
    BernoulliMixtureEM,
    GaussianMixtureEM,
    bernoulli_e_step,
    bernoulli_m_step,
    full_covariances,
    gaussian_e_step,
    gaussian_log_densities,
    gaussian_m_step,
    restrict_covariances,
)

# The four Gaussians of the book's GMM chapter (after the source blog).
WEIGHTS = np.array([0.2, 0.6, 0.1, 0.1])
MEANS = np.array([[0.0, 0.0], [2.0, 8.0], [10.0, 10.0], [9.0, 1.0]])
COVARIANCES = np.array(
    [
        [[1, 0.5], [0.5, 1]],
        [[2, -0.6], [-0.6, 1]],
        [[1, 0], [0, 1]],
        [[1, 0.3], [0.3, 0.5]],
    ]
)


def sample_gmm(
    n, weights=WEIGHTS, means=MEANS, covariances=COVARIANCES, seed=0
):
    rng = np.random.default_rng(seed)
    z = rng.choice(len(weights), size=n, p=weights)
    X = np.empty((n, means.shape[1]))
    for k in range(len(weights)):
        X[z == k] = rng.multivariate_normal(
            means[k], covariances[k], size=np.sum(z == k)
        )
    return X, z


def sample_coins(n, d, prior, thetas, seed=0):
    """n rows of d tosses; row i uses coin 0 with probability prior, else 1."""
    rng = np.random.default_rng(seed)
    coin = np.where(rng.random(n) < prior, 0, 1)
    return (rng.random((n, d)) < np.asarray(thetas)[coin][:, None]).astype(
        np.int64
    ), coin


X_GMM, Z_GMM = sample_gmm(3000)
X_COINS, _ = sample_coins(1000, 10, 0.7, (0.2, 0.7))


def match_components(estimated_means, true_means):
    """Order of the estimated components that best matches the true ones."""
    distance = np.linalg.norm(
        estimated_means[None, :, :] - true_means[:, None, :], axis=2
    )
    return np.argmin(distance, axis=1)


# --- coins -------------------------------------------------------------------


def test_one_coin_is_the_closed_form_frequency():
    # the source blog's ten observations of five tosses: 28 heads in 50
    rows = [
        "01011",
        "01111",
        "11011",
        "00011",
        "01010",
        "01110",
        "01110",
        "11011",
        "00100",
        "01001",
    ]
    X = np.array([[int(c) for c in row] for row in rows])
    model = BernoulliMixtureEM(n_components=1, random_state=0).fit(X)
    assert model.thetas_[0] == pytest.approx(28 / 50, abs=1e-12)
    assert model.weights_[0] == pytest.approx(1.0)
    assert model.lower_bound_ * len(X) == pytest.approx(
        28 * np.log(0.56) + 22 * np.log(0.44)
    )


def test_coins_recover_known_parameters():
    X, coin = sample_coins(5000, 20, 0.3, (0.15, 0.8), seed=1)
    model = BernoulliMixtureEM(random_state=0).fit(X)
    order = np.argsort(model.thetas_)
    np.testing.assert_allclose(model.thetas_[order], [0.15, 0.8], atol=0.01)
    np.testing.assert_allclose(model.weights_[order], [0.3, 0.7], atol=0.02)
    # 20 tosses separate the coins: the posterior labels are almost all right
    assert np.mean(order[model.predict(X)] == coin) > 0.99


def test_coin_e_step_is_bayes_rule():
    heads = np.array([0, 3, 7, 10])
    weights, thetas = np.array([0.7, 0.3]), np.array([0.2, 0.7])
    log_resp, log_likelihood = bernoulli_e_step(heads, 10, weights, thetas)
    joint = (
        weights
        * thetas ** heads[:, None]
        * (1 - thetas) ** (10 - heads[:, None])
    )
    np.testing.assert_allclose(
        np.exp(log_likelihood), joint.sum(axis=1), rtol=1e-12
    )
    np.testing.assert_allclose(
        np.exp(log_resp), joint / joint.sum(axis=1, keepdims=True), rtol=1e-12
    )
    # with the binomial coefficient added, the sequence likelihood is the
    # binomial mixture
    mixture = (weights * binom.pmf(heads[:, None], 10, thetas)).sum(axis=1)
    np.testing.assert_allclose(
        np.exp(log_likelihood) * binom.pmf(heads, 10, 0.5) * 2**10,
        mixture,
        rtol=1e-12,
    )


def test_coin_m_step_maximises_the_expected_complete_log_likelihood():
    heads = X_COINS.sum(axis=1)
    resp = np.exp(
        bernoulli_e_step(
            heads, 10, np.array([0.5, 0.5]), np.array([0.4, 0.6])
        )[0]
    )
    weights, thetas = bernoulli_m_step(heads, 10, resp)

    def negative_q(params):
        pi, t0, t1 = params
        log_joint = np.column_stack(
            [np.log(pi) + heads * np.log(t0) + (10 - heads) * np.log1p(-t0),
             np.log1p(-pi) + heads * np.log(t1) + (10 - heads) * np.log1p(-t1)]
        )  # fmt: skip
        return -np.sum(resp * log_joint)

    numeric = minimize(
        negative_q,
        [0.5, 0.5, 0.5],
        bounds=[(1e-6, 1 - 1e-6)] * 3,
        method="L-BFGS-B",
        tol=1e-12,
    )
    np.testing.assert_allclose([weights[0], *thetas], numeric.x, atol=1e-5)
    assert negative_q([weights[0], *thetas]) <= numeric.fun + 1e-9


@pytest.mark.parametrize("update_prior", [True, False])
@pytest.mark.parametrize("seed", range(5))
def test_coin_log_likelihood_never_decreases(update_prior, seed):
    model = BernoulliMixtureEM(
        update_prior=update_prior, keep_history=True, random_state=seed
    ).fit(X_COINS)
    history = np.array(model.log_likelihood_history_)
    assert len(history) == model.n_iter_ + 1 == len(model.parameter_history_)
    assert np.all(np.diff(history) >= -1e-12)
    assert history[-1] == pytest.approx(model.score(X_COINS), abs=1e-12)
    assert model.converged_


def test_fixed_prior_is_kept_and_differs_from_updated_prior():
    fixed = BernoulliMixtureEM(
        update_prior=False, keep_history=True, random_state=0
    ).fit(X_COINS)
    assert all(
        np.array_equal(p["weights"], [0.5, 0.5])
        for p in fixed.parameter_history_
    )
    updated = BernoulliMixtureEM(update_prior=True, random_state=0).fit(
        X_COINS
    )
    # the prior is a free parameter only in the second model: its maximum is
    # higher
    assert updated.lower_bound_ > fixed.lower_bound_
    # a wrong fixed prior (0.5 instead of 0.7) biases both thetas downwards
    assert np.sort(fixed.thetas_)[0] < np.sort(updated.thetas_)[0]
    assert np.sort(fixed.thetas_)[1] < np.sort(updated.thetas_)[1]


def test_label_switching_gives_the_same_likelihood():
    a = BernoulliMixtureEM(thetas_init=[0.3, 0.6]).fit(X_COINS)
    b = BernoulliMixtureEM(thetas_init=[0.6, 0.3]).fit(X_COINS)
    np.testing.assert_allclose(a.thetas_, b.thetas_[::-1], atol=1e-6)
    np.testing.assert_allclose(a.weights_, b.weights_[::-1], atol=1e-6)
    assert a.lower_bound_ == pytest.approx(b.lower_bound_, abs=1e-10)
    np.testing.assert_allclose(
        a.predict_proba(X_COINS), b.predict_proba(X_COINS)[:, ::-1], atol=1e-5
    )


def test_equal_initial_thetas_stay_equal_and_restarts_escape():
    stuck = BernoulliMixtureEM(thetas_init=[0.5, 0.5]).fit(X_COINS)
    np.testing.assert_allclose(
        stuck.thetas_, X_COINS.mean(), atol=1e-12
    )  # a saddle, not a maximum
    best = BernoulliMixtureEM(n_init=5, random_state=0).fit(X_COINS)
    assert best.lower_bound_ > stuck.lower_bound_ + 0.01


def test_coin_bad_input():
    with pytest.raises(ValueError, match="0 .tails. and 1 .heads."):
        BernoulliMixtureEM().fit(np.array([[0, 1], [2, 1], [1, 1]]))
    with pytest.raises(ValueError, match="NaN"):
        BernoulliMixtureEM().fit(np.array([[0, 1], [np.nan, 1]]))
    with pytest.raises(ValueError, match="n_samples >= n_components"):
        BernoulliMixtureEM(n_components=3).fit(np.array([[0, 1], [1, 1]]))
    with pytest.raises(ValueError, match="thetas_init"):
        BernoulliMixtureEM(thetas_init=[0.2, 1.2]).fit(X_COINS)
    with pytest.raises(ValueError, match="weights_init"):
        BernoulliMixtureEM(weights_init=[0.2, 0.2]).fit(X_COINS)
    with pytest.raises(ValueError, match="update_prior"):
        BernoulliMixtureEM(update_prior="yes").fit(X_COINS)
    with pytest.raises(ValueError, match="X has 5 features"):
        BernoulliMixtureEM(random_state=0).fit(X_COINS).predict(X_COINS[:, :5])


def test_coin_all_tails_coin_is_exact():
    # one coin that never shows heads: theta = 0 exactly, no NaN from 0 log 0
    X = np.vstack([np.zeros((30, 8), int), np.ones((10, 8), int)])
    model = BernoulliMixtureEM(thetas_init=[0.1, 0.9]).fit(X)
    np.testing.assert_allclose(model.thetas_, [0.0, 1.0], atol=1e-12)
    np.testing.assert_allclose(model.weights_, [0.75, 0.25], atol=1e-12)
    assert model.lower_bound_ == pytest.approx(
        0.75 * np.log(0.75) + 0.25 * np.log(0.25)
    )


def test_coin_max_iter_warns():
    with pytest.warns(ConvergenceWarning, match="max_iter=2"):
        model = BernoulliMixtureEM(max_iter=2, random_state=0).fit(X_COINS)
    assert model.n_iter_ == 2 and not model.converged_


# --- Gaussians -------------------------------------------------------------


def test_log_densities_match_scipy():
    X = X_GMM[:50]
    log_density = gaussian_log_densities(X, MEANS, COVARIANCES)
    for k in range(4):
        np.testing.assert_allclose(
            log_density[:, k],
            multivariate_normal(MEANS[k], COVARIANCES[k]).logpdf(X),
        )


def test_e_step_is_bayes_rule_and_survives_underflow():
    X = np.vstack(
        [X_GMM[:20], [[500.0, -500.0]]]
    )  # the last point underflows every density
    log_resp, log_likelihood = gaussian_e_step(X, WEIGHTS, MEANS, COVARIANCES)
    assert np.all(np.isfinite(log_resp)) and np.all(
        np.isfinite(log_likelihood)
    )
    np.testing.assert_allclose(np.exp(log_resp).sum(axis=1), 1.0)
    joint = np.column_stack(
        [
            WEIGHTS[k]
            * multivariate_normal(MEANS[k], COVARIANCES[k]).pdf(X[:20])
            for k in range(4)
        ]
    )
    np.testing.assert_allclose(
        np.exp(log_resp[:20]),
        joint / joint.sum(axis=1, keepdims=True),
        atol=1e-12,
    )
    np.testing.assert_allclose(log_likelihood[:20], np.log(joint.sum(axis=1)))


def test_m_step_matches_weighted_statistics():
    rng = np.random.default_rng(0)
    resp = rng.dirichlet(np.ones(4), size=len(X_GMM))
    weights, means, covariances = gaussian_m_step(X_GMM, resp, reg_covar=0.0)
    np.testing.assert_allclose(weights, resp.mean(axis=0))
    for k in range(4):
        np.testing.assert_allclose(
            means[k], np.average(X_GMM, axis=0, weights=resp[:, k])
        )
        np.testing.assert_allclose(
            covariances[k],
            np.cov(X_GMM.T, aweights=resp[:, k], bias=True),
            atol=1e-12,
        )


def test_gmm_recovers_known_parameters():
    model = GaussianMixtureEM(n_components=4, tol=1e-6, random_state=0).fit(
        X_GMM
    )
    order = match_components(model.means_, MEANS)
    assert sorted(order) == [0, 1, 2, 3]
    np.testing.assert_allclose(model.weights_[order], WEIGHTS, atol=0.02)
    np.testing.assert_allclose(model.means_[order], MEANS, atol=0.12)
    np.testing.assert_allclose(
        model.covariances_[order], COVARIANCES, atol=0.2
    )
    # the clusters are the true groups (order[k]: the estimated component of
    # true component k)
    assert np.mean(model.predict(X_GMM) == order[Z_GMM]) > 0.99


@pytest.mark.parametrize("init_params", ["kmeans", "random"])
@pytest.mark.parametrize("seed", range(3))
def test_gmm_log_likelihood_never_decreases(init_params, seed):
    model = GaussianMixtureEM(
        4, init_params=init_params, tol=1e-6, max_iter=1000, random_state=seed
    ).fit(X_GMM)
    history = np.array(model.log_likelihood_history_)
    assert len(history) == model.n_iter_ + 1
    assert np.all(np.diff(history) >= -1e-12)
    assert (
        history[-1]
        == pytest.approx(model.lower_bound_)
        == pytest.approx(model.score(X_GMM))
    )


def test_gmm_agrees_with_sklearn_from_the_same_initial_parameters():
    weights = np.full(4, 0.25)
    means = X_GMM[
        [np.flatnonzero(Z_GMM == k)[0] for k in range(4)]
    ]  # one point of each group
    covariances = np.repeat(np.eye(2)[None], 4, axis=0)
    ours = GaussianMixtureEM(
        4,
        tol=1e-10,
        max_iter=2000,
        weights_init=weights,
        means_init=means,
        covariances_init=covariances,
    ).fit(X_GMM)
    reference = GaussianMixture(
        4,
        tol=1e-10,
        max_iter=2000,
        weights_init=weights,
        means_init=means,
        precisions_init=np.linalg.inv(covariances),
    ).fit(X_GMM)
    assert ours.score(X_GMM) == pytest.approx(reference.score(X_GMM), rel=1e-6)
    assert ours.lower_bound_ == pytest.approx(reference.lower_bound_, rel=1e-6)
    np.testing.assert_allclose(ours.weights_, reference.weights_, atol=1e-5)
    np.testing.assert_allclose(ours.means_, reference.means_, atol=1e-4)
    np.testing.assert_allclose(
        ours.covariances_, reference.covariances_, atol=1e-4
    )
    np.testing.assert_array_equal(
        ours.predict(X_GMM), reference.predict(X_GMM)
    )
    np.testing.assert_allclose(
        ours.predict_proba(X_GMM), reference.predict_proba(X_GMM), atol=1e-5
    )
    np.testing.assert_allclose(
        ours.score_samples(X_GMM), reference.score_samples(X_GMM), rtol=1e-6
    )


def test_gmm_kmeans_initialisation_follows_sklearn():
    # same recipe (one KMeans run seeded with random_state): same iterations
    ours = GaussianMixtureEM(3, tol=1e-8, max_iter=500, random_state=7).fit(
        X_GMM
    )
    reference = GaussianMixture(3, tol=1e-8, max_iter=500, random_state=7).fit(
        X_GMM
    )
    order = match_components(ours.means_, reference.means_)
    np.testing.assert_allclose(ours.means_[order], reference.means_, atol=1e-4)
    assert ours.score(X_GMM) == pytest.approx(reference.score(X_GMM), rel=1e-6)


def test_gmm_n_init_keeps_the_best_run():
    # fits sharing one RandomState draw the same initialisations as the n_init
    # loop
    stream = np.random.RandomState(0)
    single = [
        GaussianMixtureEM(
            4, init_params="random", max_iter=500, random_state=stream
        ).fit(X_GMM)
        for _ in range(4)
    ]
    best = GaussianMixtureEM(
        4, init_params="random", max_iter=500, n_init=4, random_state=0
    ).fit(X_GMM)
    assert best.lower_bound_ == pytest.approx(
        max(m.lower_bound_ for m in single), abs=1e-12
    )


def test_gmm_predict_proba_predict_score_consistent():
    model = GaussianMixtureEM(4, random_state=0).fit(X_GMM)
    proba = model.predict_proba(X_GMM[:100])
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_array_equal(
        model.predict(X_GMM[:100]), np.argmax(proba, axis=1)
    )
    log_joint = np.log(model.weights_) + gaussian_log_densities(
        X_GMM[:100], model.means_, model.covariances_
    )
    np.testing.assert_allclose(
        model.score_samples(X_GMM[:100]), logsumexp(log_joint, axis=1)
    )
    assert model.score(X_GMM[:100]) == pytest.approx(
        np.mean(model.score_samples(X_GMM[:100]))
    )


# --- degenerate and bad input ------------------------------------------------


def test_duplicate_points_are_regularised():
    X = np.tile([[1.0, 2.0]], (10, 1))
    model = GaussianMixtureEM(2, init_params="random", random_state=0).fit(X)
    assert np.all(np.isfinite(model.covariances_)) and np.isfinite(
        model.lower_bound_
    )
    np.testing.assert_allclose(model.means_, [[1.0, 2.0], [1.0, 2.0]])
    np.testing.assert_allclose(
        model.covariances_,
        1e-6 * np.eye(2)[None].repeat(2, axis=0),
        atol=1e-12,
    )
    # k-means finds one distinct cluster and says so; EM still returns a usable
    # model
    with pytest.warns(ConvergenceWarning, match="distinct clusters"):
        model = GaussianMixtureEM(2, random_state=0).fit(X)
    assert np.isfinite(model.score(X))


def test_component_collapsing_onto_one_point():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(size=(50, 2)), [[100.0, 100.0]]])
    start = dict(
        means_init=[[0.0, 0.0], [100.0, 100.0]],
        covariances_init=[np.eye(2), np.eye(2)],
    )
    model = GaussianMixtureEM(2, reg_covar=1e-6, **start).fit(X)
    np.testing.assert_allclose(model.means_[1], [100.0, 100.0])
    np.testing.assert_allclose(
        model.covariances_[1], 1e-6 * np.eye(2), atol=1e-12
    )  # the floor, not 0
    assert model.weights_[1] == pytest.approx(1 / 51)
    assert np.isfinite(model.lower_bound_)
    # without the floor the covariance is exactly singular: a clear error, not
    # NaN
    with pytest.raises(ValueError, match="reg_covar"):
        GaussianMixtureEM(2, reg_covar=0.0, **start).fit(X)


def test_fewer_samples_than_components():
    with pytest.raises(ValueError, match="n_samples >= n_components"):
        GaussianMixtureEM(n_components=4).fit(X_GMM[:3])


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_nan_and_infinity_are_rejected(bad):
    X = X_GMM[:20].copy()
    X[3, 1] = bad
    with pytest.raises(ValueError, match="NaN|infinity"):
        GaussianMixtureEM(2).fit(X)
    model = GaussianMixtureEM(2, random_state=0).fit(X_GMM[:20])
    with pytest.raises(ValueError, match="NaN|infinity"):
        model.predict(X)


@pytest.mark.parametrize(
    "params, message",
    [
        (dict(n_components=0), "n_components"),
        (dict(n_components=1.5), "n_components"),
        (dict(tol=-1.0), "tol"),
        (dict(tol=np.nan), "tol"),
        (dict(reg_covar=-1e-3), "reg_covar"),
        (dict(max_iter=0), "max_iter"),
        (dict(n_init=0), "n_init"),
        (dict(init_params="kmeans++"), "init_params"),
        (dict(weights_init=[0.5, 0.6]), "weights_init"),
        (dict(means_init=np.zeros((3, 2))), "means_init"),
        (dict(covariances_init=np.zeros((2, 2, 2))), "positive definite"),
        (
            dict(covariances_init=np.array([[[1, 0.5], [0, 1]]] * 2)),
            "symmetric",
        ),
    ],
)
def test_bad_parameters_raise_value_error(params, message):
    params = {"n_components": 2, **params}
    with pytest.raises(ValueError, match=message):
        GaussianMixtureEM(**params).fit(X_GMM[:50])


def test_not_fitted_and_wrong_width():
    with pytest.raises(NotFittedError):
        GaussianMixtureEM().predict(X_GMM)
    model = GaussianMixtureEM(2, random_state=0).fit(X_GMM)
    with pytest.raises(ValueError, match="features"):
        model.score(np.zeros((3, 5)))


def test_gmm_max_iter_warns():
    with pytest.warns(ConvergenceWarning, match="max_iter=1"):
        model = GaussianMixtureEM(
            4, tol=1e-10, max_iter=1, random_state=0
        ).fit(X_GMM)
    assert model.n_iter_ == 1 and not model.converged_


def test_get_params_and_clone():
    from sklearn.base import clone

    model = GaussianMixtureEM(3, reg_covar=1e-4, random_state=1)
    copy = clone(model)
    assert copy.get_params() == model.get_params()
    np.testing.assert_allclose(copy.fit(X_GMM).means_, model.fit(X_GMM).means_)


def fitted_attributes(model):
    """The attributes that scikit-learn's check_is_fitted looks for."""
    return [name for name in vars(model) if name.endswith("_")]


@pytest.mark.parametrize(
    "model, X",
    [
        # parameters that _parameter_constraints refuses
        (GaussianMixtureEM(n_components=0), X_GMM[:50]),
        (BernoulliMixtureEM(update_prior="yes"), X_COINS),
        # parameters checked against X
        (GaussianMixtureEM(2, means_init=np.zeros((2, 3))), X_GMM[:50]),
        (BernoulliMixtureEM(thetas_init=[0.2, 1.2]), X_COINS),
        # X itself
        (BernoulliMixtureEM(), np.array([[0, 1], [2, 1], [1, 1]])),
        # EM fails half-way: a component collapses without reg_covar
        (
            GaussianMixtureEM(
                2,
                reg_covar=0.0,
                weights_init=[0.5, 0.5],
                means_init=[[0.0, 0.0], [100.0, 100.0]],
                covariances_init=[np.eye(2), np.eye(2)],
            ),
            np.vstack([X_GMM[:50], [[100.0, 100.0]]]),
        ),
    ],
)
def test_failed_fit_leaves_no_fitted_attribute(model, X):
    with pytest.raises(ValueError):
        model.fit(X)
    assert fitted_attributes(model) == []
    with pytest.raises(NotFittedError):
        model.predict(X[:5])


#: Why BernoulliMixtureEM fails these scikit-learn checks: it models coin
#: tosses and accepts only X in {0, 1}, while the checks fit it on
#: continuous data (make_blobs and the like); no estimator tag asks them for
#: binary data.
BINARY_ONLY = "fits only 0/1 toss data; the check fits continuous data"
BERNOULLI_EXPECTED_FAILURES = dict.fromkeys(
    [
        "check_dict_unchanged",
        "check_dont_overwrite_parameters",
        "check_dtype_object",
        "check_estimators_dtypes",
        "check_estimators_fit_returns_self",
        "check_estimators_nan_inf",
        "check_estimators_overwrite_params",
        "check_estimators_pickle",
        "check_f_contiguous_array_estimator",
        "check_fit2d_1feature",
        "check_fit2d_1sample",
        "check_fit2d_predict1d",
        "check_fit_check_is_fitted",
        "check_fit_idempotent",
        "check_fit_score_takes_y",
        "check_methods_sample_order_invariance",
        "check_methods_subset_invariance",
        "check_n_features_in",
        "check_n_features_in_after_fitting",
        "check_pipeline_consistency",
        "check_positive_only_tag_during_fit",
        "check_readonly_memmap_input",
    ],
    BINARY_ONLY,
)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.SkipTestWarning")
@pytest.mark.parametrize(
    "model, expected_failures",
    [
        (GaussianMixtureEM(n_components=2, max_iter=200), {}),
        (BernoulliMixtureEM(random_state=0), BERNOULLI_EXPECTED_FAILURES),
    ],
    ids=["gaussian", "bernoulli"],
)
def test_passes_sklearn_estimator_checks(model, expected_failures):
    from sklearn.utils.estimator_checks import check_estimator

    results = check_estimator(
        model, expected_failed_checks=expected_failures, on_fail=None
    )
    failed = {r["check_name"] for r in results if r["status"] == "failed"}
    assert failed == set()
    # and the expected failures do fail: the list is not stale
    xfailed = {r["check_name"] for r in results if r["status"] == "xfail"}
    assert xfailed == set(expected_failures)


def _precisions(covariances, covariance_type):
    """scikit-learn's precisions_init for covariances of a type."""
    if covariance_type in ("full", "tied"):
        return np.linalg.inv(covariances)
    return 1.0 / covariances


@pytest.mark.parametrize(
    "covariance_type", ["full", "tied", "diag", "spherical"]
)
def test_covariance_types_agree_with_sklearn(covariance_type):
    # the same start (one point of each group, unit covariances in the
    # type's shape): the same iterations as scikit-learn's GaussianMixture
    weights = np.full(4, 0.25)
    means = X_GMM[[np.flatnonzero(Z_GMM == k)[0] for k in range(4)]]
    covariances = {
        "full": np.repeat(np.eye(2)[None], 4, axis=0),
        "tied": np.eye(2),
        "diag": np.ones((4, 2)),
        "spherical": np.ones(4),
    }[covariance_type]
    options = dict(tol=1e-10, max_iter=2000, covariance_type=covariance_type)
    ours = GaussianMixtureEM(
        4,
        weights_init=weights,
        means_init=means,
        covariances_init=covariances,
        **options,
    ).fit(X_GMM)
    reference = GaussianMixture(
        4,
        weights_init=weights,
        means_init=means,
        precisions_init=_precisions(covariances, covariance_type),
        **options,
    ).fit(X_GMM)
    assert ours.covariances_.shape == reference.covariances_.shape
    assert ours.score(X_GMM) == pytest.approx(reference.score(X_GMM), rel=1e-6)
    np.testing.assert_allclose(ours.weights_, reference.weights_, atol=1e-5)
    np.testing.assert_allclose(ours.means_, reference.means_, atol=1e-4)
    np.testing.assert_allclose(
        ours.covariances_, reference.covariances_, atol=1e-4
    )
    np.testing.assert_allclose(
        ours.score_samples(X_GMM), reference.score_samples(X_GMM), rtol=1e-6
    )


@pytest.mark.parametrize("covariance_type", ["tied", "diag", "spherical"])
def test_restricted_types_never_decrease_the_log_likelihood(covariance_type):
    model = GaussianMixtureEM(
        4,
        covariance_type=covariance_type,
        reg_covar=0.0,
        tol=1e-8,
        max_iter=500,
        random_state=0,
    ).fit(X_GMM)
    history = np.array(model.log_likelihood_history_)
    assert np.all(np.diff(history) >= -1e-12)


def test_restricted_m_steps_maximise_within_their_family():
    # the restricted covariances beat any other member of their family on
    # the expected complete-data log-likelihood Q (random competitors)
    rng = np.random.default_rng(0)
    resp = rng.dirichlet(np.ones(3), size=len(X_GMM))
    weights, means, full = gaussian_m_step(X_GMM, resp, 0.0)

    def Q(covariances):
        return np.sum(resp * gaussian_log_densities(X_GMM, means, covariances))

    for covariance_type in ("tied", "diag", "spherical"):
        best = full_covariances(
            restrict_covariances(full, weights, covariance_type),
            covariance_type,
            3,
            2,
        )
        for _ in range(20):
            scale = np.exp(rng.normal(0, 0.1, size=best.shape[:-1]))
            other = (
                best * scale[..., None]
                if covariance_type == "diag"
                else (best * rng.uniform(0.8, 1.2))
            )
            assert Q(other) <= Q(best) + 1e-9


def test_bad_covariance_type_is_named():
    with pytest.raises(ValueError, match="covariance_type"):
        GaussianMixtureEM(2, covariance_type="banded").fit(X_GMM[:50])
    with pytest.raises(ValueError, match="shape"):
        GaussianMixtureEM(
            2, covariance_type="diag", covariances_init=np.ones((2, 2, 2))
        ).fit(X_GMM[:50])


# --- issue 24: boundary thetas, validated helpers, opt-in history, ----------
# --- native diagonal covariances, scikit-learn's methods ---------------------


@pytest.mark.parametrize(
    "thetas_init", [[0.0, 1.0], [0.0, 0.5], [0.5, 1.0], [-0.1, 0.5]]
)
def test_thetas_init_on_or_outside_the_boundary_is_refused(thetas_init):
    # [0, 1] used to be accepted and ended with thetas_ = [nan, nan]: a row
    # with heads and tails has probability 0 under both coins
    model = BernoulliMixtureEM(2, thetas_init=thetas_init)
    with pytest.raises(ValueError, match=r"thetas_init .*\(0, 1\)"):
        model.fit(X_COINS)
    assert fitted_attributes(model) == []


def test_thetas_init_close_to_the_boundary_converges():
    model = BernoulliMixtureEM(2, thetas_init=[1e-12, 1 - 1e-12]).fit(X_COINS)
    assert np.all(np.isfinite(model.thetas_)) and model.converged_
    reference = BernoulliMixtureEM(n_init=5, random_state=0).fit(X_COINS)
    np.testing.assert_allclose(
        np.sort(model.thetas_), np.sort(reference.thetas_), atol=1e-5
    )


def test_coin_e_step_names_an_impossible_observation():
    # both coins exclude 3 heads in 10 tosses: 0 / 0 responsibilities
    with pytest.raises(ValueError, match="Observation 1 .*probability 0"):
        bernoulli_e_step([0, 3, 10], 10, [0.5, 0.5], [0.0, 1.0])
    # a coin of weight 0 does not make it possible
    with pytest.raises(ValueError, match="probability 0"):
        bernoulli_e_step([3], 10, [1.0, 0.0], [0.0, 0.5])
    # all-tails and all-heads rows are possible: exact, no NaN
    log_resp, log_likelihood = bernoulli_e_step(
        [0, 10], 10, [0.5, 0.5], [0.0, 1.0]
    )
    np.testing.assert_array_equal(np.exp(log_resp), [[1, 0], [0, 1]])
    np.testing.assert_allclose(log_likelihood, np.log(0.5))


@pytest.mark.parametrize("reg_covar", [-5, -1e-12, np.nan, np.inf, "1"])
@pytest.mark.parametrize("covariance_type", ["full", "diag"])
def test_m_step_rejects_a_bad_reg_covar(reg_covar, covariance_type):
    resp = np.full((len(X_GMM), 2), 0.5)
    with pytest.raises(ValueError, match="reg_covar"):
        gaussian_m_step(X_GMM, resp, reg_covar, covariance_type)


RESP = np.full((len(X_GMM), 4), 0.25)


@pytest.mark.parametrize(
    "call, message",
    [
        # gaussian_m_step
        (lambda: gaussian_m_step(X_GMM[:, 0], RESP, 0.0), "X must be a 2-D"),
        (lambda: gaussian_m_step(np.vstack([X_GMM[:-1], [[np.nan, 0]]]),
                                 RESP, 0.0), "X contains NaN"),
        (lambda: gaussian_m_step(X_GMM, RESP[:-1], 0.0), "resp must have"),
        (lambda: gaussian_m_step(X_GMM, np.log(RESP), 0.0), "logarithms"),
        (lambda: gaussian_m_step(X_GMM, 2 * RESP, 0.0), "row 0 sums to 2"),
        (lambda: gaussian_m_step(X_GMM, RESP, 0.0, "banded"),
         "covariance_type"),
        # gaussian_log_densities and gaussian_e_step
        (lambda: gaussian_log_densities(X_GMM, MEANS[:, :1], COVARIANCES),
         "means must be"),
        (lambda: gaussian_log_densities(X_GMM, MEANS, COVARIANCES[:3]),
         r"covariances must have shape \(4, 2, 2\)"),
        (lambda: gaussian_log_densities(X_GMM, MEANS, np.ones((4, 2)),
                                        "full"), "covariances must have"),
        (lambda: gaussian_log_densities(
            X_GMM, MEANS, COVARIANCES + [[0, 1], [0, 0]]), "symmetric"),
        (lambda: gaussian_log_densities(
            X_GMM, MEANS, -COVARIANCES), "component 0 .*positive definite"),
        (lambda: gaussian_log_densities(
            X_GMM, MEANS, np.array([1.0, 1.0, 0.0, 1.0]), "spherical"),
         "variances of component 2"),
        (lambda: gaussian_log_densities(
            X_GMM, MEANS, np.full((4, 2), np.inf), "diag"),
         "covariances contains NaN or infinity"),
        (lambda: gaussian_e_step(X_GMM, [0.5, 0.6, 0, 0], MEANS, COVARIANCES),
         "weights must hold non-negative probabilities summing to 1"),
        (lambda: gaussian_e_step(X_GMM, WEIGHTS[:3], MEANS, COVARIANCES),
         "weights must have shape"),
        # the coins
        (lambda: bernoulli_e_step([0, 11], 10, [0.5, 0.5], [0.2, 0.7]),
         "heads must hold counts between 0 and n_tosses=10"),
        (lambda: bernoulli_e_step([0, 1], 0, [0.5, 0.5], [0.2, 0.7]),
         "n_tosses must be an integer >= 1"),
        (lambda: bernoulli_e_step([0, 1], 10, [0.5, 0.5], [0.2, 1.7]),
         r"thetas must hold 2 probabilities in \[0, 1\]"),
        (lambda: bernoulli_m_step([0, 1, 2], 10, np.full((2, 2), 0.5)),
         r"resp must have shape \(3, n_components\)"),
        # the covariance helpers
        (lambda: restrict_covariances(COVARIANCES, WEIGHTS, "banded"),
         "covariance_type"),
        (lambda: restrict_covariances(COVARIANCES[0], WEIGHTS, "diag"),
         "full must have shape"),
        (lambda: full_covariances(np.ones((4, 3)), "diag", 4, 2),
         r"covariances must have shape \(4, 2\)"),
    ],
)  # fmt: skip
def test_public_helpers_validate_their_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_parameter_history_is_opt_in():
    model = GaussianMixtureEM(4, random_state=0).fit(X_GMM)
    assert model.parameter_history_ is None
    kept = GaussianMixtureEM(4, keep_history=True, random_state=0).fit(X_GMM)
    assert len(kept.parameter_history_) == kept.n_iter_ + 1
    # the same fit either way; the last entry is the fitted parameters
    np.testing.assert_array_equal(kept.means_, model.means_)
    last = kept.parameter_history_[-1]
    np.testing.assert_array_equal(last["covariances"], kept.covariances_)
    # each entry gives the recorded log-likelihood
    for t in (0, 1, kept.n_iter_):
        params = kept.parameter_history_[t]
        log_likelihood = gaussian_e_step(
            X_GMM, params["weights"], params["means"], params["covariances"]
        )[1]
        assert np.mean(log_likelihood) == pytest.approx(
            kept.log_likelihood_history_[t], abs=1e-12
        )
    coins = BernoulliMixtureEM(random_state=0).fit(X_COINS)
    assert coins.parameter_history_ is None


def _retained_after_fit(model, X):
    """Bytes that a fit allocates and keeps (tracemalloc), and its peak."""
    import tracemalloc

    tracemalloc.start()
    try:
        model.fit(X)
        retained, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return retained, peak


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_no_per_iteration_copies_without_history():
    # d = 100, K = 5, 30 iterations: one set of full covariances is 0.4 MB
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 100)) + rng.integers(0, 5, size=(400, 1))
    one_set = 5 * 100 * 100 * 8
    options = dict(max_iter=30, tol=0.0, init_params="random", random_state=0)
    retained, peak = _retained_after_fit(GaussianMixtureEM(5, **options), X)
    # covariances_, precisions_ and precisions_cholesky_, and little else
    assert retained < 3.5 * one_set
    assert peak < 3 * X.nbytes + 5 * one_set
    kept, _ = _retained_after_fit(
        GaussianMixtureEM(5, keep_history=True, **options), X
    )
    assert kept > 30 * one_set  # what the history costs


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("covariance_type", ["diag", "spherical"])
def test_diagonal_types_never_form_d_by_d_matrices(covariance_type):
    # K = 3 (d, d) matrices at d = 1000 would take 24 MB
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 1000)) + rng.integers(0, 3, size=(300, 1))
    model = GaussianMixtureEM(
        3,
        covariance_type=covariance_type,
        max_iter=5,
        init_params="random",
        random_state=0,
    )
    _, peak = _retained_after_fit(model, X)
    assert peak < 6 * X.nbytes  # X is 2.4 MB


@pytest.mark.parametrize("covariance_type", ["diag", "spherical", "tied"])
def test_restricted_log_densities_equal_the_full_ones(covariance_type):
    rng = np.random.default_rng(1)
    covariances = {
        "diag": rng.uniform(0.5, 2.0, size=(4, 2)),
        "spherical": rng.uniform(0.5, 2.0, size=4),
        "tied": COVARIANCES[1],
    }[covariance_type]
    expanded = full_covariances(covariances, covariance_type, 4, 2)
    ours = gaussian_log_densities(X_GMM, MEANS, covariances, covariance_type)
    np.testing.assert_allclose(
        ours, gaussian_log_densities(X_GMM, MEANS, expanded), rtol=1e-12
    )
    for k in range(4):
        np.testing.assert_allclose(
            ours[:, k],
            multivariate_normal(MEANS[k], expanded[k]).logpdf(X_GMM),
            rtol=1e-12,
        )
    # and the M step of the type is the restriction of the full M step
    resp = rng.dirichlet(np.ones(4), size=len(X_GMM))
    weights, means, full = gaussian_m_step(X_GMM, resp, 1e-3)
    restricted = gaussian_m_step(X_GMM, resp, 1e-3, covariance_type)
    np.testing.assert_allclose(restricted[0], weights, rtol=1e-14)
    np.testing.assert_allclose(restricted[1], means, rtol=1e-14)
    np.testing.assert_allclose(
        restricted[2],
        restrict_covariances(full, weights, covariance_type),
        rtol=1e-10,
    )


def test_diagonal_path_is_accurate_far_from_the_origin():
    # x^2 - 2 x mu + mu^2 at x ~ 1e6 with unit variances would lose about
    # half the digits without the centring
    rng = np.random.default_rng(2)
    resp = rng.dirichlet(np.ones(4), size=len(X_GMM))
    near = gaussian_m_step(X_GMM, resp, 0.0, "diag")
    far = gaussian_m_step(X_GMM + 1e6, resp, 0.0, "diag")
    np.testing.assert_allclose(far[1], near[1] + 1e6, rtol=1e-14)
    np.testing.assert_allclose(far[2], near[2], rtol=1e-8)
    variances = near[2]
    np.testing.assert_allclose(
        gaussian_log_densities(X_GMM + 1e6, MEANS + 1e6, variances, "diag"),
        gaussian_log_densities(X_GMM, MEANS, variances, "diag"),
        rtol=1e-9,
    )


def _same_start(covariance_type):
    """Weights, means and covariances of a type, and sklearn's precisions."""
    weights = np.full(4, 0.25)
    means = X_GMM[[np.flatnonzero(Z_GMM == k)[0] for k in range(4)]]
    covariances = {
        "full": np.repeat(np.eye(2)[None], 4, axis=0),
        "tied": np.eye(2),
        "diag": np.ones((4, 2)),
        "spherical": np.ones(4),
    }[covariance_type]
    return (
        weights,
        means,
        covariances,
        _precisions(covariances, covariance_type),
    )


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize(
    "covariance_type", ["full", "tied", "diag", "spherical"]
)
def test_same_iterations_as_sklearn_and_its_methods(covariance_type):
    # 25 iterations from the same start, no stopping rule: the parameters
    # agree to rounding, and so do scikit-learn's methods and attributes
    weights, means, covariances, precisions = _same_start(covariance_type)
    options = dict(max_iter=25, tol=0.0, covariance_type=covariance_type)
    ours = GaussianMixtureEM(
        4,
        weights_init=weights,
        means_init=means,
        covariances_init=covariances,
        **options,
    )
    reference = GaussianMixture(
        4,
        weights_init=weights,
        means_init=means,
        precisions_init=precisions,
        **options,
    )
    labels = ours.fit_predict(X_GMM)
    np.testing.assert_array_equal(labels, reference.fit_predict(X_GMM))
    np.testing.assert_array_equal(labels, ours.predict(X_GMM))
    assert ours.n_iter_ == reference.n_iter_ == 25
    np.testing.assert_allclose(ours.weights_, reference.weights_, rtol=1e-9)
    np.testing.assert_allclose(ours.means_, reference.means_, rtol=1e-9)
    for name in ("covariances_", "precisions_", "precisions_cholesky_"):
        assert getattr(ours, name).shape == getattr(reference, name).shape
        np.testing.assert_allclose(
            getattr(ours, name),
            getattr(reference, name),
            rtol=1e-8,
            atol=1e-12,
            err_msg=name,
        )
    assert ours.score(X_GMM) == pytest.approx(
        reference.score(X_GMM), rel=1e-12
    )
    assert ours.bic(X_GMM) == pytest.approx(reference.bic(X_GMM), rel=1e-12)
    assert ours.aic(X_GMM) == pytest.approx(reference.aic(X_GMM), rel=1e-12)
    assert ours._n_parameters() == reference._n_parameters()
    # scikit-learn's lower_bound_ is the value before its last M step
    assert ours.log_likelihood_history_[-2] == pytest.approx(
        reference.lower_bound_, rel=1e-12
    )


@pytest.mark.parametrize(
    "covariance_type", ["full", "tied", "diag", "spherical"]
)
def test_bic_and_aic_are_the_formulas(covariance_type):
    model = GaussianMixtureEM(
        3, covariance_type=covariance_type, random_state=0
    ).fit(X_GMM)
    n, d = X_GMM.shape
    m = (
        {
            "full": 3 * d * (d + 1) // 2,
            "tied": d * (d + 1) // 2,
            "diag": 3 * d,
            "spherical": 3,
        }[covariance_type]
        + 3 * d
        + 2
    )
    total = n * model.score(X_GMM)
    assert model.bic(X_GMM) == pytest.approx(-2 * total + m * np.log(n))
    assert model.aic(X_GMM) == pytest.approx(-2 * total + 2 * m)


def test_bic_chooses_the_number_of_components():
    bic = [
        GaussianMixtureEM(k, random_state=0).fit(X_GMM).bic(X_GMM)
        for k in range(1, 7)
    ]
    assert int(np.argmin(bic)) + 1 == 4


@pytest.mark.parametrize(
    "covariance_type", ["full", "tied", "diag", "spherical"]
)
def test_sample_draws_what_sklearn_draws(covariance_type):
    ours = GaussianMixtureEM(
        4, covariance_type=covariance_type, random_state=0
    ).fit(X_GMM)
    reference = GaussianMixture(
        4, covariance_type=covariance_type, random_state=3
    ).fit(X_GMM)
    for name in ("weights_", "means_", "covariances_"):
        setattr(reference, name, getattr(ours, name))
    X, y = ours.sample(500, random_state=3)
    X_ref, y_ref = reference.sample(500)
    np.testing.assert_array_equal(y, y_ref)
    np.testing.assert_allclose(X, X_ref, rtol=1e-12)
    assert X.shape == (500, 2) and y.dtype.kind == "i"
    # None: the estimator's random_state, as in scikit-learn
    np.testing.assert_array_equal(ours.sample(5)[0], ours.sample(5)[0])
    # many points: the sample statistics are the mixture's
    X, y = ours.sample(40_000, random_state=1)
    np.testing.assert_allclose(
        np.bincount(y, minlength=4) / len(y), ours.weights_, atol=0.01
    )
    np.testing.assert_allclose(
        [X[y == k].mean(axis=0) for k in range(4)], ours.means_, atol=0.05
    )


def test_sample_bad_input():
    with pytest.raises(NotFittedError):
        GaussianMixtureEM().sample(3)
    model = GaussianMixtureEM(2, random_state=0).fit(X_GMM)
    for bad in (0, -1, 2.5):
        with pytest.raises(ValueError, match="n_samples"):
            model.sample(bad)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_warm_start_continues_the_iterations():
    weights, means, covariances, _ = _same_start("full")
    start = dict(
        weights_init=weights, means_init=means, covariances_init=covariances
    )
    straight = GaussianMixtureEM(4, max_iter=12, tol=0.0, **start).fit(X_GMM)
    warm = GaussianMixtureEM(4, max_iter=4, tol=0.0, warm_start=True, **start)
    for _ in range(3):
        warm.fit(X_GMM)
    np.testing.assert_allclose(warm.means_, straight.means_, rtol=1e-12)
    np.testing.assert_allclose(
        warm.covariances_, straight.covariances_, rtol=1e-12
    )
    assert warm.score(X_GMM) == pytest.approx(straight.score(X_GMM), rel=1e-14)
    # scikit-learn's warm start, from its own fitted parameters, agrees
    reference = GaussianMixture(
        4,
        max_iter=4,
        tol=0.0,
        warm_start=True,
        weights_init=weights,
        means_init=means,
        precisions_init=np.linalg.inv(covariances),
    )
    for _ in range(3):
        reference.fit(X_GMM)
    np.testing.assert_allclose(warm.means_, reference.means_, rtol=1e-9)
    # another shape: a clear error, and the fitted model unchanged
    before = warm.means_.copy()
    warm.set_params(n_components=3, weights_init=None, means_init=None)
    warm.set_params(covariances_init=None)
    with pytest.raises(ValueError, match="warm_start"):
        warm.fit(X_GMM)
    np.testing.assert_array_equal(warm.means_, before)
    # without warm_start, a refit starts afresh
    cold = GaussianMixtureEM(4, max_iter=4, tol=0.0, **start)
    cold.fit(X_GMM)
    np.testing.assert_allclose(
        cold.fit(X_GMM).means_,
        GaussianMixtureEM(4, max_iter=4, tol=0.0, **start).fit(X_GMM).means_,
    )


def test_fit_predict_is_fit_then_predict_for_coins():
    model = BernoulliMixtureEM(random_state=0)
    labels = model.fit_predict(X_COINS)
    np.testing.assert_array_equal(labels, model.predict(X_COINS))
