"""The EM algorithm for mixture models: two (or more) coins, and Gaussians.

A mixture model draws a hidden label z in {0, ..., n_components - 1} with
probabilities
``weights`` (the prior pi_k = P(z = k)) and then an observation x from the
component p(x | z = k). The log-likelihood of n observations,

    l(theta) = sum_i log sum_k pi_k p(x_i | z = k; theta),

has a sum inside the logarithm and no closed-form maximiser. The EM
algorithm (Dempster, Laird & Rubin 1977) alternates two steps that each have
one:

* **E step**: the responsibilities r_ik = P(z_i = k | x_i; theta), the
  posterior of the hidden label under the current parameters (Bayes' rule);
* **M step**: the parameters that maximise the expected complete-data
  log-likelihood sum_ik r_ik log(pi_k p(x_i | z = k; theta)) with r fixed.

By Jensen's inequality the E step makes a lower bound on l touch l at the
current parameters and the M step raises the bound, so l never decreases
(Bishop 2006, section 9.4). The argument needs only that the M step does not
lower the bound: a partial M step (generalised EM), or one made of
conditional maximisations over blocks of parameters (ECM; Meng & Rubin
1993), keeps the guarantee. It holds for the coins, and for the Gaussians
with ``reg_covar=0``. With ``reg_covar > 0`` the Gaussian M step maximises a
penalised expected log-likelihood instead (see :func:`gaussian_m_step`), and
l can decrease: by amounts far below ``tol`` at the default 1e-6 on data of
unit variance, visibly when ``reg_covar`` is comparable to the variances.

Two models:

* :class:`BernoulliMixtureEM`: n observations of d coin tosses each, every
  observation made with one of ``n_components`` coins of unknown heads
  probabilities
  ``thetas`` (the two-coin problem of the book's *EM algorithm* chapter);
* :class:`GaussianMixtureEM`: a mixture of ``n_components`` multivariate
  normal
  distributions with full covariance matrices (Bishop 2006, section 9.2),
  a scikit-learn style estimator.

Everything is computed in log space (``scipy.special.logsumexp``) so that
densities far below the smallest float do not turn into 0 / 0. The E and M
steps are public functions (:func:`bernoulli_e_step`,
:func:`bernoulli_m_step`, :func:`gaussian_log_densities`,
:func:`gaussian_e_step`, :func:`gaussian_m_step`), shown in the book.

The log-likelihoods reported (``score``, ``lower_bound_``,
``log_likelihood_history_``) are **means over the observations**, as in
scikit-learn; multiply by n for the total.

Book chapters: *The EM algorithm*, *Gaussian mixture models* (side topics).
"""

import warnings
from numbers import Integral, Real

import numpy as np
from scipy.linalg import solve_triangular
from scipy.special import logsumexp, xlog1py, xlogy
from sklearn.base import BaseEstimator, DensityMixin, _fit_context
from sklearn.cluster import KMeans
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import (
    check_array,
    check_is_fitted,
    validate_data,
)

__all__ = [
    "BernoulliMixtureEM",
    "GaussianMixtureEM",
    "bernoulli_e_step",
    "bernoulli_m_step",
    "gaussian_e_step",
    "gaussian_log_densities",
    "gaussian_m_step",
    "restrict_covariances",
    "full_covariances",
    "COVARIANCE_TYPES",
]

#: Added to the soft counts N_k before dividing, so that a component that
#: lost all its points gives finite (if meaningless) parameters, as in
#: scikit-learn.
_TINY = 10 * np.finfo(np.float64).eps


# ---------------------------------------------------------------------------
# Coins: the E and M steps
# ---------------------------------------------------------------------------


