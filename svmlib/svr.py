"""Support vector regression: epsilon-SVR and nu-SVR on svmlib's SMO.

Both fit f(x) = sum_i coef_i K(x_i, x) + b, with coef_i = alpha_i -
alpha*_i, by the dual that :mod:`svmlib.formulations` builds for LIBSVM's
general SMO solver (Chang & Lin 2011, sections 2.3 and 2.4):

* :class:`SVR` (epsilon-SVR, Vapnik 1995): the tube width epsilon is
  given, C trades the flatness of f against the deviations outside it;
* :class:`NuSVR` (Schoelkopf et al. 2000): nu in (0, 1] is given instead,
  an upper bound on the fraction of points outside the tube and a lower
  bound on the fraction of support vectors, and the width is found.

Book chapter: *Regression: the epsilon-insensitive tube*.
"""

from numbers import Real

import numpy as np
from sklearn.base import RegressorMixin, _fit_context
from sklearn.utils._param_validation import Interval

from ._kernel_params import (
    KERNEL_PARAMETER_CONSTRAINTS,
    SOLVER_PARAMETER_CONSTRAINTS,
    KernelMachine,
)
from .formulations import epsilon_svr, nu_svr
from .multiclass import _fresh_fit

__all__ = ["NuSVR", "SVR"]


class _BaseSVR(RegressorMixin, KernelMachine):
    """What SVR and NuSVR share: fit, predict."""

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Train on X, y.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n_samples, \
n_features)
            Training points; float32 input is kept in float32 (a float32 Gram
            matrix), anything else becomes float64; sparse input becomes
            CSR. With ``kernel="precomputed"``: the Gram matrix, of shape
            (n_samples, n_samples). With a callable kernel: anything the
            kernel accepts.
        y : array-like of shape (n_samples,)
            Real-valued targets.
        sample_weight : array-like of shape (n_samples,), optional
            Multiplies C for each point, C_i = C * sample_weight_i; points
            with weight <= 0 are left out (LIBSVM's rule, as in
            scikit-learn).

        Returns
        -------
        self : SVR or NuSVR
            The fitted estimator.

        Raises
        ------
        ValueError
            Before anything is fitted: a parameter of the wrong type or out
            of range (``sklearn.utils._param_validation``
            .InvalidParameterError). Then y None, NaN or infinity in X or
            y, X and y of different lengths, a non-square precomputed Gram
            matrix, sample weights of the wrong shape or all <= 0. A failed
            fit leaves the estimator as it was (its earlier model, or
            unfitted).
        TypeError
            A sparse matrix with ``kernel="precomputed"``.

        Warns
        -----
        ConvergenceWarning
            Once, if SMO stopped before reaching ``tol`` (``fit_status_``
            is then 1).

        References
        ----------
        Chang & Lin (2011), sections 2.3, 2.4 and 4; Smola & Schoelkopf
        (2004), "A tutorial on support vector regression".

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.svr import SVR
        >>> X = np.linspace(0, 1, 20)[:, None]
        >>> model = SVR(kernel="linear", C=100, epsilon=0.05)
        >>> model = model.fit(X, 2 * X[:, 0])
        >>> model.coef_.round(2)
        array([[1.9]])
        """
        with _fresh_fit(self):
            if y is None:
                raise ValueError(
                    f"This {type(self).__name__} estimator requires y to be "
                    "passed, but the target y is None."
                )
            X, y = self._validate_training_data(X, y)
            solution = self._fit_machine(X, y, sample_weight)
        self._warn_if_not_converged(solution)
        return self

    def predict(self, X):
        """Predicted targets f(x) = sum_i coef_i K(x_i, x) + b.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n_samples, \
n_features)
            With ``kernel="precomputed"``: the kernel values K(x, x_j)
            between the points and the training points, shape (n_samples,
            n_training_samples).

        Returns
        -------
        y : ndarray of shape (n_samples,), float64

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
        Chang & Lin (2011), section 2.3.

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.svr import NuSVR
        >>> X = np.linspace(0, 1, 20)[:, None]
        >>> model = NuSVR(kernel="linear", C=100, nu=0.5).fit(X, 2 * X[:, 0])
        >>> model.predict([[0.5]]).round(2)
        array([1.])
        """
        return self._decision(X)


class SVR(_BaseSVR):
    """Epsilon-support vector regression, trained by SMO on the dual.

    Minimises 1/2 ||w||^2 + C sum_i max(0, abs(y_i - f(x_i)) - epsilon): the
    points inside the tube abs(y - f(x)) <= epsilon cost nothing, and the
    others are the support vectors. The dual has 2n variables alpha_i,
    alpha*_i in [0, C_i] (Chang & Lin 2011, section 2.3), solved by
    :mod:`svmlib.formulations` with LIBSVM's SMO; ``dual_coef_`` holds
    alpha_i - alpha*_i. Parameters, attributes and behaviour are
    scikit-learn's ``sklearn.svm.SVR``.

    Parameters
    ----------
    kernel : {"linear", "poly", "rbf", "sigmoid", "precomputed"} or \
