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
    "check_n_classes",
    "check_n_support",
    "check_nonnegative",
    "check_pairwise_decision",
    "check_positive",
    "check_real",
    "check_sample_weight",
    "check_tol",
    "float_dtype",
    "is_real",
    "positive_weight_points",
]


def is_real(value):
    """Whether value is a real number (a Python or NumPy scalar, not bool)."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def check_real(value, name):
    """Return value as a finite float.

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
    """Return value as a float > 0; finite unless ``allow_inf``.

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
    """Return value as a finite float >= 0.

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
    """Return value as an int >= ``minimum``.

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
    """Return tol as a positive finite float (a solver's stopping tolerance).

    Raises
    ------
    ValueError
        If tol is not a positive finite number.
    """
    return check_positive(tol, "tol")


#: What ``max_iter=-1`` (scikit-learn's "no limit") becomes: the largest
#: int64, a count no solver reaches.
NO_LIMIT = int(np.iinfo(np.int64).max)


def check_max_iter(max_iter, n):
    """``max_iter`` as an int: LIBSVM's default for None, no limit for -1.

    Parameters
    ----------
    max_iter : int or None
        Maximum number of iterations: an integer >= 1; -1 for no limit
        (scikit-learn's convention, ``SVC(max_iter=-1)``); None for
        LIBSVM's default max(10^7, 100 n).
    n : int
        Number of training points.

    Returns
    -------
    max_iter : int
        :data:`NO_LIMIT` (the largest int64) for -1.

    Raises
    ------
    ValueError
        If max_iter is neither None, -1 nor an integer >= 1.

    Notes
    -----
    LIBSVM's ``Solver::Solve`` (Chang & Lin 2011): at least 10^7 steps, and
    100 n for large n.

    References
    ----------
    Chang & Lin (2011), "LIBSVM: a library for support vector machines",
    section 4.1; scikit-learn's ``SVC(max_iter=-1)``.

    Examples
    --------
    >>> from svmlib._validation import check_max_iter
    >>> check_max_iter(None, 200_000), check_max_iter(50, 10)
    (20000000, 50)
    >>> check_max_iter(-1, 10) == NO_LIMIT
    True
    """
    if max_iter is None:
        return max(10_000_000, 100 * n)
    if (
        isinstance(max_iter, numbers.Integral)
        and not isinstance(max_iter, bool)
        and max_iter == -1
    ):
        return NO_LIMIT
    if (
        not isinstance(max_iter, numbers.Integral)
        or isinstance(max_iter, bool)
        or max_iter < 1
    ):
        raise ValueError(
            "max_iter must be an integer >= 1, or -1 for no limit, got "
            f"{max_iter!r}."
        )
    return int(max_iter)


def check_n_classes(n_classes):
    """Return the number of classes K as an int >= 2.

    Parameters
    ----------
    n_classes : int
        K, at least 2.

    Returns
    -------
    n_classes : int

    Raises
    ------
    ValueError
        If n_classes is not an integer >= 2.

    References
    ----------
    Hsu & Lin (2002), "A comparison of methods for multiclass support
    vector machines"; book chapter *More than two classes*.

    Examples
    --------
    >>> from svmlib._validation import check_n_classes
    >>> check_n_classes(3)
    3
    """
    return check_int(n_classes, "n_classes", minimum=2)


def check_pairwise_decision(decision, n_classes):
    """Pairwise decision values as a 2-D float64 array, one column per pair.

    Parameters
    ----------
    decision : array-like of shape (n_samples, K (K - 1) / 2)
        f_ij of the one-vs-one machines, pairs in LIBSVM's order.
    n_classes : int
        K >= 2.

    Returns
    -------
    decision : ndarray of shape (n_samples, K (K - 1) / 2), float64

    Raises
    ------
    ValueError
        If n_classes is not an integer >= 2, decision is not numeric,
        not 2-D with K (K - 1) / 2 columns, or holds NaN.

    References
    ----------
    Hsu & Lin (2002); Chang & Lin (2011), section 7.

    Examples
    --------
    >>> from svmlib._validation import check_pairwise_decision
    >>> check_pairwise_decision([[0.5, -1.0, 2.0]], 3).shape
    (1, 3)
    """
    n_classes = check_n_classes(n_classes)
    n_pairs = n_classes * (n_classes - 1) // 2
    decision = np.asarray(decision)
    if not (
        np.issubdtype(decision.dtype, np.number) or decision.dtype == np.bool_
    ):
        raise ValueError(
            f"decision must hold numbers, got dtype {decision.dtype}."
        )
    if decision.ndim != 2 or decision.shape[1] != n_pairs:
        raise ValueError(
            f"decision must be of shape (n_samples, {n_pairs}): one column "
            f"per pair of the {n_classes} classes, got shape "
            f"{decision.shape}."
        )
    decision = decision.astype(np.float64, copy=False)
    if np.isnan(decision).any():
        raise ValueError("decision contains NaN.")
    return decision


def check_n_support(n_support, n_columns, name="dual_coef"):
    """Support vectors per class as int64, checked against their total.

    Parameters
    ----------
    n_support : array-like of shape (K,)
        Number of support vectors of each class, K >= 2.
    n_columns : int
        The number of support vectors that the other arrays hold.
    name : str, default="dual_coef"
        The array that holds them, for the message.

    Returns
    -------
    n_support : ndarray of shape (K,), int64

    Raises
    ------
    ValueError
        If n_support is not a 1-D array of K >= 2 non-negative integers
        summing to ``n_columns``.

    References
    ----------
    Chang & Lin (2011), section 7 (LIBSVM's model layout).

    Examples
    --------
    >>> from svmlib._validation import check_n_support
    >>> check_n_support([2, 1, 3], 6).tolist()
    [2, 1, 3]
    """
    n_support = np.asarray(n_support)
    valid = (
        n_support.ndim == 1
        and n_support.size >= 2
        and np.issubdtype(n_support.dtype, np.integer)
        and (n_support >= 0).all()
    )
    if not valid:
        raise ValueError(
            "n_support must be a 1-D array of K >= 2 non-negative integers "
            f"(support vectors per class), got {n_support!r}."
        )
    if n_support.sum() != n_columns:
        raise ValueError(
            f"n_support sums to {n_support.sum()} support vectors but "
            f"{name} has {n_columns}."
        )
    return n_support.astype(np.int64)


def check_labels(y, n, *, both_classes=True):
    """Labels as a float64 array of -1.0 and +1.0, checked against n points.

    Parameters
    ----------
    y : array-like of shape (n,)
        Labels in {-1, +1}, with both classes present.
    n : int
        Number of training points.
    both_classes : bool, default=True
        Whether both classes must be present (not for the general dual of
        :func:`svmlib.solvers.smo` with a linear term, such as the one-class
        SVM's, where every y_i is +1).

    Returns
    -------
    y : ndarray of shape (n,), float64

    Raises
    ------
    ValueError
        If y is not 1-D of length n, holds values other than -1 and +1, or
        holds only one class (with ``both_classes``).
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
    if both_classes and values.size < 2:
        raise ValueError(
            "y holds only one class; an SVM needs points of both classes."
        )
    return y.astype(np.float64)


def check_C(C, y=None):
    """Return the box constraint: one C for all points, or one C_i per point.

    Parameters
    ----------
    C : float or array-like of shape (n,)
        A float in (0, inf] (``np.inf`` is the hard margin), or, when ``y``
        is given, the per-point upper bounds 0 <= alpha_i <= C_i with
        C_i in [0, inf), or np.inf for every point (the hard margin), as
        an estimator passes them (LIBSVM's ``get_C(i)``: C_i = C *
        weight_i for sample and class weights). A point with C_i = 0 has
        alpha_i = 0 throughout: it never becomes a support vector, as if
        it were not in the training set (LIBSVM, in scikit-learn's
        version, removes such points before solving).
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
        without ``y``, is not of shape (n,), has a negative or NaN entry,
        an infinite entry among finite ones, or leaves a class without a
        point with C_i > 0 (scikit-learn's "all samples with positive
        weights belong to the same class").

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
    hard_margin = C.size > 0 and np.all(C == np.inf)
    if not (hard_margin or np.all(np.isfinite(C))) or np.any(C < 0):
        raise ValueError(
            "Per-point C must hold finite numbers C_i >= 0 (or np.inf for "
            "every point: the hard margin); got values in "
            f"[{np.nanmin(C):.3g}, {np.nanmax(C):.3g}]"
            f"{' and NaN' if np.isnan(C).any() else ''}."
        )
    for label in np.unique(y):
        if not np.any(C[y == label] > 0):
            raise ValueError(
                f"Every point of class {label:+g} has C_i = 0 (zero weight): "
                "the points that can move all belong to one class."
            )
    return C


def check_sample_weight(sample_weight, n):
    """Sample weights as a finite float64 array of shape (n,).

    Parameters
    ----------
    sample_weight : array-like of shape (n,) or None
        One weight per training point; None gives ones.
    n : int
        Number of training points.

    Returns
    -------
    sample_weight : ndarray of shape (n,), float64
        Negative and zero weights are kept: :func:`positive_weight_points`
        leaves their points out.

    Raises
    ------
    ValueError
        If sample_weight is not numeric, not of shape (n,), or holds NaN
        or infinity; the message names ``sample_weight``.

    References
    ----------
    scikit-learn's ``sklearn.utils.validation._check_sample_weight``.

    Examples
    --------
    >>> from svmlib._validation import check_sample_weight
    >>> check_sample_weight([1, 0.5, -1], 3).tolist()
    [1.0, 0.5, -1.0]
    >>> check_sample_weight(None, 2).tolist()
    [1.0, 1.0]
    """
    if sample_weight is None:
        return np.ones(n)
    try:
        weight = np.asarray(sample_weight, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(
            "sample_weight must hold numbers, got "
            f"{type(sample_weight).__name__}."
        ) from None
    if weight.shape != (n,):
        raise ValueError(
            f"sample_weight must be of shape ({n},), one weight per "
            f"training point, got shape {weight.shape}."
        )
    if not np.all(np.isfinite(weight)):
        bad = "NaN" if np.isnan(weight).any() else "infinity"
        raise ValueError(
            f"sample_weight contains {bad} (at index "
            f"{int(np.flatnonzero(~np.isfinite(weight))[0])}); every "
            "weight must be a finite number."
        )
    return weight


def positive_weight_points(weight, y_index, classes):
    """Return the points with weight > 0; every class must keep one.

    The rule of LIBSVM, and of scikit-learn's ``SVC`` and ``LinearSVC``:
    a point whose weight (sample weight times class weight) is zero or
    negative is left out of the training problem.

    Parameters
    ----------
    weight : ndarray of shape (n,)
        The weight of each point.
    y_index : ndarray of shape (n,), int
        Class index of each point, into ``classes``.
    classes : ndarray of shape (K,)
        The class labels as the user gave them, for the messages.

    Returns
    -------
    kept : ndarray of int
        Indices of the points with positive weight, increasing.

    Raises
    ------
    ValueError
        If no point has a positive weight, or a class has none (the
        message names the classes by their labels).

    References
    ----------
    Chang & Lin (2011), section 6 (weighted C); scikit-learn's
    ``BaseLibSVM.fit``.

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib._validation import positive_weight_points
    >>> weight, y_index = np.array([1.0, -2.0, 0.5]), np.array([0, 1, 1])
    >>> positive_weight_points(weight, y_index, np.array(["a", "b"])).tolist()
    [0, 2]
    """
    kept = np.flatnonzero(weight > 0)
    if kept.size == 0:
        raise ValueError(
            "Invalid input - all samples have zero or negative weights "
            "(sample_weight times class_weight); at least one point of "
            "each class needs a positive weight."
        )
    present = np.zeros(len(classes), dtype=bool)
    present[y_index[kept]] = True
    classes = np.asarray(classes)
    if present.sum() == 1:
        raise ValueError(
            "Invalid input - all samples with positive weights belong to "
            f"the same class, {classes[present].tolist()[0]!r} (sample_weight "
            "times class_weight); an SVM needs points of two classes."
        )
    missing = classes[~present]
    if missing.size:
        raise ValueError(
            "Invalid input - no sample of the class"
            f"{'es' if missing.size > 1 else ''} {missing.tolist()} has a "
            "positive weight (sample_weight times class_weight); every "
            "class of y needs one."
        )
    return kept


def float_dtype(dtype):
    """float32 for float32 data, float64 for anything else.

    The one dtype rule of svmlib: float32 input gives float32 Gram matrices
    (half the memory, about twice the speed), all other input is computed
    in float64.
    """
    return np.dtype(np.float32 if dtype == np.float32 else np.float64)


def check_data(A, name, *, dtype=None, accept_sparse=False):
    """Return a data matrix as a finite 2-D float array (or CSR matrix).

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
    """Return a Gram matrix as a C-contiguous square finite float array.

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
