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
  distributions with full, tied, diagonal or spherical covariance matrices
  (Bishop 2006, section 9.2), a scikit-learn style estimator. Diagonal and
  spherical covariances are kept as per-dimension variances throughout
  (no d x d matrix in the E or M step).

Everything is computed in log space (logsumexp_k a_k = m + log sum_k
exp(a_k - m), m = max_k a_k) so that densities far below the smallest float
do not turn into 0 / 0. The E and M
steps are public functions (:func:`bernoulli_e_step`,
:func:`bernoulli_m_step`, :func:`gaussian_log_densities`,
:func:`gaussian_e_step`, :func:`gaussian_m_step`), shown in the book; they
check their input and raise ``ValueError`` naming the argument.

The log-likelihoods reported (``score``, ``lower_bound_``,
``log_likelihood_history_``) are **means over the observations**, as in
scikit-learn; multiply by n for the total. The parameters after every
iteration (``parameter_history_``) are kept only on request
(``keep_history=True``): they take memory proportional to the number of
iterations.

Book chapters: *The EM algorithm*, *Gaussian mixture models* (side topics).
"""

import warnings
from numbers import Integral, Real

import numpy as np
from scipy.linalg import solve_triangular
from scipy.special import xlog1py, xlogy
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

from ._validation import check_data, check_int, check_nonnegative

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

#: The values of ``GaussianMixtureEM(covariance_type=...)``, scikit-learn's.
COVARIANCE_TYPES = ("full", "tied", "diag", "spherical")


# ---------------------------------------------------------------------------
# Input checks of the public helpers (the shared ones are in _validation)
# ---------------------------------------------------------------------------


def _check_probability_vector(weights, name, n_components=None):
    """Return weights as float64 probabilities of shape (n_components,).

    They sum to 1 (renormalised against rounding); any length if
    n_components is None.

    Raises
    ------
    ValueError
        If weights has the wrong shape, a negative or non-finite entry, or
        does not sum to 1 (to 1e-8).
    """
    weights = np.asarray(weights, dtype=np.float64)
    if weights.ndim != 1 or weights.size == 0:
        raise ValueError(
            f"{name} must be a non-empty 1-D array, got shape {weights.shape}."
        )
    if n_components is not None and weights.shape != (n_components,):
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


def _check_thetas(thetas, name, n_components, *, open_interval=False):
    """Heads probabilities of shape (n_components,) in [0, 1] (or (0, 1))."""
    thetas = np.asarray(thetas, dtype=np.float64)
    if open_interval:
        inside = (thetas > 0) & (thetas < 1)
        interval = "(0, 1), ends excluded"
    else:
        inside = (thetas >= 0) & (thetas <= 1)
        interval = "[0, 1]"
    if thetas.shape != (n_components,) or not np.all(inside):
        raise ValueError(
            f"{name} must hold {n_components} probabilities in {interval}, "
            f"got {thetas.tolist()}."
        )
    return thetas


def _check_heads(heads, n_tosses):
    """Numbers of heads as a finite float64 1-D array in [0, n_tosses]."""
    heads = np.asarray(heads, dtype=np.float64)
    if heads.ndim != 1 or heads.size == 0:
        raise ValueError(
            "heads must be a non-empty 1-D array (one count per "
            f"observation), got shape {heads.shape}."
        )
    if not np.all(np.isfinite(heads)) or np.any(
        (heads < 0) | (heads > n_tosses)
    ):
        raise ValueError(
            f"heads must hold counts between 0 and n_tosses={n_tosses}, got "
            f"values in [{np.nanmin(heads):g}, {np.nanmax(heads):g}]"
            f"{' and NaN' if np.isnan(heads).any() else ''}."
        )
    return heads


def _check_responsibilities(resp, n_samples):
    """Resp as a float64 (n_samples, K) array of rows on the simplex.

    Raises
    ------
    ValueError
        If resp is not 2-D with n_samples rows, has a negative or
        non-finite entry, or a row that does not sum to 1 (to 1e-6).
    """
    resp = np.asarray(resp, dtype=np.float64)
    if resp.ndim != 2 or resp.shape[0] != n_samples or resp.shape[1] == 0:
        raise ValueError(
            f"resp must have shape ({n_samples}, n_components) (one row of "
            f"responsibilities per observation), got {resp.shape}."
        )
    if not np.all(np.isfinite(resp)) or np.any(resp < 0):
        raise ValueError(
            "resp must hold non-negative finite responsibilities (not their "
            "logarithms)."
        )
    row_sums = resp.sum(axis=1)
    worst = np.argmax(np.abs(row_sums - 1.0))
    if abs(row_sums[worst] - 1.0) > 1e-6:
        raise ValueError(
            "Every row of resp must sum to 1 (the responsibilities of one "
            f"observation), row {worst} sums to {row_sums[worst]:.6g}."
        )
    return resp


def _check_covariance_type(covariance_type):
    if covariance_type not in COVARIANCE_TYPES:
        raise ValueError(
            f"covariance_type must be one of {COVARIANCE_TYPES}, got "
            f"{covariance_type!r}."
        )
    return covariance_type


def _covariance_shape(covariance_type, n_components, n_features):
    return {
        "full": (n_components, n_features, n_features),
        "tied": (n_features, n_features),
        "diag": (n_components, n_features),
        "spherical": (n_components,),
    }[covariance_type]


def _check_means(means, name, n_components, n_features):
    """Means as a finite float64 array (n_components, n_features)."""
    means = np.asarray(means, dtype=np.float64)
    if means.shape != (n_components, n_features) or not np.all(
        np.isfinite(means)
    ):
        raise ValueError(
            f"{name} must be a finite array of shape "
            f"({n_components}, {n_features}), got shape {means.shape}."
        )
    return means


def _check_covariances(
    covariances, name, covariance_type, n_components, n_features
):
    """Return covariances of a type as float64, checked.

    Shape, finite, symmetric matrices ("full", "tied") or positive
    variances ("diag", "spherical").

    Positive definiteness of the matrices is left to the Cholesky
    factorisation that uses them.
    """
    covariances = np.asarray(covariances, dtype=np.float64)
    shape = _covariance_shape(covariance_type, n_components, n_features)
    if covariances.shape != shape:
        raise ValueError(
            f"{name} must have shape {shape} for covariance_type="
            f"{covariance_type!r}, got {covariances.shape}."
        )
    if not np.all(np.isfinite(covariances)):
        raise ValueError(f"{name} contains NaN or infinity.")
    if covariance_type in ("full", "tied"):
        matrices = covariances.reshape(-1, n_features, n_features)
        asymmetry = np.abs(matrices - np.swapaxes(matrices, 1, 2)).max(
            axis=(1, 2)
        )
        scale = np.abs(matrices).max(axis=(1, 2))
        if np.any(asymmetry > 1e-8 * scale):
            raise ValueError(f"{name} must hold symmetric matrices.")
    return covariances


def _logsumexp(a):
    """Log sum_k exp(a_ik) of each row, as m_i + log sum_k exp(a_ik - m_i).

    m_i = max_k a_ik, so that the largest term is exp(0) = 1 and nothing
    overflows or underflows to 0 / 0; a row of -inf (every term 0) gives
    -inf. The same as ``scipy.special.logsumexp(a, axis=1)``, which costs
    several times more on small arrays.
    """
    m = np.max(a, axis=1, keepdims=True)
    m[~np.isfinite(m)] = 0.0
    with np.errstate(divide="ignore"):
        return np.log(np.sum(np.exp(a - m), axis=1)) + m[:, 0]


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
    heads : array-like of shape (n_samples,)
        Number of heads h_i in each observation, 0 <= h_i <= d.
    n_tosses : int
        Number of tosses d per observation, >= 1.
    weights : array-like of shape (n_components,)
        Prior probabilities pi_k of the coins (non-negative, summing to 1).
    thetas : array-like of shape (n_components,)
        Heads probabilities theta_k in [0, 1].

    Returns
    -------
    log_resp : ndarray of shape (n_samples, n_components), float64
        log r_ik; each row's exponentials sum to 1.
    log_likelihood : ndarray of shape (n_samples,), float64
        log p(x_i) of each observation's toss *sequence* (no binomial
        coefficient: it does not depend on the parameters).

    Raises
    ------
    ValueError
        If an argument has the wrong shape or values outside the ranges
        above, or if an observation has probability 0 under every coin of
        positive weight (say theta = 0 for every coin and an observation
        with a head): its responsibilities would be 0 / 0.

    Notes
    -----
    ``xlogy`` and ``xlog1py`` give 0 log 0 = 0, so theta_k = 0 or 1 (a coin
    that only ever showed tails or heads) is handled exactly.

    References
    ----------
    Dempster, Laird & Rubin (1977); Bishop (2006), section 9.3.3 (mixtures
    of Bernoulli distributions). Book chapter: *The EM algorithm*.

    Examples
    --------
    >>> import numpy as np
    >>> log_resp, log_likelihood = bernoulli_e_step(
    ...     np.array([1, 9]), 10, np.array([0.5, 0.5]), np.array([0.2, 0.7]))
    >>> np.round(np.exp(log_resp), 3)
    array([[0.999, 0.001],
           [0.   , 1.   ]])
    """
    n_tosses = check_int(n_tosses, "n_tosses")
    heads = _check_heads(heads, n_tosses)[:, None]
    weights = _check_probability_vector(weights, "weights")
    thetas = _check_thetas(thetas, "thetas", len(weights))
    # a weight of 0 gives log 0 = -inf, which is right
    with np.errstate(divide="ignore"):
        log_joint = (
            np.log(weights)
            + xlogy(heads, thetas)
            + xlog1py(n_tosses - heads, -thetas)
        )
    log_likelihood = _logsumexp(log_joint)
    if np.any(np.isneginf(log_likelihood)):
        i = np.flatnonzero(np.isneginf(log_likelihood))[0]
        raise ValueError(
            f"Observation {i} ({heads[i, 0]:g} heads in {n_tosses} tosses) "
            "has probability 0 under every coin of positive weight "
            f"(thetas={thetas.tolist()}): a coin with theta = 0 never shows "
            "heads, one with theta = 1 never shows tails."
        )
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
    heads : array-like of shape (n_samples,)
        Number of heads h_i in each observation, 0 <= h_i <= d.
    n_tosses : int
        Number of tosses d per observation, >= 1.
    resp : array-like of shape (n_samples, n_components)
        Responsibilities r_ik: non-negative, each row summing to 1.

    Returns
    -------
    weights : ndarray of shape (n_components,), float64
        pi_k = N_k / n.
    thetas : ndarray of shape (n_components,), float64
        theta_k in [0, 1].

    Raises
    ------
    ValueError
        If an argument has the wrong shape or values outside the ranges
        above.

    References
    ----------
    Dempster, Laird & Rubin (1977); Bishop (2006), section 9.3.3. Book
    chapter: *The EM algorithm*.

    Examples
    --------
    >>> import numpy as np
    >>> resp = np.array([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]])
    >>> weights, thetas = bernoulli_m_step(np.array([2, 5, 8]), 10, resp)
    >>> weights, thetas
    (array([0.5, 0.5]), array([0.3, 0.7]))
    """
    n_tosses = check_int(n_tosses, "n_tosses")
    heads = _check_heads(heads, n_tosses)
    resp = _check_responsibilities(resp, len(heads))
    counts = resp.sum(axis=0) + _TINY  # N_k
    thetas = (resp.T @ heads) / (n_tosses * counts)
    return counts / counts.sum(), np.clip(thetas, 0.0, 1.0)


# ---------------------------------------------------------------------------
# Gaussians: the E and M steps
# ---------------------------------------------------------------------------


def gaussian_log_densities(X, means, covariances, covariance_type="full"):
    """Log N(x_i; mu_k, Sigma_k) for every point and component, via Cholesky.

    With the Cholesky factor Sigma_k = chol_k chol_k^T (chol_k lower
    triangular), the Mahalanobis term is
    (x - mu_k)^T Sigma_k^-1 (x - mu_k) = ||z||^2 with
    z = chol_k^-1 (x - mu_k), and log det Sigma_k = 2 sum_j log (chol_k)_jj,
    so

        log N(x; mu_k, Sigma_k)
            = -1/2 (d log(2 pi) + log det Sigma_k + ||z||^2).

    Diagonal and spherical covariances need no factorisation: with
    variances v_kj, ||z||^2 = sum_j (x_j - mu_kj)^2 / v_kj and
    log det Sigma_k = sum_j log v_kj (``_diagonal_log_densities``).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The points, finite.
    means : array-like of shape (n_components, n_features)
        The means mu_k, finite.
    covariances : array-like
        For ``covariance_type`` "full": shape (n_components, n_features,
        n_features), symmetric positive definite matrices; "tied": one such
        matrix, shape (n_features, n_features); "diag": the variances,
        shape (n_components, n_features), positive; "spherical": one
        variance per component, shape (n_components,), positive.
    covariance_type : {"full", "tied", "diag", "spherical"}, default="full"
        How ``covariances`` is stored (scikit-learn's shapes).

    Returns
    -------
    log_density : ndarray of shape (n_samples, n_components), float64

    Raises
    ------
    ValueError
        If an argument has the wrong shape, NaN or infinity, if a
        covariance matrix is not symmetric, or if a covariance is not
        positive definite (for example a component that collapsed onto a
        single point with ``reg_covar=0``).

    References
    ----------
    Bishop (2006), section 2.3 (the multivariate normal); Golub & Van Loan
    (2013), section 4.2 (the Cholesky factorisation). Book chapter:
    *Gaussian mixture models*.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 0.0], [1.0, 2.0]])
    >>> log_density = gaussian_log_densities(
    ...     X, np.zeros((1, 2)), np.eye(2)[None])
    >>> np.round(log_density, 4)
    array([[-1.8379],
           [-4.3379]])
    >>> np.allclose(log_density, gaussian_log_densities(
    ...     X, np.zeros((1, 2)), np.ones((1, 2)), "diag"))
    True
    """
    X, means, covariances = _check_gaussian(
        X, means, covariances, covariance_type
    )
    if covariance_type in ("diag", "spherical"):
        # per-dimension variances, shape (n_components, n_features)
        variances = np.broadcast_to(
            covariances.reshape(len(means), -1), means.shape
        )
        return _diagonal_log_densities(X, means, variances)
    n_features = X.shape[1]
    if covariance_type == "tied":  # the same matrix for every component
        covariances = np.broadcast_to(
            covariances, (len(means), n_features, n_features)
        )
    log_density = np.empty((X.shape[0], len(means)))
    for k, (mean, covariance) in enumerate(
        zip(means, covariances, strict=True)
    ):
        chol = _cholesky(covariance, k)
        # small: (d, d)
        chol_inv = solve_triangular(chol, np.eye(n_features), lower=True)
        # row i: chol^-1 (x_i - mu_k), one matrix product for all points
        z = (X - mean) @ chol_inv.T
        log_det = 2.0 * np.sum(np.log(np.diag(chol)))
        log_density[:, k] = -0.5 * (
            n_features * np.log(2 * np.pi) + log_det + np.sum(z * z, axis=1)
        )
    return log_density


def _cholesky(covariance, k):
    """Lower Cholesky factor of component k's covariance, or a clear error."""
    try:
        return np.linalg.cholesky(covariance)
    except np.linalg.LinAlgError:
        raise ValueError(
            f"The covariance matrix of component {k} is singular or not "
            "positive definite (a component collapsed onto too few "
            "distinct points). Increase reg_covar, use fewer components, "
            "or scale the data."
        ) from None


