"""Kernel parameters and the one-machine kernel model shared by estimators.

:class:`svmlib.SVR`, :class:`svmlib.NuSVR` and :class:`svmlib.OneClassSVM`
each train one machine whose decision function is

    f(x) = sum_i coef_i K(x_i, x) + intercept,

on the dual problem that :mod:`svmlib.formulations` builds. What they share
is here: scikit-learn's kernel parameters (``kernel``, ``gamma``,
``degree``, ``coef0``) and their resolution (gamma="scale" and "auto"),
user callables whose Gram matrices are checked, the training Gram matrix
within ``cache_size``, the fitted attributes in scikit-learn's layout
(``support_``, ``support_vectors_``, ``dual_coef_``, ``intercept_``, ...),
the decision function computed in blocks of rows, ``coef_`` for the linear
kernel, and the one ``ConvergenceWarning``.

The helpers ``scale_gamma``, ``DenseCallable``, ``dense_if_not_sparse``,
``sparse_like_sklearn`` and ``rows_per_block`` do what the private helpers
of the same names in :mod:`svmlib.svc` do (SVC and NuSVC may import them
from here).
"""

import warnings
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn import get_config
from sklearn.base import BaseEstimator
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import _safe_indexing, column_or_1d
from sklearn.utils._param_validation import Interval, Options, StrOptions
from sklearn.utils.validation import (
    _assert_all_finite,
    check_consistent_length,
    check_is_fitted,
    validate_data,
)

from ._validation import check_max_iter, check_sample_weight
from .gram import gram_fits, make_gram
from .kernels import KERNEL_NAMES, kernel_from_name
from .solvers._common import STATUSES, not_converged_message

__all__ = [
    "GAMMA_KERNELS",
    "KERNEL_PARAMETER_CONSTRAINTS",
    "SOLVER_PARAMETER_CONSTRAINTS",
    "DenseCallable",
    "dense_if_not_sparse",
    "n_points",
    "resolve_gamma",
    "rows_per_block",
    "scale_gamma",
    "sparse_like_sklearn",
]

#: The kernels that take gamma.
GAMMA_KERNELS = ("rbf", "poly", "sigmoid")

#: scikit-learn's constraints on the kernel parameters, with svmlib's
#: ranges: gamma > 0 and degree >= 1 (scikit-learn also accepts gamma = 0
#: and degree = 0, constant kernels).
KERNEL_PARAMETER_CONSTRAINTS = {
    "kernel": [StrOptions({*KERNEL_NAMES, "precomputed"}), callable],
    "degree": [Interval(Integral, 1, None, closed="left")],
    "gamma": [
        StrOptions({"scale", "auto"}),
        Interval(Real, 0.0, None, closed="neither"),
    ],
    "coef0": [Interval(Real, None, None, closed="neither")],
}

#: The constraints on the solver's parameters, as scikit-learn's (but
#: max_iter = 0 is refused: -1 means no limit, otherwise at least 1 step).
SOLVER_PARAMETER_CONSTRAINTS = {
    "tol": [Interval(Real, 0.0, None, closed="neither")],
    "shrinking": ["boolean"],
    "cache_size": [Interval(Real, 0.0, None, closed="neither")],
    "verbose": ["verbose"],
    "max_iter": [
        Interval(Integral, 1, None, closed="left"),
        Options(Integral, {-1}),
    ],
}


def n_points(X):
    """Return the number of points of X: rows, or items of a sequence."""
    return X.shape[0] if hasattr(X, "shape") else len(X)


