"""scikit-learn compatible support vector classifiers on svmlib's solvers.

:class:`SVC` (C-SVC) and :class:`NuSVC` (nu-SVC) share their machinery, in
the private base ``_BaseSVC``: the checks of the data, the kernel, the
one-vs-one machines (``svmlib.multiclass``), the probabilities
(``svmlib.probability``) and prediction. They differ in the dual that each
binary machine solves (``_machine_solver``): C-SVC's by
:func:`svmlib.solvers.smo`, nu-SVC's by :func:`svmlib.formulations.nu_svc`.
"""

import warnings
from numbers import Integral, Real
from types import SimpleNamespace

import numpy as np
import scipy.sparse as sp
from joblib import Parallel, delayed, effective_n_jobs
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.utils import _safe_indexing, check_random_state, column_or_1d
from sklearn.utils._param_validation import Interval, Options, StrOptions
from sklearn.utils.class_weight import compute_class_weight
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import (
    check_consistent_length,
    check_is_fitted,
    validate_data,
)

from ._kernel_params import (
    GAMMA_KERNELS,
    DenseCallable,
    dense_if_not_sparse,
    rows_per_block,
    scale_gamma,
    sparse_like_sklearn,
)
from ._validation import (
    check_max_iter,
    check_sample_weight,
    positive_weight_points,
)
from .formulations import nu_svc
from .kernels import KERNEL_NAMES, kernel_from_name, rbf_gamma
from .multiclass import (
    TrainingKernel,
    _fresh_fit,
    _n_points,
    check_model_memory,
    class_pairs,
    fit_one_vs_one,
    fit_pairwise_sigmoids,
    ovo_coef,
    ovo_decision,
    ovo_votes,
    ovr_from_ovo,
)
from .probability import class_probabilities
from .solvers import smo
from .solvers._common import not_converged_message

__all__ = ["NuSVC", "SVC"]

#: The parameters that SVC and NuSVC share, with their constraints.
_SHARED_CONSTRAINTS = {
    "kernel": [StrOptions({*KERNEL_NAMES, "precomputed"}), callable],
    "degree": [Interval(Integral, 1, None, closed="left")],
    "coef0": [Interval(Real, None, None, closed="neither")],
    "shrinking": ["boolean"],
    "tol": [Interval(Real, 0.0, None, closed="neither")],
    "max_iter": [
        Interval(Integral, 1, None, closed="left"),
        Options(Integral, {-1}),
        None,
    ],
    "cache_size": [Interval(Real, 0.0, None, closed="right")],
    "probability": ["boolean"],
    "class_weight": [StrOptions({"balanced"}), dict, None],
    "random_state": ["random_state"],
    "decision_function_shape": [StrOptions({"ovr", "ovo"})],
    "break_ties": ["boolean"],
    "verbose": ["verbose"],
}

#: n_jobs in scikit-learn's convention: None, -1, -2, ... or >= 1 (not 0).
_N_JOBS = [
    Interval(Integral, None, -1, closed="right"),
    Interval(Integral, 1, None, closed="left"),
    None,
]