def _diagonal_log_densities(X, means, variances):
    """Log N(x_i; mu_k, diag(v_k)) from per-dimension variances v_kj > 0.

    The Mahalanobis term sum_j (x_ij - mu_kj)^2 / v_kj is expanded into
    three matrix products, x^2 . (1/v_k) - 2 x . (mu_k / v_k)
    + sum_j mu_kj^2 / v_kj, as scikit-learn does: n d K operations, no
    (d, d) matrix and no (n, K, d) temporary. X and the means are first
    centred on the mean of X (the densities do not change), so that data
    far from the origin do not lose digits to cancellation; rounding that
    is left can make the sum of squares slightly negative, and it is
    clipped at 0.
    """
    if np.any(variances <= 0):
        k = np.flatnonzero(np.any(variances <= 0, axis=1))[0]
        raise ValueError(
            f"The variances of component {k} are not all positive (a "
            "component collapsed onto too few distinct points). Increase "
            "reg_covar, use fewer components, or scale the data."
        )
    centre = X.mean(axis=0)
    X = X - centre  # a new array: squared in place below
    means = means - centre
    precisions = 1.0 / variances
    cross = X @ (means * precisions).T
    np.square(X, out=X)
    mahalanobis = (
        X @ precisions.T
        - 2.0 * cross
        + np.sum(means * means * precisions, axis=1)
    )
    log_det = np.sum(np.log(variances), axis=1)
    return -0.5 * (
        X.shape[1] * np.log(2 * np.pi) + log_det + np.maximum(mahalanobis, 0)
    )


