"""A scikit-learn compatible linear SVM trained by dual coordinate descent."""

import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, _fit_context
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model._base import LinearClassifierMixin, SparseCoefMixin
from sklearn.utils._param_validation import Interval, Options, StrOptions
from sklearn.utils.class_weight import compute_class_weight
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import validate_data

from ._validation import check_sample_weight, positive_weight_points
from .multiclass import _fresh_fit
from .solvers._common import not_converged_message
from .solvers.coordinate_descent import LOSSES, dual_cd

__all__ = ["LinearSVC"]


class LinearSVC(LinearClassifierMixin, SparseCoefMixin, BaseEstimator):
    """Linear support vector classifier trained by dual coordinate descent.

    The algorithm of LIBLINEAR (Hsieh et al. 2008; see
    :func:`svmlib.solvers.dual_cd`), with scikit-learn's ``LinearSVC``
    parameters and attributes. It minimises, for each binary problem,

        1/2 ||w||^2 + 1/2 b^2 / B^2 + sum_i C_i loss(y_i (w.x_i + b)),

    where the intercept b = w_B B is the weight of a constant feature B
    (``intercept_scaling``), so it is regularised as in LIBLINEAR. With K > 2
    classes it trains K machines, one class against the rest, and predicts
    the class of largest decision value.

    Parameters
    ----------
    penalty : {"l2"}, default="l2"
        The regulariser; only the l2 norm has a dual (the l1 penalty of
        scikit-learn needs a primal solver, which svmlib does not have).
    loss : {"hinge", "squared_hinge"}, default="squared_hinge"
        The hinge loss (the book's soft margin, L1-SVM) or its square.
    dual : "auto" or True, default="auto"
        svmlib solves the dual only; ``False`` raises a ValueError.
    tol : float, default=1e-4
        Stop when max PG - min PG over a pass is at most tol.
    C : float, default=1.0
        Penalty of the loss, > 0.
    multi_class : {"ovr"}, default="ovr"
        One-vs-rest (Crammer-Singer is not implemented).
    fit_intercept : bool, default=True
        Whether to learn b (through the constant feature).
    intercept_scaling : float, default=1.0
        B, the value of the constant feature (> 0).
    class_weight : dict, "balanced" or None, default=None
        Multiplies C per class (``compute_class_weight``).
    verbose : int, default=0
        If > 0, print each machine's passes and final KKT gap.
    random_state : int, RandomState instance or None, default=None
        Seeds the order in which coordinates are visited.
    max_iter : int, default=1000
        Maximum passes over the data, per machine, >= 1; -1 for no limit
        (scikit-learn's convention for ``SVC``).

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        w of each machine (one row for two classes: the second class is
        positive).
    intercept_ : ndarray of shape (1,) or (n_classes,)
        b of each machine.
    classes_ : ndarray of shape (n_classes,)
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when X has feature names.
    n_iter_ : int
        The largest number of passes over the machines.

    References
    ----------
    Hsieh, Chang, Lin, Keerthi & Sundararajan (2008), "A dual
    coordinate descent method for large-scale linear SVM"; Fan et al.
    (2008), "LIBLINEAR"; book chapter *Scaling up*.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> X, y = make_classification(random_state=0)
    >>> model = LinearSVC(random_state=0).fit(X, y)
    >>> model.coef_.shape, round(model.score(X, y), 2)
    ((1, 20), 0.94)
    """

    _parameter_constraints = {
        "penalty": [StrOptions({"l2"})],
        "loss": [StrOptions(set(LOSSES))],
        "dual": ["boolean", StrOptions({"auto"})],
        "tol": [Interval(Real, 0.0, None, closed="neither")],
        "C": [Interval(Real, 0.0, None, closed="neither")],
        "multi_class": [StrOptions({"ovr"})],
        "fit_intercept": ["boolean"],
        "intercept_scaling": [Interval(Real, 0, None, closed="neither")],
        "class_weight": [StrOptions({"balanced"}), dict, None],
        "verbose": ["verbose"],
        "random_state": ["random_state"],
        "max_iter": [
            Interval(Integral, 1, None, closed="left"),
            Options(Integral, {-1}),
        ],
    }

    def __init__(
        self,
        penalty="l2",
        loss="squared_hinge",
        *,
        dual="auto",
        tol=1e-4,
        C=1.0,
        multi_class="ovr",
        fit_intercept=True,
        intercept_scaling=1.0,
        class_weight=None,
        verbose=0,
        random_state=None,
        max_iter=1000,
    ):
        self.penalty = penalty
        self.loss = loss
        self.dual = dual
        self.tol = tol
        self.C = C
        self.multi_class = multi_class
        self.fit_intercept = fit_intercept
        self.intercept_scaling = intercept_scaling
        self.class_weight = class_weight
        self.verbose = verbose
        self.random_state = random_state
        self.max_iter = max_iter

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Train one machine (two classes) or one per class (more).

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n_samples, \
n_features)
            Training points (copied once into float64 sparse rows).
        y : array-like of shape (n_samples,)
            Class labels, at least two classes.
        sample_weight : array-like of shape (n_samples,), optional
            Multiplies C per point; a point with weight <= 0 is left out
            (as scikit-learn's ``LinearSVC``, whose LIBLINEAR model with a
            negative weight is the one without the point, and ``SVC``).

        Returns
        -------
        self : LinearSVC

        Raises
        ------
        ValueError
            If ``dual=False``, y has one class, a class has no point of
            positive weight (named by its label), ``sample_weight`` is not
            finite or of the wrong shape, the data are invalid, or the
            features are so large that their squared norms overflow. A fit
            that fails leaves the estimator as it was (its earlier model,
            or unfitted).

        References
        ----------
        Hsieh et al. (2008), Algorithm 1.

        Examples
        --------
        >>> from sklearn.datasets import load_iris
        >>> from svmlib import LinearSVC
        >>> X, y = load_iris(return_X_y=True)
        >>> LinearSVC(random_state=0, max_iter=10000).fit(X, y).coef_.shape
        (3, 4)
        """
        if self.dual is False:
            raise ValueError(
                "svmlib.LinearSVC solves the dual only (dual coordinate "
                "descent); dual=False is not supported. Use dual=True or "
                "'auto'."
            )
        with _fresh_fit(self):
            X, y = validate_data(
                self, X, y, accept_sparse="csr", dtype=np.float64, order="C"
            )
            check_classification_targets(y)
            self.classes_, y_index = np.unique(y, return_inverse=True)
            if self.classes_.size < 2:
                raise ValueError(
                    "LinearSVC needs two classes in y, got one class: "
                    f"{self.classes_.tolist()}."
                )
            weight = compute_class_weight(
                self.class_weight, classes=self.classes_, y=y
            )[y_index] * check_sample_weight(sample_weight, y.size)
            positive_weight_points(weight, y_index, self.classes_)
            C = self.C * np.maximum(weight, 0.0)  # weight <= 0: left out
            n_classes = self.classes_.size
            positives = [1] if n_classes == 2 else range(n_classes)
            fits = self._train(X, y_index, C, positives)
            self.coef_ = np.vstack([fit.w for fit in fits])
            self.intercept_ = np.array([fit.b for fit in fits])
            self.n_iter_ = max(fit.n_iter for fit in fits)
        stopped = [fit for fit in fits if not fit.converged]
        if stopped:
            gap = max(fit.projected_gradient_gap for fit in stopped)
            warnings.warn(
                not_converged_message(
                    "LinearSVC",
                    f"reached max_iter={self.max_iter} passes in "
                    f"{len(stopped)} of {len(fits)} machine(s)",
                    "projected-gradient gap",
                    gap,
                    self.tol,
                    "Increase max_iter, or scale the features.",
                ),
                ConvergenceWarning,
                stacklevel=3,  # the caller of fit, past _fit_context
            )
        return self

    def _train(self, X, y_index, C, positives):
        """One dual_cd machine per positive class index.

        The solver's own ConvergenceWarning is silenced (fit issues one for
        all the machines); every other warning goes through.
        """
        fits = []
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", category=ConvergenceWarning)
            for k in positives:
                y = np.where(y_index == k, 1.0, -1.0)
                fit = dual_cd(
                    X, y, C,
                    loss=self.loss,
                    bias=self.intercept_scaling if self.fit_intercept else 0,
                    tol=self.tol,
                    max_iter=self.max_iter,
                    random_state=self.random_state,
                )  # fmt: skip
                if self.verbose:
                    print(
                        f"[LinearSVC] class {self.classes_[k]}: "
                        f"{fit.n_iter} passes, projected-gradient gap "
                        f"{fit.projected_gradient_gap:.3g}"
                    )
                fits.append(fit)
        return fits

    def __sklearn_tags__(self):
        """Return scikit-learn's tags: sparse input accepted."""
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags
