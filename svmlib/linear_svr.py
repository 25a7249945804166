"""A scikit-learn compatible linear SVR trained by dual coordinate descent."""

import warnings
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from scipy.optimize import minimize
from sklearn.base import RegressorMixin, _fit_context
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model._base import LinearModel
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import validate_data

from ._validation import check_sample_weight
from .multiclass import _fresh_fit
from .solvers._common import not_converged_message
from .solvers.coordinate_descent import _with_bias
from .solvers.coordinate_descent_svr import SVR_LOSSES, dual_cd_svr

__all__ = ["LinearSVR"]


class LinearSVR(RegressorMixin, LinearModel):
    """Linear support vector regression (LIBLINEAR's algorithms).

    With scikit-learn's ``LinearSVR`` parameters and attributes, it
    minimises

        1/2 ||w||^2 + 1/2 b^2 / B^2 + sum_i C_i loss(w.x_i + b - y_i),

    with the epsilon-insensitive loss max(0, abs(r) - epsilon) or its square,
    where the intercept b = w_B B is the weight of a constant feature B
    (``intercept_scaling``), so it is regularised as in LIBLINEAR. The dual
    is solved by coordinate descent (Ho & Lin 2012; see
    :func:`svmlib.solvers.coordinate_descent_svr.dual_cd_svr`); with
    ``dual=False``
    (squared loss only, as in LIBLINEAR) the primal is solved by a
    truncated Newton method, conjugate-gradient steps in a trust region
    (scipy's ``trust-ncg``; LIBLINEAR's ``-s 11`` is a truncated Newton
    method too, with its own globalisation).

    Parameters
    ----------
    epsilon : float, default=0.0
        Half the width of the tube in which errors cost nothing, >= 0 (a
        negative value raises a ValueError in ``fit``, as LIBLINEAR's
        "p < 0" in scikit-learn).
    tol : float, default=1e-4
        Dual: stop when the sum of the coordinates' violations over a pass
        is at most tol times that of the first pass. Primal: stop when the
        gradient's norm is at most tol times its norm at w = 0.
    C : float, default=1.0
        Penalty of the loss, > 0.
    loss : {"epsilon_insensitive", "squared_epsilon_insensitive"}, \
default="epsilon_insensitive"
        The L1-loss SVR or the L2-loss SVR.
    fit_intercept : bool, default=True
        Whether to learn b (through the constant feature).
    intercept_scaling : float, default=1.0
        B, the value of the constant feature (> 0).
    dual : "auto" or bool, default="auto"
        Solve the dual (True) or the primal (False, squared loss only).
        "auto" is scikit-learn's choice: the dual when there are fewer
        samples than features or the loss is "epsilon_insensitive", else
        the primal.
    verbose : int, default=0
        If > 0, print the passes (or Newton steps) and the stopping measure.
    random_state : int, RandomState instance or None, default=None
        Seeds the order in which the dual's coordinates are visited.
    max_iter : int, default=1000
        Maximum passes over the data (dual) or Newton steps (primal), >= 0.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
        w.
    intercept_ : ndarray of shape (1,), or float 0.0
        b (0.0, a float, when ``fit_intercept=False``, as in scikit-learn).
    n_features_in_ : int
        Number of features seen during fit.
    feature_names_in_ : ndarray of str
        Only when X has feature names.
    n_iter_ : int
        Passes (dual) or Newton steps (primal) taken.

    References
    ----------
    Ho & Lin (2012), "Large-scale linear support vector regression", JMLR
    13; Fan et al. (2008), "LIBLINEAR"; book chapter *Scaling up*.

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.linear_svr import LinearSVR
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 3))
    >>> y = X @ [1.0, -2.0, 0.5] + 3.0 + 0.1 * rng.normal(size=200)
    >>> model = LinearSVR(epsilon=0.1, random_state=0).fit(X, y)
    >>> np.round(model.coef_, 1).tolist(), np.round(model.intercept_, 1)
    ([1.0, -2.0, 0.5], array([3.]))
    """

    _parameter_constraints = {
        "epsilon": [Real],
        "tol": [Interval(Real, 0.0, None, closed="neither")],
        "C": [Interval(Real, 0.0, None, closed="neither")],
        "loss": [StrOptions(set(SVR_LOSSES))],
        "fit_intercept": ["boolean"],
        "intercept_scaling": [Interval(Real, 0, None, closed="neither")],
        "dual": ["boolean", StrOptions({"auto"})],
        "verbose": ["verbose"],
        "random_state": ["random_state"],
        "max_iter": [Interval(Integral, 0, None, closed="left")],
    }

    def __init__(
        self,
        *,
        epsilon=0.0,
        tol=1e-4,
        C=1.0,
        loss="epsilon_insensitive",
        fit_intercept=True,
        intercept_scaling=1.0,
        dual="auto",
        verbose=0,
        random_state=None,
        max_iter=1000,
    ):
        self.epsilon = epsilon
        self.tol = tol
        self.C = C
        self.loss = loss
        self.fit_intercept = fit_intercept
        self.intercept_scaling = intercept_scaling
        self.dual = dual
        self.verbose = verbose
        self.random_state = random_state
        self.max_iter = max_iter

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Fit w and b.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n_samples, \
n_features)
            Training points (copied once into float64 sparse rows).
        y : array-like of shape (n_samples,)
            Real targets.
        sample_weight : array-like of shape (n_samples,), optional
            Multiplies C per point; a point with weight <= 0 is left out.

        Returns
        -------
        self : LinearSVR

        Raises
        ------
        ValueError
            If ``epsilon`` is negative, ``dual=False`` with
            ``loss="epsilon_insensitive"`` (as in scikit-learn and
            LIBLINEAR: that primal is not differentiable),
            the data are invalid, ``sample_weight`` is not finite, of the
            wrong shape or has no positive weight, or the features are so
            large that their squared norms overflow. Errors in the
            parameters are raised before ``fit`` changes anything; a fit
            that fails later leaves the estimator as it was (its earlier
            model, or unfitted), never half a model.

        Warns
        -----
        sklearn.exceptions.ConvergenceWarning
            If ``max_iter`` ends the fit before the stopping rule holds.

        References
        ----------
        Ho & Lin (2012), Algorithm 4 (dual) and section 3 (primal Newton).

        Examples
        --------
        >>> from sklearn.datasets import load_diabetes
        >>> from svmlib.linear_svr import LinearSVR
        >>> X, y = load_diabetes(return_X_y=True)
        >>> LinearSVR(C=10.0, random_state=0).fit(X, y).coef_.shape
        (10,)
        """
        if self.epsilon < 0:
            raise ValueError(
                f"epsilon must be >= 0 (the half-width of the tube), got "
                f"{self.epsilon!r}."
            )
        if self.dual is False and self.loss == "epsilon_insensitive":
            raise ValueError(
                "LinearSVR(loss='epsilon_insensitive') is solved in the "
                "dual only (its primal is not differentiable); dual=False is "
                "supported with loss='squared_epsilon_insensitive'. Use "
                "dual=True or 'auto'."
            )
        with _fresh_fit(self):
            X, y = validate_data(
                self, X, y, accept_sparse="csr", dtype=np.float64,
                order="C", y_numeric=True,
            )  # fmt: skip
            weight = check_sample_weight(sample_weight, y.size)
            if not np.any(weight > 0):
                raise ValueError(
                    "sample_weight has no positive weight (every weight is "
                    "zero or negative): points with weight <= 0 are left "
                    "out, so there is nothing to fit."
                )
            C = self.C * np.maximum(weight, 0.0)  # weight <= 0: left out
            bias = self.intercept_scaling if self.fit_intercept else 0.0
            w, b, n_iter, measure, converged = self._solve(X, y, C, bias)
            self.coef_ = w
            self.intercept_ = np.array([b]) if self.fit_intercept else 0.0
            self.n_iter_ = int(n_iter)
        if not converged:
            dual = self._uses_dual(X)
            warnings.warn(
                not_converged_message(
                    "LinearSVR",
                    f"reached max_iter={self.max_iter} "
                    + ("passes" if dual else "Newton steps"),
                    "sum of violations relative to the first pass's"
                    if dual
                    else "gradient norm relative to the first",
                    measure,
                    self.tol,
                    "Increase max_iter, or scale the features.",
                ),
                ConvergenceWarning,
                stacklevel=3,  # the caller of fit, past _fit_context
            )
        return self

    def _uses_dual(self, X):
        """Scikit-learn's choice of dual or primal (``dual="auto"``)."""
        if self.dual != "auto":
            return bool(self.dual)
        if self.loss == "epsilon_insensitive":
            return True  # no primal solver for it
        return X.shape[0] < X.shape[1]

    def _solve(self, X, y, C, bias):
        """Return w, b, iterations, stopping measure, converged."""
        if self.max_iter == 0:  # scikit-learn accepts it: w = 0, b = 0
            return np.zeros(X.shape[1]), 0.0, 0, np.inf, False
        if not self._uses_dual(X):
            return _primal_newton(
                X, y, C, self.epsilon, bias, self.tol, self.max_iter,
                self.verbose,
            )  # fmt: skip
        with warnings.catch_warnings():
            # fit words one warning; every other warning goes through
            warnings.filterwarnings("ignore", category=ConvergenceWarning)
            fit = dual_cd_svr(
                X, y, C,
                epsilon=self.epsilon,
                loss=self.loss,
                bias=bias,
                tol=self.tol,
                max_iter=self.max_iter,
                random_state=self.random_state,
            )  # fmt: skip
        if self.verbose:
            print(
                f"[LinearSVR] {fit.n_iter} passes, violations "
                f"{fit.violation_ratio:.3g} times the first pass's"
            )
        return fit.w, fit.b, fit.n_iter, fit.violation_ratio, fit.converged

    def __sklearn_tags__(self):
        """Return scikit-learn's tags: sparse input accepted."""
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags


def _primal_newton(X, y, C, epsilon, bias, tol, max_iter, verbose):
    """Minimise the primal of the L2-loss SVR (LIBLINEAR's ``-s 11``).

    f(w) = 1/2 ||w||^2 + sum_i C_i d_i^2, d_i the excess of abs(r_i) over
    epsilon (signed), r_i = w.x_i - y_i, is once differentiable; its
    generalised Hessian I + 2 X_I^T diag(C_I) X_I over the points outside
    the tube gives Newton steps (Ho & Lin 2012, section 3; scipy's
    trust-ncg). Stops when ||grad f|| <= tol ||grad f(0)||, LIBLINEAR's
    rule.
    """
    data, indices, indptr, d = _with_bias(X, bias)
    Xb = sp.csr_array((data, indices, indptr), shape=(len(y), d))

    def excess(w):
        r = Xb @ w - y
        return np.sign(r) * np.maximum(np.abs(r) - epsilon, 0.0)

    def objective(w):
        e = excess(w)
        return 0.5 * (w @ w) + C @ e**2, w + 2.0 * (Xb.T @ (C * e))

    def hessian_times(w, v):
        outside = (excess(w) != 0.0) * C
        return v + 2.0 * (Xb.T @ (outside * (Xb @ v)))

    w0 = np.zeros(d)
    g0 = np.linalg.norm(objective(w0)[1])
    if g0 == 0.0:
        return np.zeros(X.shape[1]), 0.0, 0, 0.0, True
    result = minimize(
        objective, w0, jac=True, hessp=hessian_times, method="trust-ncg",
        options={"gtol": tol * g0, "maxiter": max_iter},
    )  # fmt: skip
    w = result.x
    ratio = np.linalg.norm(objective(w)[1]) / g0
    if verbose:
        print(
            f"[LinearSVR] {result.nit} Newton steps, gradient norm {ratio:.3g}"
            " times the first"
        )
    converged = ratio <= tol
    if bias > 0:
        return w[:-1], float(w[-1] * bias), result.nit, ratio, converged
    return w, 0.0, result.nit, ratio, converged