def _check_gaussian(X, means, covariances, covariance_type):
    """X, means and covariances of a type, checked against each other."""
    X = check_data(X, "X", dtype=np.float64)
    means = np.asarray(means, dtype=np.float64)
    if means.ndim != 2 or means.shape[0] == 0:
        raise ValueError(
            "means must have shape (n_components, n_features), got "
            f"{means.shape}."
        )
    means = _check_means(means, "means", means.shape[0], X.shape[1])
    covariance_type = _check_covariance_type(covariance_type)
    covariances = _check_covariances(
        covariances, "covariances", covariance_type, *means.shape
    )
    return X, means, covariances


def gaussian_e_step(X, weights, means, covariances, covariance_type="full"):
    """E step for a Gaussian mixture: log responsibilities and log-likelihoods.

    By Bayes' rule, in log space,

        log r_ik = log pi_k + log N(x_i; mu_k, Sigma_k) - log p(x_i),
        log p(x_i) = logsumexp_k [log pi_k + log N(x_i; mu_k, Sigma_k)].

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The points, finite.
    weights : array-like of shape (n_components,)
        Mixture weights pi_k (non-negative, summing to 1).
    means : array-like of shape (n_components, n_features)
        The means mu_k.
    covariances : array-like
        The covariances in the shape of ``covariance_type`` (see
        :func:`gaussian_log_densities`); by default (n_components,
        n_features, n_features).
    covariance_type : {"full", "tied", "diag", "spherical"}, default="full"
        How ``covariances`` is stored.

    Returns
    -------
    log_resp : ndarray of shape (n_samples, n_components), float64
        log r_ik; each row's exponentials sum to 1.
    log_likelihood : ndarray of shape (n_samples,), float64
        log p(x_i).

    Raises
    ------
    ValueError
        If an argument has the wrong shape or values (weights not
        summing to 1, NaN, infinity), or a covariance is not positive
        definite.

    References
    ----------
    Dempster, Laird & Rubin (1977); Bishop (2006), section 9.2.2, equation
    9.23. Book chapter: *Gaussian mixture models*.

    Examples
    --------
    >>> import numpy as np
    >>> log_resp, log_likelihood = gaussian_e_step(
    ...     np.array([[0.0], [1.0], [4.0]]), np.array([0.5, 0.5]),
    ...     np.array([[0.0], [4.0]]), np.array([1.0, 1.0]), "spherical")
    >>> np.round(np.exp(log_resp), 3)
    array([[1.   , 0.   ],
           [0.982, 0.018],
           [0.   , 1.   ]])
    """
    log_density = gaussian_log_densities(
        X, means, covariances, covariance_type
    )
    weights = _check_probability_vector(
        weights, "weights", log_density.shape[1]
    )
    with np.errstate(divide="ignore"):
        log_joint = np.log(weights) + log_density
    log_likelihood = _logsumexp(log_joint)
    return log_joint - log_likelihood[:, None], log_likelihood


