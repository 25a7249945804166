"""More than two classes from binary SVMs: one-vs-one voting and one-vs-rest.

An SVM separates two classes. For K > 2 classes there are two classic
reductions to binary problems (Hsu & Lin 2002):

* **one-vs-one** (:func:`fit_one_vs_one`): one machine per pair of classes,
  K (K - 1) / 2 problems, each on the points of its two classes only (about
  2 N / K points when the classes are balanced); a new point gets one vote
  per machine and the class with most votes wins (:func:`ovo_votes`). This is
  what LIBSVM and scikit-learn's ``SVC`` do, and what ``svmlib.SVC`` does.
* **one-vs-rest** (:class:`OneVsRest`): one machine per class, class k
  against all others: K problems, each on all N points; predict the class
  whose machine gives the largest decision value.

The one-vs-one model is stored in LIBSVM's layout (which scikit-learn's
``SVC`` exposes): the support vectors grouped by class, and for a support
vector of class c its K - 1 coefficients alpha y, one per machine that
involves c, in the rows of ``dual_coef_`` (see :func:`fit_one_vs_one`).

Book chapter: *More than two classes* (part II).
"""

from dataclasses import dataclass

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .gram import DenseGram, make_gram

__all__ = [
    "class_pairs",
    "OneVsOneFit",
    "fit_one_vs_one",
    "ovo_decision",
    "ovo_votes",
    "ovr_from_ovo",
    "OneVsRest",
]

_MIB = 2**20


def class_pairs(n_classes):
    """The pairs (i, j), i < j, of class indices in LIBSVM's order.

    (0, 1), (0, 2), ..., (0, K-1), (1, 2), ..., (K-2, K-1).

    Parameters
    ----------
    n_classes : int
        K >= 2.

    Returns
    -------
    pairs : ndarray of shape (K (K - 1) / 2, 2), int
    """
    i, j = np.triu_indices(n_classes, k=1)
    return np.column_stack([i, j])


@dataclass
class OneVsOneFit:
    """The K (K - 1) / 2 pairwise machines of a one-vs-one SVM, in LIBSVM's layout.

    Attributes
    ----------
    support : ndarray of shape (n_SV,), int
        Indices of the training points that are support vectors of at least
        one machine, grouped by class (class 0 first), increasing within a
        class.
    n_support : ndarray of shape (K,), int
        Number of support vectors of each class.
    dual_coef : ndarray of shape (K - 1, n_SV), float64
        For a support vector of class c and the machine (c, o): its
        coefficient alpha y is in row ``o - 1`` if c < o, and in row ``o``
        if c > o. In the machine (i, j), i < j, class i has y = +1.
    intercept : ndarray of shape (K (K - 1) / 2,), float64
        The b of each machine, in the order of :func:`class_pairs`.
    alpha : ndarray of shape (K (K - 1) / 2, n_samples), float64
        The multipliers of every training point in every machine (0 for the
        points that a machine does not see).
    n_iter : ndarray of shape (K (K - 1) / 2,), int
    dual_objective : ndarray of shape (K (K - 1) / 2,), float64
    converged : ndarray of shape (K (K - 1) / 2,), bool
    """

    support: np.ndarray
    n_support: np.ndarray
    dual_coef: np.ndarray
    intercept: np.ndarray
    alpha: np.ndarray
    n_iter: np.ndarray
    dual_objective: np.ndarray
    converged: np.ndarray