def bernoulli_e_step(heads, n_tosses, weights, thetas):
    """E step for a mixture of coins: log responsibilities and log-likelihoods.

    Observation i is a sequence of ``n_tosses`` = d tosses of one coin, with
    h_i heads. Under coin k the sequence has probability
    theta_k^h_i (1 - theta_k)^(d - h_i), so by Bayes' rule

        log r_ik = log pi_k + h_i log theta_k + (d - h_i) log(1 - theta_k)
                   - log p(x_i),
        log p(x_i) = logsumexp_k [log pi_k + h_i log theta_k
                                  + (d - h_i) log(1 - theta_k)].

    Parameters
    ----------
    heads : ndarray of shape (n_samples,)
        Number of heads h_i in each observation, 0 <= h_i <= d.
    n_tosses : int
        Number of tosses d per observation.
    weights : ndarray of shape (n_components,)
        Prior probabilities pi_k of the coins (non-negative, summing to 1).
    thetas : ndarray of shape (n_components,)
        Heads probabilities theta_k in [0, 1].

    Returns
    -------
    log_resp : ndarray of shape (n_samples, n_components), float64
        log r_ik; each row's exponentials sum to 1.
    log_likelihood : ndarray of shape (n_samples,), float64
        log p(x_i) of each observation's toss *sequence* (no binomial
        coefficient: it does not depend on the parameters).

    Notes
    -----
    ``xlogy`` and ``xlog1py`` give 0 log 0 = 0, so theta_k = 0 or 1 (a coin
    that only ever showed tails or heads) is handled exactly.
    """
    heads = np.asarray(heads, dtype=np.float64)[:, None]
    # a weight of 0 gives log 0 = -inf, which is right
    with np.errstate(divide="ignore"):
        log_joint = (
            np.log(weights)
            + xlogy(heads, thetas)
            + xlog1py(n_tosses - heads, -np.asarray(thetas))
        )
    log_likelihood = logsumexp(log_joint, axis=1)
    return log_joint - log_likelihood[:, None], log_likelihood


def bernoulli_m_step(heads, n_tosses, resp):
    """M step for a mixture of coins: weights and heads probabilities.

    Maximising sum_ik r_ik [log pi_k + h_i log theta_k
    + (d - h_i) log(1 - theta_k)] over theta_k (set the derivative to 0) and
    over pi on the simplex (a Lagrange multiplier for sum_k pi_k = 1) gives

        theta_k = sum_i r_ik h_i / (d N_k),   pi_k = N_k / n,
        N_k = sum_i r_ik:

    each coin's heads frequency with every observation counted with weight
    r_ik.

    Parameters
    ----------
    heads : ndarray of shape (n_samples,)
        Number of heads h_i in each observation.
    n_tosses : int
        Number of tosses d per observation.
    resp : ndarray of shape (n_samples, n_components)
        Responsibilities r_ik (rows sum to 1).

    Returns
    -------
    weights : ndarray of shape (n_components,), float64
        pi_k = N_k / n.
    thetas : ndarray of shape (n_components,), float64
        theta_k in [0, 1].
    """
    counts = resp.sum(axis=0) + _TINY  # N_k
    thetas = (resp.T @ np.asarray(heads, dtype=np.float64)) / (
        n_tosses * counts
    )
    return counts / counts.sum(), np.clip(thetas, 0.0, 1.0)


# ---------------------------------------------------------------------------
# Gaussians: the E and M steps
# ---------------------------------------------------------------------------


def gaussian_log_densities(X, means, covariances):
    """log N(x_i; mu_k, Sigma_k) for every point and component, via Cholesky.

    With the Cholesky factor Sigma_k = chol_k chol_k^T (chol_k lower
    triangular), the Mahalanobis term is
    (x - mu_k)^T Sigma_k^-1 (x - mu_k) = ||z||^2 with
    z = chol_k^-1 (x - mu_k), and log det Sigma_k = 2 sum_j log (chol_k)_jj,
    so

        log N(x; mu_k, Sigma_k)
            = -1/2 (d log(2 pi) + log det Sigma_k + ||z||^2).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    means : ndarray of shape (n_components, n_features)
    covariances : ndarray of shape (n_components, n_features, n_features)
        Symmetric positive definite matrices.

    Returns
    -------
    log_density : ndarray of shape (n_samples, n_components), float64

    Raises
    ------
    ValueError
        If a covariance matrix is not positive definite (for example a
        component that collapsed onto a single point with ``reg_covar=0``).
    """
    n_features = X.shape[1]
    log_density = np.empty((X.shape[0], len(means)))
    for k, (mean, covariance) in enumerate(
        zip(means, covariances, strict=True)
    ):
        try:
            chol = np.linalg.cholesky(covariance)
        except np.linalg.LinAlgError:
            raise ValueError(
                f"The covariance matrix of component {k} is singular or not "
                "positive definite (a component collapsed onto too few "
                "distinct points). Increase reg_covar, use fewer components, "
                "or scale the data."
            ) from None
        # small: (d, d)
        chol_inv = solve_triangular(chol, np.eye(n_features), lower=True)
        # row i: chol^-1 (x_i - mu_k), one matrix product for all points
        z = (X - mean) @ chol_inv.T
        log_det = 2.0 * np.sum(np.log(np.diag(chol)))
        log_density[:, k] = -0.5 * (
            n_features * np.log(2 * np.pi) + log_det + np.sum(z * z, axis=1)
        )
    return log_density