def gaussian_m_step(X, resp, reg_covar, covariance_type="full"):
    """M step for a Gaussian mixture: weights, means and covariances.

    With N_k = sum_i r_ik, the maximisers of the expected complete-data
    log-likelihood (Bishop 2006, equations 9.24-9.26) are

        mu_k    = sum_i r_ik x_i / N_k,
        Sigma_k = sum_i r_ik (x_i - mu_k)(x_i - mu_k)^T / N_k + reg_covar I,
        pi_k    = N_k / n,

    the covariance taken around the *new* mean mu_k. The weights come from a
    Lagrange multiplier for sum_k pi_k = 1 (it equals n). ``reg_covar``
    keeps every Sigma_k positive definite even when a component holds a
    single point or duplicates. A restricted ``covariance_type`` keeps
    Sigma_k in its family (:func:`restrict_covariances`); "diag" and
    "spherical" compute only the diagonals, the variances
    sum_i r_ik (x_ij - mu_kj)^2 / N_k, never a (d, d) matrix.

    With ``reg_covar`` = eps > 0 the covariance S_k + eps I is no longer the
    maximiser of the expected complete-data log-likelihood Q: it maximises
    the penalised Q - (eps / 2) sum_k N_k tr(Sigma_k^-1), a MAP-like step
    whose penalty weights N_k change with every E step. EM's guarantee that
    the log-likelihood never decreases then no longer applies (it holds for
    ``reg_covar=0``).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The points, finite.
    resp : array-like of shape (n_samples, n_components)
        Responsibilities r_ik: non-negative, each row summing to 1.
    reg_covar : float
        Non-negative number added to the diagonal of every covariance.
    covariance_type : {"full", "tied", "diag", "spherical"}, default="full"
        The family of the covariances returned.

    Returns
    -------
    weights : ndarray of shape (n_components,), float64
        pi_k.
    means : ndarray of shape (n_components, n_features), float64
        mu_k.
    covariances : ndarray, float64
        Shape (n_components, n_features, n_features) for "full",
        (n_features, n_features) for "tied", (n_components, n_features)
        for "diag", (n_components,) for "spherical".

    Raises
    ------
    ValueError
        If X has NaN or infinity, resp is not a matrix of responsibilities
        for X, reg_covar is negative or not finite, or covariance_type is
        unknown.

    References
    ----------
    Dempster, Laird & Rubin (1977); Bishop (2006), section 9.2.2,
    equations 9.24-9.26. Book chapter: *Gaussian mixture models*.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [2.0], [10.0], [12.0]])
    >>> resp = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, 1.0]])
    >>> weights, means, covariances = gaussian_m_step(X, resp, 0.0)
    >>> weights, means.ravel(), covariances.ravel()
    (array([0.5, 0.5]), array([ 1., 11.]), array([1., 1.]))
    """
    X = check_data(X, "X", dtype=np.float64)
    resp = _check_responsibilities(resp, X.shape[0])
    reg_covar = check_nonnegative(reg_covar, "reg_covar")
    covariance_type = _check_covariance_type(covariance_type)
    counts = resp.sum(axis=0) + _TINY  # N_k
    weights = counts / counts.sum()
    means = (resp.T @ X) / counts[:, None]
    if covariance_type in ("diag", "spherical"):
        variances = _weighted_variances(X, resp, means, counts) + reg_covar
        if covariance_type == "diag":
            return weights, means, variances
        return weights, means, variances.mean(axis=1)
    covariances = np.empty((len(counts), X.shape[1], X.shape[1]))
    for k, count in enumerate(counts):  # one (n, d) temporary at a time
        diff = X - means[k]
        covariances[k] = (resp[:, k] * diff.T) @ diff / count
    covariances += reg_covar * np.eye(X.shape[1])
    return (
        weights,
        means,
        restrict_covariances(covariances, weights, covariance_type),
    )