def fit_one_vs_one(X, y_index, n_classes, kernel, solve, cache_size=1024):
    """Train the K (K - 1) / 2 pairwise SVMs of one-vs-one.

    The machine for the pair (i, j), i < j, is trained on the points of
    classes i and j only, with y = +1 for class i and y = -1 for class j (so
    a positive decision value is a vote for i, as in LIBSVM). If the Gram
    matrix of all of X fits in ``cache_size`` MiB it is computed once and each
    machine takes its block; otherwise each machine gets its own
    (possibly cached) Gram matrix from ``svmlib.gram.make_gram``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Training points (float32 or float64).
    y_index : ndarray of shape (n_samples,), int
        Class index of each point, in 0 .. K - 1.
    n_classes : int
        K >= 2; every class must occur in ``y_index``.
    kernel : callable
        ``kernel(A, B)`` returns the Gram matrix of shape (len(A), len(B)).
    solve : callable
        ``solve(gram, y)`` solves one binary dual (gram: an ndarray or an
        ``svmlib.gram`` object; y in {-1, +1}) and returns a
        ``svmlib.solvers._common.SolverResult``, for example
        ``lambda gram, y: smo(gram, y, C)``.
    cache_size : float, default=1024
        Memory budget for Gram matrices, in MiB.

    Returns
    -------
    OneVsOneFit

    Raises
    ------
    ValueError
        If ``y_index`` has values outside 0 .. K - 1 or a class is missing.

    References
    ----------
    Knerr, Personnaz & Dreyfus (1990) for pairwise classification; Hsu & Lin
    (2002), "A comparison of methods for multiclass support vector machines";
    Chang & Lin (2011), section 7 (LIBSVM's layout of the model).
    """
    y_index = np.asarray(y_index)
    counts = (
        np.bincount(y_index, minlength=n_classes)
        if y_index.min(initial=0) >= 0
        else None
    )
    if counts is None or counts.size != n_classes or np.any(counts == 0):
        raise ValueError(
            f"y_index must hold every class index 0 .. {n_classes - 1} and nothing else."
        )
    pairs = class_pairs(n_classes)
    n = X.shape[0]
    itemsize = np.result_type(X.dtype, np.float32).itemsize
    full = kernel(X, X) if n * n * itemsize <= cache_size * _MIB else None

    alpha = np.zeros((len(pairs), n))
    intercept = np.zeros(len(pairs))
    n_iter = np.zeros(len(pairs), dtype=int)
    dual_objective = np.zeros(len(pairs))
    converged = np.zeros(len(pairs), dtype=bool)
    for p, (i, j) in enumerate(pairs):
        members = np.flatnonzero((y_index == i) | (y_index == j))
        y_pm = np.where(y_index[members] == i, 1.0, -1.0)
        if full is not None:
            gram = DenseGram(full[np.ix_(members, members)])
        else:
            gram = make_gram(X[members], kernel, cache_size)
        result = solve(gram, y_pm)
        alpha[p, members] = result.alpha
        intercept[p] = result.b
        n_iter[p] = result.n_iter
        dual_objective[p] = result.dual_objective
        converged[p] = result.converged

    support, n_support = _group_support_by_class(alpha, y_index, n_classes)
    dual_coef = _libsvm_dual_coef(
        alpha, y_index[support], support, pairs, n_classes
    )
    return OneVsOneFit(
        support,
        n_support,
        dual_coef,
        intercept,
        alpha,
        n_iter,
        dual_objective,
        converged,
    )


def _group_support_by_class(alpha, y_index, n_classes):
    """Support vectors of any machine, grouped by class; and their counts per class."""
    is_support = np.any(alpha > 0, axis=0)
    order = np.argsort(y_index, kind="stable")  # by class, then by index
    support = order[is_support[order]]
    n_support = np.bincount(y_index[support], minlength=n_classes)
    return support, n_support


def _libsvm_dual_coef(alpha, support_class, support, pairs, n_classes):
    """dual_coef_ of shape (K - 1, n_SV) in LIBSVM's layout (see :class:`OneVsOneFit`)."""
    dual_coef = np.zeros((n_classes - 1, support.size))
    for p, (i, j) in enumerate(pairs):
        of_i = support_class == i
        of_j = support_class == j
        dual_coef[j - 1, of_i] = alpha[p, support[of_i]]  # y = +1 for class i
        dual_coef[i, of_j] = -alpha[p, support[of_j]]  # y = -1 for class j
    return dual_coef


def ovo_decision(K, dual_coef, intercept, n_support):
    """Decision values of the pairwise machines from the kernel with the support vectors.

    f_ij(x) = sum over support vectors s of classes i and j of
    coef_s K(x_s, x) + b_ij; positive means class i.

    Parameters
    ----------
    K : ndarray of shape (n_samples, n_SV)
        Kernel values between the points and the support vectors (grouped by
        class, as in :class:`OneVsOneFit`).
    dual_coef : ndarray of shape (K - 1, n_SV)
    intercept : ndarray of shape (K (K - 1) / 2,)
    n_support : ndarray of shape (K,)

    Returns
    -------
    decision : ndarray of shape (n_samples, K (K - 1) / 2), float64
        Columns in the order of :func:`class_pairs`.
    """
    starts = np.concatenate([[0], np.cumsum(n_support)])
    pairs = class_pairs(len(n_support))
    decision = np.empty((K.shape[0], len(pairs)))
    for p, (i, j) in enumerate(pairs):
        block_i = slice(starts[i], starts[i + 1])
        block_j = slice(starts[j], starts[j + 1])
        decision[:, p] = (
            K[:, block_i] @ dual_coef[j - 1, block_i].astype(K.dtype)
            + K[:, block_j] @ dual_coef[i, block_j].astype(K.dtype)
            + intercept[p]
        )
    return decision