class _BaseSVC(ClassifierMixin, BaseEstimator):
    """The machinery of SVC and NuSVC: one-vs-one SVMs on a kernel.

    A subclass sets its parameters and ``_parameter_constraints``, and
    defines ``fit`` (calling ``_fit``) and ``_machine_solver``, which returns
    ``solve(gram, y, members)``: the dual of one binary machine, solved,
    as a result with the fields ``alpha`` (alpha_i >= 0 with the decision
    function sum_i alpha_i y_i K(x_i, x) + b), ``b``, ``n_iter``,
    ``dual_objective``, ``converged`` and ``kkt_violation``. It may also
    check the weights of the points (``_check_weights``), the kernel
    parameters (``_check_kernel_parameters``) and say why a machine did not
    converge short of max_iter (``_no_progress_reason``).
    """

    def __sklearn_tags__(self):
        """Return scikit-learn's tags: pairwise for "precomputed"."""
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self.kernel == "precomputed"
        tags.input_tags.sparse = self.kernel != "precomputed"
        return tags

    def _fit(self, X, y, sample_weight):
        """Fit the model (``fit``'s body): all of it or none."""
        self._check_kernel_parameters()
        with _fresh_fit(self):
            X, y = self._validate_training_data(X, y)
            self.classes_, y_index = np.unique(y, return_inverse=True)
            if self.classes_.size < 2:
                raise ValueError(
                    f"{type(self).__name__} needs two classes in y, got one "
                    f"class: {self.classes_.tolist()}."
                )
            self.class_weight_ = compute_class_weight(
                self.class_weight, classes=self.classes_, y=y
            )
            weight = self.class_weight_[y_index] * check_sample_weight(
                sample_weight, y_index.size
            )
            self._check_weights(weight, y_index)
            kept = positive_weight_points(weight, y_index, self.classes_)
            check_model_memory(  # alpha_ of shape (P, n), before any work
                self.classes_.size,
                y_index.size,
                copies=1 if kept.size == y_index.size else 2,
            )
            X_train = X if callable(self.kernel) else dense_if_not_sparse(X)
            self._gamma = self._resolve_gamma(X_train)
            training = self._training_kernel(X_train, kept)
            solve = self._machine_solver(weight[kept])
            fit = self._train(training, y_index[kept], solve)
            self._store_model(X, kept, fit)
            self._store_extra(fit, y_index[kept], weight[kept])
        self._warn_if_not_converged(fit, y_index[kept])
        return self

    def _train(self, training, y_index, solve):
        """Train the machines, and their sigmoids if probability=True."""
        with warnings.catch_warnings():
            # one warning for the whole fit (see fit), not one per machine
            warnings.simplefilter("ignore", ConvergenceWarning)
            fit = fit_one_vs_one(
                training,
                y_index,
                self.classes_.size,
                solve,
                progress=bool(self.verbose),
                n_jobs=self._n_jobs(),
            )
            if self.probability:
                self.probA_, self.probB_ = fit_pairwise_sigmoids(
                    training,
                    y_index,
                    self.classes_.size,
                    solve,
                    check_random_state(self.random_state),
                )
        return fit

    def _check_kernel_parameters(self):
        """Check the parameters that interact (the others: constraints)."""

    def _n_jobs(self):
        """n_jobs, or None (a joblib context's) for an estimator without."""
        return getattr(self, "n_jobs", None)

    def _check_weights(self, weight, y_index):
        """Check the weights of the points (sample times class weight)."""

    def _machine_solver(self, weight):
        """solve(gram, y, members) for a machine; weight: of the points."""
        raise NotImplementedError

    def _store_extra(self, fit, y_index, weight):
        """Set the fitted attributes of a subclass (the points kept)."""

    def _validate_training_data(self, X, y):
        """X and y checked; X converted unless the kernel is a callable."""
        if callable(self.kernel):
            y = column_or_1d(y, warn=True)
            check_consistent_length(X, y)
        elif sp.issparse(X) and self.kernel == "precomputed":
            raise TypeError("Sparse precomputed kernels are not supported.")
        else:
            X, y = validate_data(
                self, X, y, accept_sparse="csr", dtype=(np.float64, np.float32)
            )
        check_classification_targets(y)
        if self.kernel == "precomputed" and X.shape[0] != X.shape[1]:
            raise ValueError(
                "With kernel='precomputed', X is the Gram matrix of the "
                f"training points and must be square; got shape {X.shape}."
            )
        return X, y

    def _resolve_gamma(self, X):
        """Return the gamma of the kernel, or None for kernels without one."""
        if self.kernel not in GAMMA_KERNELS:
            return None
        sigma = getattr(self, "sigma", None)  # SVC's book parameter
        if sigma is not None:
            return rbf_gamma(sigma=sigma)
        if self.gamma in (None, "scale"):
            return scale_gamma(X)
        if self.gamma == "auto":
            return 1.0 / X.shape[1]
        return float(self.gamma)

    def _kernel_function(self):
        """kernel(A, B) -> dense Gram matrix, with the fitted parameters."""
        if callable(self.kernel):
            return DenseCallable(self.kernel)
        return kernel_from_name(
            self.kernel,
            gamma=self._gamma,
            degree=self.degree,
            coef0=self.coef0,
        )

    def _training_kernel(self, X, kept):
        """Return the kernel on the points that are kept (weight > 0)."""
        if self.kernel == "precomputed":
            if kept.size < X.shape[0]:
                X = X[np.ix_(kept, kept)]
            return TrainingKernel.precomputed(X)
        if kept.size < _n_points(X):
            X = _safe_indexing(X, kept)
        return TrainingKernel(X, self._kernel_function(), self.cache_size)

    def _store_model(self, X, kept, fit):
        """Set the fitted attributes, in scikit-learn's layout."""
        binary = self.classes_.size == 2
        # LIBSVM's machine (0, 1) has y = +1 for classes_[0]; scikit-learn
        # flips the binary model so that f > 0 means classes_[1].
        sign = -1.0 if binary else 1.0
        self.support_ = kept[fit.support]
        self.support_vectors_ = self._support_vectors(X)
        self.n_support_ = fit.n_support
        dual_coef = sign * fit.dual_coef
        self.dual_coef_ = (
            sparse_like_sklearn(dual_coef) if sp.issparse(X) else dual_coef
        )
        self.intercept_ = sign * fit.intercept
        if kept.size == _n_points(X):
            alpha = fit.alpha  # no copy: (P, n) can be large
        else:
            alpha = np.zeros((fit.alpha.shape[0], _n_points(X)))
            alpha[:, kept] = fit.alpha
        self.alpha_ = alpha[0] if binary else alpha
        self.n_iter_ = fit.n_iter
        self.dual_objective_ = (
            float(fit.dual_objective[0]) if binary else fit.dual_objective
        )
        self.converged_ = bool(np.all(fit.converged))
        self.fit_status_ = 0 if self.converged_ else 1
        self.shape_fit_ = X.shape if hasattr(X, "shape") else (_n_points(X),)

    def _support_vectors(self, X):
        if self.kernel == "precomputed":
            return np.empty((0, 0))
        support_vectors = _safe_indexing(X, self.support_)
        if sp.issparse(support_vectors):
            return sparse_like_sklearn(support_vectors)
        return support_vectors

    def _warn_if_not_converged(self, fit, y_index):
        """One ConvergenceWarning for the machines that stopped before tol."""
        stopped = ~fit.converged
        if not stopped.any():
            return
        counts = np.bincount(y_index)
        limits = np.array(
            [
                check_max_iter(self.max_iter, counts[i] + counts[j])
                for i, j in class_pairs(self.classes_.size)
            ]
        )
        at_limit = np.any(fit.n_iter[stopped] >= limits[stopped])
        max_iter = self.max_iter or "max(10^7, 100 n), the default"
        if at_limit:  # scikit-learn's sentences first (its tests match them)
            prefix = (
                f"Solver terminated early (max_iter={max_iter}).  Consider "
                "pre-processing your data with StandardScaler or "
                "MinMaxScaler, or increase max_iter. "
            )
            advice = ""
        else:
            prefix, advice = "", self._no_progress_reason()
        reason = (
            f"stopped before tol in {stopped.sum()} of {stopped.size} "
            "machine(s)"
        )
        warnings.warn(
            prefix
            + not_converged_message(
                "SMO",
                reason,
                "maximal KKT violation",
                fit.kkt_violation[stopped].max(),
                self.tol,
                advice,
            ),
            ConvergenceWarning,
            stacklevel=4,
        )

    def _no_progress_reason(self):
        return (
            "It could make no further progress. The problem may be badly "
            "scaled: standardise the features."
        )

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
                f"cannot use sparse input in {type(self).__name__!r} "
                "trained on dense data: "
                "fit on sparse X to predict sparse X."
            )
        return X

    def _pairwise_decision(self, X):
        """f_ij(X) of the machines (i, j), positive for class i (as LIBSVM).

        Returns an ndarray of shape (n_samples, K (K - 1) / 2), float64.
        """
        X = self._validate_for_predict(X)
        dual_coef = self.dual_coef_
        if sp.issparse(dual_coef):
            dual_coef = dual_coef.toarray()
        n = _n_points(X)
        rows = rows_per_block(self.support_.size, self.cache_size)
        jobs = effective_n_jobs(self._n_jobs())
        if jobs != 1 and n > 1:
            # blocks of points in parallel threads, n_jobs blocks at once
            # (each within cache_size / n_jobs); BLAS and np.exp release
            # the GIL
            rows = max(1, min(-(-n // jobs), rows // jobs))
            starts = range(0, n, rows)
            blocks = Parallel(n_jobs=self._n_jobs(), prefer="threads")(
                delayed(self._block_decision)(
                    _safe_indexing(X, np.arange(s, min(n, s + rows))),
                    dual_coef,
                )
                for s in starts
            )
            decision = np.vstack(blocks)
        elif n <= rows:
            decision = self._block_decision(X, dual_coef)
        else:  # kernel values in blocks of rows, within cache_size
            decision = np.empty((n, self.intercept_.size))
            for start in range(0, n, rows):
                part = np.arange(start, min(n, start + rows))
                decision[part] = self._block_decision(
                    _safe_indexing(X, part), dual_coef
                )
        return -decision if self.classes_.size == 2 else decision

    def _block_decision(self, X, dual_coef):
        """ovo_decision of the points X (validated), all kernel values."""
        if self.kernel == "precomputed":
            K = X[:, self.support_]
        else:
            K = self._kernel_function()(X, self.support_vectors_)
        return ovo_decision(K, dual_coef, self.intercept_, self.n_support_)

    def decision_function(self, X):
        """Signed distance-like score f(x) = sum_i alpha_i y_i K(x_i, x) + b.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n_samples, \
n_features)
            With ``kernel="precomputed"``: the kernel values K(x, x_j)
            between the points and the training points, shape (n_samples,
            n_training_samples) (only the columns of ``support_`` are read).

        Returns
        -------
        f : ndarray of shape (n_samples,), (n_samples, K) or \
(n_samples, K (K - 1) / 2), float64
            Two classes: positive values predict ``classes_[1]``. K > 2
            classes: with ``decision_function_shape="ovo"`` the value of each
            pairwise machine (i, j) (positive: class i), with "ovr" one score
            per class (see ``svmlib.multiclass.ovr_from_ovo``).

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
        Chang & Lin (2011), section 7; Hsu & Lin (2002).

        Examples
        --------
        >>> from sklearn.datasets import load_iris
        >>> from svmlib import SVC
        >>> X, y = load_iris(return_X_y=True)
        >>> model = SVC(C=10.0).fit(X, y)
        >>> model.decision_function(X[:2]).shape
        (2, 3)
        """
        pairwise = self._pairwise_decision(X)
        if self.classes_.size == 2:
            return -pairwise[:, 0]
        if self.decision_function_shape == "ovr":
            return ovr_from_ovo(pairwise, self.classes_.size)
        return pairwise

    def predict(self, X):
        """Predicted class labels.

        With K > 2 classes, the class with most votes of the pairwise
        machines; ties go to the class that comes first in ``classes_``
        (LIBSVM's and scikit-learn's rule), or, with ``break_ties=True``,
        to the largest "ovr" score.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n_samples, \
n_features)
            As for :meth:`decision_function`.

        Returns
        -------
        y : ndarray of shape (n_samples,)
            Labels from ``classes_``.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before ``fit``.
        ValueError
            With ``break_ties=True`` and ``decision_function_shape="ovo"``,
            and as :meth:`decision_function`.

        References
        ----------
        Chang & Lin (2011), section 7 (voting).

        Examples
        --------
        >>> from sklearn.datasets import load_iris
        >>> from svmlib import SVC
        >>> X, y = load_iris(return_X_y=True)
        >>> model = SVC(C=10.0).fit(X, y)
        >>> model.predict(X[[0, 50, 100]]).tolist()
        [0, 1, 2]
        """
        check_is_fitted(self)
        if self.break_ties and self.decision_function_shape == "ovo":
            raise ValueError(
                "break_ties must be False when decision_function_shape is "
                "'ovo': the ties are broken by the 'ovr' scores."
            )
        if self.break_ties and self.classes_.size > 2:
            scores = self.decision_function(X)
        else:
            scores = ovo_votes(self._pairwise_decision(X), self.classes_.size)
        return self.classes_[np.argmax(scores, axis=1)]

    def _has_probability(self):
        if not self.probability:
            raise AttributeError(
                "predict_proba is not available when probability=False"
            )
        return True

    @available_if(_has_probability)
    def predict_proba(self, X):
        """Class probabilities: LIBSVM's Platt scaling and pairwise coupling.

        Needs ``probability=True`` at ``fit``. The probabilities come from a
        model fitted by cross-validation, so their arg max may differ from
        ``predict`` for points near the decision boundary.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n_samples, \
n_features)
            As for :meth:`decision_function`.

        Returns
        -------
        p : ndarray of shape (n_samples, K), float64
            Columns in the order of ``classes_``; each row sums to 1.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before ``fit``, or after a fit with ``probability=False``.
        ValueError
            As :meth:`decision_function`.

        References
        ----------
        Platt (1999); Lin, Lin & Weng (2007); Wu, Lin & Weng (2004), method
        2 (see :mod:`svmlib.probability`).

        Examples
        --------
        >>> from sklearn.datasets import load_iris
        >>> from svmlib import SVC
        >>> X, y = load_iris(return_X_y=True)
        >>> model = SVC(C=10.0, probability=True, random_state=0).fit(X, y)
        >>> model.predict_proba(X[:1]).sum().round(6)
        np.float64(1.0)
        """
        check_is_fitted(self)
        if not hasattr(self, "probA_"):
            raise NotFittedError(
                "predict_proba is not available when fitted with "
                "probability=False; fit again with probability=True."
            )
        return class_probabilities(
            self._pairwise_decision(X), self.probA_, self.probB_
        )

    @available_if(_has_probability)
    def predict_log_proba(self, X):
        """Logarithm of :meth:`predict_proba`, shape (n_samples, K).

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n_samples, n_features)
            As for :meth:`decision_function`.

        Returns
        -------
        log_p : ndarray of shape (n_samples, K), float64

        Raises
        ------
        sklearn.exceptions.NotFittedError
            As :meth:`predict_proba`.

        References
        ----------
        Platt (1999); Wu, Lin & Weng (2004).

        Examples
        --------
        >>> from sklearn.datasets import load_iris
        >>> from svmlib import SVC
        >>> X, y = load_iris(return_X_y=True)
        >>> model = SVC(C=10.0, probability=True, random_state=0).fit(X, y)
        >>> model.predict_log_proba(X[:1]).shape
        (1, 3)
        """
        return np.log(self.predict_proba(X))

    @property
    def coef_(self):
        """Weight vector w of each machine, f(x) = w . x + b (linear kernel).

        Shape (K (K - 1) / 2, n_features), read-only; sparse (CSR) if the
        training data were.

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
        dual_coef = self.dual_coef_
        if sp.issparse(dual_coef):
            dual_coef = dual_coef.toarray()
        coef = ovo_coef(dual_coef, self.n_support_, self.support_vectors_)
        if sp.issparse(self.support_vectors_):
            coef = sparse_like_sklearn(coef)
            coef.data.flags.writeable = False
        else:
            coef.flags.writeable = False
        return coef


class SVC(_BaseSVC):
    """Support vector classifier trained by SMO on the dual.

    The decision function is f(x) = sum_i alpha_i y_i K(x_i, x) + b, with
    y_i = +1 for the second class of ``classes_`` and -1 for the first, as in
    scikit-learn; ``predict`` returns the second class where f(x) > 0.

    With K > 2 classes, SVC trains K (K - 1) / 2 binary machines, one per
    pair of classes, and predicts by their votes (one-vs-one, as LIBSVM and
    scikit-learn; see ``svmlib.multiclass``). Two classes are the case
    K = 2: one machine, stored as scikit-learn stores it.

    Parameters
    ----------
    C : float, default=1.0
        Box constraint (inverse regularisation), > 0; ``np.inf`` gives the
        hard margin. Point i gets the bound C_i = C * sample_weight_i *
        class_weight[y_i] (LIBSVM's); points with C_i <= 0 are left out.
    kernel : {"linear", "poly", "rbf", "sigmoid", "precomputed"} or \
callable, default="rbf"
        The kernel. With "precomputed", X is the Gram matrix: of shape
        (n_samples, n_samples) in ``fit``, (n_test, n_samples) after. A
        callable ``kernel(A, B)`` must return the Gram matrix of shape
        (len(A), len(B)) (ndarray or sparse); it gets X as given (not
        converted), so that it may work on any kind of object; the kernel
        objects of ``svmlib.kernels`` (``RBF(sigma=1) + Linear()``, ...) are
        such callables. After ``fit``, a callable is evaluated against the
        support vectors only.
    gamma : {"scale", "auto"} or float, optional
        Kernel coefficient of "rbf" (exp(-gamma ||x - z||^2)), "poly" and
        "sigmoid", > 0. "scale" (the default when ``sigma`` is not given) is
        1 / (n_features * X.var()), "auto" is 1 / n_features.
    sigma : float, optional
        Width of the "rbf" kernel in the book's parametrization,
        exp(-||x - z||^2 / (2 sigma^2)), > 0; give either ``sigma`` or
        ``gamma``.
    degree : int, default=3
        Degree of the "poly" kernel, >= 1.
    coef0 : float, default=0.0
        Constant term of the "poly" and "sigmoid" kernels.
    selection : {"wss2", "platt"}, default="wss2"
        How SMO chooses its pair: "wss2", LIBSVM's second-order working-set
        selection; "platt", Platt's (1998) heuristics (see
        :func:`svmlib.solvers.smo`).
    shrinking : bool, default=True
        Whether the "wss2" solver sets aside the points that cannot be in
        a violating pair (LIBSVM's shrinking; the answer is the same, the
        work less). Not used by "platt".
    tol : float, default=1e-3
        Stopping tolerance on the maximal KKT violation, > 0.
    max_iter : int, optional
        Maximum number of SMO steps of each machine, >= 1, or -1 for no
        limit (scikit-learn's default); None (the default) is LIBSVM's
        max(10^7, 100 n).
    cache_size : float, default=1024
        Memory budget for the training Gram matrix, in MiB, > 0. If the
        whole matrix fits, it is computed once with one BLAS call and every
        machine takes its block; otherwise kernel columns are computed on
        demand and cached (LRU). ``decision_function``, ``predict`` and
        ``predict_proba`` compute the kernel values between the points and
        the support vectors in blocks of rows within this budget too.
    probability : bool, default=False
        Fit Platt's sigmoid to every machine, on decision values from an
        internal 5-fold cross-validation, so that ``predict_proba`` is
        available (LIBSVM's method; see :mod:`svmlib.probability`). Makes
        ``fit`` several times slower (five more fits of every machine,
        on 4/5 of its points). scikit-learn 1.9 recommends
        ``sklearn.calibration.CalibratedClassifierCV(SVC(), ensemble=False)``
        instead, which works with this SVC too.
    class_weight : dict, "balanced" or None, default=None
        Multiplies C for the points of a class: ``{label: weight}``, or
        "balanced", n_samples / (n_classes * count of the class)
        (``sklearn.utils.class_weight.compute_class_weight``).
    random_state : int, RandomState instance or None, default=None
        Seeds the random choices of the "platt" selection and the folds of
        ``probability=True``.
    decision_function_shape : {"ovr", "ovo"}, default="ovr"
        Shape of ``decision_function`` with more than two classes (ignored
        for two): "ovo" gives the K (K - 1) / 2 pairwise decision values,
        "ovr" one score per class (votes plus a tie-breaking confidence in
        (-1/3, 1/3)), as in scikit-learn.
    break_ties : bool, default=False
        With ``decision_function_shape="ovr"`` and K > 2 classes, predict the
        arg max of the "ovr" scores, which breaks ties between classes with
        equal votes by the confidence; otherwise ties go to the class that
        comes first in ``classes_``.
    verbose : bool, default=False
        Show a progress bar (``tqdm.auto``: a widget in a notebook, text
        on stderr elsewhere) over the binary machines while ``fit``
        trains them: 45 for the ten digits of MNIST.
    n_jobs : int or None, default=None
        How many binary machines ``fit`` trains at the same time (the
        cross-validation of ``probability=True`` runs in one job), and how many
        blocks of points ``decision_function``, ``predict`` and
        ``predict_proba`` compute at once, in scikit-learn's convention: None
        means 1 unless a ``joblib.parallel_config`` context says otherwise, -1
        means all cores; 0 is an error. The machines run in
        ``joblib.Parallel``, threads by default, or the backend that a joblib
        context chooses (``joblib.parallel_config(backend="dask")`` runs them
        on a Dask cluster's workers). The fitted model is the same as with one
        job (same support vectors, ``dual_coef_``, ``intercept_``) when the
        training Gram matrix fits ``cache_size`` (it is computed once, before
        the machines) or is precomputed; over that budget each job computes its
        pair's kernel blocks with one BLAS thread, which can change the last
        bit of kernel values, and the model agrees within the solver's
        tolerance. Decision values agree with one job's to rounding (the
        kernel's matrix product is split into other blocks of points). With
        ``selection="platt"`` give ``random_state`` as an int: a shared
        RandomState would be drawn from in the order in which the machines run.

    Attributes
    ----------
    classes_ : ndarray of shape (K,)
        The class labels; with two classes ``classes_[1]`` is the positive
        class.
    class_weight_ : ndarray of shape (K,)
        The weight of each class (all 1 without ``class_weight``).
    alpha_ : ndarray of shape (n_samples,), or (K (K - 1) / 2, n_samples)
        Lagrange multipliers of all training points; with K > 2 classes one
        row per pairwise machine (0 for points the machine does not see).
    support_ : ndarray of shape (n_SV,)
        Indices of the support vectors (alpha_i > 0), grouped by class (the
        class of ``classes_[0]`` first), increasing within a class, as in
        scikit-learn.
    support_vectors_ : ndarray or sparse matrix of shape (n_SV, n_features)
        The support vectors, sparse (CSR) if X was; for a callable kernel
        whatever indexing X gives, for "precomputed" an empty (0, 0) array.
    n_support_ : ndarray of shape (K,)
        Number of support vectors in each class.
    dual_coef_ : ndarray or sparse matrix of shape (K - 1, n_SV)
        alpha_i y_i of the support vectors. With K > 2, LIBSVM's layout as in
        scikit-learn: a support vector of class c has its coefficient for the
        machine (c, o) in row o - 1 if c < o and in row o if c > o; in the
        machine (i, j), i < j, class i has y = +1. Sparse (CSR) if X was.
    intercept_ : ndarray of shape (K (K - 1) / 2,)
        The intercept b of each machine (one for two classes), pairs in the
        order (0, 1), (0, 2), ..., (K-2, K-1).
    coef_ : ndarray or sparse matrix of shape (K (K - 1) / 2, n_features)
        Only for ``kernel="linear"`` (AttributeError otherwise): the weight
        vector w of each machine, f(x) = w . x + b; read-only.
    n_iter_ : ndarray of shape (K (K - 1) / 2,), int
        Number of SMO steps of each machine (one entry for two classes).
    dual_objective_ : float, or ndarray of shape (K (K - 1) / 2,)
        The dual objective W(alpha) at the solution (of each machine).
    converged_ : bool
        Whether the solver reached ``tol`` (on every machine).
    fit_status_ : int
        0 if every machine converged, 1 otherwise (scikit-learn's).
    shape_fit_ : tuple of int
        The shape of the training X (for a callable kernel on a sequence,
        (n_samples,)).
    probA_, probB_ : ndarray of shape (K (K - 1) / 2,)
        With ``probability=True``: the sigmoid 1 / (1 + exp(A f + B)) of
        each machine, for f with LIBSVM's sign (positive: the first class of
        the pair).
    n_features_in_ : int
        Not set for a callable kernel (X is not validated then).
    feature_names_in_ : ndarray of shape ``(n_features_in_,)``
        When X has feature names.

    Raises
    ------
    sklearn.utils._param_validation.InvalidParameterError
        From ``fit`` (a ``ValueError``), before anything is fitted: a
        parameter of the wrong type or out of range (C <= 0, gamma or
        sigma <= 0, degree < 1, an unknown kernel, selection or
        decision_function_shape, ...).
    ValueError
        From ``fit``: both gamma and sigma, sigma with another kernel than
        "rbf"; NaN or infinity in X, X and y of different lengths, one
        class, a non-square precomputed Gram matrix, sample weights of the
        wrong shape, no class left with positive weights, features too
        large for gamma="scale". A fit that fails leaves the estimator
        as it was (its earlier model, or unfitted).
    TypeError
        From ``fit``: a sparse matrix with ``kernel="precomputed"``.

    Warns
    -----
    ConvergenceWarning
        From ``fit``, once, when a machine stopped short of ``tol``.

    Notes
    -----
    Book chapters: *The soft margin*, *Kernels*, *Platt's SMO and working
    sets*, *More than two classes*. The solver is
    :func:`svmlib.solvers.smo`; the one-vs-one machinery is in
    ``svmlib.multiclass``; the probabilities in ``svmlib.probability``.

    The binary decision function has the sign of scikit-learn's (positive:
    ``classes_[1]``); the pairwise machines of the multi-class case have
    LIBSVM's and scikit-learn's sign (positive: the first class of the pair).

    References
    ----------
    Chang & Lin (2011), "LIBSVM: a library for support vector machines";
    Platt (1998); Fan, Chen & Lin (2005); Platt (1999) and Wu, Lin & Weng
    (2004) for the probabilities.

    Examples
    --------
    >>> from sklearn.datasets import make_moons
    >>> from svmlib import SVC
    >>> X, y = make_moons(200, noise=0.1, random_state=0)
    >>> clf = SVC(C=10, sigma=0.5).fit(X, y)
    >>> clf.score(X, y) > 0.95
    True
    >>> clf.n_support_.sum() == len(clf.support_), clf.n_iter_.shape
    (np.True_, (1,))
    """

    _parameter_constraints = {
        **_SHARED_CONSTRAINTS,
        "C": [Interval(Real, 0.0, None, closed="right")],
        "gamma": [
            StrOptions({"scale", "auto"}),
            Interval(Real, 0.0, None, closed="neither"),
            None,
        ],
        "sigma": [Interval(Real, 0.0, None, closed="neither"), None],
        "selection": [StrOptions({"wss2", "platt"})],
        "n_jobs": _N_JOBS,
    }

    def __init__(
        self,
        C=1.0,
        kernel="rbf",
        *,
        gamma=None,
        sigma=None,
        degree=3,
        coef0=0.0,
        selection="wss2",
        shrinking=True,
        tol=1e-3,
        max_iter=None,
        cache_size=1024,
        probability=False,
        class_weight=None,
        random_state=None,
        decision_function_shape="ovr",
        break_ties=False,
        verbose=False,
        n_jobs=None,
    ):
        self.C = C
        self.kernel = kernel
        self.gamma = gamma
        self.sigma = sigma
        self.degree = degree
        self.coef0 = coef0
        self.selection = selection
        self.shrinking = shrinking
        self.tol = tol
        self.max_iter = max_iter
        self.cache_size = cache_size
        self.probability = probability
        self.class_weight = class_weight
        self.random_state = random_state
        self.decision_function_shape = decision_function_shape
        self.break_ties = break_ties
        self.verbose = verbose
        self.n_jobs = n_jobs

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Train on X, y.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n_samples, \
n_features)
            Training points; float32 input is kept in float32 (a float32 Gram
            matrix), anything else becomes float64; sparse input becomes
            CSR (and is trained on as a dense array when that takes no more
            memory: the model is then the dense array's). With
            ``kernel="precomputed"``: the Gram matrix, of shape (n_samples,
            n_samples). With a callable kernel: anything the
            kernel accepts.
        y : array-like of shape (n_samples,)
            Class labels of any type, at least two classes.
        sample_weight : array-like of shape (n_samples,), optional
            Multiplies C for each point; points with weight <= 0 are left
            out of the training problem (LIBSVM's rule, scikit-learn's
            ``SVC`` and ``LinearSVC``).

        Returns
        -------
        self : SVC

        Raises
        ------
        ValueError
            As listed for the class (invalid parameters, data or weights);
            ``sample_weight`` with NaN, infinity or the wrong shape.
        MemoryError
            If the pairwise model (``alpha_``, K (K - 1) / 2 x n float64)
            would not fit in the memory available
            (:func:`svmlib.multiclass.check_model_memory`).

        References
        ----------
        Chang & Lin (2011); book chapters *The soft margin* and *More
        than two classes*.

        Examples
        --------
        >>> from sklearn.datasets import load_iris
        >>> from svmlib import SVC
        >>> X, y = load_iris(return_X_y=True)
        >>> model = SVC(C=10.0).fit(X, y)
        >>> model.n_support_.shape, model.intercept_.shape
        ((3,), (3,))
        """
        return self._fit(X, y, sample_weight)

    def _check_kernel_parameters(self):
        """Check the parameters that interact (the others: constraints)."""
        if self.sigma is None:
            return
        if self.gamma is not None:
            raise ValueError(
                "Give sigma or gamma, not both: they set the same width, "
                "gamma = 1 / (2 sigma^2)."
            )
        if self.kernel != "rbf":
            raise ValueError(
                "sigma is the width of the 'rbf' kernel; it does not apply "
                f"to kernel={self.kernel!r}."
            )

    def _machine_solver(self, weight):
        """solve(gram, y, members) for a machine: SMO, C_i = C weight_i."""
        C = self.C * weight

        def solve(gram, y, members):
            return smo(
                gram,
                y,
                C[members],
                tol=self.tol,
                max_iter=self.max_iter,
                selection=self.selection,
                shrinking=self.shrinking,
                random_state=self.random_state,
            )

        return solve

    def _no_progress_reason(self):
        if np.isinf(self.C):
            return (
                "It could make no further progress. With C = inf (hard "
                "margin) this usually means that the data are not separable "
                "in the kernel's feature space: use a finite C."
            )
        return (
            "It could make no further progress. The problem may be badly "
            "scaled: standardise the features or lower C."
        )


class NuSVC(_BaseSVC):
    """Nu-support vector classifier: scikit-learn's ``NuSVC`` on svmlib.

    Each binary machine solves the nu-SVC dual of Schoelkopf et al. (2000)
    in LIBSVM's form (Chang & Lin 2001):

        min_a 1/2 sum_ij a_i a_j y_i y_j K(x_i, x_j)
        s.t. 0 <= a_i <= w_i, sum_i a_i y_i = 0, sum_i a_i = nu sum_i w_i,

    with w_i the weight of point i (1 without weights), by
    :func:`svmlib.formulations.nu_svc` (SMO with two equality
    constraints, LIBSVM's ``Solver_NU``). nu in (0, 1] replaces C: it is
    an upper bound on the fraction of margin errors and a lower bound on
    the fraction of support vectors (fractions of the total weight, in
    each machine). As LIBSVM and scikit-learn, the solution is then
    rescaled by 1 / r (r > 0, found by the solver): the coefficients
    ``dual_coef_`` = alpha_i y_i / r and the intercept b / r are exactly
    those of the C-SVC with C_i = w_i / r (Chang & Lin 2001, Theorem 2),
    so that f(x) = sum_i ``alpha_`` y_i K(x_i, x) + b as for :class:`SVC`;
    ``C_`` holds that C of each machine.

    With K > 2 classes, NuSVC trains K (K - 1) / 2 machines, one per pair
    of classes, and predicts by their votes, as :class:`SVC`. Every pair
    (i, j) must make nu feasible: nu (n_i + n_j) / 2 <= min(n_i, n_j),
    with n_c the total weight of class c.

    The machines run in parallel under a joblib context, as those of
    ``SVC(n_jobs=None)``: ``with joblib.parallel_config(n_jobs=2):
    NuSVC().fit(X, y)`` (threads; or ``backend="dask"``) fits the model
    of one job.

    Parameters
    ----------
    nu : float, default=0.5
        In (0, 1]: an upper bound on the fraction of margin errors and a
        lower bound on the fraction of support vectors.
    kernel : {"linear", "poly", "rbf", "sigmoid", "precomputed"} or \
callable, default="rbf"
        The kernel, as for :class:`SVC`: with "precomputed", X is the Gram
        matrix; a callable ``kernel(A, B)`` returns the Gram matrix of
        shape (len(A), len(B)) and gets X as given.
    degree : int, default=3
        Degree of the "poly" kernel, >= 1.
    gamma : {"scale", "auto"} or float, default="scale"
        Kernel coefficient of "rbf" (exp(-gamma ||x - z||^2)), "poly" and
        "sigmoid", > 0. "scale" is 1 / (n_features * X.var()), "auto" is
        1 / n_features. (The book's sigma is gamma = 1 / (2 sigma^2):
        :func:`svmlib.kernels.rbf_gamma`.)
    coef0 : float, default=0.0
        Constant term of the "poly" and "sigmoid" kernels.
    shrinking : bool, default=True
        Whether the solver sets aside the points that cannot be in a
        violating pair (LIBSVM's shrinking; same answer, less work).
    probability : bool, default=False
        Fit Platt's sigmoid to every machine, on decision values from an
        internal 5-fold cross-validation (each fold's machine a nu-SVC
        with the same nu), so that ``predict_proba`` is available, as
        :class:`SVC`.
    tol : float, default=1e-3
        Stopping tolerance on the maximal KKT violation, > 0.
    cache_size : float, default=1024
        Memory budget for the training Gram matrix and for the kernel
        values of prediction, in MiB, > 0 (as for :class:`SVC`).
    class_weight : dict, "balanced" or None, default=None
        Multiplies the weight w_i (the upper bound of a_i) of the points of
        a class: ``{label: weight}``, or "balanced", n_samples / (n_classes
        * count of the class), which makes every nu in (0, 1] feasible.
        scikit-learn's ``NuSVC`` computes ``class_weight_`` but does not
        use it in training (LIBSVM's nu-SVC takes no class weights);
        svmlib applies it, as it applies ``sample_weight``.
    verbose : bool, default=False
        Show a progress bar over the binary machines during ``fit``.
    max_iter : int, default=-1
        Maximum number of SMO steps of each machine, >= 1; -1 (the default,
        scikit-learn's) for no limit; None for LIBSVM's max(10^7, 100 n).
    decision_function_shape : {"ovr", "ovo"}, default="ovr"
        Shape of ``decision_function`` with more than two classes, as for
        :class:`SVC`.
    break_ties : bool, default=False
        With "ovr" and K > 2 classes, predict the arg max of the "ovr"
        scores (ties between votes broken by confidence).
    random_state : int, RandomState instance or None, default=None
        Seeds the folds of ``probability=True``.

    Attributes
    ----------
    classes_ : ndarray of shape (K,)
        The class labels.
    class_weight_ : ndarray of shape (K,)
        The weight of each class (all 1 without ``class_weight``).
    alpha_ : ndarray of shape (n_samples,), or (K (K - 1) / 2, n_samples)
        The multipliers in C-SVC form, a_i / r (see above), of all training
        points; one row per pairwise machine with K > 2 classes.
    C_ : ndarray of shape (K (K - 1) / 2,)
        1 / r of each machine: the C of the C-SVC with the same solution
        (``SVC(C=C_[0])`` gives this model, up to the solvers' tolerance,
        for two classes without weights).
    support_ : ndarray of shape (n_SV,)
        Indices of the support vectors, grouped by class, increasing within
        a class, as in scikit-learn.
    support_vectors_ : ndarray or sparse matrix of shape (n_SV, n_features)
        The support vectors (empty (0, 0) for "precomputed").
    n_support_ : ndarray of shape (K,)
        Number of support vectors in each class.
    dual_coef_ : ndarray or sparse matrix of shape (K - 1, n_SV)
        a_i y_i / r of the support vectors, in LIBSVM's layout (as
        :class:`SVC`).
    intercept_ : ndarray of shape (K (K - 1) / 2,)
        The intercept b / r of each machine.
    coef_ : ndarray or sparse matrix of shape (K (K - 1) / 2, n_features)
        Only for ``kernel="linear"``: the weight vector of each machine.
    n_iter_ : ndarray of shape (K (K - 1) / 2,), int
        Number of SMO steps of each machine.
    dual_objective_ : float, or ndarray of shape (K (K - 1) / 2,)
        The dual objective W(alpha) = sum_i alpha_i - 1/2 sum_ij alpha_i
        alpha_j y_i y_j K_ij of the equivalent C-SVC (C = ``C_``) at
        ``alpha_`` (of each machine).
    converged_ : bool
        Whether the solver reached ``tol`` on every machine.
    fit_status_ : int
        0 if every machine converged, 1 otherwise.
    shape_fit_ : tuple of int
        The shape of the training X.
    probA_, probB_ : ndarray of shape (K (K - 1) / 2,)
        With ``probability=True``: each machine's sigmoid, as for
        :class:`SVC`.
    n_features_in_ : int
        Not set for a callable kernel.
    feature_names_in_ : ndarray of shape ``(n_features_in_,)``
        When X has feature names.

    Raises
    ------
    sklearn.utils._param_validation.InvalidParameterError
        From ``fit`` (a ``ValueError``), before anything is fitted: a
        parameter of the wrong type or out of range (nu outside (0, 1],
        gamma <= 0, ...).
    ValueError
        From ``fit``: "specified nu is infeasible" when a pair of classes
        has nu (n_i + n_j) / 2 > min(n_i, n_j); when a machine finds r
        zero within rounding (no margin left to rescale: at this nu the
        two classes' reduced convex hulls meet, where scikit-learn returns
        coefficients of 1e8 to 1e16, or non-finite ones); and the errors
        of :class:`SVC` (bad data, one class, bad weights). A fit that
        fails leaves the estimator as it was.
    TypeError
        From ``fit``: a sparse matrix with ``kernel="precomputed"``.

    Warns
    -----
    ConvergenceWarning
        From ``fit``, once, when a machine stopped short of ``tol``.

    Notes
    -----
    Book chapter: *The soft margin* (nu and its map to C).

    References
    ----------
    Schoelkopf, Smola, Williamson & Bartlett (2000), "New support vector
    algorithms"; Chang & Lin (2001), "Training nu-support vector
    classifiers: theory and algorithms"; Chang & Lin (2011), "LIBSVM: a
    library for support vector machines", sections 2.2 and 4.2.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from svmlib import NuSVC
    >>> X, y = load_iris(return_X_y=True)
    >>> model = NuSVC(nu=0.1).fit(X, y)
    >>> model.score(X, y) > 0.95
    True
    >>> bool(model.n_support_.sum() >= 0.1 * 100)  # nu bounds the SVs
    True
    """

    _parameter_constraints = {
        **_SHARED_CONSTRAINTS,
        "nu": [Interval(Real, 0.0, 1.0, closed="right")],
        "gamma": [
            StrOptions({"scale", "auto"}),
            Interval(Real, 0.0, None, closed="neither"),
        ],
    }

    def __init__(
        self,
        *,
        nu=0.5,
        kernel="rbf",
        degree=3,
        gamma="scale",
        coef0=0.0,
        shrinking=True,
        probability=False,
        tol=1e-3,
        cache_size=1024,
        class_weight=None,
        verbose=False,
        max_iter=-1,
        decision_function_shape="ovr",
        break_ties=False,
        random_state=None,
    ):
        self.nu = nu
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.shrinking = shrinking
        self.probability = probability
        self.tol = tol
        self.cache_size = cache_size
        self.class_weight = class_weight
        self.verbose = verbose
        self.max_iter = max_iter
        self.decision_function_shape = decision_function_shape
        self.break_ties = break_ties
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Train on X, y: one nu-SVC per pair of classes.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n_samples, \
n_features)
            Training points, as for :meth:`SVC.fit`; with
            ``kernel="precomputed"`` the Gram matrix, of shape (n_samples,
            n_samples).
        y : array-like of shape (n_samples,)
            Class labels of any type, at least two classes.
        sample_weight : array-like of shape (n_samples,), optional
            The weight w_i of each point: the upper bound of its
            multiplier, 0 <= a_i <= w_i, and its share of nu sum_i w_i
            (LIBSVM's, scikit-learn's ``NuSVC``); points with weight <= 0
            are left out of the training problem.

        Returns
        -------
        self : NuSVC

        Raises
        ------
        ValueError
            "specified nu is infeasible" if a pair of classes (i, j) has
            nu (n_i + n_j) / 2 > min(n_i, n_j), n_c the total positive
            weight of class c (a class without it included); if a machine
            finds r zero within rounding (see the class); otherwise as
            :meth:`SVC.fit`.
        MemoryError
            If the pairwise model would not fit in the memory available.

        References
        ----------
        Chang & Lin (2001), "Training nu-support vector classifiers";
        Chang & Lin (2011), section 4.2.

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib import NuSVC
        >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
        >>> model = NuSVC(nu=0.5, kernel="linear").fit(X, [0, 0, 1, 1])
        >>> model.predict([[0.5], [2.5]]).tolist()
        [0, 1]
        """
        return self._fit(X, y, sample_weight)

    def _check_weights(self, weight, y_index):
        """LIBSVM's feasibility test of nu, for every pair of classes."""
        totals = np.bincount(
            y_index,
            weights=np.maximum(weight, 0.0),
            minlength=len(self.classes_),
        )
        pairs = class_pairs(self.classes_.size)
        n_i, n_j = totals[pairs[:, 0]], totals[pairs[:, 1]]
        infeasible = self.nu * (n_i + n_j) / 2 > np.minimum(n_i, n_j)
        if infeasible.any():
            p = np.flatnonzero(infeasible)[0]
            first, second = self.classes_[pairs[p]].tolist()
            largest = 2 * min(n_i[p], n_j[p]) / (n_i[p] + n_j[p])
            raise ValueError(
                f"specified nu is infeasible: nu={self.nu:g} needs "
                "nu (n_i + n_j) / 2 <= min(n_i, n_j) for every pair of "
                f"classes, but the classes {first!r} and {second!r} have "
                f"n_i = {n_i[p]:g} and n_j = "
                f"{n_j[p]:g} (their total weights); nu can be at most "
                f"{largest:.6g} for them."
            )

    def _machine_solver(self, weight):
        """solve(gram, y, members): nu-SVC, in C-SVC form (a / r)."""
        unweighted = bool(np.all(weight == 1.0))

        def solve(gram, y, members):
            w = weight[members]
            totals = w[y > 0].sum(), w[y < 0].sum()
            # fit checked every machine's nu; a fold of probability=True
            # may not allow it: it gets the largest nu that it allows
            nu = min(self.nu, 2 * min(totals) / sum(totals))
            solution = nu_svc(  # LIBSVM's sum_i a_i = nu sum_i w_i
                gram,
                y,
                nu,
                weight=None if unweighted else w,
                tol=self.tol,
                max_iter=self.max_iter,
                shrinking=self.shrinking,
            )
            return _c_svc_form(solution, y)

        return solve

    def _store_extra(self, fit, y_index, weight):
        """C_ = 1 / r of each machine, from sum_i a_i = nu sum_i w_i."""
        totals = np.bincount(
            y_index, weights=weight, minlength=len(fit.n_support)
        )
        pairs = class_pairs(len(totals))
        nu_w = self.nu * (totals[pairs[:, 0]] + totals[pairs[:, 1]])
        self.C_ = fit.alpha.sum(axis=1) / nu_w


def _c_svc_form(solution, y):
    """Return a nu-SVC solution as the C-SVC result it is.

    Chang & Lin (2001), Theorem 2: alpha = coef y = a / r >= 0 and the
    intercept (already divided by r) are the C-SVC solution for C = 1 / r;
    its dual objective is sum_i alpha_i - 1/2 alpha^T Q alpha, where
    ``solution.dual_objective`` is -1/2 alpha^T Q alpha.
    """
    alpha = solution.coef * y
    return SimpleNamespace(
        alpha=alpha,
        b=solution.intercept,
        n_iter=solution.n_iter,
        dual_objective=alpha.sum() + solution.dual_objective,
        converged=solution.converged,
        kkt_violation=solution.kkt_violation,
    )
