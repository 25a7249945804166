"""Kernel functions: Gram matrices computed with BLAS.

Every kernel here takes two data matrices ``X`` of shape (n, d) and ``Z`` of
shape (m, d) and returns the Gram matrix of shape (n, m) whose entry (i, j) is
K(x_i, z_j). ``Z=None`` means ``Z = X``. The work is one matrix product
``X @ Z.T`` (a single BLAS call) followed by element-wise operations: there is
no Python loop over pairs of points.

The output dtype follows the input: float32 data gives a float32 Gram matrix
(half the memory and about twice the speed of float64), anything else is
computed in float64. ``X`` and ``Z`` may be ``scipy.sparse`` matrices (CSR,
CSC or any other format, converted to CSR): the products are then sparse,
and the Gram matrix is returned as a dense ndarray all the same.

The second half of the module is a small *kernel algebra*: kernel objects
(:class:`Linear`, :class:`Polynomial`, :class:`RBF`, :class:`Sigmoid`,
:class:`Exponential`) that are callable like the functions above and combine
by the rules that keep a kernel positive semi-definite: ``k1 + k2``,
``k1 * k2``, ``c * k`` with ``c > 0``, ``k + c`` with ``c >= 0`` and
``k.exp()``. :class:`ExponentialRandomFeatures` approximates the exponential
kernel exp(x . z) by an explicit finite feature map.

Book chapters: *Kernels* and *Kernels in practice* (part II). Sources:
Schölkopf & Smola (2002) for the kernels themselves and the composition
rules; Rahimi & Recht (2007) for
random Fourier features; the parametrizations follow the book (``sigma``) and
scikit-learn (``gamma``).
"""

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin, _fit_context
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import check_is_fitted, validate_data
from threadpoolctl import ThreadpoolController

from ._validation import (
    check_data,
    check_int,
    check_nonnegative,
    check_positive,
    check_real,
    is_real,
)

__all__ = [
    "linear_kernel",
    "polynomial_kernel",
    "rbf_kernel",
    "sigmoid_kernel",
    "exponential_kernel",
    "squared_distances",
    "squared_norms",
    "rbf_gamma",
    "kernel_from_name",
    "KERNEL_NAMES",
    "Kernel",
    "Linear",
    "Polynomial",
    "RBF",
    "Sigmoid",
    "Exponential",
    "Sum",
    "Product",
    "Scaled",
    "Constant",
    "Exp",
    "ExponentialRandomFeatures",
]


def _as_pair(X, Z):
    """``X`` and ``Z`` as 2-D float arrays (or CSR matrices) of one width.

    float32 input stays float32; everything else becomes float64, and Z
    takes the dtype of X.
    """
    X = check_data(X, "X", accept_sparse=True)
    Z = (
        X
        if Z is None
        else check_data(Z, "Z", dtype=X.dtype, accept_sparse=True)
    )
    if X.shape[1] != Z.shape[1]:
        raise ValueError(
            f"X and Z must have the same number of features, got X with "
            f"{X.shape[1]} and Z with {Z.shape[1]}."
        )
    return X, Z


def _inner_products(X, Z):
    """X @ Z.T as a new dense ndarray (one BLAS call, or a sparse product).

    A feature that is zero in every row of X, or in every row of Z, adds
    nothing to any inner product. When both have many rows (a Gram matrix,
    not a few columns of one), such features are left out of the dense
    product, as LIBSVM's sparse dot product skips zeros: MNIST's 3s and 8s
    have 162 pixels that are 0 in every image, a fifth of the flops.
    """
    dense = not (sp.issparse(X) or sp.issparse(Z))
    if dense and min(X.shape[0], Z.shape[0]) >= _ROWS_TO_DROP_ZEROS:
        X, Z = _without_zero_features(X, Z)
    products = X @ Z.T
    if sp.issparse(products):
        return products.toarray()
    return np.array(products, dtype=X.dtype, copy=False)


#: Below this many rows on either side, scanning for zero features costs
#: more than it saves.
_ROWS_TO_DROP_ZEROS = 64


def _without_zero_features(X, Z):
    """X and Z without the features that are zero throughout X or Z.

    ``Z is X`` stays true of the result, so that NumPy still computes
    ``X @ X.T`` by the symmetric rank-k update (half the flops).
    """
    used = np.any(X, axis=0)
    if Z is not X:
        used &= np.any(Z, axis=0)
    if used.all():
        return X, Z
    X_used = X[:, used]
    return X_used, X_used if Z is X else Z[:, used]