def _pair_indicators(n_classes):
    """One-hot matrices (n_pairs, K) of the first and of the second class of each pair."""
    pairs = class_pairs(n_classes)
    eye = np.eye(n_classes)
    return eye[pairs[:, 0]], eye[pairs[:, 1]]


def ovo_votes(decision, n_classes):
    """Votes of the pairwise machines: f_ij(x) > 0 is a vote for i, otherwise for j.

    Parameters
    ----------
    decision : ndarray of shape (n_samples, K (K - 1) / 2)
        Pairwise decision values in the order of :func:`class_pairs`.
    n_classes : int

    Returns
    -------
    votes : ndarray of shape (n_samples, K), float64
        Each row sums to K (K - 1) / 2. The predicted class is the first
        argmax (ties go to the smaller class index, as in LIBSVM).
    """
    first, second = _pair_indicators(n_classes)
    wins = (np.asarray(decision) > 0).astype(np.float64)
    return wins @ first + (1.0 - wins) @ second


def ovr_from_ovo(decision, n_classes):
    """One score per class from the pairwise decision values (scikit-learn's "ovr" shape).

    score_k = votes_k + s_k / (3 (abs(s_k) + 1)), where s_k sums the decision
    values in favour of k (f_kj for j > k, -f_ik for i < k). The second term
    lies in (-1/3, 1/3), so it only breaks ties between classes with equal
    votes; this is ``sklearn.utils.multiclass._ovr_decision_function``.

    Parameters
    ----------
    decision : ndarray of shape (n_samples, K (K - 1) / 2)
    n_classes : int

    Returns
    -------
    scores : ndarray of shape (n_samples, K), float64
    """
    decision = np.asarray(decision, dtype=np.float64)
    first, second = _pair_indicators(n_classes)
    confidence = decision @ first - decision @ second
    return ovo_votes(decision, n_classes) + confidence / (
        3.0 * (np.abs(confidence) + 1.0)
    )


class OneVsRest(ClassifierMixin, BaseEstimator):
    """One-vs-rest: one binary machine per class, class k against all the others.

    ``fit`` trains K clones of ``estimator`` on all N points, the k-th with
    the labels ``y == classes_[k]`` (True is the positive class);
    ``predict`` returns the class whose machine has the largest decision
    value. The K machines are trained independently, so their decision
    values are on scales that need not be comparable: a known weakness of
    the method (Hsu & Lin 2002).

    Parameters
    ----------
    estimator : binary classifier with ``decision_function``
        For example ``svmlib.SVC(C=10, sigma=5)``; positive decision values
        must mean the second class of its ``classes_`` (True).

    Attributes
    ----------
    classes_ : ndarray of shape (K,)
    estimators_ : list of K fitted estimators
    n_features_in_ : int

    Raises
    ------
    ValueError
        From ``fit``: fewer than two classes, or invalid X, y.

    References
    ----------
    Vapnik (1998); Rifkin & Klautau (2004), "In defense of one-vs-all
    classification"; Hsu & Lin (2002).
    """

    def __init__(self, estimator):
        self.estimator = estimator

    def fit(self, X, y):
        """Train one machine per class on X, y; returns self."""
        X, y = validate_data(self, X, y, dtype=(np.float64, np.float32))
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if self.classes_.size < 2:
            raise ValueError(
                f"OneVsRest needs at least two classes in y, got only {self.classes_.tolist()}."
            )
        self.estimators_ = [
            clone(self.estimator).fit(X, y == label) for label in self.classes_
        ]
        return self

    def decision_function(self, X):
        """f_k(X) of every machine, shape (n_samples, K), float64."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=(np.float64, np.float32))
        return np.column_stack(
            [
                np.asarray(e.decision_function(X), dtype=np.float64)
                for e in self.estimators_
            ]
        )

    def predict(self, X):
        """The class with the largest decision value, shape (n_samples,)."""
        return self.classes_[np.argmax(self.decision_function(X), axis=1)]