callable, default="rbf"
        The kernel. With "precomputed", X is the Gram matrix: of shape
        (n_samples, n_samples) in ``fit``, (n_test, n_samples) after. A
        callable ``kernel(A, B)`` must return the Gram matrix of shape
        (len(A), len(B)); it gets X as given. After ``fit`` it is evaluated
        against the support vectors only.
    degree : int, default=3
        Degree of the "poly" kernel, >= 1.
    gamma : {"scale", "auto"} or float, default="scale"
        Kernel coefficient of "rbf", "poly" and "sigmoid", > 0. "scale" is
        1 / (n_features * X.var()), "auto" 1 / n_features.
    coef0 : float, default=0.0
        Constant term of "poly" and "sigmoid".
    tol : float, default=1e-3
        Stopping tolerance on the maximal KKT violation, > 0.
    C : float, default=1.0
        Weight of the deviations outside the tube, > 0 (``np.inf``
        allowed); C_i = C * sample_weight_i.
    epsilon : float, default=0.1
        Half-width of the tube, >= 0, in the units of y.
    shrinking : bool, default=True
        Whether SMO sets aside the variables that cannot be in a violating
        pair (LIBSVM's shrinking: same answer, less work).
    cache_size : float, default=200
        Memory budget in MiB for the training Gram matrix (computed once
        if it fits, else columns cached) and for the blocks of kernel
        values of ``predict``.
    verbose : bool, default=False
        Print one line on the solver's run after ``fit``.
    max_iter : int, default=-1
        Maximum number of SMO steps, >= 1, or -1 for no limit.

    Attributes
    ----------
    support_ : ndarray of shape (n_SV,), int32
        Indices of the support vectors (coef_i != 0), increasing, rows
        of X (also with sample weights <= 0, where scikit-learn's count
        only the points with positive weight).
    support_vectors_ : ndarray or sparse matrix of shape (n_SV, n_features)
        The support vectors, sparse (CSR) if X was; an empty (0, 0) array
        for "precomputed".
    n_support_ : ndarray of shape (1,), int32
        Number of support vectors.
    dual_coef_ : ndarray or sparse matrix of shape (1, n_SV)
        alpha_i - alpha*_i of the support vectors; sparse if X was.
    intercept_ : ndarray of shape (1,)
        The constant b (LIBSVM's -rho).
    coef_ : ndarray or sparse matrix of shape (1, n_features)
        Only for ``kernel="linear"``: w, f(x) = w . x + b; read-only.
    n_iter_ : int
        Number of SMO steps.
    fit_status_ : int
        0 if SMO reached ``tol``, 1 otherwise (and a ConvergenceWarning).
    converged_ : bool
        Whether SMO reached ``tol``.
    dual_objective_ : float
        The dual objective at the solution, -(1/2 a^T Q a + p^T a) in
        LIBSVM's form.
    shape_fit_ : tuple
        Shape of the training X.
    n_features_in_ : int
        Not set for a callable kernel (X is not validated then).
    feature_names_in_ : ndarray of shape ``(n_features_in_,)``
        When X has feature names.

    See Also
    --------
    NuSVR : nu sets the fraction of support vectors and finds epsilon.

    Notes
    -----
    Book chapter: *Regression: the epsilon-insensitive tube*. scikit-learn
    accepts gamma = 0 and degree = 0 (constant kernels); svmlib refuses
    them.

    References
    ----------
    Vapnik (1995), *The Nature of Statistical Learning Theory*; Smola &
    Schoelkopf (2004), "A tutorial on support vector regression"; Chang &
    Lin (2011), "LIBSVM: a library for support vector machines", section
    2.3.

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from svmlib.svr import SVR
    >>> X, y = load_diabetes(return_X_y=True)
    >>> model = SVR(C=100, epsilon=10).fit(X, y)
    >>> model.score(X, y) > 0.5
    True
    >>> model.dual_coef_.shape == (1, model.n_support_[0])
    True
    """

    _parameter_constraints = {
        **KERNEL_PARAMETER_CONSTRAINTS,
        **SOLVER_PARAMETER_CONSTRAINTS,
        "C": [Interval(Real, 0.0, None, closed="right")],
        "epsilon": [Interval(Real, 0.0, None, closed="left")],
    }

    def __init__(
        self,
        *,
        kernel="rbf",
        degree=3,
        gamma="scale",
        coef0=0.0,
        tol=1e-3,
        C=1.0,
        epsilon=0.1,
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
        self.C = C
        self.epsilon = epsilon
        self.shrinking = shrinking
        self.cache_size = cache_size
        self.verbose = verbose
        self.max_iter = max_iter

    def _solve(self, gram, y, weight):
        # one C for all when the weights are equal (C = inf is allowed then)
        C = (
            self.C * weight[0]
            if np.all(weight == weight[0])
            else self.C * weight
        )
        return epsilon_svr(
            gram,
            y,
            C,
            self.epsilon,
            **self._solver_options(2 * y.size),
        )


class NuSVR(_BaseSVR):
    """nu-support vector regression: nu sets the tube, trained by SMO.

    Minimises 1/2 ||w||^2 + C (nu epsilon + 1/n sum_i max(0,
    abs(y_i - f(x_i)) - epsilon)) over w, b and the tube width epsilon >= 0
    (Schoelkopf et al. 2000). At the solution nu is an upper bound on the
    fraction of points outside the tube and a lower bound on the fraction
    of support vectors. The dual has two equality constraints (LIBSVM's
    ``Solver_NU``; Chang & Lin 2011, section 2.4). Parameters, attributes
    and behaviour are scikit-learn's ``sklearn.svm.NuSVR``; ``epsilon_``
    (the width found) is svmlib's.

    Parameters
    ----------
    nu : float, default=0.5
        In (0, 1]: bounds the fraction of errors (from above) and of
        support vectors (from below).
    C : float, default=1.0
        Penalty parameter, > 0 and finite; C_i = C * sample_weight_i.
    kernel : {"linear", "poly", "rbf", "sigmoid", "precomputed"} or \
callable, default="rbf"
        The kernel, as for :class:`SVR`.
    degree : int, default=3
        Degree of the "poly" kernel, >= 1.
    gamma : {"scale", "auto"} or float, default="scale"
        Kernel coefficient of "rbf", "poly" and "sigmoid", > 0.
    coef0 : float, default=0.0
        Constant term of "poly" and "sigmoid".
    shrinking : bool, default=True
        Whether SMO uses LIBSVM's shrinking.
    tol : float, default=1e-3
        Stopping tolerance on the maximal KKT violation, > 0.
    cache_size : float, default=200
        Memory budget in MiB, as for :class:`SVR`.
    verbose : bool, default=False
        Print one line on the solver's run after ``fit``.
    max_iter : int, default=-1
        Maximum number of SMO steps, >= 1, or -1 for no limit.

    Attributes
    ----------
    support_ : ndarray of shape (n_SV,), int32
        Indices of the support vectors (coef_i != 0), increasing, rows
        of X (also with sample weights <= 0, where scikit-learn's count
        only the points with positive weight).
    support_vectors_ : ndarray or sparse matrix of shape (n_SV, n_features)
        The support vectors, sparse (CSR) if X was.
    n_support_ : ndarray of shape (1,), int32
        Number of support vectors.
    dual_coef_ : ndarray or sparse matrix of shape (1, n_SV)
        alpha_i - alpha*_i of the support vectors.
    intercept_ : ndarray of shape (1,)
        The constant b.
    epsilon_ : float
        The half-width of the tube found (LIBSVM's -r).
    coef_ : ndarray or sparse matrix of shape (1, n_features)
        Only for ``kernel="linear"``; read-only.
    n_iter_ : int
        Number of SMO steps.
    fit_status_ : int
        0 if SMO reached ``tol``, 1 otherwise.
    converged_ : bool
        Whether SMO reached ``tol``.
    dual_objective_ : float
        The dual objective at the solution (LIBSVM's form).
    shape_fit_ : tuple
        Shape of the training X.
    n_features_in_ : int
        Not set for a callable kernel.
    feature_names_in_ : ndarray of shape ``(n_features_in_,)``
        When X has feature names.

    See Also
    --------
    SVR : epsilon given instead of nu.

    Notes
    -----
    Book chapter: *Regression: the epsilon-insensitive tube*.

    References
    ----------
    Schoelkopf, Smola, Williamson & Bartlett (2000), "New support vector
    algorithms", Neural Computation 12; Chang & Lin (2011), section 2.4.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.datasets import load_diabetes
    >>> from svmlib.svr import NuSVR
    >>> X, y = load_diabetes(return_X_y=True)
    >>> model = NuSVR(C=100, nu=0.3).fit(X, y)

    The points outside the tube have abs(coef_i) = C: at most nu n of them,
    and at least nu n support vectors.

    >>> errors = np.isclose(np.abs(model.dual_coef_), 100).sum()
    >>> bool(errors <= 0.3 * len(y) <= model.n_support_[0])
    True
    """

    _parameter_constraints = {
        **KERNEL_PARAMETER_CONSTRAINTS,
        **SOLVER_PARAMETER_CONSTRAINTS,
        "nu": [Interval(Real, 0.0, 1.0, closed="right")],
        "C": [Interval(Real, 0.0, None, closed="neither")],
    }

    def __init__(
        self,
        *,
        nu=0.5,
        C=1.0,
        kernel="rbf",
        degree=3,
        gamma="scale",
        coef0=0.0,
        shrinking=True,
        tol=1e-3,
        cache_size=200,
        verbose=False,
        max_iter=-1,
    ):
        self.nu = nu
        self.C = C
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.shrinking = shrinking
        self.tol = tol
        self.cache_size = cache_size
        self.verbose = verbose
        self.max_iter = max_iter

    def _solve(self, gram, y, weight):
        solution = nu_svr(
            gram,
            y,
            self.C,
            self.nu,
            weight=weight,
            **self._solver_options(2 * y.size),
        )
        self.epsilon_ = float(solution.epsilon)
        return solution
