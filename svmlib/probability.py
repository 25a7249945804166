"""Class probabilities from SVM decision values, as LIBSVM computes them.

An SVM outputs a decision value f(x), not a probability. LIBSVM turns the
decision values of its pairwise machines into class probabilities in three
steps, which this module implements (``svmlib.SVC(probability=True)`` uses
them, through :func:`svmlib.multiclass.fit_pairwise_sigmoids`):

1. **Out-of-fold decision values** (:func:`cross_val_decision`): a machine's
   decision values on its own training points are biased (the support
   vectors sit on the margin by construction), so each point gets the value
   of a machine trained without it, by 5-fold cross-validation (Platt 1999,
   section 2.2; LIBSVM's ``svm_binary_svc_probability``).
2. **Platt scaling** (:func:`fit_sigmoid`, :func:`sigmoid_predict`): the
   probability of the positive class is modelled as
   P(y = +1 | f) = 1 / (1 + exp(A f + B)), with A and B fitted by maximum
   likelihood on those decision values, against the prior-corrected targets
   ``t_+ = (N_+ + 1) / (N_+ + 2)`` and ``t_- = 1 / (N_- + 2)`` (Platt
   1999), with the numerically stable Newton method of Lin, Lin & Weng
   (2007).
3. **Pairwise coupling** (:func:`pairwise_coupling`): with K > 2 classes,
   the K (K - 1) / 2 pairwise probabilities r_ij = P(i | i or j, x) are
   combined into one distribution p over the classes: method 2 of Wu, Lin
   & Weng (2004), LIBSVM's ``multiclass_probability``.

Book chapter: *More than two classes* (part II).

References
----------
Platt (1999), "Probabilistic outputs for support vector machines and
comparisons to regularized likelihood methods"; Lin, Lin & Weng (2007), "A
note on Platt's probabilistic outputs for support vector machines"; Wu, Lin
& Weng (2004), "Probability estimates for multi-class classification by
pairwise coupling"; Chang & Lin (2011), "LIBSVM: a library for support
vector machines", section 8.
"""

import numpy as np
from sklearn.model_selection import KFold

__all__ = [
    "cross_val_decision",
    "fit_sigmoid",
    "sigmoid_predict",
    "pairwise_probabilities",
    "pairwise_coupling",
    "class_probabilities",
]

#: Number of cross-validation folds for the out-of-fold decision values.
N_FOLDS = 5
#: Pairwise probabilities are clipped to [MIN_PROB, 1 - MIN_PROB] (LIBSVM).
MIN_PROB = 1e-7


def cross_val_decision(y, fit_decision, random_state=None):
    """Out-of-fold decision values of a binary machine, by 5-fold CV.

    The points are shuffled and split into 5 folds (fewer when there are
    fewer than 5 points: then each fold is one point); each fold gets the
    decision values of a machine trained on the other folds. When the other
    folds hold one class only, no machine can be trained, and the fold gets
    the value +1 or -1 of that class, as in LIBSVM.

    Parameters
    ----------
    y : ndarray of shape (n,)
        Labels in {-1, +1}, both present; n >= 2.
    fit_decision : callable
        ``fit_decision(train, test)`` trains the machine on the points
        ``train`` (an index array into y) and returns its decision values on
        the points ``test``, shape (len(test),), positive meaning y = +1.
    random_state : int, RandomState instance or None, default=None
        Seeds the shuffle of the points (``sklearn.model_selection.KFold``).

    Returns
    -------
    f : ndarray of shape (n,), float64
        The out-of-fold decision value of every point.

    Raises
    ------
    ValueError
        If y has fewer than two points.

    References
    ----------
    Platt (1999), section 2.2; LIBSVM's ``svm_binary_svc_probability``
    (Chang & Lin 2011, section 8).

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([-1.0, -1.0, -1.0, 1.0, 1.0, 1.0])
    >>> x = np.array([-3.0, -2.0, -1.0, 1.0, 2.0, 3.0])
    >>> def fit_decision(train, test):  # a "machine": x minus a threshold
    ...     return x[test] - x[train].mean()
    >>> cross_val_decision(y, fit_decision, random_state=0).shape
    (6,)
    """
    n = np.shape(y)[0]
    if n < 2:
        raise ValueError(
            f"Cross-validation needs at least two points, got {n}."
        )
    f = np.empty(n)
    folds = KFold(min(N_FOLDS, n), shuffle=True, random_state=random_state)
    for train, test in folds.split(y):
        classes = np.unique(y[train])
        if classes.size == 1:
            f[test] = classes[0]
        else:
            f[test] = fit_decision(train, test)
    return f


def _neg_log_likelihood(fApB, t):
    """Negative log-likelihood of the targets t under the sigmoid.

    sum_i -(t_i log p_i + (1 - t_i) log(1 - p_i)) with
    p_i = 1 / (1 + exp(fApB_i)), written as in Lin, Lin & Weng (2007) so
    that no exp overflows: t fApB + log(1 + exp(-fApB)) for fApB >= 0,
    (t - 1) fApB + log(1 + exp(fApB)) otherwise.
    """
    return float(
        np.sum(
            np.where(fApB >= 0, t, t - 1.0) * fApB
            + np.log1p(np.exp(-np.abs(fApB)))
        )
    )


def sigmoid_predict(f, A, B):
    """Platt's sigmoid P(y = +1 | f) = 1 / (1 + exp(A f + B)).

    Evaluated without overflow for any A f + B (LIBSVM's
    ``sigmoid_predict``).

    Parameters
    ----------
    f : array-like of shape (n,)
        Decision values.
    A, B : float
        The sigmoid's parameters (:func:`fit_sigmoid`); A < 0 when large
        decision values mean y = +1.

    Returns
    -------
    p : ndarray of shape (n,), float64
        Probabilities in [0, 1].

    References
    ----------
    Platt (1999); Lin, Lin & Weng (2007), "A note on Platt's
    probabilistic outputs for support vector machines".

    Examples
    --------
    >>> sigmoid_predict([0.0, 1e6, -1e6], A=-2.0, B=0.0).tolist()
    [0.5, 1.0, 0.0]
    """
    fApB = np.asarray(f, dtype=np.float64) * A + B
    z = np.exp(-np.abs(fApB))  # in (0, 1]: no overflow
    return np.where(fApB >= 0, z / (1.0 + z), 1.0 / (1.0 + z))


def _gradient_and_hessian(f, t, A, B, sigma):
    """Gradient (g1, g2) and Hessian + sigma I of the likelihood at (A, B)."""
    p = sigmoid_predict(f, A, B)
    q = sigmoid_predict(f, -A, -B)  # 1 - p, without cancellation
    d1 = t - p
    d2 = p * q
    g = np.array([np.dot(f, d1), d1.sum()])
    h11 = np.dot(f * f, d2) + sigma
    h22 = d2.sum() + sigma
    h21 = np.dot(f, d2)
    return g, np.array([[h11, h21], [h21, h22]])


def fit_sigmoid(f, y, *, max_iter=100, min_step=1e-10, eps=1e-5):
    """Fit Platt's sigmoid 1 / (1 + exp(A f + B)) to decision values.

    Maximum likelihood for the targets ``t_i = (N_+ + 1) / (N_+ + 2)`` for
    the positive points and ``t_i = 1 / (N_- + 2)`` for the negative ones
    (Platt's
    prior correction, a guard against overfitting), minimised by Newton's
    method with a backtracking line search on the Hessian plus 1e-12 I,
    from A = 0, ``B = log((N_- + 1) / (N_+ + 1))``: Algorithm 1 of Lin, Lin &
    Weng (2007), LIBSVM's ``sigmoid_train``.

    Parameters
    ----------
    f : array-like of shape (n,)
        Decision values (out of fold: see :func:`cross_val_decision`).
    y : array-like of shape (n,)
        Labels; y > 0 is the positive class.
    max_iter : int, default=100
        Maximum number of Newton steps.
    min_step : float, default=1e-10
        The line search gives up below this step length.
    eps : float, default=1e-5
        Stop when both components of the gradient are below eps.

    Returns
    -------
    A, B : float
        The sigmoid's parameters.

    Raises
    ------
    ValueError
        If f and y are not 1-D of one length, or f is not finite.

    Notes
    -----
    Like LIBSVM, the fit stops without an error when the line search fails
    or ``max_iter`` is reached: (A, B) is then the best point found.

    References
    ----------
    Platt (1999); Lin, Lin & Weng (2007), Algorithm 1 (Newton's method
    with backtracking, LIBSVM's ``sigmoid_train``).

    Examples
    --------
    >>> import numpy as np
    >>> f = np.array([-2.0, -1.0, -0.5, 0.5, 1.0, 2.0])
    >>> y = np.array([-1, -1, 1, -1, 1, 1])
    >>> A, B = fit_sigmoid(f, y)
    >>> bool(A < 0), bool(abs(B) < 1e-6)  # rising in f; symmetric data
    (True, True)
    """
    f = np.asarray(f, dtype=np.float64)
    y = np.asarray(y)
    if f.ndim != 1 or f.shape != y.shape:
        raise ValueError(
            "f and y must be 1-D of one length, got shapes "
            f"{f.shape} and {y.shape}."
        )
    if not np.all(np.isfinite(f)):
        raise ValueError("The decision values f contain NaN or infinity.")
    positive = y > 0
    n_pos = np.count_nonzero(positive)
    n_neg = f.size - n_pos
    t = np.where(positive, (n_pos + 1.0) / (n_pos + 2.0), 1.0 / (n_neg + 2.0))
    A, B = 0.0, float(np.log((n_neg + 1.0) / (n_pos + 1.0)))
    value = _neg_log_likelihood(f * A + B, t)
    for _ in range(max_iter):
        g, H = _gradient_and_hessian(f, t, A, B, sigma=1e-12)
        if np.all(np.abs(g) < eps):
            break
        dA, dB = -np.linalg.solve(H, g)
        slope = g[0] * dA + g[1] * dB
        step = 1.0
        while step >= min_step:
            new_A, new_B = A + step * dA, B + step * dB
            new_value = _neg_log_likelihood(f * new_A + new_B, t)
            if new_value < value + 1e-4 * step * slope:
                A, B, value = new_A, new_B, new_value
                break
            step /= 2.0
        else:
            break  # the line search failed: keep the best point
    return float(A), float(B)


