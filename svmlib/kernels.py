"""Kernel functions: Gram matrices computed with BLAS.

Every kernel here takes two data matrices ``X`` of shape (n, d) and ``Z`` of
shape (m, d) and returns the Gram matrix of shape (n, m) whose entry (i, j) is
K(x_i, z_j). ``Z=None`` means ``Z = X``. The work is one matrix product
``X @ Z.T`` (a single BLAS call) followed by element-wise operations: there is
no Python loop over pairs of points.

The output dtype follows the input: float32 data gives a float32 Gram matrix
(half the memory and about twice the speed of float64), anything else is
computed in float64.

Book chapter: *Kernels* (part II). Sources: Schölkopf & Smola (2002) for the
kernels themselves; the parametrizations follow the book (``sigma``) and
scikit-learn (``gamma``).
"""

import numbers

import numpy as np

__all__ = [
    "linear_kernel",
    "polynomial_kernel",
    "rbf_kernel",
    "sigmoid_kernel",
    "rbf_gamma",
]


def _as_pair(X, Z):
    """Return ``X`` and ``Z`` as 2-D float arrays of matching width.

    float32 input stays float32; everything else becomes float64.
    """
    X = _as_2d_float(X, "X")
    Z = X if Z is None else _as_2d_float(Z, "Z", dtype=X.dtype)
    if X.shape[1] != Z.shape[1]:
        raise ValueError(
            f"X and Z must have the same number of features, got X with "
            f"{X.shape[1]} and Z with {Z.shape[1]}."
        )
    return X, Z


def _as_2d_float(A, name, dtype=None):
    A = np.asarray(A)
    if dtype is None:
        dtype = np.float32 if A.dtype == np.float32 else np.float64
    A = A.astype(dtype, copy=False)
    if A.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array of shape (n_samples, n_features), got shape {A.shape}.")
    if not np.all(np.isfinite(A)):
        raise ValueError(f"{name} contains NaN or infinity.")
    return A


def _check_positive(value, name):
    if not isinstance(value, numbers.Real) or isinstance(value, bool) or not value > 0 or not np.isfinite(value):
        raise ValueError(f"{name} must be a positive finite number, got {value!r}.")
    return float(value)


def _check_real(value, name):
    if not isinstance(value, numbers.Real) or isinstance(value, bool) or not np.isfinite(value):
        raise ValueError(f"{name} must be a finite real number, got {value!r}.")
    return float(value)


def linear_kernel(X, Z=None):
    """Linear kernel K(x, z) = x . z.

    Parameters
    ----------
    X : array-like of shape (n, d)
        First set of points.
    Z : array-like of shape (m, d), default=None
        Second set of points; ``None`` means ``X``.

    Returns
    -------
    K : ndarray of shape (n, m)
        Gram matrix, float32 if ``X`` is float32, float64 otherwise.

    Raises
    ------
    ValueError
        If an input is not 2-D, contains NaN or infinity, or the widths differ.
    """
    X, Z = _as_pair(X, Z)
    return X @ Z.T


def polynomial_kernel(X, Z=None, *, degree=3, gamma=1.0, coef0=1.0):
    """Polynomial kernel K(x, z) = (gamma x . z + coef0) ** degree.

    Parameters
    ----------
    X : array-like of shape (n, d)
        First set of points.
    Z : array-like of shape (m, d), default=None
        Second set of points; ``None`` means ``X``.
    degree : int, default=3
        Degree of the polynomial, at least 1.
    gamma : float, default=1.0
        Scale of the inner product, positive.
    coef0 : float, default=1.0
        Constant term; with ``coef0 > 0`` all monomials up to ``degree``
        appear in the feature map.

    Returns
    -------
    K : ndarray of shape (n, m)

    Raises
    ------
    ValueError
        If ``degree`` is not an integer >= 1, ``gamma`` is not positive, or
        the inputs are invalid (see :func:`linear_kernel`).
    """
    if not isinstance(degree, numbers.Integral) or isinstance(degree, bool) or degree < 1:
        raise ValueError(f"degree must be an integer >= 1, got {degree!r}.")
    gamma = _check_positive(gamma, "gamma")
    coef0 = _check_real(coef0, "coef0")
    X, Z = _as_pair(X, Z)
    K = X @ Z.T
    K *= gamma
    K += coef0
    return K ** int(degree)