def gaussian_e_step(X, weights, means, covariances):
    """E step for a Gaussian mixture: log responsibilities and log-likelihoods.

    By Bayes' rule, in log space,

        log r_ik = log pi_k + log N(x_i; mu_k, Sigma_k) - log p(x_i),
        log p(x_i) = logsumexp_k [log pi_k + log N(x_i; mu_k, Sigma_k)].

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    weights : ndarray of shape (n_components,)
        Mixture weights pi_k (non-negative, summing to 1).
    means : ndarray of shape (n_components, n_features)
    covariances : ndarray of shape (n_components, n_features, n_features)

    Returns
    -------
    log_resp : ndarray of shape (n_samples, n_components), float64
        log r_ik; each row's exponentials sum to 1.
    log_likelihood : ndarray of shape (n_samples,), float64
        log p(x_i).

    Raises
    ------
    ValueError
        If a covariance matrix is not positive definite.
    """
    with np.errstate(divide="ignore"):
        log_joint = np.log(weights) + gaussian_log_densities(
            X, means, covariances
        )
    log_likelihood = logsumexp(log_joint, axis=1)
    return log_joint - log_likelihood[:, None], log_likelihood


def gaussian_m_step(X, resp, reg_covar):
    """M step for a Gaussian mixture: weights, means and full covariances.

    With N_k = sum_i r_ik, the maximisers of the expected complete-data
    log-likelihood (Bishop 2006, equations 9.24-9.26) are

        mu_k    = sum_i r_ik x_i / N_k,
        Sigma_k = sum_i r_ik (x_i - mu_k)(x_i - mu_k)^T / N_k + reg_covar I,
        pi_k    = N_k / n,

    the covariance taken around the *new* mean mu_k. The weights come from a
    Lagrange multiplier for sum_k pi_k = 1 (it equals n). ``reg_covar``
    keeps every Sigma_k positive definite even when a component holds a
    single point or duplicates.

    With ``reg_covar`` = eps > 0 the covariance S_k + eps I is no longer the
    maximiser of the expected complete-data log-likelihood Q: it maximises
    the penalised Q - (eps / 2) sum_k N_k tr(Sigma_k^-1), a MAP-like step
    whose penalty weights N_k change with every E step. EM's guarantee that
    the log-likelihood never decreases then no longer applies (it holds for
    ``reg_covar=0``).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    resp : ndarray of shape (n_samples, n_components)
        Responsibilities r_ik (rows sum to 1).
    reg_covar : float
        Non-negative number added to the diagonal of every covariance.

    Returns
    -------
    weights : ndarray of shape (n_components,), float64
    means : ndarray of shape (n_components, n_features), float64
    covariances : ndarray of shape (n_components, n_features, n_features)
        float64.
    """
    counts = resp.sum(axis=0) + _TINY  # N_k
    means = (resp.T @ X) / counts[:, None]
    # shape (n_components, n_samples, n_features)
    diff = X[None, :, :] - means[:, None, :]
    weighted = resp.T[:, :, None] * diff  # r_ik (x_i - mu_k)
    covariances = (
        np.matmul(weighted.transpose(0, 2, 1), diff) / counts[:, None, None]
    )
    covariances += reg_covar * np.eye(X.shape[1])
    return counts / counts.sum(), means, covariances


#: The values of ``GaussianMixtureEM(covariance_type=...)``, scikit-learn's.
COVARIANCE_TYPES = ("full", "tied", "diag", "spherical")


def restrict_covariances(full, weights, covariance_type):
    """M-step covariances in the form that ``covariance_type`` keeps.

    The M step of a restricted family maximises the same expected
    complete-data log-likelihood over fewer parameters, and the maximisers
    are simple functions of the full ones S_k (Bishop 2006, section 9.2;
    the estimators of scikit-learn's ``GaussianMixture``):

    * "full": S_k, shape (K, d, d);
    * "tied": one matrix for all components, sum_k pi_k S_k, shape (d, d);
    * "diag": the diagonals of S_k, the variances, shape (K, d);
    * "spherical": the mean of each diagonal, one variance per component,
      shape (K,).

    ``reg_covar``, already on the diagonal of every S_k, carries over.

    Parameters
    ----------
    full : ndarray of shape (K, d, d)
        Full covariances from :func:`gaussian_m_step`.
    weights : ndarray of shape (K,)
        Mixture weights pi_k = N_k / n (they weight the tied average).
    covariance_type : {"full", "tied", "diag", "spherical"}

    Returns
    -------
    ndarray, float64, of the shape above
    """
    if covariance_type == "full":
        return full
    if covariance_type == "tied":
        return np.tensordot(weights, full, axes=1)
    variances = np.diagonal(full, axis1=1, axis2=2).copy()
    if covariance_type == "diag":
        return variances
    return variances.mean(axis=1)