def squared_norms(X):
    """||x_i||^2 for every row of X, shape (n,).

    Parameters
    ----------
    X : ndarray or scipy.sparse matrix of shape (n, d), float32 or float64
        Validated data (see ``svmlib._validation.check_data``).

    Returns
    -------
    ndarray of shape (n,), the dtype of X
        The squared Euclidean norms of the rows.

    References
    ----------
    Book chapter: *Kernels* (part II), where the Gram matrix of the Gaussian
    kernel is built from the squared norms and one matrix product.

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.kernels import squared_norms
    >>> squared_norms(np.array([[0.0, 1.0], [1.0, 1.0]]))
    array([1., 2.])
    """
    if sp.issparse(X):
        return np.asarray(X.multiply(X).sum(axis=1), dtype=X.dtype).ravel()
    return np.einsum("ij,ij->i", X, X)


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

    References
    ----------
    Schölkopf & Smola (2002), *Learning with Kernels*, chapter 2. Book chapter:
    *Kernels* (part II).

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.kernels import linear_kernel
    >>> X = np.array([[0.0, 1.0], [1.0, 1.0]])
    >>> linear_kernel(X)
    array([[1., 1.],
           [1., 2.]])
    >>> linear_kernel(X, X[:1]).shape
    (2, 1)
    """
    return Linear()(X, Z)


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
        Gram matrix, float32 if ``X`` is float32, float64 otherwise.

    Raises
    ------
    ValueError
        If ``degree`` is not an integer >= 1, ``gamma`` is not positive, or
        the inputs are invalid (see :func:`linear_kernel`).

    References
    ----------
    Schölkopf & Smola (2002), *Learning with Kernels*, section 2.1 (polynomial
    kernels and their monomial feature maps). Book chapter: *Kernels* (part
    II).

    Examples
    --------
    (x . z + 1)^2 on two points:

    >>> import numpy as np
    >>> from svmlib.kernels import polynomial_kernel
    >>> polynomial_kernel(np.array([[0.0, 1.0], [1.0, 1.0]]), degree=2)
    array([[4., 4.],
           [4., 9.]])
    """
    return Polynomial(degree=degree, gamma=gamma, coef0=coef0)(X, Z)


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
        1 / (2 sigma^2) if ``sigma`` is given, else ``gamma``.

    Raises
    ------
    ValueError
        If both or neither are given, or the one given is not positive.

    References
    ----------
    Book chapter: *Kernels* (part II), the Gaussian kernel in the book's and
    scikit-learn's parametrizations.

    Examples
    --------
    >>> from svmlib.kernels import rbf_gamma
    >>> rbf_gamma(sigma=2.0)
    0.125
    >>> rbf_gamma(gamma=0.125)
    0.125
    >>> rbf_gamma(sigma=2.0, gamma=0.125)
    Traceback (most recent call last):
    ...
    ValueError: Give either sigma or gamma for the RBF kernel, not both.
    """
    if sigma is not None and gamma is not None:
        raise ValueError(
            "Give either sigma or gamma for the RBF kernel, not both."
        )
    if sigma is None and gamma is None:
        raise ValueError("The RBF kernel needs sigma or gamma.")
    if sigma is not None:
        sigma = check_positive(sigma, "sigma")
        return 1.0 / (2.0 * sigma**2)
    return check_positive(gamma, "gamma")


def squared_distances(X, Z=None):
    """Squared Euclidean distances ||x_i - z_j||^2.

    Computed as ||x||^2 + ||z||^2 - 2 x . z with one BLAS call (or one
    sparse product); tiny negative values from rounding are set to zero.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n, d)
        First set of points.
    Z : array-like or sparse matrix of shape (m, d), default=None
        Second set of points; ``None`` means ``X``.

    Returns
    -------
    D : ndarray of shape (n, m)
        In squared feature units; float32 if ``X`` is float32, float64
        otherwise.

    Raises
    ------
    ValueError
        If an input is not 2-D, contains NaN or infinity, or the widths
        differ.

    References
    ----------
    Book chapter: *Kernels* (part II): the Gaussian kernel's Gram matrix from
    one matrix product.

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.kernels import squared_distances
    >>> squared_distances(np.array([[0.0, 1.0], [1.0, 1.0]]))
    array([[0., 1.],
           [1., 0.]])
    """
    X, Z = _as_pair(X, Z)
    x_sq = squared_norms(X)
    z_sq = x_sq if Z is X else squared_norms(Z)
    return _distances_from_products(_inner_products(X, Z), x_sq, z_sq)


def _distances_from_products(P, x_sq, z_sq):
    """||x_i - z_j||^2 = ||x_i||^2 + ||z_j||^2 - 2 P_ij, in place in P."""
    return _by_row_blocks(P, _distances_block, x_sq, z_sq)


def _distances_block(B, x_sq, z_sq):
    """:func:`_distances_from_products` on the rows B of P (x_sq: theirs)."""
    B *= -2.0
    B += x_sq[:, None]
    B += z_sq[None, :]
    return np.maximum(B, 0.0, out=B)


def _rbf_block(B, x_sq, z_sq, gamma):
    """exp(-gamma ||x_i - z_j||^2) from the inner products B, in place."""
    B = _distances_block(B, x_sq, z_sq)
    B *= -gamma
    return np.exp(B, out=B)


#: Elementwise work on a matrix is done a block of rows at a time (about
#: this many values, 128-256 KiB: the block stays in the core's cache from
#: the first operation to the last, where whole-matrix operations stream
#: the matrix through memory once per operation), and, on matrices of at
#: least ``_THREADED_VALUES`` values, the blocks are shared among as many
#: threads as BLAS has (NumPy's ufuncs release the GIL). Each value goes
#: through the same operations in the same order: the result is bitwise
#: that of the whole-matrix operations.
_BLOCK_VALUES = 2**15
_THREADED_VALUES = 2**20
_blas = None  # threadpoolctl's controller of the BLAS libraries, found once


def _elementwise_threads(size):
    """Threads for elementwise work on ``size`` values: those of BLAS.

    One in a thread other than the main one (a joblib thread of
    ``SVC(n_jobs=...)``: the jobs share the cores) and below
    ``_THREADED_VALUES`` values.
    """
    global _blas
    if size < _THREADED_VALUES:
        return 1
    if threading.current_thread() is not threading.main_thread():
        return 1
    if _blas is None:
        _blas = ThreadpoolController().select(user_api="blas")
    counts = [lib.num_threads for lib in _blas.lib_controllers]
    return max(1, min(max(counts, default=1), os.cpu_count() or 1))


def _by_row_blocks(P, block, *args):
    """Apply ``block(P[rows], row_args..., col_args...)`` to P, in place.

    ``args`` are the per-row vector (sliced with the rows) followed by the
    rest (passed whole).
    """
    if P.ndim != 2 or P.size <= _BLOCK_VALUES:
        return block(P, *args)
    n, m = P.shape
    rows = max(1, _BLOCK_VALUES // max(m, 1))
    starts = range(0, n, rows)
    row_values, rest = args[0], args[1:]

    def on(start):
        stop = start + rows
        block(P[start:stop], row_values[start:stop], *rest)

    def run(part):
        for start in part:
            on(start)

    threads = _elementwise_threads(P.size)
    if threads == 1:
        run(starts)
    else:  # every threads-th block to each thread: one task per thread
        shares = [starts[t::threads] for t in range(threads)]
        with ThreadPoolExecutor(threads) as pool:
            for _ in pool.map(run, shares):
                pass
    return P


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

    References
    ----------
    Schölkopf & Smola (2002), *Learning with Kernels*, section 2.3. Book
    chapter: *Kernels* (part II).

    Examples
    --------
    sigma = 1 and gamma = 0.5 are the same kernel: exp(-1/2) off the diagonal.

    >>> import numpy as np
    >>> from svmlib.kernels import rbf_kernel
    >>> X = np.array([[0.0, 1.0], [1.0, 1.0]])
    >>> rbf_kernel(X, sigma=1.0)
    array([[1.        , 0.60653066],
           [0.60653066, 1.        ]])
    >>> K_sigma, K_gamma = rbf_kernel(X, sigma=1.0), rbf_kernel(X, gamma=0.5)
    >>> bool(np.array_equal(K_sigma, K_gamma))
    True
    """
    return RBF(sigma=sigma, gamma=gamma)(X, Z)


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

    References
    ----------
    Schölkopf & Smola (2002), *Learning with Kernels*, section 4.6 (the sigmoid
    kernel is not positive definite in general). Book chapter: *Kernels* (part
    II).

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.kernels import sigmoid_kernel
    >>> sigmoid_kernel(np.array([[0.0, 1.0], [1.0, 1.0]]), gamma=0.5)
    array([[0.46211716, 0.46211716],
           [0.46211716, 0.76159416]])
    """
    return Sigmoid(gamma=gamma, coef0=coef0)(X, Z)


def exponential_kernel(X, Z=None, *, scale=1.0):
    """Exponential ("softmax") kernel K(x, z) = exp(scale x . z).

    It is the exponential of a (scaled) linear kernel, so it is positive
    semi-definite by the composition rules, and it is a Gaussian kernel in
    disguise:

        exp(s x . z)
            = exp(s ||x||^2 / 2) exp(s ||z||^2 / 2) exp(-s ||x - z||^2 / 2).

    On L2-normalised inputs (||x|| = ||z|| = 1) it equals e^s times the RBF
    kernel with gamma = s / 2. Without normalisation the values grow as
    exp(s ||x|| ||z||) and overflow quickly: normalise the rows first (for
    example with ``sklearn.preprocessing.Normalizer``).

    Parameters
    ----------
    X : array-like of shape (n, d)
        First set of points.
    Z : array-like of shape (m, d), default=None
        Second set of points; ``None`` means ``X``.
    scale : float, default=1.0
        The factor s in front of the inner product, positive (an inverse
        temperature).

    Returns
    -------
    K : ndarray of shape (n, m)
        Positive values; float32 if ``X`` is float32, float64 otherwise.

    Raises
    ------
    ValueError
        If ``scale`` is not positive or the inputs are invalid (see
        ``linear_kernel``).

    References
    ----------
    Schölkopf & Smola (2002), section 13.1 (the exponential of a kernel is a
    kernel); the book's source notes on hard-margin SMO with this kernel.

    Examples
    --------
    exp(x . z / 2): e^(1/2) where x . z = 1, e where x . z = 2.

    >>> import numpy as np
    >>> from svmlib.kernels import exponential_kernel
    >>> exponential_kernel(np.array([[0.0, 1.0], [1.0, 1.0]]), scale=0.5)
    array([[1.64872127, 1.64872127],
           [1.64872127, 2.71828183]])
    """
    return Exponential(scale=scale)(X, Z)


# ---------------------------------------------------------------------------
# The kernel algebra
# ---------------------------------------------------------------------------


class Kernel:
    """Base class of kernel objects: callable, closed under composition.

    A kernel object ``k`` is called like the kernel functions of this module:
    ``k(X, Z)`` returns the Gram matrix of shape (len(X), len(Z)) and
    ``k(X)`` the square Gram matrix of X. It can therefore be passed as
    ``svmlib.SVC(kernel=k)``.

    Kernel objects combine by the rules that preserve positive
    semi-definiteness (Schölkopf & Smola 2002, section 13.1):

    ==================  ======================  =========================
    expression          Gram matrix             class
    ==================  ======================  =========================
    ``k1 + k2``         K1 + K2                 :class:`Sum`
    ``k1 * k2``         K1 * K2 (element-wise)  :class:`Product`
    ``c * k``, c > 0    c K                     :class:`Scaled`
    ``k + c``, c >= 0   K + c                   :class:`Sum`, :class:`Constant`
    ``k.exp()``         exp(K) (element-wise)   :class:`Exp`
    ==================  ======================  =========================

    A negative multiple is refused with a ValueError: it is not a kernel.

    Every kernel here is a function of the inner product x . z and the
    squared norms ||x||^2, ||z||^2 alone, so its Gram matrix is one matrix
    product followed by element-wise operations
    (:meth:`from_inner_products`). That is also how a solver's kernel cache
    computes a column in one pass over the data (``svmlib.gram``). A
    subclass implements :meth:`from_inner_products` (and sets
    ``uses_norms`` if it needs the norms), or overrides ``_gram(X, Z)`` on
    validated arrays (2-D, finite, same width, float32 or float64) if its
    kernel is not such a function.


    References
    ----------
    Schölkopf & Smola (2002), *Learning with Kernels*, section 13.1 (the
    closure rules). Book chapter: *Kernels* (part II), "A kernel algebra".

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.kernels import Linear, RBF
    >>> k = 0.5 * Linear() + RBF(sigma=2.0) * RBF(sigma=3.0)
    >>> k
    0.5 * Linear() + RBF(sigma=2) * RBF(sigma=3)
    >>> k(np.eye(3)).shape
    (3, 3)
    """

    #: Binding strength for repr: 1 for sums, 2 for products and
    #: scalings, 3 for atoms.
    _precedence = 3
    #: Arrays do not combine with kernels (``K + np.eye(n)`` is a
    #: TypeError, not an object array).
    __array_ufunc__ = None

    def __call__(self, X, Z=None):
        """Return the Gram matrix K(X, Z), with ``Z=None`` meaning X.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n, d)
            First set of points.
        Z : array-like or sparse matrix of shape (m, d), default=None
            Second set of points; ``None`` means ``X``.

        Returns
        -------
        K : ndarray of shape (n, m)
            K(x_i, z_j); float32 if ``X`` is float32, float64 otherwise.

        Raises
        ------
        ValueError
            If an input is not 2-D, contains NaN or infinity, or the widths
            differ.

        References
        ----------
        Schölkopf & Smola (2002), *Learning with Kernels*, section 2.2 (the
        Gram matrix). Book chapter: *Kernels* (part II).

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.kernels import Linear
        >>> X, Z = np.array([[0.0, 1.0], [1.0, 1.0]]), np.array([[1.0, 0.0]])
        >>> Linear()(X, Z)
        array([[0.],
               [1.]])
        """
        X, Z = _as_pair(X, Z)
        return self._gram(X, Z)

    #: Whether :meth:`from_inner_products` needs the squared norms.
    uses_norms = False

    def _gram(self, X, Z):
        P = _inner_products(X, Z)
        if not self.uses_norms:
            return self.from_inner_products(P)
        x_sq = squared_norms(X)
        z_sq = x_sq if Z is X else squared_norms(Z)
        return self.from_inner_products(P, x_sq, z_sq)

    def from_inner_products(self, P, x_sq=None, z_sq=None):
        """Compute the Gram matrix from the inner products P = X Z^T, in place.

        Parameters
        ----------
        P : ndarray of shape (n, m), float32 or float64
            Inner products x_i . z_j; overwritten with K(x_i, z_j).
        x_sq : ndarray of shape (n,), optional
            ||x_i||^2, same dtype; needed when ``uses_norms`` is True.
        z_sq : ndarray of shape (m,), optional
            ||z_j||^2, same dtype; needed when ``uses_norms`` is True.

        Returns
        -------
        K : ndarray of shape (n, m)
            ``P`` itself, or a new array of its shape and dtype.

        Raises
        ------
        NotImplementedError
            If this kernel is not a function of the inner products and
            norms (a subclass that implements ``_gram`` only).

        References
        ----------
        Book chapter: *Kernels* (part II); a solver's kernel cache computes its
        columns this way (``svmlib.gram``).

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.kernels import Polynomial
        >>> X = np.array([[0.0, 1.0], [1.0, 1.0]])
        >>> Polynomial(degree=2).from_inner_products(X @ X.T)
        array([[4., 4.],
               [4., 9.]])
        """
        raise NotImplementedError(
            f"{type(self).__name__} implements neither "
            "from_inner_products(P, x_sq, z_sq) nor _gram(X, Z)."
        )

    @property
    def computes_from_products(self):
        """Whether :meth:`from_inner_products` gives this kernel."""
        return type(self).from_inner_products is not (
            Kernel.from_inner_products
        )

    def __add__(self, other):
        """Return ``self + other``: a sum of kernels, or K + c for c >= 0."""
        if isinstance(other, Kernel):
            return Sum(self, other)
        if is_real(other):
            return self if other == 0 else Sum(self, Constant(other))
        return NotImplemented

    def __radd__(self, other):
        """Return ``other + self`` for a number ``other``."""
        # makes sum([k1, k2, ...]) work: it starts from 0
        if is_real(other):
            return self if other == 0 else Sum(Constant(other), self)
        return NotImplemented

    def __mul__(self, other):
        """Return ``self * other``: a product of kernels, or c K for c > 0."""
        if isinstance(other, Kernel):
            return Product(self, other)
        if is_real(other):
            return Scaled(other, self)
        return NotImplemented

    def __rmul__(self, other):
        """Return ``other * self`` for a number ``other``."""
        if is_real(other):
            return Scaled(other, self)
        return NotImplemented

    def exp(self):
        """Return the kernel exp(K(x, z)), element-wise (:class:`Exp`).

        Returns
        -------
        Exp
            The kernel object whose Gram matrix is exp of this one's.

        References
        ----------
        Schölkopf & Smola (2002), section 13.1 (the exponential of a kernel
        is a kernel).

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.kernels import Linear
        >>> k = Linear().exp()
        >>> k
        exp(Linear())
        >>> k(np.array([[1.0, 1.0]]))
        array([[7.3890561]])
        """
        return Exp(self)

    def _wrapped(self, precedence):
        text = repr(self)
        return f"({text})" if self._precedence < precedence else text


class _Combination(Kernel):
    """A kernel made of two kernels, ``first`` and ``second``."""

    def __init__(self, first, second):
        self.first = _check_kernel(first, "first")
        self.second = _check_kernel(second, "second")

    @property
    def uses_norms(self):
        """Whether either kernel needs the squared norms."""
        return self.first.uses_norms or self.second.uses_norms

    @property
    def computes_from_products(self):
        """Whether both kernels are functions of the inner products."""
        return (
            self.first.computes_from_products
            and self.second.computes_from_products
        )


class Sum(_Combination):
    """K(x, z) = K1(x, z) + K2(x, z): the feature maps are concatenated.

    Parameters
    ----------
    first, second : Kernel
        The two kernels.

    References
    ----------
    Schölkopf & Smola (2002), *Learning with Kernels*, section 13.1. Book
    chapter: *Kernels* (part II), "A kernel algebra".

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.kernels import Constant, Linear, Sum
    >>> X = np.array([[0.0, 1.0], [1.0, 1.0]])
    >>> k = Sum(Linear(), Constant(1.0))
    >>> k
    Linear() + 1
    >>> k(X)
    array([[2., 2.],
           [2., 3.]])
    """

    _precedence = 1

    def _gram(self, X, Z):
        K = self.first._gram(X, Z)
        K = K + self.second._gram(X, Z)
        return K

    def from_inner_products(self, P, x_sq=None, z_sq=None):
        """Compute K from the inner products (see the base class)."""
        K = self.first.from_inner_products(P.copy(), x_sq, z_sq)
        K += self.second.from_inner_products(P, x_sq, z_sq)
        return K

    def __repr__(self):
        """Return the expression that builds this kernel."""
        return f"{self.first._wrapped(1)} + {self.second._wrapped(1)}"


class Product(_Combination):
    """K(x, z) = K1(x, z) K2(x, z): the tensor product of the feature maps.

    Its Gram matrix is the element-wise (Schur) product of two PSD matrices,
    PSD by the Schur product theorem.

    Parameters
    ----------
    first, second : Kernel
        The two kernels.

    References
    ----------
    Schölkopf & Smola (2002), *Learning with Kernels*, section 13.1 and the
    Schur product theorem. Book chapter: *Kernels* (part II), "A kernel
    algebra".

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.kernels import Linear
    >>> X = np.array([[0.0, 1.0], [1.0, 1.0]])
    >>> Linear() * Linear()
    Linear() * Linear()
    >>> (Linear() * Linear())(X)
    array([[1., 1.],
           [1., 4.]])
    """

    _precedence = 2

    def _gram(self, X, Z):
        K = self.first._gram(X, Z)
        K = K * self.second._gram(X, Z)
        return K

    def from_inner_products(self, P, x_sq=None, z_sq=None):
        """Compute K from the inner products (see the base class)."""
        K = self.first.from_inner_products(P.copy(), x_sq, z_sq)
        K *= self.second.from_inner_products(P, x_sq, z_sq)
        return K

    def __repr__(self):
        """Return the expression that builds this kernel."""
        return f"{self.first._wrapped(2)} * {self.second._wrapped(2)}"


class Scaled(Kernel):
    """K(x, z) = c K1(x, z) with c > 0.

    Parameters
    ----------
    factor : float
        Positive factor.
    kernel : Kernel
        The kernel K1 that is scaled.

    Raises
    ------
    ValueError
        If ``factor`` is not a positive finite number (c K is positive
        semi-definite only for c > 0: a negative multiple of a kernel is not
        a kernel).

    References
    ----------
    Schölkopf & Smola (2002), *Learning with Kernels*, section 13.1. Book
    chapter: *Kernels* (part II), "A kernel algebra".

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.kernels import Linear
    >>> X = np.array([[0.0, 1.0], [1.0, 1.0]])
    >>> (2 * Linear())(X)
    array([[2., 2.],
           [2., 4.]])
    >>> -1 * Linear()  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: A kernel can only be scaled by a positive number ..., got -1.
    """

    _precedence = 2

    def __init__(self, factor, kernel):
        # the message says why (the kernels chapter shows it)
        if not is_real(factor) or not 0 < factor < np.inf:
            raise ValueError(
                "A kernel can only be scaled by a positive number (c K is "
                f"PSD only for c > 0), got {factor!r}."
            )
        self.factor = float(factor)
        self.kernel = _check_kernel(kernel, "kernel")

    def _gram(self, X, Z):
        K = self.kernel._gram(X, Z)
        return K * K.dtype.type(self.factor)

    @property
    def uses_norms(self):
        """Whether the inner kernel needs the squared norms."""
        return self.kernel.uses_norms

    @property
    def computes_from_products(self):
        """Whether the inner kernel is a function of the inner products."""
        return self.kernel.computes_from_products

    def from_inner_products(self, P, x_sq=None, z_sq=None):
        """Compute K from the inner products (see the base class)."""
        K = self.kernel.from_inner_products(P, x_sq, z_sq)
        K *= K.dtype.type(self.factor)
        return K

    def __repr__(self):
        """Return the expression that builds this kernel."""
        return f"{self.factor:g} * {self.kernel._wrapped(2)}"


class Constant(Kernel):
    """K(x, z) = c with c >= 0: the kernel of the constant feature sqrt(c).

    Parameters
    ----------
    value : float
        Non-negative constant.

    Raises
    ------
    ValueError
        If ``value`` is negative or not finite.

    References
    ----------
    Schölkopf & Smola (2002), *Learning with Kernels*, section 13.1. Book
    chapter: *Kernels* (part II), "A kernel algebra".

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.kernels import Constant
    >>> X = np.array([[0.0, 1.0], [1.0, 1.0]])
    >>> Constant(0.5)(X)
    array([[0.5, 0.5],
           [0.5, 0.5]])
    """

    def __init__(self, value):
        self.value = check_nonnegative(value, "value")

    def _gram(self, X, Z):
        return np.full((X.shape[0], Z.shape[0]), self.value, dtype=X.dtype)

    def from_inner_products(self, P, x_sq=None, z_sq=None):
        """Compute K from the inner products (see the base class)."""
        P.fill(self.value)
        return P

    def __repr__(self):
        """Return the expression that builds this kernel."""
        return f"{self.value:g}"


class Exp(Kernel):
    """K(x, z) = exp(K1(x, z)), element-wise.

    exp(K1) = sum_k K1^k / k! is a limit of sums of positive multiples of
    products of K1 with itself, hence a kernel. Large values of K1 overflow
    (exp(710) is infinite in float64).

    Parameters
    ----------
    kernel : Kernel
        The kernel K1.

    References
    ----------
    Schölkopf & Smola (2002), *Learning with Kernels*, section 13.1 (the
    exponential of a kernel is a kernel). Book chapter: *Kernels* (part II), "A
    kernel algebra".

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.kernels import Exp, Linear
    >>> X = np.array([[0.0, 1.0], [1.0, 1.0]])
    >>> Exp(Linear())(X)
    array([[2.71828183, 2.71828183],
           [2.71828183, 7.3890561 ]])
    """

    def __init__(self, kernel):
        self.kernel = _check_kernel(kernel, "kernel")

    def _gram(self, X, Z):
        K = self.kernel._gram(X, Z)
        return np.exp(K)

    @property
    def uses_norms(self):
        """Whether the inner kernel needs the squared norms."""
        return self.kernel.uses_norms

    @property
    def computes_from_products(self):
        """Whether the inner kernel is a function of the inner products."""
        return self.kernel.computes_from_products

    def from_inner_products(self, P, x_sq=None, z_sq=None):
        """Compute K from the inner products (see the base class)."""
        K = self.kernel.from_inner_products(P, x_sq, z_sq)
        return np.exp(K, out=K)

    def __repr__(self):
        """Return the expression that builds this kernel."""
        return f"exp({self.kernel!r})"


def _check_kernel(kernel, name):
    if not isinstance(kernel, Kernel):
        raise ValueError(
            f"{name} must be a svmlib.kernels.Kernel, got "
            f"{type(kernel).__name__}."
        )
    return kernel


class Linear(Kernel):
    """The linear kernel x . z as a kernel object (see ``linear_kernel``).

    References
    ----------
    Schölkopf & Smola (2002), *Learning with Kernels*, chapter 2. Book chapter:
    *Kernels* (part II).

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.kernels import Linear
    >>> X = np.array([[0.0, 1.0], [1.0, 1.0]])
    >>> Linear()(X)
    array([[1., 1.],
           [1., 2.]])
    """

    def from_inner_products(self, P, x_sq=None, z_sq=None):
        """Compute K from the inner products (see the base class)."""
        return P

    def __repr__(self):
        """Return the expression that builds this kernel."""
        return "Linear()"


class Polynomial(Kernel):
    """The polynomial kernel (gamma x . z + coef0) ** degree as an object.

    Parameters
    ----------
    degree : int, default=3
        Degree of the polynomial, at least 1.
    gamma : float, default=1.0
        Scale of the inner product, positive.
    coef0 : float, default=1.0
        Constant term, as in ``polynomial_kernel``; for ``coef0 < 0`` the
        kernel is not PSD in general.

    Raises
    ------
    ValueError
        If ``degree`` is not an integer >= 1 or ``gamma`` is not positive.

    References
    ----------
    Schölkopf & Smola (2002), *Learning with Kernels*, section 2.1. Book
    chapter: *Kernels* (part II).

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.kernels import Polynomial
    >>> X = np.array([[0.0, 1.0], [1.0, 1.0]])
    >>> Polynomial(degree=2)(X)
    array([[4., 4.],
           [4., 9.]])
    """

    def __init__(self, degree=3, gamma=1.0, coef0=1.0):
        self.degree = check_int(degree, "degree")
        self.gamma = check_positive(gamma, "gamma")
        self.coef0 = check_real(coef0, "coef0")

    def from_inner_products(self, P, x_sq=None, z_sq=None):
        """Compute K from the inner products (see the base class)."""
        P *= self.gamma
        P += self.coef0
        return np.power(P, self.degree, out=P)

    def __repr__(self):
        """Return the expression that builds this kernel."""
        return (
            f"Polynomial(degree={self.degree}, gamma={self.gamma:g}, "
            f"coef0={self.coef0:g})"
        )


class RBF(Kernel):
    """The Gaussian kernel exp(-||x - z||^2 / (2 sigma^2)) as a kernel object.

    Parameters
    ----------
    sigma : float, optional
        Kernel width (the book's parameter), positive.
    gamma : float, optional
        scikit-learn's parameter, positive. Exactly one of ``sigma`` and
        ``gamma``, as in ``rbf_kernel``.

    Raises
    ------
    ValueError
        If both or neither are given, or the one given is not positive.

    References
    ----------
    Schölkopf & Smola (2002), *Learning with Kernels*, section 2.3. Book
    chapter: *Kernels* (part II).

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.kernels import RBF
    >>> X = np.array([[0.0, 1.0], [1.0, 1.0]])
    >>> RBF(sigma=1.0)(X)
    array([[1.        , 0.60653066],
           [0.60653066, 1.        ]])
    >>> RBF(sigma=1.0, gamma=0.5)
    Traceback (most recent call last):
    ...
    ValueError: Give either sigma or gamma for the RBF kernel, not both.
    """

    def __init__(self, sigma=None, gamma=None):
        self.sigma = sigma
        self.gamma = gamma
        # the resolved gamma, whichever parametrization was given
        self._gamma = rbf_gamma(sigma=sigma, gamma=gamma)

    uses_norms = True

    def from_inner_products(self, P, x_sq=None, z_sq=None):
        """Compute K from the inner products (see the base class)."""
        return _by_row_blocks(P, _rbf_block, x_sq, z_sq, self._gamma)

    def __repr__(self):
        """Return the expression that builds this kernel."""
        if self.sigma is not None:
            return f"RBF(sigma={self.sigma:g})"
        return f"RBF(gamma={self.gamma:g})"


class Sigmoid(Kernel):
    """The sigmoid kernel tanh(gamma x . z + coef0) as a kernel object.

    Not positive semi-definite for all parameters: sums and products that
    contain it need not be kernels either.

    Parameters
    ----------
    gamma : float, default=1.0
        Scale of the inner product, positive.
    coef0 : float, default=0.0
        Offset inside the tanh.

    Raises
    ------
    ValueError
        If ``gamma`` is not positive.

    References
    ----------
    Schölkopf & Smola (2002), *Learning with Kernels*, section 4.6. Book
    chapter: *Kernels* (part II).

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.kernels import Sigmoid
    >>> X = np.array([[0.0, 1.0], [1.0, 1.0]])
    >>> Sigmoid(gamma=0.5)(X)
    array([[0.46211716, 0.46211716],
           [0.46211716, 0.76159416]])
    """

    def __init__(self, gamma=1.0, coef0=0.0):
        self.gamma = check_positive(gamma, "gamma")
        self.coef0 = check_real(coef0, "coef0")

    def from_inner_products(self, P, x_sq=None, z_sq=None):
        """Compute K from the inner products (see the base class)."""
        P *= self.gamma
        P += self.coef0
        return np.tanh(P, out=P)

    def __repr__(self):
        """Return the expression that builds this kernel."""
        return f"Sigmoid(gamma={self.gamma:g}, coef0={self.coef0:g})"


class Exponential(Kernel):
    """The exponential kernel exp(scale x . z) as a kernel object.

    See :func:`exponential_kernel`.

    ``Exponential(scale=s)`` has the same Gram matrix as
    ``(s * Linear()).exp()``, computed with one exponential pass.

    Parameters
    ----------
    scale : float, default=1.0
        The factor s in front of the inner product, positive.

    Raises
    ------
    ValueError
        If ``scale`` is not positive.

    References
    ----------
    Schölkopf & Smola (2002), *Learning with Kernels*, section 13.1. Book
    chapter: *Kernels* (part II).

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.kernels import Exponential, Linear
    >>> X = np.array([[0.0, 1.0], [1.0, 1.0]])
    >>> Exponential(scale=0.5)(X)
    array([[1.64872127, 1.64872127],
           [1.64872127, 2.71828183]])
    >>> bool(np.allclose(Exponential(0.5)(X), (0.5 * Linear()).exp()(X)))
    True
    """

    def __init__(self, scale=1.0):
        self.scale = check_positive(scale, "scale")

    def from_inner_products(self, P, x_sq=None, z_sq=None):
        """Compute K from the inner products (see the base class)."""
        P *= self.scale
        return np.exp(P, out=P)

    def __repr__(self):
        """Return the expression that builds this kernel."""
        return f"Exponential(scale={self.scale:g})"


#: The kernel names of :func:`kernel_from_name` (scikit-learn's SVC names).
KERNEL_NAMES = ("linear", "poly", "rbf", "sigmoid")


def kernel_from_name(name, *, gamma=1.0, degree=3, coef0=0.0):
    """Return the kernel that scikit-learn's SVC means by ``kernel=name``.

    ====================  ================================  ================
    ``name``              K(x, z)                           object
    ====================  ================================  ================
    ``"linear"``          x . z                             :class:`Linear`
    ``"poly"``            (gamma x . z + coef0) ** degree   :class:`Polynomial`
    ``"rbf"``             exp(-gamma ||x - z||^2)           :class:`RBF`
    ``"sigmoid"``         tanh(gamma x . z + coef0)         :class:`Sigmoid`
    ====================  ================================  ================

    Parameters
    ----------
    name : {"linear", "poly", "rbf", "sigmoid"}
        The kernel's name.
    gamma : float, default=1.0
        Scale of the inner product ("poly", "sigmoid") or inverse squared
        length scale ("rbf"), in inverse squared feature units; > 0.
        Resolve scikit-learn's "scale" and "auto", or the book's sigma
        (:func:`rbf_gamma`), before calling. Ignored by "linear".
    degree : int, default=3
        Degree of "poly", >= 1; ignored by the others.
    coef0 : float, default=0.0
        Constant term of "poly" and "sigmoid"; ignored by the others. The
        defaults of degree and coef0 are scikit-learn's.

    Returns
    -------
    Kernel
        A callable ``kernel(X, Z=None)`` that returns the Gram matrix.

    Raises
    ------
    ValueError
        If ``name`` is not one of :data:`KERNEL_NAMES`, or a parameter that
        the kernel uses is invalid.

    References
    ----------
    Chang & Lin (2011), "LIBSVM: a library for support vector machines",
    section 2 (the four kernels and their parameters). Book chapter:
    *Kernels* (part II).

    Examples
    --------
    >>> from svmlib.kernels import kernel_from_name
    >>> kernel_from_name("rbf", gamma=0.5)
    RBF(gamma=0.5)
    >>> kernel_from_name("poly", gamma=2.0, degree=2, coef0=1.0)
    Polynomial(degree=2, gamma=2, coef0=1)
    """
    if name == "linear":
        return Linear()
    if name == "poly":
        return Polynomial(degree=degree, gamma=gamma, coef0=coef0)
    if name == "rbf":
        return RBF(gamma=gamma)
    if name == "sigmoid":
        return Sigmoid(gamma=gamma, coef0=coef0)
    raise ValueError(f"kernel must be one of {KERNEL_NAMES}, got {name!r}.")


# ---------------------------------------------------------------------------
# Random features for the exponential kernel
# ---------------------------------------------------------------------------


class ExponentialRandomFeatures(TransformerMixin, BaseEstimator):
    """Trigonometric random features: phi(x) . phi(z) ~ exp(scale x . z).

    Write the exponential kernel as a Gaussian kernel times two envelopes,

        exp(s x . z)
            = exp(s ||x||^2 / 2) exp(s ||z||^2 / 2) exp(-s ||x - z||^2 / 2),

    and replace the Gaussian factor by its random Fourier expansion (Bochner's
    theorem): for w ~ N(0, s I),

        exp(-s ||x - z||^2 / 2) = E[cos(w . (x - z))]
            = E[cos(w . x) cos(w . z) + sin(w . x) sin(w . z)].

    With m frequencies w_1, ..., w_m the map

        phi(x) = exp(s ||x||^2 / 2) / sqrt(m)
                 [cos(w_1 . x), ..., cos(w_m . x),
                  sin(w_1 . x), ..., sin(w_m . x)]

    has E[phi(x) . phi(z)] = exp(s x . z) exactly, with a Monte Carlo error
    that falls like 1 / sqrt(m). On L2-normalised inputs the envelope is the
    constant exp(s / 2).

    Parameters
    ----------
    n_components : int, default=100
        Number m of random frequencies; ``transform`` returns 2 m features
        (a cosine and a sine per frequency).
    scale : float, default=1.0
        The s of exp(s x . z), positive.
    random_state : int, RandomState instance or None, default=None
        Seeds the frequencies.

    Attributes
    ----------
    frequencies_ : ndarray of shape (n_components, n_features)
        The w_k, drawn from N(0, scale I).
    n_features_in_ : int

    Raises
    ------
    ValueError
        From ``fit``: ``n_components`` not a positive integer, ``scale`` not
        a positive finite number, or X not a finite 2-D array.

    References
    ----------
    Rahimi & Recht (2007), "Random features for large-scale kernel machines"
    (random Fourier features for the Gaussian factor); the book's source notes
    on the trigonometric feature map of the softmax kernel.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.preprocessing import normalize
    >>> from svmlib.kernels import (
    ...     ExponentialRandomFeatures, exponential_kernel)
    >>> X = normalize(np.random.default_rng(0).normal(size=(50, 5)))
    >>> Phi = ExponentialRandomFeatures(4000, random_state=0).fit_transform(X)
    >>> float(np.abs(Phi @ Phi.T - exponential_kernel(X)).max()) < 0.2
    True
    """

    def __init__(self, n_components=100, *, scale=1.0, random_state=None):
        self.n_components = n_components
        self.scale = scale
        self.random_state = random_state

    _parameter_constraints = {
        "n_components": [Interval(Integral, 1, None, closed="left")],
        "scale": [Interval(Real, 0.0, np.inf, closed="neither")],
        "random_state": ["random_state"],
    }

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Draw the frequencies for the width of X.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data; only its width is used.
        y : None
            Ignored.

        Returns
        -------
        self : ExponentialRandomFeatures
            The fitted transformer.

        Raises
        ------
        ValueError
            For parameters outside their ranges (checked first, by
            scikit-learn's ``_parameter_constraints``), or X not a finite
            2-D array.

        References
        ----------
        Rahimi & Recht (2007), "Random features for large-scale kernel
        machines", algorithm 1 (frequencies drawn from the kernel's Fourier
        transform).

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.kernels import ExponentialRandomFeatures
        >>> features = ExponentialRandomFeatures(3, random_state=0)
        >>> features.fit(np.zeros((4, 2))).frequencies_.shape
        (3, 2)
        """
        X = validate_data(self, X, dtype=np.float64)
        rng = check_random_state(self.random_state)
        self.frequencies_ = rng.normal(
            scale=np.sqrt(self.scale), size=(self.n_components, X.shape[1])
        )
        return self

    def transform(self, X):
        """Return the features phi(X).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points of the width seen by ``fit``.

        Returns
        -------
        Phi : ndarray of shape (n_samples, 2 n_components), float64
            The cosines then the sines, times the envelope
            exp(scale ||x||^2 / 2) / sqrt(n_components).

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If ``fit`` has not been called.
        ValueError
            If X is not a finite 2-D array of the fitted width.

        References
        ----------
        Rahimi & Recht (2007), "Random features for large-scale kernel
        machines"; book chapter: *Kernels in practice* (part II), random
        features.

        Examples
        --------
        At x = 0 the sines vanish and each cosine is 1 / sqrt(m):

        >>> import numpy as np
        >>> from svmlib.kernels import ExponentialRandomFeatures
        >>> features = ExponentialRandomFeatures(4, random_state=0)
        >>> features.fit(np.ones((3, 2))).transform(np.zeros((1, 2)))
        array([[0.5, 0.5, 0.5, 0.5, 0. , 0. , 0. , 0. ]])
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        projection = X @ self.frequencies_.T
        envelope = np.exp(
            0.5 * self.scale * np.einsum("ij,ij->i", X, X)
        ) / np.sqrt(self.frequencies_.shape[0])
        return (
            np.hstack([np.cos(projection), np.sin(projection)])
            * envelope[:, None]
        )