def scale_gamma(X):
    """scikit-learn's gamma="scale": 1 / (n_features * X.var()).

    Parameters
    ----------
    X : ndarray or scipy.sparse matrix of shape (n, d)
        The training points.

    Returns
    -------
    gamma : float
        1.0 when X.var() is 0 (scikit-learn's rule).

    Raises
    ------
    ValueError
        If X.var() is not finite (it overflows when the features are too
        large), or so small that gamma overflows.

    References
    ----------
    scikit-learn's ``SVC(gamma="scale")``, ``sklearn.svm._base``.

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib._kernel_params import scale_gamma
    >>> scale_gamma(np.array([[0.0, 2.0], [2.0, 0.0]]))  # var 1, 2 features
    0.5
    """
    with np.errstate(over="ignore", invalid="ignore"):
        if sp.issparse(X):
            variance = X.multiply(X).mean() - X.mean() ** 2
        else:
            variance = X.var()
    if not np.isfinite(variance):
        raise ValueError(
            "gamma='scale' is 1 / (n_features * X.var()), but X.var() is "
            f"{variance} in {X.dtype}: the feature values are too large for "
            "their variance to be computed in floating point (the squares "
            "overflow). Rescale X, for example with "
            "sklearn.preprocessing.StandardScaler."
        )
    if variance <= 0:
        return 1.0
    with np.errstate(over="ignore"):
        gamma = 1.0 / (X.shape[1] * variance)
    if not np.isfinite(gamma):
        raise ValueError(
            f"gamma='scale' is 1 / (n_features * X.var()), but X.var() = "
            f"{variance:.3g} is so small that gamma overflows. Rescale X, for "
            "example with sklearn.preprocessing.StandardScaler."
        )
    return float(gamma)


def resolve_gamma(kernel, gamma, X):
    """Return the kernel's gamma as a float, None for kernels without one.

    Parameters
    ----------
    kernel : str or callable
        The estimator's ``kernel``.
    gamma : {"scale", "auto"} or float
        The estimator's ``gamma``.
    X : ndarray or scipy.sparse matrix of shape (n, d)
        The training points (for "scale" and "auto").

    Returns
    -------
    gamma : float or None

    Raises
    ------
    ValueError
        From :func:`scale_gamma`.

    References
    ----------
    scikit-learn's ``sklearn.svm._base.BaseLibSVM.fit``.

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib._kernel_params import resolve_gamma
    >>> resolve_gamma("rbf", "auto", np.ones((3, 4)))
    0.25
    >>> resolve_gamma("linear", "scale", np.ones((3, 4))) is None
    True
    """
    if kernel not in GAMMA_KERNELS:
        return None
    if gamma == "scale":
        return scale_gamma(X)
    if gamma == "auto":
        return 1.0 / X.shape[1]
    return float(gamma)


class DenseCallable:
    """A user's kernel callable whose Gram matrices come out as ndarrays.

    Parameters
    ----------
    kernel : callable
        ``kernel(A, B)`` returns a matrix of shape (len(A), len(B)),
        ndarray or sparse.

    References
    ----------
    scikit-learn's callable kernels (``SVC(kernel=callable)``).

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib._kernel_params import DenseCallable
    >>> DenseCallable(lambda A, B: A @ B.T)(np.eye(2), np.eye(2)).dtype
    dtype('float64')
    """

    def __init__(self, kernel):
        self.kernel = kernel

    def __call__(self, A, B):
        """Return the Gram matrix of A and B, checked, as an ndarray.

        Parameters
        ----------
        A, B : array-like or any sequence the kernel accepts
            The two sets of points.

        Returns
        -------
        K : ndarray of shape (len(A), len(B)), float32 or float64

        Raises
        ------
        ValueError
            If the kernel returns a matrix of the wrong shape, or one that
            does not hold numbers.
        """
        K = self.kernel(A, B)
        if sp.issparse(K):
            K = K.toarray()
        K = np.asarray(K)
        name = getattr(self.kernel, "__name__", repr(self.kernel))
        expected = (n_points(A), n_points(B))
        if K.shape != expected:
            raise ValueError(
                f"The kernel {name} returned a matrix of shape {K.shape} for "
                f"{expected[0]} and {expected[1]} points; kernel(A, B) must "
                f"return shape (len(A), len(B)) = {expected}."
            )
        if not np.issubdtype(K.dtype, np.number):
            raise ValueError(
                f"The kernel {name} returned a matrix of dtype {K.dtype}, "
                "not numbers."
            )
        return K if K.dtype == np.float32 else K.astype(np.float64)