def _weighted_variances(X, resp, means, counts):
    """sum_i r_ik (x_ij - mu_kj)^2 / N_k, shape (n_components, n_features).

    Expanded as sum_i r_ik x_ij^2 / N_k - mu_kj^2 (mu_k is the weighted
    mean), two matrix products after centring on the mean of X (which
    leaves the variances unchanged and keeps the subtraction accurate);
    rounding below 0 is clipped.
    """
    centre = X.mean(axis=0)
    squares = X - centre
    np.square(squares, out=squares)
    means = means - centre
    return np.maximum((resp.T @ squares) / counts[:, None] - means**2, 0.0)


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
    (:func:`gaussian_m_step` computes "diag" and "spherical" from the
    variances directly, without forming S_k.)

    Parameters
    ----------
    full : array-like of shape (K, d, d)
        Full covariances from :func:`gaussian_m_step`.
    weights : array-like of shape (K,)
        Mixture weights pi_k = N_k / n (they weight the tied average).
    covariance_type : {"full", "tied", "diag", "spherical"}
        The family to keep.

    Returns
    -------
    covariances : ndarray, float64, of the shape above
        The restricted covariances.

    Raises
    ------
    ValueError
        If full is not a finite (K, d, d) array of symmetric matrices,
        weights are not K probabilities, or covariance_type is unknown.

    References
    ----------
    Bishop (2006), section 9.2; scikit-learn's ``GaussianMixture``. Book
    chapter: *Gaussian mixture models*.

    Examples
    --------
    >>> import numpy as np
    >>> full = np.array([[[2.0, 0.5], [0.5, 4.0]], [[1.0, 0.0], [0.0, 3.0]]])
    >>> restrict_covariances(full, np.array([0.5, 0.5]), "diag")
    array([[2., 4.],
           [1., 3.]])
    >>> restrict_covariances(full, np.array([0.5, 0.5]), "spherical")
    array([3., 2.])
    """
    covariance_type = _check_covariance_type(covariance_type)
    full = np.asarray(full, dtype=np.float64)
    if full.ndim != 3:
        raise ValueError(f"full must have shape (K, d, d), got {full.shape}.")
    full = _check_covariances(full, "full", "full", *full.shape[:2])
    weights = _check_probability_vector(weights, "weights", len(full))
    if covariance_type == "full":
        return full
    if covariance_type == "tied":
        return np.tensordot(weights, full, axes=1)
    variances = np.diagonal(full, axis1=1, axis2=2).copy()
    if covariance_type == "diag":
        return variances
    return variances.mean(axis=1)


def full_covariances(covariances, covariance_type, n_components, n_features):
    """Return the (K, d, d) matrices that ``covariances`` of a type stand for.

    The inverse of :func:`restrict_covariances` on its image: a tied matrix
    repeated K times, variances on the diagonals. (For plotting and
    teaching; the estimators never expand diagonal covariances.)

    Parameters
    ----------
    covariances : array-like
        Shape (K, d, d), (d, d), (K, d) or (K,) for "full", "tied",
        "diag" and "spherical".
    covariance_type : {"full", "tied", "diag", "spherical"}
        How ``covariances`` is stored.
    n_components : int
        K.
    n_features : int
        d.

    Returns
    -------
    full : ndarray of shape (K, d, d)
        The matrices (a read-only broadcast view for "tied").

    Raises
    ------
    ValueError
        If covariances does not have the shape of its type, has NaN or
        infinity, or covariance_type is unknown.

    References
    ----------
    scikit-learn's ``GaussianMixture`` (its four covariance shapes). Book
    chapter: *Gaussian mixture models*.

    Examples
    --------
    >>> import numpy as np
    >>> full_covariances(np.array([2.0, 3.0]), "spherical", 2, 2)
    array([[[2., 0.],
            [0., 2.]],
    <BLANKLINE>
           [[3., 0.],
            [0., 3.]]])
    """
    covariance_type = _check_covariance_type(covariance_type)
    n_components = check_int(n_components, "n_components")
    n_features = check_int(n_features, "n_features")
    covariances = _check_covariances(
        covariances, "covariances", covariance_type, n_components, n_features
    )
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
    """Parameters, log responsibilities, histories and status of one run."""

    def __init__(
        self,
        params,
        log_resp,
        history,
        parameter_history,
        n_iter,
        converged,
        change,
    ):
        self.params = params
        self.log_resp = log_resp
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
    (entry 0: the initial parameters); the parameters are kept only if
    ``model.keep_history``. Stops when the mean log-likelihood changes by
    less than ``model.tol``, or after ``model.max_iter`` M steps.
    """
    log_resp, log_likelihood = model._e_step(X, params)
    history = [float(np.mean(log_likelihood))]
    parameter_history = [params] if model.keep_history else None
    converged, change, n_iter = False, np.inf, 0
    while n_iter < model.max_iter:
        params = model._m_step(X, np.exp(log_resp), params)
        log_resp, log_likelihood = model._e_step(X, params)
        n_iter += 1
        history.append(float(np.mean(log_likelihood)))
        if parameter_history is not None:
            parameter_history.append(params)
        change = history[-1] - history[-2]
        if abs(change) < model.tol:
            converged = True
            break
    return _Run(
        params, log_resp, history, parameter_history, n_iter, converged, change
    )


