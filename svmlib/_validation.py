"""Input checks shared by all of svmlib: the bottom layer.

Every public function of svmlib validates its input here, so that the same
mistake gets the same message everywhere. The module imports only NumPy,
SciPy and scikit-learn, never another svmlib module; the layers above it
are

    _validation  <-  duality, kernels, gram  <-  solvers  <-  estimators.

Every check raises ``ValueError`` naming the argument and what was wrong
with it, also for an argument of the wrong type (``C="1"``): svmlib's
callers catch one exception type. (scikit-learn's
``sklearn.utils.check_scalar`` raises ``TypeError`` for a wrong type, which
is why it is not used here.)
"""

import numbers

import numpy as np
import scipy.sparse as sp

__all__ = [
    "check_C",
    "check_data",
    "check_gram",
    "check_int",
    "check_labels",
    "check_max_iter",
    "check_nonnegative",
    "check_positive",
    "check_real",
    "check_tol",
    "float_dtype",
    "is_real",
]


def is_real(value):
    """Whether value is a real number (a Python or NumPy scalar, not bool)."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def check_real(value, name):
    """value as a finite float.

    Raises
    ------
    ValueError
        If value is not a real number, or is NaN or infinite.
    """
    if not is_real(value) or not np.isfinite(value):
        raise ValueError(
            f"{name} must be a finite real number, got {value!r}."
        )
    return float(value)


def check_positive(value, name, *, allow_inf=False):
    """value as a float > 0; finite unless ``allow_inf``.

    Raises
    ------
    ValueError
        If value is not a real number, is not > 0, is NaN, or is infinite
        and ``allow_inf`` is False.
    """
    finite = "" if allow_inf else " finite"
    if (
        not is_real(value)
        or not value > 0
        or (not allow_inf and not np.isfinite(value))
    ):
        raise ValueError(
            f"{name} must be a positive{finite} number, got {value!r}."
        )
    return float(value)


def check_nonnegative(value, name):
    """value as a finite float >= 0.

    Raises
    ------
    ValueError
        If value is not a real number, is negative, NaN or infinite.
    """
    if not is_real(value) or not value >= 0 or not np.isfinite(value):
        raise ValueError(
            f"{name} must be a non-negative finite number, got {value!r}."
        )
    return float(value)


def check_int(value, name, *, minimum=1):
    """value as an int >= ``minimum``.

    Raises
    ------
    ValueError
        If value is not an integer (bool excluded) or is below ``minimum``.
    """
    if (
        not isinstance(value, numbers.Integral)
        or isinstance(value, bool)
        or value < minimum
    ):
        raise ValueError(
            f"{name} must be an integer >= {minimum}, got {value!r}."
        )
    return int(value)


def check_tol(tol):
    """tol as a positive finite float (the stopping tolerance of a solver).

    Raises
    ------
    ValueError
        If tol is not a positive finite number.
    """
    return check_positive(tol, "tol")


def check_max_iter(max_iter, n):
    """``max_iter``, or LIBSVM's default max(10^7, 100 n) when it is None.

    Parameters
    ----------
    max_iter : int or None
        Maximum number of iterations, >= 1.
    n : int
        Number of training points.

    Returns
    -------
    max_iter : int

    Raises
    ------
    ValueError
        If max_iter is neither None nor an integer >= 1.

    Notes
    -----
    LIBSVM's ``Solver::Solve`` (Chang & Lin 2011): at least 10^7 steps, and
    100 n for large n.
    """
    if max_iter is None:
        return max(10_000_000, 100 * n)
    return check_int(max_iter, "max_iter")


def check_labels(y, n):
    """Labels as a float64 array of -1.0 and +1.0, checked against n points.

    Parameters
    ----------
    y : array-like of shape (n,)
        Labels in {-1, +1}, with both classes present.
    n : int
        Number of training points.

    Returns
    -------
    y : ndarray of shape (n,), float64

    Raises
    ------
    ValueError
        If y is not 1-D of length n, holds values other than -1 and +1, or
        holds only one class.
    """
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != n:
        raise ValueError(
            f"y must be a 1-D array of length {n} (one label per training "
            f"point), got shape {y.shape}."
        )
    values = np.unique(y)
    if not np.all(np.isin(values, (-1, 1))):
        raise ValueError(
            "The solvers take labels in {-1, +1}, got the values "
            f"{values[:5].tolist()}."
        )
    if values.size < 2:
        raise ValueError(
            "y holds only one class; an SVM needs points of both classes."
        )
    return y.astype(np.float64)


def check_C(C, y=None):
    """The box constraint: one C for all points, or one C_i per point.

    Parameters
    ----------
    C : float or array-like of shape (n,)
        A float in (0, inf] (``np.inf`` is the hard margin), or, when ``y``
        is given, the per-point upper bounds 0 <= alpha_i <= C_i with
        C_i in [0, inf) (LIBSVM's ``get_C(i)``: C_i = C * weight_i for
        sample and class weights). A point with C_i = 0 has alpha_i = 0
        throughout: it never becomes a support vector, as if it were not
        in the training set (LIBSVM, in scikit-learn's version, removes
        such points before solving).
    y : ndarray of shape (n,), optional
        Labels in {-1, +1}, already checked by :func:`check_labels`; per-
        point C is accepted only with them.

    Returns
    -------
    C : float, or ndarray of shape (n,), float64

    Raises
    ------
    ValueError
        If a scalar C is not a positive number; if an array C is given
        without ``y``, is not of shape (n,), has a negative, NaN or
        infinite entry, or leaves a class without a point with C_i > 0
        (scikit-learn's "all samples with positive weights belong to the
        same class").

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib._validation import check_C
    >>> check_C(2)
    2.0
    >>> y = np.array([1.0, -1.0, 1.0])
    >>> check_C(2.0 * np.array([1.0, 0.5, 0.0]), y).tolist()
    [2.0, 1.0, 0.0]
    >>> check_C(-1.0)
    Traceback (most recent call last):
    ...
    ValueError: C must be a positive number (np.inf for the hard margin), \
got -1.0.
    """
    if np.ndim(C) == 0:
        if not is_real(C) or np.isnan(C) or not C > 0:
            raise ValueError(
                "C must be a positive number (np.inf for the hard margin), "
                f"got {C!r}."
            )
        return float(C)
    if y is None:
        raise ValueError(
            "C must be a positive number here; per-point bounds C_i are "
            f"not supported, got an array of shape {np.shape(C)}."
        )
    return _check_per_point_C(C, y)


def _check_per_point_C(C, y):
    """Per-point bounds C_i as float64, checked against the labels y."""
    n = y.shape[0]
    C = np.asarray(C)
    if C.shape != (n,) or not np.issubdtype(C.dtype, np.number):
        raise ValueError(
            f"Per-point C must be a numeric array of shape ({n},) (one "
            f"bound C_i per training point), got shape {C.shape}."
        )
    C = C.astype(np.float64)
    if not np.all(np.isfinite(C)) or np.any(C < 0):
        raise ValueError(
            "Per-point C must hold finite numbers C_i >= 0; got values in "
            f"[{np.nanmin(C):.3g}, {np.nanmax(C):.3g}]"
            f"{' and NaN' if np.isnan(C).any() else ''}."
        )
    for label in (-1.0, 1.0):
        if not np.any(C[y == label] > 0):
            raise ValueError(
                f"Every point of class {label:+g} has C_i = 0 (zero weight): "
                "the points that can move all belong to one class."
            )
    return C


def float_dtype(dtype):
    """float32 for float32 data, float64 for anything else.

    The one dtype rule of svmlib: float32 input gives float32 Gram matrices
    (half the memory, about twice the speed), all other input is computed
    in float64.
    """
    return np.dtype(np.float32 if dtype == np.float32 else np.float64)


def check_data(A, name, *, dtype=None, accept_sparse=False):
    """A data matrix as a finite 2-D float array (or CSR sparse matrix).

    Parameters
    ----------
    A : array-like or scipy.sparse matrix of shape (n, d)
        Data points, one per row.
    name : str
        The argument's name, for the error messages.
    dtype : numpy dtype, optional
        The dtype to convert to; default :func:`float_dtype` of A's dtype.
    accept_sparse : bool, default=False
        Whether a scipy.sparse matrix or array is accepted; it is returned
        in CSR format (row slicing), any other format converted.

    Returns
    -------
    A : ndarray or scipy.sparse CSR matrix of shape (n, d)

    Raises
    ------
    ValueError
        If A is sparse and ``accept_sparse`` is False, is not 2-D, or holds
        NaN or infinity.
    """
    if sp.issparse(A):
        if not accept_sparse:
            raise ValueError(
                f"{name} must be a dense array here, got a sparse matrix."
            )
        A = A.tocsr()
        values = A.data
    else:
        A = np.asarray(A)
        values = A
    if dtype is None:
        dtype = float_dtype(A.dtype)
    A = A.astype(dtype, copy=False)
    if A.ndim != 2:
        raise ValueError(
            f"{name} must be a 2-D array of shape (n_samples, n_features), "
            f"got shape {A.shape}."
        )
    if not np.all(np.isfinite(values)):
        raise ValueError(f"{name} contains NaN or infinity.")
    return A


def check_gram(K):
    """A Gram matrix as a C-contiguous square finite float array.

    Parameters
    ----------
    K : array-like of shape (n, n)
        Gram matrix K_ij = K(x_i, x_j).

    Returns
    -------
    K : ndarray of shape (n, n)
        float32 if K is float32, float64 otherwise (:func:`float_dtype`).

    Raises
    ------
    ValueError
        If K is not square or contains NaN or infinity.
    """
    K = np.asarray(K)
    K = K.astype(float_dtype(K.dtype), copy=False)
    if K.ndim != 2 or K.shape[0] != K.shape[1]:
        raise ValueError(
            f"The Gram matrix K must be square, got shape {K.shape}."
        )
    if not _all_finite(K):
        raise ValueError("The Gram matrix K contains NaN or infinity.")
    return np.ascontiguousarray(K)


def _all_finite(A, chunk_bytes=2**22):
    """Whether every entry of A is finite, checked a few rows at a time.

    ``np.isfinite(A)`` of a whole Gram matrix would be a temporary boolean
    array of n^2 bytes (144 MB for n = 12000); rows of about 4 MB at a
    time keep the check's memory bounded.
    """
    rows = max(1, chunk_bytes // max(1, A[:1].nbytes))
    return all(
        np.isfinite(A[start : start + rows]).all()
        for start in range(0, A.shape[0], rows)
    )