def rows_per_block(n_support, cache_size):
    """Points per block of kernel values against the support vectors.

    A block of r points holds r x n_SV kernel values, counted at 8 bytes
    and twice (the kernel's inner products and a temporary), within
    ``cache_size`` MiB; at least one point.

    Parameters
    ----------
    n_support : int
        Number of support vectors.
    cache_size : float
        Memory budget in MiB.

    Returns
    -------
    rows : int

    Examples
    --------
    >>> from svmlib._kernel_params import rows_per_block
    >>> rows_per_block(1024, 1)
    64
    """
    return max(1, int(cache_size * 2**20) // (16 * max(1, n_support)))


def dense_if_not_sparse(X):
    """Return a sparse X as an array if that takes no more memory.

    Such a matrix (about 2/3 nonzeros or more in float64) is not sparse:
    BLAS products on the dense copy are faster than sparse ones, and the
    model is then exactly the one fitted on the dense array.

    Parameters
    ----------
    X : ndarray or scipy.sparse matrix

    Returns
    -------
    X : ndarray or scipy.sparse matrix

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> from svmlib._kernel_params import dense_if_not_sparse
    >>> type(dense_if_not_sparse(sp.csr_matrix(np.ones((3, 3))))).__name__
    'ndarray'
    """
    if not sp.issparse(X):
        return X
    sparse_bytes = X.data.nbytes + X.indices.nbytes + X.indptr.nbytes
    if X.shape[0] * X.shape[1] * X.dtype.itemsize <= sparse_bytes:
        return X.toarray()
    return X


def sparse_like_sklearn(A):
    """Return A as CSR in scikit-learn's configured sparse interface.

    Parameters
    ----------
    A : array-like or scipy.sparse matrix

    Returns
    -------
    scipy.sparse.csr_matrix or scipy.sparse.csr_array

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib._kernel_params import sparse_like_sklearn
    >>> sparse_like_sklearn(np.eye(2)).nnz
    2
    """
    if get_config().get("sparse_interface") == "sparray":
        return sp.csr_array(A)
    return sp.csr_matrix(A)


#: How the warning words each way of stopping short (the solver's status).


class KernelMachine(BaseEstimator):
    """Base of the estimators that train one kernel machine by SMO.

    Subclasses set ``_formulation_name`` and implement ``_solve(gram, y,
    weight)``, which returns a :class:`svmlib.formulations.DualSolution`
    for the kept points (weight > 0). ``fit`` is theirs (the signatures
    differ); they call :meth:`_fit_machine`.
    """

    def __sklearn_tags__(self):
        """Return scikit-learn's tags: pairwise for "precomputed"."""
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self.kernel == "precomputed"
        tags.input_tags.sparse = self.kernel != "precomputed"
        return tags

    # -- fit -------------------------------------------------------------

    def _validate_training_data(self, X, y):
        """X and y (None for one-class) checked; y as float64."""
        if callable(self.kernel):
            if y is not None:
                y = column_or_1d(y, warn=True)
                check_consistent_length(X, y)
        elif sp.issparse(X) and self.kernel == "precomputed":
            raise TypeError("Sparse precomputed kernels are not supported.")
        elif y is None:
            X = validate_data(
                self, X, accept_sparse="csr", dtype=(np.float64, np.float32)
            )
        else:
            X, y = validate_data(
                self,
                X,
                y,
                accept_sparse="csr",
                dtype=(np.float64, np.float32),
                y_numeric=True,
            )
        if y is not None:
            try:
                y = np.asarray(y, dtype=np.float64)
            except (TypeError, ValueError):
                raise ValueError(
                    "y must hold real numbers (the regression targets), got "
                    f"dtype {np.asarray(y).dtype}."
                ) from None
            _assert_all_finite(y, input_name="y")
        if self.kernel == "precomputed" and X.shape[0] != X.shape[1]:
            raise ValueError(
                "With kernel='precomputed', X is the Gram matrix of the "
                f"training points and must be square; got shape {X.shape}."
            )
        return X, y

    def _fit_machine(self, X, y, sample_weight):
        """Train on X (validated), y or None; set the fitted attributes.

        Returns the DualSolution, for the warning (issued by the caller
        after the fit, so that a ConvergenceWarning does not undo it).
        """
        n = n_points(X)
        weight = check_sample_weight(sample_weight, n)
        kept = np.flatnonzero(weight > 0)
        if kept.size == 0:
            raise ValueError(
                "Invalid input - all samples have zero or negative weights: "
                "points with sample_weight <= 0 are left out (LIBSVM's "
                "rule), and none is left."
            )
        X_train = X if callable(self.kernel) else dense_if_not_sparse(X)
        self._gamma = resolve_gamma(self.kernel, self.gamma, X_train)
        gram = self._training_gram(X_train, kept)
        y_kept = None if y is None else y[kept]
        with warnings.catch_warnings():
            # one warning for the fit, worded from the status (see fit)
            warnings.simplefilter("ignore", ConvergenceWarning)
            solution = self._solve(gram, y_kept, weight[kept])
        self._store_model(X, kept, solution)
        self.shape_fit_ = X.shape if hasattr(X, "shape") else (n,)
        if self.verbose:
            print(
                f"[svmlib] {type(self).__name__}: SMO {solution.status} "
                f"after {solution.n_iter} steps, KKT violation "
                f"{solution.kkt_violation:.3g}, dual objective "
                f"{solution.dual_objective:.10g}, {self.support_.size} "
                "support vectors"
            )
        return solution

    def _solver_options(self, n_variables):
        """tol, max_iter, shrinking for :mod:`svmlib.formulations`."""
        return {
            "tol": self.tol,
            "max_iter": check_max_iter(self.max_iter, n_variables),
            "shrinking": self.shrinking,
        }

    def _kernel_function(self):
        """kernel(A, B) -> dense Gram matrix, with the fitted parameters."""
        if callable(self.kernel):
            return DenseCallable(self.kernel)
        return kernel_from_name(
            self.kernel,
            gamma=1.0 if self._gamma is None else self._gamma,
            degree=self.degree,
            coef0=self.coef0,
        )

    def _training_gram(self, X, kept):
        """Return the Gram matrix of the kept points (array or Gram object)."""
        if self.kernel == "precomputed":
            K = X if kept.size == X.shape[0] else X[np.ix_(kept, kept)]
            return np.asarray(K)
        if kept.size < n_points(X):
            X = _safe_indexing(X, kept)
        kernel = self._kernel_function()
        if callable(self.kernel) and not (
            hasattr(X, "shape") and len(X.shape) == 2
        ):  # points the kernel alone understands: one Gram matrix
            return kernel(X, X)
        if callable(self.kernel) and gram_fits(
            X.shape[0], getattr(X, "dtype", np.float64), self.cache_size
        ):
            return kernel(X, X)
        return make_gram(X, kernel, self.cache_size)

    def _store_model(self, X, kept, solution):
        """Set the fitted attributes, in scikit-learn's layout."""
        coef = np.asarray(solution.coef, dtype=np.float64)
        on_support = np.flatnonzero(coef != 0)
        self.support_ = kept[on_support].astype(np.int32)
        self.support_vectors_ = self._support_vectors(X)
        self.n_support_ = np.array([on_support.size], dtype=np.int32)
        dual_coef = coef[on_support][None, :]
        self.dual_coef_ = (
            sparse_like_sklearn(dual_coef) if sp.issparse(X) else dual_coef
        )
        self.intercept_ = np.array([float(solution.intercept)])
        self.n_iter_ = int(solution.n_iter)
        self.fit_status_ = 0 if solution.converged else 1
        self.converged_ = bool(solution.converged)
        self.dual_objective_ = float(solution.dual_objective)

    def _support_vectors(self, X):
        if self.kernel == "precomputed":
            return np.empty((0, 0))
        support_vectors = _safe_indexing(X, self.support_)
        if sp.issparse(support_vectors):
            return sparse_like_sklearn(support_vectors)
        return support_vectors

    def _warn_if_not_converged(self, solution):
        """One ConvergenceWarning, worded from the solver's status."""
        if solution.converged:
            return
        if solution.status == "max_iter":
            # scikit-learn's sentences first (its tests match them)
            prefix = (
                f"Solver terminated early (max_iter={self.max_iter}).  "
                "Consider pre-processing your data with StandardScaler or "
                "MinMaxScaler, or increase max_iter. "
            )
            advice = ""
        else:
            prefix = ""
            advice = (
                "The problem may be badly scaled for floating point: "
                "standardise the features, or use a smaller gamma or degree."
            )
        reason = STATUSES.get(
            solution.status, f"stopped ({solution.status})"
        ).format(n_iter=solution.n_iter, max_iter=self.max_iter)
        message = not_converged_message(
            "SMO",
            reason,
            "maximal KKT violation",
            solution.kkt_violation,
            self.tol,
            advice,
        )
        warnings.warn(prefix + message, ConvergenceWarning, stacklevel=3)

    # -- prediction ------------------------------------------------------

    def _validate_for_predict(self, X):
        """X checked against the model (as given for a callable kernel)."""
        check_is_fitted(self)
        if callable(self.kernel):
            return X
        X = validate_data(
            self,
            X,
            reset=False,
            accept_sparse="csr",
            dtype=(np.float64, np.float32),
        )
        if sp.issparse(X) and not sp.issparse(self.support_vectors_):
            raise ValueError(
                f"cannot use sparse input in {type(self).__name__!r} trained "
                "on dense data: fit on sparse X to predict sparse X."
            )
        if self.kernel == "precomputed" and X.shape[1] != self.shape_fit_[0]:
            raise ValueError(
                f"X.shape[1] = {X.shape[1]} should be equal to "
                f"{self.shape_fit_[0]}, the number of samples at training "
                "time (with kernel='precomputed', X holds the kernel values "
                "between the points and the training points)."
            )
        return X

    def _decision(self, X):
        """f(x) = sum_i coef_i K(x_i, x) + intercept, shape (n_samples,)."""
        X = self._validate_for_predict(X)
        dual_coef = self.dual_coef_
        if sp.issparse(dual_coef):
            dual_coef = dual_coef.toarray()
        coef = dual_coef[0]
        n = n_points(X)
        if coef.size == 0:
            return np.full(n, self.intercept_[0])
        rows = rows_per_block(coef.size, self.cache_size)
        decision = np.empty(n)
        for start in range(0, n, rows):
            part = np.arange(start, min(n, start + rows))
            block = X if n <= rows else _safe_indexing(X, part)
            if self.kernel == "precomputed":
                K = np.asarray(block[:, self.support_], dtype=np.float64)
            else:
                K = self._kernel_function()(block, self.support_vectors_)
            decision[part] = K @ coef
        return decision + self.intercept_[0]

    @property
    def coef_(self):
        """Weight vector w of f(x) = w . x + b (linear kernel only).

        Shape (1, n_features), read-only; sparse (CSR) if the training data
        were.

        Raises
        ------
        AttributeError
            With a kernel other than "linear".
        sklearn.exceptions.NotFittedError
            Before ``fit``.
        """
        if self.kernel != "linear":
            raise AttributeError(
                "coef_ is only available with kernel='linear'; with another "
                "kernel the weight vector lives in the kernel's feature "
                "space (use dual_coef_ and support_vectors_)."
            )
        check_is_fitted(self)
        coef = self.dual_coef_ @ self.support_vectors_
        if sp.issparse(coef):
            coef = sparse_like_sklearn(coef)
            coef.data.flags.writeable = False
        else:
            coef = np.asarray(coef, dtype=np.float64)
            coef.flags.writeable = False
        return coef