#: The parameter constraints that both estimators share (scikit-learn's
#: ``_parameter_constraints``, checked by ``_fit_context`` before fit runs).
_COMMON_CONSTRAINTS = {
    "n_components": [Interval(Integral, 1, None, closed="left")],
    "tol": [Interval(Real, 0.0, None, closed="left")],
    "max_iter": [Interval(Integral, 1, None, closed="left")],
    "n_init": [Interval(Integral, 1, None, closed="left")],
    "weights_init": ["array-like", None],
    "keep_history": ["boolean"],
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
        y : None
            Ignored; present for scikit-learn's API.

        Returns
        -------
        self : object
            The fitted estimator.

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

        References
        ----------
        Dempster, Laird & Rubin (1977). Book chapters: *The EM algorithm*,
        *Gaussian mixture models*.

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.mixture import BernoulliMixtureEM
        >>> rng = np.random.default_rng(0)
        >>> p = np.where(rng.random(300) < 0.5, 0.1, 0.9)[:, None]
        >>> X = (rng.random((300, 10)) < p).astype(int)
        >>> model = BernoulliMixtureEM(random_state=0).fit(X)
        >>> np.round(np.sort(model.thetas_), 1)
        array([0.1, 0.9])
        """
        self._fit(X)
        return self

    @_fit_context(prefer_skip_nested_validation=True)
    def fit_predict(self, X, y=None):
        """Fit, and return the most probable component of each observation.

        The labels come from the E step at the returned parameters, so they
        equal ``fit(X).predict(X)`` (scikit-learn's ``fit_predict``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The observations.
        y : None
            Ignored; present for scikit-learn's API.

        Returns
        -------
        labels : ndarray of shape (n_samples,), int
            Component labels.

        Raises
        ------
        ValueError
            As :meth:`fit`.

        References
        ----------
        scikit-learn's ``GaussianMixture.fit_predict``. Book chapter:
        *Gaussian mixture models*.

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.mixture import BernoulliMixtureEM
        >>> rng = np.random.default_rng(0)
        >>> p = np.where(rng.random(300) < 0.5, 0.1, 0.9)[:, None]
        >>> X = (rng.random((300, 10)) < p).astype(int)
        >>> model = BernoulliMixtureEM(random_state=0)
        >>> labels = model.fit_predict(X)
        >>> bool(np.array_equal(labels, model.predict(X)))
        True
        """
        return np.argmax(self._fit(X).log_resp, axis=1)

    def _fit(self, X):
        """Fit: set the fitted attributes, return the best run."""
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
        n_init = self.n_init
        if self._warm(data.shape[1]):
            init, n_init = self._fitted_params(), 1
        rng = check_random_state(self.random_state)
        runs = (
            _run_em(self, data, self._initial_params(data, init, rng))
            for _ in range(n_init)
        )
        best = max(runs, key=lambda run: run.lower_bound)
        if not best.converged:
            _warn_not_converged(self, best)
        # n_features_in_ and feature_names_in_, now that the fit succeeded
        validate_data(self, X, reset=True, skip_check_array=True)
        for name, value in best.params.items():
            setattr(self, name + "_", value)
        self._set_derived_attributes()
        self.lower_bound_ = best.lower_bound
        self.n_iter_ = best.n_iter
        self.converged_ = best.converged
        self.log_likelihood_history_ = best.history
        self.parameter_history_ = best.parameter_history
        return best

    def _warm(self, n_features):
        """Whether to start from the fitted parameters (warm_start)."""
        return False

    def _set_derived_attributes(self):
        """Fitted attributes computed from the parameters (none here)."""

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
            The observations.

        Returns
        -------
        log_likelihood : ndarray of shape (n_samples,), float64
            log p(x_i) under the fitted mixture.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before ``fit``.
        ValueError
            If X has NaN or infinity, or not the number of features of the
            fit.

        References
        ----------
        Bishop (2006), section 9.2 (equation 9.14). Book chapter: *Gaussian
        mixture models*.

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.mixture import BernoulliMixtureEM
        >>> rng = np.random.default_rng(0)
        >>> p = np.where(rng.random(300) < 0.5, 0.1, 0.9)[:, None]
        >>> X = (rng.random((300, 10)) < p).astype(int)
        >>> model = BernoulliMixtureEM(random_state=0).fit(X)
        >>> model.score_samples(X[:3]).shape
        (3,)
        """
        X = self._validated(X)
        return self._e_step(X, self._fitted_params())[1]

    def score(self, X, y=None):
        """Mean log-likelihood of the observations.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The observations.
        y : None
            Ignored; present for scikit-learn's API.

        Returns
        -------
        score : float
            The mean of :meth:`score_samples`.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before ``fit``.
        ValueError
            As :meth:`score_samples`.

        References
        ----------
        scikit-learn's ``GaussianMixture.score``. Book chapter: *Gaussian
        mixture models*.

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.mixture import BernoulliMixtureEM
        >>> rng = np.random.default_rng(0)
        >>> p = np.where(rng.random(300) < 0.5, 0.1, 0.9)[:, None]
        >>> X = (rng.random((300, 10)) < p).astype(int)
        >>> model = BernoulliMixtureEM(random_state=0).fit(X)
        >>> bool(np.isclose(model.score(X), model.lower_bound_))
        True
        """
        return float(np.mean(self.score_samples(X)))

    def predict_proba(self, X):
        """Responsibilities P(z = k | x_i); rows sum to 1.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The observations.

        Returns
        -------
        resp : ndarray of shape (n_samples, n_components), float64
            The posterior probability of each component.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before ``fit``.
        ValueError
            As :meth:`score_samples`.

        References
        ----------
        Bishop (2006), section 9.2, equation 9.23. Book chapter: *Gaussian
        mixture models*.

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.mixture import BernoulliMixtureEM
        >>> rng = np.random.default_rng(0)
        >>> p = np.where(rng.random(300) < 0.5, 0.1, 0.9)[:, None]
        >>> X = (rng.random((300, 10)) < p).astype(int)
        >>> model = BernoulliMixtureEM(random_state=0).fit(X)
        >>> np.allclose(model.predict_proba(X).sum(axis=1), 1.0)
        True
        """
        X = self._validated(X)
        return np.exp(self._e_step(X, self._fitted_params())[0])

    def predict(self, X):
        """Most probable component of each observation.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The observations.

        Returns
        -------
        labels : ndarray of shape (n_samples,), int
            The argmax of :meth:`predict_proba` along each row.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before ``fit``.
        ValueError
            As :meth:`score_samples`.

        References
        ----------
        Bishop (2006), section 9.2. Book chapter: *Gaussian mixture
        models*.

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.mixture import BernoulliMixtureEM
        >>> rng = np.random.default_rng(0)
        >>> p = np.where(rng.random(300) < 0.5, 0.1, 0.9)[:, None]
        >>> X = (rng.random((300, 10)) < p).astype(int)
        >>> model = BernoulliMixtureEM(random_state=0).fit(X)
        >>> sorted(np.bincount(model.predict(X)).tolist())
        [135, 165]
        """
        return np.argmax(self.predict_proba(X), axis=1)


def _warn_not_converged(model, run):
    warnings.warn(
        f"{type(model).__name__} reached max_iter={model.max_iter} with the "
        f"mean log-likelihood still changing by {run.change:.3g} per "
        f"iteration (tol={model.tol:g}). Increase max_iter or tol, or try "
        "other initialisations (n_init).",
        ConvergenceWarning,
        stacklevel=5,  # the caller of fit: fit's wrapper, fit, _fit, here
    )


# ---------------------------------------------------------------------------
# The estimators
# ---------------------------------------------------------------------------


class BernoulliMixtureEM(_MixtureEM):
    """EM for a mixture of coins: which coin made each sequence of tosses.

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
        Initial heads probabilities, strictly between 0 and 1 (a start at
        exactly 0 or 1 is refused: such a coin gives probability 0 to
        every observation with a head, or with a tail, and if every coin
        does so for some observation its responsibilities are 0 / 0).
        Default: drawn uniformly on [0, 1) from ``random_state`` (a new
        draw for every restart).
    tol : float, default=1e-10
        Stop when the mean log-likelihood per observation changes by less
        than ``tol`` in one iteration.
    max_iter : int, default=1000
        Maximum number of EM iterations (M steps) per run.
    n_init : int, default=1
        Number of runs from different initial thetas; the run with the
        highest final log-likelihood is kept.
    keep_history : bool, default=False
        Keep the parameters after every iteration in
        ``parameter_history_`` (memory grows with the number of
        iterations).
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
    parameter_history_ : list of dict, length ``n_iter_`` + 1, or None
        With ``keep_history=True``: ``{"weights": ..., "thetas": ...}``
        after 0, 1, ..., ``n_iter_`` iterations of the kept run. None
        otherwise.
    n_features_in_ : int
        Number of tosses d per observation.

    Raises
    ------
    ValueError
        From ``fit``: X not 2-D, NaN or infinity, values other than 0 and 1,
        fewer observations than coins, n_components < 1, tol < 0,
        max_iter < 1, n_init < 1, weights_init of the wrong shape or not a
        probability vector, thetas_init of the wrong shape or outside
        (0, 1).

    Notes
    -----
    The two-coin example follows the book's source blog (Gu 2019) and Do &
    Batzoglou (2008).

    References
    ----------
    Dempster, Laird & Rubin (1977), "Maximum likelihood from incomplete
    data via the EM algorithm"; Do & Batzoglou (2008), "What is the
    expectation maximization algorithm?"; Bishop (2006), section 9.3.3.
    Book chapter: *The EM algorithm*.

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
    >>> model.parameter_history_ is None
    True
    >>> model = BernoulliMixtureEM(random_state=0, keep_history=True).fit(X)
    >>> len(model.parameter_history_) == model.n_iter_ + 1
    True
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
        keep_history=False,
        random_state=None,
    ):
        self.n_components = n_components
        self.update_prior = update_prior
        self.weights_init = weights_init
        self.thetas_init = thetas_init
        self.tol = tol
        self.max_iter = max_iter
        self.n_init = n_init
        self.keep_history = keep_history
        self.random_state = random_state

    def _check_observations(self, X):
        if not np.all((X == 0) | (X == 1)):
            raise ValueError(
                "X must hold toss outcomes 0 (tails) and 1 (heads) only."
            )
        return X

    def _checked_init(self, n_features):
        """Return the initial weights and thetas, checked (None: not given)."""
        weights = thetas = None
        if self.weights_init is not None:
            weights = _check_probability_vector(
                self.weights_init, "weights_init", self.n_components
            )
        if self.thetas_init is not None:
            thetas = _check_thetas(
                self.thetas_init,
                "thetas_init",
                self.n_components,
                open_interval=True,
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
      computed in log space with Cholesky factors (per-dimension variances
      for "diag" and "spherical");
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
        Initial mixture weights (non-negative, summing to 1).
    means_init : array-like of shape (n_components, n_features), optional
        Initial means.
    covariances_init : array-like, optional
        Initial covariances, in the shape of ``covariances_`` for
        ``covariance_type``. If all three initial parameters are given
        they replace ``init_params``; if only some are, they override the
        corresponding part of the ``init_params`` initialisation.
        (scikit-learn takes the precisions, the inverse covariances, as
        ``precisions_init``.)
    warm_start : bool, default=False
        If True and the estimator is fitted, ``fit`` starts from the fitted
        parameters (one run; ``n_init`` and the initial parameters are not
        used), as scikit-learn's ``warm_start`` does. The first fit uses
        the initialisation above.
    keep_history : bool, default=False
        Keep the parameters after every iteration in
        ``parameter_history_`` (memory grows with the number of
        iterations: one set of covariances, n_components d^2 numbers for
        "full", per iteration).
    random_state : int, RandomState instance or None, default=None
        Seeds the initialisation, and :meth:`sample` when it is given no
        random_state of its own.

    Attributes
    ----------
    weights_ : ndarray of shape (n_components,)
        Mixture weights pi_k.
    means_ : ndarray of shape (n_components, n_features)
        Component means mu_k.
    covariances_ : ndarray
        The covariances (regularised), in scikit-learn's shape for the
        type: (n_components, n_features, n_features) for "full",
        (n_features, n_features) for "tied", (n_components, n_features)
        for "diag", (n_components,) for "spherical".
    precisions_ : ndarray
        The inverses of the covariances, in the same shape (for "diag" and
        "spherical": the reciprocal variances).
    precisions_cholesky_ : ndarray
        scikit-learn's Cholesky factors of the precisions, in the same
        shape: the upper triangular U_k with precision U_k U_k^T (the
        transposed inverse of the lower Cholesky factor of the
        covariance); 1 / sqrt(variance) for "diag" and "spherical".
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
    parameter_history_ : list of dict, length ``n_iter_`` + 1, or None
        With ``keep_history=True``: ``{"weights": ..., "means": ...,
        "covariances": ...}`` after 0, 1, ..., ``n_iter_`` iterations of
        the kept run. None otherwise.
    n_features_in_ : int
        Number of features seen by ``fit``.

    Raises
    ------
    ValueError
        From ``fit``: NaN or infinity in X, fewer samples than components,
        n_components < 1, tol < 0, reg_covar < 0, max_iter < 1, n_init < 1,
        an unknown init_params or covariance_type, initial parameters of
        the wrong shape, not positive definite or not summing to 1, a warm
        start from a fit of another shape, and a covariance that became
        singular (possible only with ``reg_covar=0``).

    Warns
    -----
    ConvergenceWarning
        If the kept run stopped at ``max_iter``.

    References
    ----------
    Dempster, Laird & Rubin (1977); Bishop (2006), section 9.2.2;
    scikit-learn's ``sklearn.mixture.GaussianMixture`` (interface, BIC and
    AIC). Book chapter: *Gaussian mixture models*.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack(
    ...     [rng.normal(0, 1, (200, 2)), rng.normal(6, 1, (100, 2))])
    >>> model = GaussianMixtureEM(n_components=2, random_state=0).fit(X)
    >>> np.round(np.sort(model.weights_), 2)
    array([0.33, 0.67])
    >>> diag = GaussianMixtureEM(2, covariance_type="diag", random_state=0)
    >>> diag.fit(X).covariances_.shape
    (2, 2)
    """

    _param_names = ("weights", "means", "covariances")
    _parameter_constraints = {
        **_COMMON_CONSTRAINTS,
        "reg_covar": [Interval(Real, 0.0, None, closed="left")],
        "covariance_type": [StrOptions(set(COVARIANCE_TYPES))],
        "init_params": [StrOptions({"kmeans", "random"})],
        "means_init": ["array-like", None],
        "covariances_init": ["array-like", None],
        "warm_start": ["boolean"],
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
        warm_start=False,
        keep_history=False,
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
        self.warm_start = warm_start
        self.keep_history = keep_history
        self.random_state = random_state

    def _check_observations(self, X):
        return X

    def _checked_init(self, n_features):
        """Return the initial parameters, checked (None where not given)."""
        n_components = self.n_components
        init = {"weights": None, "means": None, "covariances": None}
        if self.weights_init is not None:
            init["weights"] = _check_probability_vector(
                self.weights_init, "weights_init", n_components
            )
        if self.means_init is not None:
            init["means"] = _check_means(
                self.means_init, "means_init", n_components, n_features
            )
        if self.covariances_init is not None:
            covariances = _check_covariances(
                self.covariances_init,
                "covariances_init",
                self.covariance_type,
                n_components,
                n_features,
            )
            if self.covariance_type in ("diag", "spherical"):
                positive = np.all(covariances > 0)
            else:
                positive = _is_positive_definite(covariances)
            if not positive:
                raise ValueError(
                    "covariances_init must hold positive definite matrices "
                    "(positive variances for covariance_type="
                    f"{self.covariance_type!r})."
                )
            init["covariances"] = covariances
        return init

    def _warm(self, n_features):
        if not (self.warm_start and hasattr(self, "converged_")):
            return False
        if self.means_.shape != (self.n_components, n_features) or (
            self.covariances_.shape
            != _covariance_shape(
                self.covariance_type, self.n_components, n_features
            )
        ):
            raise ValueError(
                "warm_start=True starts from the fitted parameters, of "
                f"{self.means_.shape[0]} components, "
                f"{self.means_.shape[1]} features and covariances of shape "
                f"{self.covariances_.shape}; this fit has n_components="
                f"{self.n_components}, {n_features} features and "
                f"covariance_type={self.covariance_type!r}."
            )
        return True

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
        """Return initial responsibilities, shape (n_samples, n_components)."""
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
        return gaussian_e_step(
            X,
            params["weights"],
            params["means"],
            params["covariances"],
            self.covariance_type,
        )

    def _m_step(self, X, resp, params):
        weights, means, covariances = gaussian_m_step(
            X, resp, self.reg_covar, self.covariance_type
        )
        return {"weights": weights, "means": means, "covariances": covariances}

    def _set_derived_attributes(self):
        self.precisions_cholesky_ = _precisions_cholesky(
            self.covariances_, self.covariance_type
        )
        if self.covariance_type in ("diag", "spherical"):
            self.precisions_ = self.precisions_cholesky_**2
        else:
            U = self.precisions_cholesky_
            self.precisions_ = U @ np.swapaxes(U, -1, -2)

    def _n_parameters(self):
        """Count the free parameters (weights, means, covariances)."""
        d = self.means_.shape[1]
        K = self.n_components
        covariance_numbers = {
            "full": K * d * (d + 1) // 2,
            "tied": d * (d + 1) // 2,
            "diag": K * d,
            "spherical": K,
        }[self.covariance_type]
        return (K - 1) + K * d + covariance_numbers

    def bic(self, X):
        """Bayesian information criterion of the fit on X (lower is better).

        BIC = -2 l(theta) + m log n, with l the total log-likelihood of the
        n observations X and m the number of free parameters: K - 1 weights,
        K d means and the covariance numbers of the type (K d (d + 1) / 2
        for "full", d (d + 1) / 2 for "tied", K d for "diag", K for
        "spherical"), as scikit-learn counts them.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The observations (usually the training data).

        Returns
        -------
        bic : float
            The criterion.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before ``fit``.
        ValueError
            If X has NaN or infinity, or not the number of features of the
            fit.

        References
        ----------
        Schwarz (1978), "Estimating the dimension of a model"; Bishop
        (2006), section 4.4.1; scikit-learn's ``GaussianMixture.bic``. Book
        chapter: *Gaussian mixture models* (exercise on choosing K).

        Examples
        --------
        >>> import numpy as np
        >>> rng = np.random.default_rng(0)
        >>> X = np.vstack(
        ...     [rng.normal(0, 1, (200, 2)), rng.normal(6, 1, (100, 2))])
        >>> bics = [GaussianMixtureEM(k, random_state=0).fit(X).bic(X)
        ...         for k in (1, 2, 3)]
        >>> int(np.argmin(bics)) + 1
        2
        """
        n_samples = len(X)
        return float(
            -2 * self.score(X) * n_samples
            + self._n_parameters() * np.log(n_samples)
        )

    def aic(self, X):
        """Akaike information criterion of the fit on X (lower is better).

        AIC = -2 l(theta) + 2 m, with l the total log-likelihood of X and m
        the number of free parameters (see :meth:`bic`).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The observations (usually the training data).

        Returns
        -------
        aic : float
            The criterion.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before ``fit``.
        ValueError
            If X has NaN or infinity, or not the number of features of the
            fit.

        References
        ----------
        Akaike (1974), "A new look at the statistical model
        identification"; scikit-learn's ``GaussianMixture.aic``. Book
        chapter: *Gaussian mixture models*.

        Examples
        --------
        >>> import numpy as np
        >>> rng = np.random.default_rng(0)
        >>> X = rng.normal(0, 1, (100, 2))
        >>> model = GaussianMixtureEM(1).fit(X)
        >>> bool(np.isclose(model.aic(X), -2 * 100 * model.score(X) + 2 * 5))
        True
        """
        return float(-2 * self.score(X) * len(X) + 2 * self._n_parameters())

    def sample(self, n_samples=1, random_state=None):
        """Draw points from the fitted mixture, with their components.

        The numbers of points per component are one multinomial draw with
        probabilities ``weights_``; the points of component k are then
        drawn from N(mu_k, Sigma_k) and stacked in the order of the
        components, as scikit-learn's ``GaussianMixture.sample`` does (the
        same draws for the same parameters and seed).

        Parameters
        ----------
        n_samples : int, default=1
            Number of points, >= 1.
        random_state : int, RandomState instance or None, default=None
            Seeds the draw. None uses the estimator's ``random_state``, as
            scikit-learn does (an int there gives the same points on every
            call).

        Returns
        -------
        X : ndarray of shape (n_samples, n_features)
            The points, grouped by component.
        y : ndarray of shape (n_samples,), int
            The component of each point.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before ``fit``.
        ValueError
            If n_samples is not an integer >= 1.

        References
        ----------
        Bishop (2006), section 11.1 (ancestral sampling);
        scikit-learn's ``GaussianMixture.sample``. Book chapter: *Gaussian
        mixture models*.

        Examples
        --------
        >>> import numpy as np
        >>> rng = np.random.default_rng(0)
        >>> X = np.vstack(
        ...     [rng.normal(0, 1, (200, 2)), rng.normal(6, 1, (100, 2))])
        >>> model = GaussianMixtureEM(2, random_state=0).fit(X)
        >>> points, components = model.sample(5, random_state=1)
        >>> points.shape, components.shape
        ((5, 2), (5,))
        """
        check_is_fitted(self)
        n_samples = check_int(n_samples, "n_samples")
        if random_state is None:
            random_state = self.random_state
        rng = check_random_state(random_state)
        counts = rng.multinomial(n_samples, self.weights_)
        if self.covariance_type == "full":
            points = [
                rng.multivariate_normal(mean, covariance, int(count))
                for mean, covariance, count in zip(
                    self.means_, self.covariances_, counts, strict=True
                )
            ]
        elif self.covariance_type == "tied":
            points = [
                rng.multivariate_normal(mean, self.covariances_, int(count))
                for mean, count in zip(self.means_, counts, strict=True)
            ]
        else:
            points = [
                mean
                + rng.standard_normal(size=(count, len(mean)))
                * np.sqrt(variance)
                for mean, variance, count in zip(
                    self.means_, self.covariances_, counts, strict=True
                )
            ]
        labels = [
            np.full(count, k, dtype=int) for k, count in enumerate(counts)
        ]
        return np.vstack(points), np.concatenate(labels)


def _is_positive_definite(matrices):
    """Whether every (d, d) matrix of a (d, d) or (K, d, d) array is."""
    try:
        np.linalg.cholesky(matrices)
    except np.linalg.LinAlgError:
        return False
    return True


def _precisions_cholesky(covariances, covariance_type):
    """scikit-learn's ``precisions_cholesky_`` from covariances of a type.

    For "full" and "tied", U = (chol^-1)^T with covariance = chol chol^T
    (chol lower triangular), so that U U^T is the precision; for "diag" and
    "spherical", 1 / sqrt(variance).
    """
    if covariance_type in ("diag", "spherical"):
        return 1.0 / np.sqrt(covariances)
    matrices = covariances.reshape((-1,) + covariances.shape[-2:])
    identity = np.eye(covariances.shape[-1])
    factors = np.array(
        [
            solve_triangular(_cholesky(covariance, k), identity, lower=True).T
            for k, covariance in enumerate(matrices)
        ]
    )
    return factors.reshape(covariances.shape)