def rbf_gamma(sigma=None, gamma=None):
    """Resolve the two parametrizations of the Gaussian (RBF) kernel.

    The book writes the kernel with a width ``sigma``,
    exp(-||x - z||^2 / (2 sigma^2)); scikit-learn writes it with
    ``gamma``, exp(-gamma ||x - z||^2). They are the same kernel when
    ``gamma = 1 / (2 sigma^2)``.

    Parameters
    ----------
    sigma : float, optional
        Kernel width, in the units of the features; positive.
    gamma : float, optional
        Inverse squared length scale, in inverse squared feature units;
        positive.

    Returns
    -------
    gamma : float

    Raises
    ------
    ValueError
        If both or neither are given, or the one given is not positive.
    """
    if sigma is not None and gamma is not None:
        raise ValueError("Give either sigma or gamma for the RBF kernel, not both.")
    if sigma is None and gamma is None:
        raise ValueError("The RBF kernel needs sigma or gamma.")
    if sigma is not None:
        sigma = _check_positive(sigma, "sigma")
        return 1.0 / (2.0 * sigma**2)
    return _check_positive(gamma, "gamma")


def squared_distances(X, Z=None):
    """Squared Euclidean distances ||x_i - z_j||^2, shape (n, m).

    Computed as ||x||^2 + ||z||^2 - 2 x . z with one BLAS call; tiny negative
    values from rounding are set to zero.
    """
    X, Z = _as_pair(X, Z)
    x_sq = np.einsum("ij,ij->i", X, X)
    z_sq = x_sq if Z is X else np.einsum("ij,ij->i", Z, Z)
    D = X @ Z.T
    D *= -2.0
    D += x_sq[:, None]
    D += z_sq[None, :]
    np.maximum(D, 0.0, out=D)
    return D


def rbf_kernel(X, Z=None, *, sigma=None, gamma=None):
    """Gaussian (RBF) kernel, in the book's or scikit-learn's parametrization.

    K(x, z) = exp(-||x - z||^2 / (2 sigma^2)) = exp(-gamma ||x - z||^2).

    Parameters
    ----------
    X : array-like of shape (n, d)
        First set of points.
    Z : array-like of shape (m, d), default=None
        Second set of points; ``None`` means ``X``.
    sigma : float, optional
        Kernel width (the book's parameter), positive.
    gamma : float, optional
        scikit-learn's parameter, positive. Exactly one of ``sigma`` and
        ``gamma`` must be given.

    Returns
    -------
    K : ndarray of shape (n, m)
        Values in (0, 1]; the diagonal of ``rbf_kernel(X)`` is 1.

    Raises
    ------
    ValueError
        If both or neither of ``sigma`` and ``gamma`` are given, the one given
        is not positive, or the inputs are invalid.
    """
    gamma = rbf_gamma(sigma=sigma, gamma=gamma)
    K = squared_distances(X, Z)
    K *= -gamma
    return np.exp(K, out=K)


def sigmoid_kernel(X, Z=None, *, gamma=1.0, coef0=0.0):
    """Sigmoid (hyperbolic tangent) kernel K(x, z) = tanh(gamma x . z + coef0).

    This kernel is not positive semi-definite for every choice of parameters
    (see the *Kernels* chapter); the SMO solvers still terminate on it.

    Parameters
    ----------
    X : array-like of shape (n, d)
        First set of points.
    Z : array-like of shape (m, d), default=None
        Second set of points; ``None`` means ``X``.
    gamma : float, default=1.0
        Scale of the inner product, positive.
    coef0 : float, default=0.0
        Offset inside the tanh.

    Returns
    -------
    K : ndarray of shape (n, m)
        Values in (-1, 1).

    Raises
    ------
    ValueError
        If ``gamma`` is not positive or the inputs are invalid.
    """
    gamma = _check_positive(gamma, "gamma")
    coef0 = _check_real(coef0, "coef0")
    X, Z = _as_pair(X, Z)
    K = X @ Z.T
    K *= gamma
    K += coef0
    return np.tanh(K, out=K)