def full_covariances(covariances, covariance_type, n_components, n_features):
    """The (K, d, d) matrices that ``covariances`` of a type stand for.

    The inverse of :func:`restrict_covariances` on its image: a tied matrix
    repeated K times, variances on the diagonals.

    Parameters
    ----------
    covariances : ndarray
        Shape (K, d, d), (d, d), (K, d) or (K,) for "full", "tied",
        "diag" and "spherical".
    covariance_type : {"full", "tied", "diag", "spherical"}
    n_components, n_features : int
        K and d.

    Returns
    -------
    ndarray of shape (K, d, d)
    """
    if covariance_type == "full":
        return covariances
    shape = (n_components, n_features, n_features)
    if covariance_type == "tied":
        return np.broadcast_to(covariances, shape)
    identity = np.eye(n_features)
    if covariance_type == "diag":
        return covariances[:, :, None] * identity
    return covariances[:, None, None] * identity


# ---------------------------------------------------------------------------
# The EM loop, shared by both estimators
# ---------------------------------------------------------------------------


class _Run:
    """Parameters, log-likelihood history and status of one EM run."""

    def __init__(
        self, params, history, parameter_history, n_iter, converged, change
    ):
        self.params = params
        self.history = history
        self.parameter_history = parameter_history
        self.n_iter = n_iter
        self.converged = converged
        self.change = change

    @property
    def lower_bound(self):
        return self.history[-1]


def _run_em(model, X, params):
    """Alternate E and M steps from ``params`` until l(theta) settles.

    Entry t of the histories belongs to the parameters after t M steps
    (entry 0: the initial parameters). Stops when the mean log-likelihood
    changes by less than ``model.tol``, or after ``model.max_iter`` M steps.
    """
    log_resp, log_likelihood = model._e_step(X, params)
    history, parameter_history = [float(np.mean(log_likelihood))], [params]
    converged, change, n_iter = False, np.inf, 0
    while n_iter < model.max_iter:
        params = model._m_step(X, np.exp(log_resp), params)
        log_resp, log_likelihood = model._e_step(X, params)
        n_iter += 1
        history.append(float(np.mean(log_likelihood)))
        parameter_history.append(params)
        change = history[-1] - history[-2]
        if abs(change) < model.tol:
            converged = True
            break
    return _Run(params, history, parameter_history, n_iter, converged, change)


def _check_probability_vector(weights, name, n_components):
    """weights as float64 probabilities of shape (n_components,), summing
    to 1 (renormalised against rounding).

    Raises
    ------
    ValueError
        If weights has the wrong shape, a negative or non-finite entry, or
        does not sum to 1 (to 1e-8).
    """
    weights = np.asarray(weights, dtype=np.float64)
    if weights.shape != (n_components,):
        raise ValueError(
            f"{name} must have shape ({n_components},), got {weights.shape}."
        )
    if (
        not np.all(np.isfinite(weights))
        or np.any(weights < 0)
        or not np.isclose(weights.sum(), 1.0, atol=1e-8)
    ):
        raise ValueError(
            f"{name} must hold non-negative probabilities summing to 1, got "
            f"{weights.tolist()}."
        )
    return weights / weights.sum()


#: The parameter constraints that both estimators share (scikit-learn's
#: ``_parameter_constraints``, checked by ``_fit_context`` before fit runs).
_COMMON_CONSTRAINTS = {
    "n_components": [Interval(Integral, 1, None, closed="left")],
    "tol": [Interval(Real, 0.0, None, closed="left")],
    "max_iter": [Interval(Integral, 1, None, closed="left")],
    "n_init": [Interval(Integral, 1, None, closed="left")],
    "weights_init": ["array-like", None],
    "random_state": ["random_state"],
}