def pairwise_probabilities(decision, A, B):
    """Return the pairwise probabilities r_ij = P(i | i or j, x).

    Parameters
    ----------
    decision : ndarray of shape (n_samples, K (K - 1) / 2)
        Decision values of the pairwise machines (i, j), i < j, in the order
        of :func:`svmlib.multiclass.class_pairs`; positive means class i.
    A, B : ndarray of shape (K (K - 1) / 2,)
        The sigmoid of each machine (:func:`fit_sigmoid`, fitted with
        class i as the positive class).

    Returns
    -------
    r : ndarray of shape (n_samples, K, K), float64
        r[:, i, j] = sigmoid of f_ij clipped to [1e-7, 1 - 1e-7], and
        r[:, j, i] = 1 - r[:, i, j]; the diagonal is 0.

    Raises
    ------
    ValueError
        If the number of columns of ``decision`` is not K (K - 1) / 2 for an
        integer K >= 2, or A and B do not have one entry per column.

    References
    ----------
    Platt (1999); Wu, Lin & Weng (2004), section 2.

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.probability import pairwise_probabilities
    >>> decision = np.array([[1.0, 2.0, -0.5]])  # f_01, f_02, f_12
    >>> A, B = np.full(3, -2.0), np.zeros(3)
    >>> pairwise_probabilities(decision, A, B).round(3)
    array([[[0.   , 0.881, 0.982],
            [0.119, 0.   , 0.269],
            [0.018, 0.731, 0.   ]]])
    """
    decision = np.asarray(decision, dtype=np.float64)
    n_pairs = decision.shape[1]
    n_classes = int(round((1 + np.sqrt(1 + 8 * n_pairs)) / 2))
    if n_classes * (n_classes - 1) // 2 != n_pairs or n_pairs == 0:
        raise ValueError(
            f"decision must have K (K - 1) / 2 columns for some K >= 2, got "
            f"{n_pairs}."
        )
    if np.shape(A) != (n_pairs,) or np.shape(B) != (n_pairs,):
        raise ValueError(
            f"A and B must have one entry per machine ({n_pairs}), got "
            f"shapes {np.shape(A)} and {np.shape(B)}."
        )
    i, j = np.triu_indices(n_classes, k=1)
    r_ij = np.clip(
        sigmoid_predict(decision, np.asarray(A), np.asarray(B)),
        MIN_PROB,
        1.0 - MIN_PROB,
    )
    r = np.zeros((decision.shape[0], n_classes, n_classes))
    r[:, i, j] = r_ij
    r[:, j, i] = 1.0 - r_ij
    return r


def _coupling_matrix(r):
    """Q of Wu, Lin & Weng (2004), eq. (21).

    Q_tt = sum_j r_jt^2 and Q_tj = -r_jt r_tj for j != t.
    """
    Q = -np.swapaxes(r, 1, 2) * r
    diagonal = np.einsum("njt,njt->nt", r, r)
    index = np.arange(r.shape[1])
    Q[:, index, index] = diagonal
    return Q


