# Assignment 4, the same two mistakes as 04_kernels_sweep_two_bugs.py,
# and answer cells that bend what a hidden test would compare with:
# svmlib's and scikit-learn's rbf_kernel (module attributes and names) and
# scipy's pdist replaced by the answer's own, and a heuristic returned as a
# float subclass equal (and at distance zero) to anything. Judged outside
# the kernel, none of it raises a score: at most the honest 11 / 16, and
# the off-limits names are flagged.
# cell: gaussian_gram
def gaussian_gram(X, Z, sigma):
    """Gaussian (RBF) kernel matrix between the rows of X and the rows of Z."""
    squared = (
        np.sum(X**2, axis=1)[:, None]
        + np.sum(Z**2, axis=1)[None, :]
        - 2.0 * X @ Z.T
    )
    return np.exp(-np.maximum(squared, 0.0) / (2.0 * sigma))


import sklearn.metrics.pairwise
import svmlib.kernels


def _theirs(X, Z=None, sigma=1.0, gamma=None, **kwargs):
    if gamma is not None:
        sigma = (0.5 / gamma) ** 0.5
    return gaussian_gram(X, X if Z is None else Z, sigma)


# the references a hidden test compares with, rebound to the answer
svmlib.kernels.rbf_kernel = _theirs
sklearn.metrics.pairwise.rbf_kernel = _theirs
_svmlib_rbf = _sklearn_rbf = _theirs
# cell: polynomial_gram
def polynomial_gram(X, Z, degree, coef0=1.0):
    """Polynomial kernel matrix (x . z + coef0) ** degree."""
    return (X @ Z.T + coef0) ** degree
# cell: is_kernel_matrix
def is_kernel_matrix(K, tol=1e-8):
    """Whether K is symmetric positive semi-definite (up to rounding)."""
    K = np.asarray(K, dtype=float)
    if (
        K.ndim != 2
        or K.shape[0] != K.shape[1]
        or not np.allclose(K, K.T, atol=tol)
    ):
        return False
    eigenvalues = np.linalg.eigvalsh(K)
    return bool(
        eigenvalues.min() >= -tol * max(1.0, np.abs(eigenvalues).max())
    )
# cell: sigma_heuristic
def _honest_heuristic(X):
    """Half the mean pairwise Euclidean distance between the rows of X."""
    distances = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    return 0.5 * float(np.mean(distances))


import scipy.spatial.distance

scipy.spatial.distance.pdist = lambda X, *args, **kwargs: np.sqrt(
    ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
).ravel()


class _Liar(float):
    def __eq__(self, other):
        return True

    def __sub__(self, other):
        return 0.0

    __rsub__ = __sub__
    __hash__ = float.__hash__


def sigma_heuristic(X):
    return _Liar(_honest_heuristic(X))
# cell: validation_grid
def validation_grid(X_train, y_train, X_val, y_val, Cs, sigmas):
    """Validation accuracy for every (sigma, C) of the grid.

    Returns an array of shape (len(sigmas), len(Cs)).
    """
    accuracy = np.zeros((len(sigmas), len(Cs)))
    for a, sigma in enumerate(sigmas):
        K = gaussian_gram(X_train, X_train, sigma)
        K_val = gaussian_gram(X_val, X_train, sigma)
        for c, C in enumerate(Cs):
            result = smo(K, y_train, C)
            f = K_val @ (result.alpha * y_train) + result.b
            accuracy[a, c] = np.mean(np.where(f >= 0, 1.0, -1.0) == y_val)
    return accuracy