class _MixtureEM(DensityMixin, BaseEstimator):
    """fit (n_init restarts), predict, predict_proba, score_samples, score.

    Subclasses define ``_param_names``, ``_check_observations(X)``,
    ``_checked_init(n_features)``, ``_initial_params(X, init, rng)``,
    ``_e_step(X, params)`` and ``_m_step(X, resp, params)``.
    """

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Estimate the parameters by EM; keep the best of ``n_init`` runs.

        The parameters are checked first, then X, then EM runs; only a
        successful fit sets the fitted attributes (a failed one leaves the
        estimator as it was).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The observations.
        y : ignored
            Present for scikit-learn's API.

        Returns
        -------
        self

        Raises
        ------
        ValueError
            For NaN or infinity in X, fewer samples than components, or bad
            parameters (see the class docstring).

        Warns
        -----
        ConvergenceWarning
            If the best run stopped at ``max_iter`` before the mean
            log-likelihood changed by less than ``tol``.
        """
        data = check_array(X, dtype=np.float64)
        if data.shape[0] < self.n_components:
            raise ValueError(
                "Expected n_samples >= n_components, got "
                f"n_samples={data.shape[0]} and "
                f"n_components={self.n_components}: every component needs "
                "data."
            )
        data = self._check_observations(data)
        init = self._checked_init(data.shape[1])
        rng = check_random_state(self.random_state)
        runs = (
            _run_em(self, data, self._initial_params(data, init, rng))
            for _ in range(self.n_init)
        )
        best = max(runs, key=lambda run: run.lower_bound)
        if not best.converged:
            _warn_not_converged(self, best)
        # n_features_in_ and feature_names_in_, now that the fit succeeded
        validate_data(self, X, reset=True, skip_check_array=True)
        for name, value in best.params.items():
            setattr(self, name + "_", value)
        self.lower_bound_ = best.lower_bound
        self.n_iter_ = best.n_iter
        self.converged_ = best.converged
        self.log_likelihood_history_ = best.history
        self.parameter_history_ = best.parameter_history
        return self

    def _validated(self, X):
        """X checked against the fit: finite, the same features."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return self._check_observations(X)

    def _fitted_params(self):
        return {name: getattr(self, name + "_") for name in self._param_names}

    def score_samples(self, X):
        """Log-likelihood log p(x_i) of each observation.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        log_likelihood : ndarray of shape (n_samples,), float64
        """
        X = self._validated(X)
        return self._e_step(X, self._fitted_params())[1]

    def score(self, X, y=None):
        """Mean log-likelihood of the observations (float)."""
        return float(np.mean(self.score_samples(X)))

    def predict_proba(self, X):
        """Responsibilities P(z = k | x_i); rows sum to 1.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        resp : ndarray of shape (n_samples, n_components), float64
        """
        X = self._validated(X)
        return np.exp(self._e_step(X, self._fitted_params())[0])

    def predict(self, X):
        """Most probable component of each observation.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        labels : ndarray of shape (n_samples,), int
        """
        return np.argmax(self.predict_proba(X), axis=1)


def _warn_not_converged(model, run):
    warnings.warn(
        f"{type(model).__name__} reached max_iter={model.max_iter} with the "
        f"mean log-likelihood still changing by {run.change:.3g} per "
        f"iteration (tol={model.tol:g}). Increase max_iter or tol, or try "
        "other initialisations (n_init).",
        ConvergenceWarning,
        stacklevel=4,  # the caller of fit, through _fit_context
    )


# ---------------------------------------------------------------------------
# The estimators
# ---------------------------------------------------------------------------