def pairwise_coupling(r):
    """Class probabilities from pairwise ones: Wu, Lin & Weng's method 2.

    Solves min_p p^T Q p subject to sum_t p_t = 1 (eq. (21) of Wu, Lin &
    Weng 2004; its minimiser is p >= 0) by their fixed-point iteration: for
    t = 1 .. K, move p_t by ``(p^T Q p - (Q p)_t) / Q_tt`` and
    renormalise, until ``max_t |(Q p)_t - p^T Q p| < 0.005 / K``, at most
    max(100, K)
    sweeps; LIBSVM's ``multiclass_probability``, applied to every point
    at once (a point stops moving as soon as it meets the tolerance).

    Parameters
    ----------
    r : ndarray of shape (n_samples, K, K)
        Pairwise probabilities r[:, i, j] = P(i | i or j, x) in (0, 1), with
        r[:, j, i] = 1 - r[:, i, j] (:func:`pairwise_probabilities`).

    Returns
    -------
    p : ndarray of shape (n_samples, K), float64
        Class probabilities; each row sums to 1.

    Raises
    ------
    ValueError
        If r is not of shape (n_samples, K, K) with K >= 2, or an
        off-diagonal entry is outside (0, 1).

    References
    ----------
    Wu, Lin & Weng (2004), "Probability estimates for multi-class
    classification by pairwise coupling", method 2.

    Examples
    --------
    Pairwise probabilities that come from p = (0.5, 0.3, 0.2), as
    r_ij = p_i / (p_i + p_j), give p back, to the method's tolerance:

    >>> import numpy as np
    >>> p = np.array([0.5, 0.3, 0.2])
    >>> r = p[:, None] / (p[:, None] + p[None, :])
    >>> np.fill_diagonal(r, 0.0)
    >>> np.round(pairwise_coupling(r[None]), 2).tolist()
    [[0.5, 0.3, 0.2]]
    """
    r = _check_pairwise(r)
    n_samples, n_classes, _ = r.shape
    Q = _coupling_matrix(r)
    Q_tt = np.diagonal(Q, axis1=1, axis2=2)
    p = np.full((n_samples, n_classes), 1.0 / n_classes)
    tol = 0.005 / n_classes
    for _ in range(max(100, n_classes)):
        Qp = np.einsum("ntj,nj->nt", Q, p)
        pQp = np.einsum("nt,nt->n", p, Qp)
        moving = np.max(np.abs(Qp - pQp[:, None]), axis=1) >= tol
        if not moving.any():
            break
        for t in range(n_classes):
            diff = np.where(moving, (pQp - Qp[:, t]) / Q_tt[:, t], 0.0)
            p[:, t] += diff
            pQp = (pQp + diff * (diff * Q_tt[:, t] + 2.0 * Qp[:, t])) / (
                1.0 + diff
            ) ** 2
            Qp = (Qp + diff[:, None] * Q[:, t, :]) / (1.0 + diff[:, None])
            p /= 1.0 + diff[:, None]
    return p


def _check_pairwise(r):
    """Return r as a float64 (n, K, K) copy, diagonal 0, r_ij in (0, 1)."""
    r = np.asarray(r, dtype=np.float64)
    if r.ndim != 3 or r.shape[1] != r.shape[2] or r.shape[1] < 2:
        raise ValueError(
            "r must be of shape (n_samples, K, K) with K >= 2, got shape "
            f"{r.shape}."
        )
    off_diagonal = r[:, ~np.eye(r.shape[1], dtype=bool)]
    if not np.all((off_diagonal > 0) & (off_diagonal < 1)):
        raise ValueError(
            "The pairwise probabilities r_ij (i != j) must lie in (0, 1)."
        )
    r = r.copy()
    index = np.arange(r.shape[1])
    r[:, index, index] = 0.0  # Q sums over j != t only
    return r


def class_probabilities(decision, A, B):
    """P(class | x) from the decision values of the pairwise machines.

    The pairwise probabilities of :func:`pairwise_probabilities`, combined
    by :func:`pairwise_coupling`, also for two classes: LIBSVM's
    ``svm_predict_probability`` in the version that scikit-learn ships.
    (LIBSVM 3.31 and later return (r_01, r_10) directly for two classes;
    the coupling reaches it to within its tolerance, 0.005 / K.)

    Parameters
    ----------
    decision : ndarray of shape (n_samples, K (K - 1) / 2)
        Decision values of the machines (i, j), i < j, positive meaning
        class i (with two classes: one column, positive meaning class 0).
    A, B : ndarray of shape (K (K - 1) / 2,)
        The sigmoid of each machine.

    Returns
    -------
    p : ndarray of shape (n_samples, K), float64
        Each row sums to 1.

    Raises
    ------
    ValueError
        As :func:`pairwise_probabilities`.

    References
    ----------
    Platt (1999); Wu, Lin & Weng (2004), method 2; LIBSVM's
    ``svm_predict_probability``.

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.probability import class_probabilities
    >>> decision = np.array([[1.0, 2.0, -0.5]])  # f_01, f_02, f_12
    >>> A, B = np.full(3, -2.0), np.zeros(3)
    >>> class_probabilities(decision, A, B).round(3)
    array([[0.885, 0.08 , 0.034]])
    """
    return pairwise_coupling(pairwise_probabilities(decision, A, B))
