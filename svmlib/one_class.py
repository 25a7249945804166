"""The one-class SVM: novelty detection on svmlib's SMO.

Schoelkopf et al. (2001) separate the data from the origin in the kernel's
feature space with maximal margin: the decision function

    f(x) = sum_i alpha_i K(x_i, x) - rho

is positive on a region that holds most of the data, and nu in (0, 1] is
an upper bound on the fraction of training points outside it (outliers)
and a lower bound on the fraction of support vectors. The dual (LIBSVM's
form, Chang & Lin 2011, section 2.2) is

    min 1/2 alpha^T K alpha  s.t.  0 <= alpha_i <= 1,  sum_i alpha_i = nu n,

built by :func:`svmlib.formulations.one_class` and solved by SMO. With the
Gaussian kernel it is the same as Tax and Duin's support vector data
description (2004).

Book chapter: *Novelty detection: the one-class SVM*.
"""

from numbers import Real

import numpy as np
from sklearn.base import OutlierMixin, _fit_context
from sklearn.utils._param_validation import Interval

from ._kernel_params import (
    KERNEL_PARAMETER_CONSTRAINTS,
    SOLVER_PARAMETER_CONSTRAINTS,
    KernelMachine,
)
from .formulations import one_class
from .multiclass import _fresh_fit

__all__ = ["OneClassSVM"]