class BernoulliMixtureEM(_MixtureEM):
    """EM for a mixture of coins: which coin made each sequence of tosses?

    Each observation is a row of d tosses (1 = heads, 0 = tails), all made
    with one of ``n_components`` coins; coin k is picked with probability
    pi_k (the prior, ``weights_``) and shows heads with probability theta_k
    (``thetas_``). Which coin made an observation is hidden. EM alternates

    * E step (:func:`bernoulli_e_step`): r_ik = P(coin k | x_i), from
      pi_k theta_k^h_i (1 - theta_k)^(d - h_i) normalised over k, with h_i the
      number of heads of observation i;
    * M step (:func:`bernoulli_m_step`): theta_k = sum_i r_ik h_i / (d N_k),
      and, if ``update_prior``, pi_k = N_k / n, where N_k = sum_i r_ik.

    With ``update_prior=False`` the prior stays at ``weights_init`` and only
    the thetas are estimated (the maximum-likelihood estimate for that fixed
    prior). The labels of the coins are arbitrary (*label switching*): the
    result depends on the initialisation, not on any name of the coins.

    Parameters
    ----------
    n_components : int, default=2
        Number of coins, >= 1.
    update_prior : bool, default=True
        Re-estimate the prior pi in every M step; if False, keep
        ``weights_init``.
    weights_init : array-like of shape (n_components,), optional
        Initial prior (non-negative, sums to 1). Default: uniform,
        1 / n_components.
    thetas_init : array-like of shape (n_components,), optional
        Initial heads probabilities in [0, 1]. Default: drawn uniformly on
        [0, 1) from ``random_state`` (a new draw for every restart).
    tol : float, default=1e-10
        Stop when the mean log-likelihood per observation changes by less
        than ``tol`` in one iteration.
    max_iter : int, default=1000
        Maximum number of EM iterations (M steps) per run.
    n_init : int, default=1
        Number of runs from different initial thetas; the run with the
        highest final log-likelihood is kept.
    random_state : int, RandomState instance or None, default=None
        Seeds the initial thetas.

    Attributes
    ----------
    weights_ : ndarray of shape (n_components,)
        Prior pi_k of each coin.
    thetas_ : ndarray of shape (n_components,)
        Heads probability theta_k of each coin.
    lower_bound_ : float
        Mean log-likelihood per observation at the returned parameters (the
        log-probability of each toss *sequence*, no binomial coefficient).
    n_iter_ : int
        Number of EM iterations of the kept run.
    converged_ : bool
        Whether the kept run met ``tol`` before ``max_iter``.
    log_likelihood_history_ : list of float, length ``n_iter_`` + 1
        Mean log-likelihood after 0, 1, ..., ``n_iter_`` iterations; never
        decreases (up to rounding).
    parameter_history_ : list of dict, length ``n_iter_`` + 1
        ``{"weights": ..., "thetas": ...}`` after 0, 1, ..., ``n_iter_``
        iterations.
    n_features_in_ : int
        Number of tosses d per observation.

    Raises
    ------
    ValueError
        From ``fit``: X not 2-D, NaN or infinity, values other than 0 and 1,
        fewer observations than coins, n_components < 1, tol < 0,
        max_iter < 1, n_init < 1, weights_init or thetas_init of the wrong
        shape or outside their ranges.

    Notes
    -----
    Dempster, Laird & Rubin (1977); the two-coin example follows the book's
    source blog (Gu 2019) and Do & Batzoglou (2008). Book chapter: *The EM
    algorithm*.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> coin = rng.random(500) < 0.7
    >>> heads_probability = np.where(coin, 0.2, 0.7)[:, None]
    >>> X = (rng.random((500, 10)) < heads_probability).astype(int)
    >>> model = BernoulliMixtureEM(random_state=0).fit(X)
    >>> np.round(np.sort(model.thetas_), 1)
    array([0.2, 0.7])
    """

    _param_names = ("weights", "thetas")
    _parameter_constraints = {
        **_COMMON_CONSTRAINTS,
        "update_prior": ["boolean"],
        "thetas_init": ["array-like", None],
    }

    def __init__(
        self,
        n_components=2,
        *,
        update_prior=True,
        weights_init=None,
        thetas_init=None,
        tol=1e-10,
        max_iter=1000,
        n_init=1,
        random_state=None,
    ):
        self.n_components = n_components
        self.update_prior = update_prior
        self.weights_init = weights_init
        self.thetas_init = thetas_init
        self.tol = tol
        self.max_iter = max_iter
        self.n_init = n_init
        self.random_state = random_state

    def _check_observations(self, X):
        if not np.all((X == 0) | (X == 1)):
            raise ValueError(
                "X must hold toss outcomes 0 (tails) and 1 (heads) only."
            )
        return X

    def _checked_init(self, n_features):
        """The given initial weights and thetas, checked; None if not given."""
        weights = thetas = None
        if self.weights_init is not None:
            weights = _check_probability_vector(
                self.weights_init, "weights_init", self.n_components
            )
        if self.thetas_init is not None:
            thetas = np.asarray(self.thetas_init, dtype=np.float64)
            if thetas.shape != (self.n_components,) or not np.all(
                (thetas >= 0) & (thetas <= 1)
            ):
                raise ValueError(
                    f"thetas_init must hold {self.n_components} "
                    f"probabilities in [0, 1], got {thetas.tolist()}."
                )
        return {"weights": weights, "thetas": thetas}

    def _initial_params(self, X, init, rng):
        weights, thetas = init["weights"], init["thetas"]
        if weights is None:
            weights = np.full(self.n_components, 1.0 / self.n_components)
        if thetas is None:
            thetas = rng.uniform(size=self.n_components)
        return {"weights": weights, "thetas": thetas.copy()}

    def _e_step(self, X, params):
        return bernoulli_e_step(
            X.sum(axis=1), X.shape[1], params["weights"], params["thetas"]
        )

    def _m_step(self, X, resp, params):
        weights, thetas = bernoulli_m_step(X.sum(axis=1), X.shape[1], resp)
        if not self.update_prior:
            weights = params["weights"]
        return {"weights": weights, "thetas": thetas}


