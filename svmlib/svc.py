"""A scikit-learn compatible support vector classifier built on svmlib's solvers."""

import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from . import kernels
from .gram import make_gram
from .multiclass import fit_one_vs_one, ovo_decision, ovo_votes, ovr_from_ovo
from .solvers import smo
from .solvers._common import check_C

__all__ = ["SVC"]

_KERNELS = ("linear", "poly", "rbf", "sigmoid")
_SOLVERS = {"smo": "wss2", "platt": "platt"}
_SHAPES = ("ovr", "ovo")


class SVC(ClassifierMixin, BaseEstimator):
    """Support vector classifier trained by SMO on the dual.

    The decision function is f(x) = sum_i alpha_i y_i K(x_i, x) + b, with
    y_i = +1 for the second class of ``classes_`` and -1 for the first, as in
    scikit-learn; ``predict`` returns the second class where f(x) > 0.

    With K > 2 classes, SVC trains K (K - 1) / 2 binary machines, one per
    pair of classes, and predicts by their votes (one-vs-one, as LIBSVM and
    scikit-learn; see ``svmlib.multiclass``).

    Parameters
    ----------
    C : float, default=1.0
        Box constraint (inverse regularisation), > 0; ``np.inf`` gives the
        hard margin.
    kernel : {"linear", "poly", "rbf", "sigmoid"} or callable, default="rbf"
        The kernel. A callable ``kernel(X, Z)`` must return the Gram matrix
        of shape (len(X), len(Z)); the kernel objects of
        ``svmlib.kernels`` (``RBF(sigma=1) + Linear()``, ...) are such
        callables.
    gamma : {"scale", "auto"} or float, optional
        Kernel coefficient of "rbf" (exp(-gamma ||x - z||^2)), "poly" and
        "sigmoid". "scale" (the default when ``sigma`` is not given) is
        1 / (n_features * X.var()), "auto" is 1 / n_features.
    sigma : float, optional
        Width of the "rbf" kernel in the book's parametrization,
        exp(-||x - z||^2 / (2 sigma^2)); give either ``sigma`` or ``gamma``.
    degree : int, default=3
        Degree of the "poly" kernel.
    coef0 : float, default=0.0
        Constant term of the "poly" and "sigmoid" kernels.
    solver : {"smo", "platt"}, default="smo"
        "smo": SMO with LIBSVM's second-order working-set selection;
        "platt": SMO with Platt's (1998) heuristics.
    tol : float, default=1e-3
        Stopping tolerance on the maximal KKT violation.
    max_iter : int, optional
        Maximum number of SMO steps (default: LIBSVM's max(10^7, 100 n)).
    cache_size : float, default=1024
        Memory budget for the training Gram matrix, in MiB. If the whole
        matrix fits, it is computed once with one BLAS call; otherwise
        kernel columns are computed on demand and cached (LRU).
    random_state : int, RandomState instance or None, default=None
        Seeds the random choices of the "platt" solver.
    decision_function_shape : {"ovr", "ovo"}, default="ovr"
        Shape of ``decision_function`` with more than two classes (ignored
        for two): "ovo" gives the K (K - 1) / 2 pairwise decision values,
        "ovr" one score per class (votes plus a tie-breaking confidence in
        (-1/3, 1/3)), as in scikit-learn.

    Attributes
    ----------
    classes_ : ndarray of shape (K,)
        The class labels; with two classes ``classes_[1]`` is the positive
        class.
    alpha_ : ndarray of shape (n_samples,), or (K (K - 1) / 2, n_samples)
        Lagrange multipliers of all training points; with K > 2 classes one
        row per pairwise machine (0 for points the machine does not see).
    support_ : ndarray of shape (n_SV,)
        Indices of the support vectors (alpha_i > 0); in increasing order
        for two classes, grouped by class (then increasing) for more, as in
        scikit-learn.
    support_vectors_ : ndarray of shape (n_SV, n_features)
    n_support_ : ndarray of shape (K,)
        Number of support vectors in each class.
    dual_coef_ : ndarray of shape (K - 1, n_SV)
        alpha_i y_i of the support vectors. With K > 2, LIBSVM's layout as in
        scikit-learn: a support vector of class c has its coefficient for the
        machine (c, o) in row o - 1 if c < o and in row o if c > o; in the
        machine (i, j), i < j, class i has y = +1.
    intercept_ : ndarray of shape (K (K - 1) / 2,)
        The intercept b of each machine (one for two classes), pairs in the
        order (0, 1), (0, 2), ..., (K-2, K-1).
    n_iter_ : int, or ndarray of shape (K (K - 1) / 2,)
        Number of SMO steps (of each machine).
    dual_objective_ : float, or ndarray of shape (K (K - 1) / 2,)
        The dual objective W(alpha) at the solution (of each machine).
    converged_ : bool
        Whether the solver reached ``tol`` (on every machine).
    n_features_in_ : int

    Raises
    ------
    ValueError
        From ``fit``: NaN or infinity in X, X and y of different lengths,
        one class, C <= 0, gamma or sigma <= 0, both gamma and sigma given,
        degree < 1, an unknown kernel, solver or decision_function_shape.

    Notes
    -----
    Book chapters: *The soft margin*, *Kernels*, *Platt's SMO and working
    sets*, *More than two classes*. The solver is
    :func:`svmlib.solvers.smo`; the one-vs-one machinery is in
    ``svmlib.multiclass``.

    The binary decision function has the sign of scikit-learn's (positive:
    ``classes_[1]``); the pairwise machines of the multi-class case have
    LIBSVM's and scikit-learn's sign (positive: the first class of the pair).

    Examples
    --------
    >>> from sklearn.datasets import make_moons
    >>> from svmlib import SVC
    >>> X, y = make_moons(200, noise=0.1, random_state=0)
    >>> clf = SVC(C=10, sigma=0.5).fit(X, y)
    >>> clf.score(X, y) > 0.95
    True
    """

    def __init__(
        self,
        C=1.0,
        kernel="rbf",
        *,
        gamma=None,
        sigma=None,
        degree=3,
        coef0=0.0,
        solver="smo",
        tol=1e-3,
        max_iter=None,
        cache_size=1024,
        random_state=None,
        decision_function_shape="ovr",
    ):
        self.C = C
        self.kernel = kernel
        self.gamma = gamma
        self.sigma = sigma
        self.degree = degree
        self.coef0 = coef0
        self.solver = solver
        self.tol = tol
        self.max_iter = max_iter
        self.cache_size = cache_size
        self.random_state = random_state
        self.decision_function_shape = decision_function_shape

    def fit(self, X, y):
        """Train on X, y.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training points; float32 input is kept in float32 (a float32 Gram
            matrix), anything else becomes float64.
        y : array-like of shape (n_samples,)
            Class labels of any type, at least two classes.

        Returns
        -------
        self : SVC
        """
        X, y = validate_data(self, X, y, dtype=(np.float64, np.float32))
        check_classification_targets(y)
        self.classes_, y_index = np.unique(y, return_inverse=True)
        if self.classes_.size < 2:
            raise ValueError(
                f"SVC needs two classes in y, got one class: {self.classes_.tolist()}."
            )
        self._check_params()
        self._gamma = self._resolve_gamma(X)
        if self.classes_.size > 2:
            return self._fit_one_vs_one(X, y_index)
        y_pm = np.where(y_index == 1, 1.0, -1.0)

        gram = make_gram(X, self._kernel, self.cache_size)
        result = self._solve(gram, y_pm)

        self.alpha_ = result.alpha
        self.support_ = np.flatnonzero(result.alpha > 0)
        self.support_vectors_ = X[self.support_]
        self.n_support_ = np.bincount(y_index[self.support_], minlength=2)
        self.dual_coef_ = (result.alpha * y_pm)[self.support_][None, :]
        self.intercept_ = np.array([result.b])
        self.n_iter_ = result.n_iter
        self.dual_objective_ = result.dual_objective
        self.converged_ = result.converged
        return self

    def _solve(self, gram, y_pm):
        """SMO on one binary dual with this estimator's settings."""
        return smo(
            gram, y_pm, check_C(self.C), tol=self.tol, max_iter=self.max_iter,
            selection=_SOLVERS[self.solver], random_state=self.random_state,
        )  # fmt: skip

    def _fit_one_vs_one(self, X, y_index):
        """K > 2 classes: the K (K - 1) / 2 pairwise machines (``svmlib.multiclass``)."""
        fit = fit_one_vs_one(
            X,
            y_index,
            self.classes_.size,
            self._kernel,
            self._solve,
            self.cache_size,
        )
        self.alpha_ = fit.alpha
        self.support_ = fit.support
        self.support_vectors_ = X[fit.support]
        self.n_support_ = fit.n_support
        self.dual_coef_ = fit.dual_coef
        self.intercept_ = fit.intercept
        self.n_iter_ = fit.n_iter
        self.dual_objective_ = fit.dual_objective
        self.converged_ = bool(np.all(fit.converged))
        return self

    def decision_function(self, X):
        """Signed distance-like score f(x) = sum_i alpha_i y_i K(x_i, x) + b.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        f : ndarray of shape (n_samples,), (n_samples, K) or (n_samples, K (K - 1) / 2), float64
            Two classes: positive values predict ``classes_[1]``. K > 2
            classes: with ``decision_function_shape="ovo"`` the value of each
            pairwise machine (i, j) (positive: class i), with "ovr" one score
            per class (see ``svmlib.multiclass.ovr_from_ovo``).
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=(np.float64, np.float32))
        K = self._kernel(X, self.support_vectors_)
        if self.classes_.size > 2:
            decision = ovo_decision(
                K, self.dual_coef_, self.intercept_, self.n_support_
            )
            if self.decision_function_shape == "ovr":
                return ovr_from_ovo(decision, self.classes_.size)
            return decision
        return (
            np.asarray(
                K @ self.dual_coef_[0].astype(K.dtype), dtype=np.float64
            )
            + self.intercept_[0]
        )

    def predict(self, X):
        """Predicted class labels, shape (n_samples,).

        With K > 2 classes, the class with most votes of the pairwise
        machines; ties go to the class that comes first in ``classes_``
        (LIBSVM's and scikit-learn's rule).
        """
        check_is_fitted(self)
        if self.classes_.size > 2:
            X = validate_data(
                self, X, reset=False, dtype=(np.float64, np.float32)
            )
            K = self._kernel(X, self.support_vectors_)
            decision = ovo_decision(
                K, self.dual_coef_, self.intercept_, self.n_support_
            )
            return self.classes_[
                np.argmax(ovo_votes(decision, self.classes_.size), axis=1)
            ]
        positive = self.decision_function(X) > 0
        return self.classes_[positive.astype(int)]

    def _kernel(self, X, Z):
        """The Gram matrix K(X, Z) with the fitted kernel parameters."""
        if callable(self.kernel):
            return np.asarray(self.kernel(X, Z))
        if self.kernel == "linear":
            return kernels.linear_kernel(X, Z)
        if self.kernel == "rbf":
            return kernels.rbf_kernel(X, Z, gamma=self._gamma)
        if self.kernel == "poly":
            return kernels.polynomial_kernel(
                X, Z, degree=self.degree, gamma=self._gamma, coef0=self.coef0
            )
        return kernels.sigmoid_kernel(
            X, Z, gamma=self._gamma, coef0=self.coef0
        )

    def _check_params(self):
        check_C(self.C)
        if not callable(self.kernel) and self.kernel not in _KERNELS:
            raise ValueError(
                f"kernel must be one of {_KERNELS} or a callable, got {self.kernel!r}."
            )
        if self.solver not in _SOLVERS:
            raise ValueError(
                f"solver must be one of {tuple(_SOLVERS)}, got {self.solver!r}."
            )
        if self.sigma is not None and self.kernel != "rbf":
            raise ValueError(
                f"sigma is the width of the 'rbf' kernel; it does not apply to kernel={self.kernel!r}."
            )
        if self.kernel == "poly" and (
            not isinstance(self.degree, numbers.Integral)
            or isinstance(self.degree, bool)
            or self.degree < 1
        ):
            raise ValueError(
                f"degree must be an integer >= 1, got {self.degree!r}."
            )
        if self.decision_function_shape not in _SHAPES:
            raise ValueError(
                f"decision_function_shape must be one of {_SHAPES}, got {self.decision_function_shape!r}."
            )
        if (
            not isinstance(self.cache_size, numbers.Real)
            or not self.cache_size > 0
        ):
            raise ValueError(
                f"cache_size must be a positive number of MiB, got {self.cache_size!r}."
            )

    def _resolve_gamma(self, X):
        if self.kernel == "rbf" and self.sigma is not None:
            return kernels.rbf_gamma(sigma=self.sigma, gamma=self.gamma)
        gamma = "scale" if self.gamma is None else self.gamma
        if gamma == "scale":
            variance = float(X.var())
            return 1.0 / (X.shape[1] * variance) if variance > 0 else 1.0
        if gamma == "auto":
            return 1.0 / X.shape[1]
        return kernels.rbf_gamma(gamma=gamma)