class OneClassSVM(OutlierMixin, KernelMachine):
    """Unsupervised outlier (novelty) detection with the one-class SVM.

    Parameters, attributes and behaviour are scikit-learn's
    ``sklearn.svm.OneClassSVM``: ``decision_function`` is f(x) =
    sum_i alpha_i K(x_i, x) + ``intercept_`` (positive for inliers),
    ``score_samples`` is sum_i alpha_i K(x_i, x) = f(x) + ``offset_``, and
    ``predict`` is +1 where f(x) > 0, else -1. The multipliers are
    LIBSVM's: 0 <= alpha_i <= sample_weight_i (1 without weights), and
    sum_i alpha_i = nu sum_i sample_weight_i (nu n without weights).

    Parameters
    ----------
    kernel : {"linear", "poly", "rbf", "sigmoid", "precomputed"} or \
callable, default="rbf"
        The kernel. With "precomputed", X is the Gram matrix: of shape
        (n_samples, n_samples) in ``fit``, (n_test, n_samples) after. A
        callable ``kernel(A, B)`` must return the Gram matrix of shape
        (len(A), len(B)); it gets X as given.
    degree : int, default=3
        Degree of the "poly" kernel, >= 1.
    gamma : {"scale", "auto"} or float, default="scale"
        Kernel coefficient of "rbf", "poly" and "sigmoid", > 0. "scale" is
        1 / (n_features * X.var()), "auto" 1 / n_features.
    coef0 : float, default=0.0
        Constant term of "poly" and "sigmoid".
    tol : float, default=1e-3
        Stopping tolerance on the maximal KKT violation, > 0.
    nu : float, default=0.5
        In (0, 1]: an upper bound on the fraction of training outliers and
        a lower bound on the fraction of support vectors.
    shrinking : bool, default=True
        Whether SMO uses LIBSVM's shrinking (same answer, less work).
    cache_size : float, default=200
        Memory budget in MiB for the training Gram matrix (computed once
        if it fits, else columns cached) and for the blocks of kernel
        values at prediction.
    verbose : bool, default=False
        Print one line on the solver's run after ``fit``.
    max_iter : int, default=-1
        Maximum number of SMO steps, >= 1, or -1 for no limit.

    Attributes
    ----------
    support_ : ndarray of shape (n_SV,), int32
        Indices of the support vectors (alpha_i > 0), increasing, rows
        of X (also with sample weights <= 0, where scikit-learn's count
        only the points with positive weight).
    support_vectors_ : ndarray or sparse matrix of shape (n_SV, n_features)
        The support vectors, sparse (CSR) if X was; an empty (0, 0) array
        for "precomputed".
    n_support_ : ndarray of shape (1,), int32
        Number of support vectors.
    dual_coef_ : ndarray or sparse matrix of shape (1, n_SV)
        alpha_i of the support vectors; sparse if X was.
    intercept_ : ndarray of shape (1,)
        -rho.
    offset_ : ndarray of shape (1,)
        rho = -``intercept_``: ``decision_function = score_samples -
        offset_``.
    coef_ : ndarray or sparse matrix of shape (1, n_features)
        Only for ``kernel="linear"``: w = sum_i alpha_i x_i; read-only.
    n_iter_ : int
        Number of SMO steps.
    fit_status_ : int
        0 if SMO reached ``tol``, 1 otherwise (and a ConvergenceWarning).
    converged_ : bool
        Whether SMO reached ``tol``.
    dual_objective_ : float
        The dual objective at the solution, -1/2 alpha^T K alpha.
    shape_fit_ : tuple
        Shape of the training X.
    n_features_in_ : int
        Not set for a callable kernel (X is not validated then).
    feature_names_in_ : ndarray of shape ``(n_features_in_,)``
        When X has feature names.

    Notes
    -----
    Book chapter: *Novelty detection: the one-class SVM*. scikit-learn
    accepts gamma = 0 and degree = 0 (constant kernels); svmlib refuses
    them.

    References
    ----------
    Schoelkopf, Platt, Shawe-Taylor, Smola & Williamson (2001),
    "Estimating the support of a high-dimensional distribution", Neural
    Computation 13; Tax & Duin (2004), "Support vector data description",
    Machine Learning 54; Chang & Lin (2011), section 2.2.

    Examples
    --------
    >>> from svmlib.one_class import OneClassSVM
    >>> X = [[0], [0.44], [0.45], [0.46], [1]]
    >>> model = OneClassSVM(gamma="auto").fit(X)
    >>> model.score_samples(X).round(4)
    array([1.7799, 2.0548, 2.0556, 2.0562, 1.7333])
    >>> model.dual_coef_, model.support_
    (array([[1. , 0.5, 1. ]]), array([0, 1, 4], dtype=int32))

    The free support vector 0.44 (0 < alpha < 1) is on the boundary,
    f = 0; predict gives +1 where f > 0 (LIBSVM's rule).

    >>> model.predict([[0.0], [0.45], [0.46], [1.0]])
    array([-1,  1,  1, -1])
    """

    _parameter_constraints = {
        **KERNEL_PARAMETER_CONSTRAINTS,
        **SOLVER_PARAMETER_CONSTRAINTS,
        "nu": [Interval(Real, 0.0, 1.0, closed="right")],
    }

    def __init__(
        self,
        *,
        kernel="rbf",
        degree=3,
        gamma="scale",
        coef0=0.0,
        tol=1e-3,
        nu=0.5,
        shrinking=True,
        cache_size=200,
        verbose=False,
        max_iter=-1,
    ):
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.nu = nu
        self.shrinking = shrinking
        self.cache_size = cache_size
        self.verbose = verbose
        self.max_iter = max_iter

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None, sample_weight=None):
        """Find the region that holds most of X.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n_samples, \
n_features)
            Training points; float32 input is kept in float32, anything
            else becomes float64; sparse input becomes CSR. With
            ``kernel="precomputed"``: the Gram matrix, of shape
            (n_samples, n_samples). With a callable kernel: anything the
            kernel accepts.
        y : None
            Ignored (scikit-learn's convention).
        sample_weight : array-like of shape (n_samples,), optional
            The upper bound of alpha_i (LIBSVM's C_i); points with weight
            <= 0 are left out (LIBSVM's rule, as in scikit-learn).

        Returns
        -------
        self : OneClassSVM
            The fitted estimator.

        Raises
        ------
        ValueError
            Before anything is fitted: a parameter of the wrong type or out
            of range (``sklearn.utils._param_validation``
            .InvalidParameterError). Then NaN or infinity in X, a
            non-square precomputed Gram matrix, sample weights of the
            wrong shape or all <= 0. A failed fit leaves the estimator
            as it was (its earlier model, or unfitted).
        TypeError
            A sparse matrix with ``kernel="precomputed"``.

        Warns
        -----
        ConvergenceWarning
            Once, if SMO stopped before reaching ``tol``.

        References
        ----------
        Schoelkopf et al. (2001); Chang & Lin (2011), section 2.2.

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.one_class import OneClassSVM
        >>> X = np.random.default_rng(0).normal(size=(200, 2))
        >>> model = OneClassSVM(nu=0.1).fit(X)

        At most nu n multipliers at their bound 1 (the outliers), at least
        nu n support vectors:

        >>> n_bound = (model.dual_coef_ == 1).sum()
        >>> bool(n_bound <= 0.1 * 200 <= model.n_support_[0])
        True
        """
        with _fresh_fit(self):
            X, _ = self._validate_training_data(X, None)
            solution = self._fit_machine(X, None, sample_weight)
            self.offset_ = -self.intercept_
        self._warn_if_not_converged(solution)
        return self

    def _solve(self, gram, y, weight):
        return one_class(
            gram,
            self.nu,
            weight=weight,
            **self._solver_options(weight.size),
        )

    def decision_function(self, X):
        """Signed score f(x) = sum_i alpha_i K(x_i, x) - rho.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n_samples, \
n_features)
            With ``kernel="precomputed"``: the kernel values between the
            points and the training points, shape (n_samples,
            n_training_samples).

        Returns
        -------
        f : ndarray of shape (n_samples,), float64
            Positive for inliers, negative for outliers.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before ``fit``.
        ValueError
            If X does not have the training data's number of features, is
            sparse while the training data were dense, or a callable kernel
            returns a matrix of the wrong shape.

        References
        ----------
        Schoelkopf et al. (2001), section 4.

        Examples
        --------
        >>> from svmlib.one_class import OneClassSVM
        >>> model = OneClassSVM(gamma=1.0).fit([[0.0], [0.1], [0.2]])
        >>> bool(model.decision_function([[5.0]])[0] < 0)
        True
        """
        return self._decision(X)

    def score_samples(self, X):
        """Raw score sum_i alpha_i K(x_i, x) = decision + ``offset_``.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n_samples, \
n_features)
            As for :meth:`decision_function`.

        Returns
        -------
        scores : ndarray of shape (n_samples,), float64

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before ``fit``.
        ValueError
            As :meth:`decision_function`.

        References
        ----------
        Schoelkopf et al. (2001).

        Examples
        --------
        >>> from svmlib.one_class import OneClassSVM
        >>> model = OneClassSVM(gamma=1.0).fit([[0.0], [0.1], [0.2]])
        >>> bool(model.score_samples([[0.1]])[0] > 0)
        True
        """
        return self.decision_function(X) + self.offset_

    def predict(self, X):
        """+1 for inliers (f(x) > 0), -1 for outliers.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n_samples, \
n_features)
            As for :meth:`decision_function`.

        Returns
        -------
        y : ndarray of shape (n_samples,), intp

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before ``fit``.
        ValueError
            As :meth:`decision_function`.

        References
        ----------
        Schoelkopf et al. (2001); LIBSVM's ``svm_predict_values``.

        Examples
        --------
        >>> from svmlib.one_class import OneClassSVM
        >>> model = OneClassSVM(gamma=1.0).fit([[0.0], [0.1], [0.2]])
        >>> model.predict([[0.1], [5.0]])
        array([ 1, -1])
        """
        return np.where(self.decision_function(X) > 0, 1, -1).astype(np.intp)