class GaussianMixtureEM(_MixtureEM):
    """Gaussian mixture model fitted by EM (scikit-learn's covariance types).

    The density is p(x) = sum_k pi_k N(x; mu_k, Sigma_k). EM alternates

    * E step (:func:`gaussian_e_step`): responsibilities
      r_ik = pi_k N(x_i; mu_k, Sigma_k) / sum_j pi_j N(x_i; mu_j, Sigma_j),
      computed in log space with Cholesky factors;
    * M step (:func:`gaussian_m_step`): with N_k = sum_i r_ik,
      pi_k = N_k / n, mu_k = sum_i r_ik x_i / N_k,
      Sigma_k = sum_i r_ik (x_i - mu_k)(x_i - mu_k)^T / N_k + reg_covar I,
      restricted to the family of ``covariance_type``
      (:func:`restrict_covariances`).

    The interface follows ``sklearn.mixture.GaussianMixture``; given the
    same initial parameters the two follow the same iterations.

    Parameters
    ----------
    n_components : int, default=1
        Number of Gaussian components, >= 1.
    covariance_type : {"full", "tied", "diag", "spherical"}, default="full"
        The family of covariance matrices, as in scikit-learn: each
        component its own matrix ("full"), one matrix shared by all
        ("tied"), diagonal matrices ("diag", axis-aligned ellipses) or
        multiples of the identity ("spherical", circles).
    tol : float, default=1e-3
        Stop when the mean log-likelihood per sample changes by less than
        ``tol`` in one iteration (scikit-learn's criterion).
    reg_covar : float, default=1e-6
        Non-negative number added to the diagonal of every covariance in the
        M step, so that no covariance becomes singular (a component on one
        point, duplicate points). Same units as the variance of X. A
        positive value makes the M step maximise a penalised objective, so
        the log-likelihood is no longer guaranteed to increase (see
        :func:`gaussian_m_step`).
    max_iter : int, default=100
        Maximum number of EM iterations (M steps) per run.
    n_init : int, default=1
        Number of runs from different initialisations; the run with the
        highest final log-likelihood is kept.
    init_params : {"kmeans", "random"}, default="kmeans"
        How the initial responsibilities are chosen (the first M step turns
        them into parameters): "kmeans" assigns each point to its
        ``sklearn.cluster.KMeans`` cluster (one k-means run seeded from
        ``random_state``, as scikit-learn does); "random" draws
        responsibilities uniformly and normalises each row.
    weights_init : array-like of shape (n_components,), optional
    means_init : array-like of shape (n_components, n_features), optional
    covariances_init : array-like, optional
        Initial parameters; the covariances in the shape of
        ``covariances_`` for ``covariance_type``. If all three are given
        they replace ``init_params``; if only some are, they override the
        corresponding part of the ``init_params`` initialisation.
        (scikit-learn takes the precisions, the inverse covariances, as
        ``precisions_init``.)
    random_state : int, RandomState instance or None, default=None
        Seeds the initialisation.

    Attributes
    ----------
    weights_ : ndarray of shape (n_components,)
        Mixture weights pi_k.
    means_ : ndarray of shape (n_components, n_features)
    covariances_ : ndarray
        The covariances (regularised), in scikit-learn's shape for the
        type: (n_components, n_features, n_features) for "full",
        (n_features, n_features) for "tied", (n_components, n_features)
        for "diag", (n_components,) for "spherical".
    lower_bound_ : float
        Mean log-likelihood per sample at the returned parameters.
        (scikit-learn reports the value *before* its last M step; the two
        differ by less than ``tol`` at convergence.)
    n_iter_ : int
        Number of EM iterations of the kept run.
    converged_ : bool
        Whether the kept run met ``tol`` before ``max_iter``.
    log_likelihood_history_ : list of float, length ``n_iter_`` + 1
        Mean log-likelihood after 0, 1, ..., ``n_iter_`` iterations (entry 0:
        the initial parameters). Never decreases (up to rounding) when
        ``reg_covar=0``; with ``reg_covar > 0`` it can decrease (see
        :func:`gaussian_m_step`).
    parameter_history_ : list of dict, length ``n_iter_`` + 1
        ``{"weights": ..., "means": ..., "covariances": ...}`` after 0, 1,
        ..., ``n_iter_`` iterations.
    n_features_in_ : int

    Raises
    ------
    ValueError
        From ``fit``: NaN or infinity in X, fewer samples than components,
        n_components < 1, tol < 0, reg_covar < 0, max_iter < 1, n_init < 1,
        an unknown init_params, initial parameters of the wrong shape, not
        positive definite or not summing to 1, and a covariance that became
        singular (possible only with ``reg_covar=0``).

    Warns
    -----
    ConvergenceWarning
        If the kept run stopped at ``max_iter``.

    Notes
    -----
    Dempster, Laird & Rubin (1977); Bishop (2006), section 9.2.2. Book
    chapter: *Gaussian mixture models*.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack(
    ...     [rng.normal(0, 1, (200, 2)), rng.normal(6, 1, (100, 2))])
    >>> model = GaussianMixtureEM(n_components=2, random_state=0).fit(X)
    >>> np.round(np.sort(model.weights_), 2)
    array([0.33, 0.67])
    """

    _param_names = ("weights", "means", "covariances")
    _parameter_constraints = {
        **_COMMON_CONSTRAINTS,
        "reg_covar": [Interval(Real, 0.0, None, closed="left")],
        "covariance_type": [StrOptions(set(COVARIANCE_TYPES))],
        "init_params": [StrOptions({"kmeans", "random"})],
        "means_init": ["array-like", None],
        "covariances_init": ["array-like", None],
    }

    def __init__(
        self,
        n_components=1,
        *,
        covariance_type="full",
        tol=1e-3,
        reg_covar=1e-6,
        max_iter=100,
        n_init=1,
        init_params="kmeans",
        weights_init=None,
        means_init=None,
        covariances_init=None,
        random_state=None,
    ):
        self.n_components = n_components
        self.covariance_type = covariance_type
        self.tol = tol
        self.reg_covar = reg_covar
        self.max_iter = max_iter
        self.n_init = n_init
        self.init_params = init_params
        self.weights_init = weights_init
        self.means_init = means_init
        self.covariances_init = covariances_init
        self.random_state = random_state

    def _check_observations(self, X):
        return X

    def _checked_init(self, n_features):
        """The given initial parameters, checked; None where not given."""
        n_components = self.n_components
        init = {"weights": None, "means": None, "covariances": None}
        if self.weights_init is not None:
            init["weights"] = _check_probability_vector(
                self.weights_init, "weights_init", n_components
            )
        if self.means_init is not None:
            init["means"] = _check_means(
                self.means_init, n_components, n_features
            )
        if self.covariances_init is not None:
            init["covariances"] = _check_covariances(
                self.covariances_init,
                n_components,
                n_features,
                self.covariance_type,
            )
        return init

    def _initial_params(self, X, init, rng):
        params = dict(init)
        if any(value is None for value in params.values()):
            resp = self._initial_resp(X, rng)
            fitted = self._m_step(X, resp, params).values()
            for name, value in zip(self._param_names, fitted, strict=True):
                if params[name] is None:
                    params[name] = value
        return params

    def _initial_resp(self, X, rng):
        """Initial responsibilities, shape (n_samples, n_components)."""
        n_samples = X.shape[0]
        if self.init_params == "kmeans":
            labels = (
                KMeans(
                    n_clusters=self.n_components, n_init=1, random_state=rng
                )
                .fit(X)
                .labels_
            )
            resp = np.zeros((n_samples, self.n_components))
            resp[np.arange(n_samples), labels] = 1.0
            return resp
        resp = rng.uniform(size=(n_samples, self.n_components))
        return resp / resp.sum(axis=1, keepdims=True)

    def _e_step(self, X, params):
        means = params["means"]
        covariances = full_covariances(
            params["covariances"], self.covariance_type, *means.shape
        )
        return gaussian_e_step(X, params["weights"], means, covariances)

    def _m_step(self, X, resp, params):
        weights, means, full = gaussian_m_step(X, resp, self.reg_covar)
        covariances = restrict_covariances(full, weights, self.covariance_type)
        return {"weights": weights, "means": means, "covariances": covariances}


