"""Access to the training Gram matrix: all at once, or column by column.

SMO touches two kernel columns per iteration. When the whole n x n Gram
matrix fits in memory it is fastest to compute it once with one BLAS call
(:class:`DenseGram`). When it does not (the full MNIST training set would need
14 GB in float32), columns are computed on demand and the most recently used
ones are kept in a cache of bounded size (:class:`CachedGram`), as LIBSVM's
``Cache`` class does (Chang & Lin 2011, section 5.1). Both expose the same
three members, so the solvers do not know which one they have:

* ``n``: the number of training points;
* ``diagonal()``: K_ii for all i, shape (n,);
* ``column(i)``: K[:, i], shape (n,).

Book chapter: *Scaling up* (part III).
"""

from collections import OrderedDict

import numpy as np
from threadpoolctl import threadpool_limits

__all__ = [
    "DenseGram",
    "CachedGram",
    "as_gram",
    "make_gram",
    "column_blas_threads",
]

_MIB = 2**20


class DenseGram:
    """A precomputed, symmetric Gram matrix.

    Parameters
    ----------
    K : array-like of shape (n, n)
        Symmetric Gram matrix, float32 or float64.

    Raises
    ------
    ValueError
        If ``K`` is not square or contains NaN or infinity.
    """

    def __init__(self, K):
        K = np.asarray(K)
        if K.dtype != np.float32:
            K = K.astype(np.float64, copy=False)
        if K.ndim != 2 or K.shape[0] != K.shape[1]:
            raise ValueError(
                f"The Gram matrix K must be square, got shape {K.shape}."
            )
        if not np.all(np.isfinite(K)):
            raise ValueError("The Gram matrix K contains NaN or infinity.")
        self.K = np.ascontiguousarray(K)
        self.n = K.shape[0]
        self._diagonal = np.diagonal(self.K).astype(np.float64)

    def diagonal(self):
        """K_ii for every training point, shape (n,), float64."""
        return self._diagonal

    def column(self, i):
        """Column i of K, shape (n,) (a view; K is symmetric, so row i)."""
        return self.K[i]


class CachedGram:
    """Kernel columns computed on demand, with a least-recently-used cache.

    Parameters
    ----------
    X : ndarray of shape (n, d)
        Training points.
    kernel : callable
        ``kernel(X, Z)`` returns the Gram matrix of shape (len(X), len(Z)).
    cache_size : float
        Memory for cached columns, in MiB. At least two columns are always
        kept (SMO needs two at a time).

    Attributes
    ----------
    hits, misses : int
        Column requests served from the cache, and computed anew.
    """

    def __init__(self, X, kernel, cache_size):
        self.X = X
        self.kernel = kernel
        self.n = X.shape[0]
        itemsize = np.result_type(X.dtype, np.float32).itemsize
        self.max_columns = max(
            2, int(cache_size * _MIB // (self.n * itemsize))
        )
        self._columns = OrderedDict()
        self._diagonal = _kernel_diagonal(X, kernel)
        self.hits = 0
        self.misses = 0

    def diagonal(self):
        """K_ii for every training point, shape (n,), float64."""
        return self._diagonal

    def column(self, i):
        """Column i of K, shape (n,), from the cache or computed now."""
        column = self._columns.get(i)
        if column is not None:
            self._columns.move_to_end(i)
            self.hits += 1
            return column
        self.misses += 1
        column = self.kernel(self.X, self.X[i : i + 1])[:, 0]
        self._columns[i] = column
        if len(self._columns) > self.max_columns:
            self._columns.popitem(last=False)
        return column


def _kernel_diagonal(X, kernel, block=512):
    """K(x_i, x_i) for all i, in blocks of ``block`` rows."""
    parts = [
        np.diagonal(kernel(X[s : s + block], X[s : s + block]))
        for s in range(0, X.shape[0], block)
    ]
    return np.concatenate(parts).astype(np.float64)


def as_gram(K):
    """Wrap an ndarray in :class:`DenseGram`; pass Gram objects through."""
    if hasattr(K, "column") and hasattr(K, "diagonal") and hasattr(K, "n"):
        return K
    return DenseGram(K)


def make_gram(X, kernel, cache_size):
    """The Gram matrix of ``X``: dense if it fits ``cache_size`` MiB, else cached.

    Parameters
    ----------
    X : ndarray of shape (n, d)
        Training points (float32 gives a float32 Gram matrix).
    kernel : callable
        ``kernel(X, Z)`` returns the Gram matrix of shape (len(X), len(Z)).
    cache_size : float
        Memory budget in MiB.

    Returns
    -------
    DenseGram or CachedGram
    """
    n = X.shape[0]
    itemsize = np.result_type(X.dtype, np.float32).itemsize
    if n * n * itemsize <= cache_size * _MIB:
        return DenseGram(kernel(X, X))
    return CachedGram(X, kernel, cache_size)


def column_blas_threads():
    """Context manager: one BLAS thread while a solver runs.

    Inside an SMO loop the only BLAS calls are single kernel columns (a
    matrix-vector product, for :class:`CachedGram`). Splitting such small
    products across threads costs more than it gains, and when the cores are
    busy it is catastrophic: measured here on MNIST 3 vs 8 with n = 1000,
    0.37 s with one thread against 10.7 s with two. The dense Gram matrix is
    computed before the solver starts, with all threads.
    """
    return threadpool_limits(limits=1, user_api="blas")