def _check_means(means, n_components, n_features):
    """means_init as a finite float64 array (n_components, n_features)."""
    means = np.asarray(means, dtype=np.float64)
    if means.shape != (n_components, n_features) or not np.all(
        np.isfinite(means)
    ):
        raise ValueError(
            "means_init must be a finite array of shape "
            f"({n_components}, {n_features}), got shape {means.shape}."
        )
    return means


def _check_covariances(
    covariances, n_components, n_features, covariance_type="full"
):
    """covariances_init of a type, checked: symmetric, positive definite."""
    covariances = np.asarray(covariances, dtype=np.float64)
    shape = {
        "full": (n_components, n_features, n_features),
        "tied": (n_features, n_features),
        "diag": (n_components, n_features),
        "spherical": (n_components,),
    }[covariance_type]
    if covariances.shape != shape:
        raise ValueError(
            f"covariances_init must have shape {shape} for covariance_type="
            f"{covariance_type!r}, got {covariances.shape}."
        )
    full = full_covariances(
        covariances, covariance_type, n_components, n_features
    )
    if not np.allclose(full, np.swapaxes(full, 1, 2)):
        raise ValueError("covariances_init must hold symmetric matrices.")
    try:
        np.linalg.cholesky(full)
    except np.linalg.LinAlgError:
        raise ValueError(
            "covariances_init must hold positive definite matrices."
        ) from None
    return covariances
