"""Access to the training Gram matrix: all at once, or column by column.

SMO touches two kernel columns per iteration. When the whole n x n Gram
matrix fits in memory it is fastest to compute it once with one BLAS call
(:class:`DenseGram`). When it does not (the full MNIST training set would need
14 GB in float32), columns are computed on demand and the most recently used
ones are kept in a cache of bounded size (:class:`CachedGram`), as LIBSVM's
``Cache`` class does (Chang & Lin 2011, section 5.1). Both expose the same
members, so the solvers do not know which one they have:

* ``n``: the number of training points;
* ``diagonal()``: K_ii for all i, shape (n,);
* ``column(i)``: K[rows, i] over the current rows (all n by default);
* ``restrict(rows)``: make later columns cover only ``rows`` (an index
  array; None for all n), the active set of a shrinking solver (LIBSVM's
  ``get_Q(i, active_size)``): a cached column is then computed over the
  active rows only, so shrinking saves kernel evaluations;
* ``block(rows, cols)``: K[rows][:, cols];
* ``products(rows, cols, coef)``: K[rows][:, cols] @ coef, the gradient
  reconstruction that ends shrinking.

Book chapter: *Scaling up* (part III).
"""

import os
import threading
from collections import OrderedDict
from contextlib import contextmanager

import numpy as np
import scipy.sparse as sp
from threadpoolctl import ThreadpoolController, threadpool_limits

from ._validation import check_data, check_gram, check_positive, float_dtype
from .kernels import Kernel, squared_norms

__all__ = [
    "DenseGram",
    "CachedGram",
    "DoubledGram",
    "check_symmetric",
    "as_gram",
    "gram_fits",
    "make_gram",
    "blas_threads_scan",
    "column_blas_threads",
]

_MIB = 2**20


class DenseGram:
    """A precomputed, symmetric Gram matrix.

    Parameters
    ----------
    K : array-like of shape (n, n)
        Symmetric Gram matrix, float32 or float64.
    checked : bool, default=False
        Whether K is already a C-contiguous, square, finite float32 or
        float64 array (the output of ``check_gram`` in ``svmlib._validation``,
        or a submatrix of one): then it is not checked again. The one-vs-one
        machines of a multiclass fit take submatrices of the Gram matrix
        checked once.

    Raises
    ------
    ValueError
        If ``K`` is not square or contains NaN or infinity (unless
        ``checked``).

    References
    ----------
    Chang & Lin (2011), section 5.1; book chapter *Scaling up*.

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.gram import DenseGram
    >>> gram = DenseGram(np.array([[2.0, 1.0], [1.0, 3.0]]))
    >>> gram.column(1), gram.diagonal()
    (array([1., 3.]), array([2., 3.]))
    """

    def __init__(self, K, checked=False):
        self.K = K if checked else check_gram(K)
        self.n = self.K.shape[0]
        self._diagonal = np.diagonal(self.K).astype(np.float64)
        self._rows = None

    def diagonal(self):
        """K_ii for every training point.

        Returns
        -------
        ndarray of shape (n,), float64

        References
        ----------
        Book chapter *Scaling up* (the Gram objects).

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.gram import DenseGram
        >>> DenseGram(np.eye(2)).diagonal()
        array([1., 1.])
        """
        return self._diagonal

    def restrict(self, rows):
        """Make :meth:`column` return the entries ``rows`` only.

        Parameters
        ----------
        rows : ndarray of int or None
            The active rows; None for all n.

        References
        ----------
        Chang & Lin (2011), section 5.2 (shrinking).

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.gram import DenseGram
        >>> gram = DenseGram(np.arange(9.0).reshape(3, 3))
        >>> gram.restrict(np.array([0, 2]))
        >>> gram.column(1)
        array([3., 5.])
        """
        self._rows = rows

    def column(self, i):
        """Column i of K over the current rows (all: a view of row i).

        Parameters
        ----------
        i : int
            The column.

        Returns
        -------
        ndarray of shape (n,) or (len(rows),)

        References
        ----------
        Book chapter *Scaling up*.

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.gram import DenseGram
        >>> DenseGram(np.array([[2.0, 1.0], [1.0, 3.0]])).column(0)
        array([2., 1.])
        """
        return self.K[i] if self._rows is None else self.K[i, self._rows]

    def full_column(self, i):
        """Column i of K over all n rows, whatever the restriction.

        Parameters
        ----------
        i : int
            The column.

        Returns
        -------
        ndarray of shape (n,)
            A view of row i of K.

        References
        ----------
        Chang & Lin (2011), section 5.2 (``G_bar``, updated with whole
        columns).

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.gram import DenseGram
        >>> gram = DenseGram(np.arange(4.0).reshape(2, 2))
        >>> gram.restrict(np.array([1]))
        >>> gram.full_column(0)
        array([0., 1.])
        """
        return self.K[i]

    def block(self, rows, cols):
        """K[rows][:, cols].

        Parameters
        ----------
        rows, cols : ndarray of int
            The rows and columns.

        Returns
        -------
        ndarray of shape (len(rows), len(cols))

        References
        ----------
        Book chapter *Scaling up*.

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.gram import DenseGram
        >>> DenseGram(np.eye(3)).block([0, 1], [1])
        array([[0.],
               [1.]])
        """
        return self.K[np.ix_(rows, cols)]

    def products(self, rows, cols, coef):
        """K[rows][:, cols] @ coef, the gradient reconstruction.

        By symmetry it is (coef @ K[cols])[rows]: whole rows of K are
        copied (contiguous memory) instead of single entries gathered.

        Parameters
        ----------
        rows, cols : ndarray of int
            The rows of the result, and the columns summed.
        coef : ndarray of shape (len(cols),)
            The weight of each column.

        Returns
        -------
        ndarray of shape (len(rows),), float64

        References
        ----------
        Chang & Lin (2011), section 5.2 (gradient reconstruction).

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.gram import DenseGram
        >>> gram = DenseGram(np.array([[2.0, 1.0], [1.0, 3.0]]))
        >>> gram.products(np.array([0, 1]), np.array([1]), np.array([2.0]))
        array([2., 6.])
        """
        return (coef @ self.K[cols])[rows]


class CachedGram:
    """Kernel columns computed on demand, with a least-recently-used cache.

    Parameters
    ----------
    X : ndarray or scipy.sparse matrix of shape (n, d)
        Training points; a sparse matrix is converted to CSR once, so that
        the row ``X[i : i + 1]`` of each column is cheap.
    kernel : callable
        ``kernel(X, Z)`` returns the Gram matrix of shape (len(X), len(Z))
        as an ndarray (the kernels of :mod:`svmlib.kernels` accept sparse
        X and Z). A :class:`svmlib.kernels.Kernel` object (every kernel
        of ``svmlib.SVC`` is one) gets the one-pass column of the Notes.
    cache_size : float
        Memory for cached columns, in MiB, > 0. At least two columns are
        always kept (SMO needs two at a time).

    Raises
    ------
    ValueError
        If ``cache_size`` is not a positive number.

    Attributes
    ----------
    hits, misses : int
        Column requests served from the cache (whole, or after restriction
        by taking the active rows of a longer column), and computed anew.
    extended : int
        Column requests served by computing only the rows that a cached
        column lacks (after a restriction to rows it does not cover).
    computed : int
        Kernel values computed for columns (misses and extensions).
    budget : int
        ``cache_size`` in bytes: for the cached columns, and for the
        blocks of :meth:`products`.
    capacity : int
        Kernel values the cache holds, ``budget`` over the item size (at
        least two whole columns), counted as LIBSVM's ``Cache`` counts
        them: a column restricted to the active rows takes less room.
    max_columns : int
        Whole columns (n values) that fit in ``capacity``.

    Notes
    -----
    A miss costs one pass over the data. X is checked (finite, 2-D, float)
    once here, and the squared norms ||x_k||^2 that the RBF kernel needs are
    computed once; a column is then the products X[rows] @ x_i (one BLAS
    matrix-vector product, or one sparse product) turned into kernel values
    in place (:meth:`svmlib.kernels.Kernel.from_inner_products`). Any other
    callable is called on (X[rows], x_i) for every miss.

    Restrictions (:meth:`restrict`) do not empty the cache, as in LIBSVM:
    a cached column holds the rows that were active when it was computed;
    under a restriction to some of them it is cut down to those (no kernel
    value computed), and under a restriction to rows it lacks it is
    extended by those rows only.

    References
    ----------
    Chang & Lin (2011), section 5.1 (LIBSVM's ``Cache``); book chapter
    *Scaling up*.

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.gram import CachedGram
    >>> from svmlib.kernels import Linear
    >>> gram = CachedGram(np.eye(3), Linear(), cache_size=1)
    >>> gram.column(2), gram.misses
    (array([0., 0., 1.]), 1)
    """

    def __init__(self, X, kernel, cache_size):
        cache_size = check_positive(cache_size, "cache_size")
        self._one_pass = isinstance(kernel, Kernel) and (
            kernel.computes_from_products
        )
        if self._one_pass:
            X = check_data(X, "X", accept_sparse=True)
        self.X = X.tocsr() if sp.issparse(X) else X
        self.kernel = kernel
        self.n = X.shape[0]
        itemsize = float_dtype(X.dtype).itemsize
        self.budget = int(cache_size * _MIB)
        self.capacity = max(2 * self.n, self.budget // itemsize)
        self.max_columns = self.capacity // self.n
        # i -> (K[rows, i], the restriction whose rows it holds); the
        # least recently used first
        self._columns = OrderedDict()
        self._size = 0  # kernel values held
        self._diagonal = _kernel_diagonal(X, kernel)
        uses_norms = self._one_pass and kernel.uses_norms
        self._sq_norms = squared_norms(self.X) if uses_norms else None
        # restriction number -> its rows (None: all), for the restrictions
        # that cached columns hold; 0 is "all rows"
        self._rows, self._restriction = None, 0
        self._rows_of = {0: None}
        self._positions = {}  # restriction -> where the rows are in it
        self._X_rows, self._sq_norms_rows = self.X, self._sq_norms
        self.hits = 0
        self.misses = 0
        self.extended = 0
        self.computed = 0

    def diagonal(self):
        """K_ii for every training point.

        Returns
        -------
        ndarray of shape (n,), float64

        References
        ----------
        Book chapter *Scaling up*.

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.gram import CachedGram
        >>> from svmlib.kernels import Linear
        >>> CachedGram(2 * np.eye(2), Linear(), cache_size=1).diagonal()
        array([4., 4.])
        """
        return self._diagonal

    def restrict(self, rows):
        """Make :meth:`column` cover ``rows`` only (None: all n rows).

        The rows' points are gathered once here. Cached columns stay: one
        that holds all of ``rows`` is cut down to them when it is next
        asked for, one that lacks some is extended by those.

        Parameters
        ----------
        rows : ndarray of int or None
            The active rows; None for all n.

        References
        ----------
        Chang & Lin (2011), section 5.2 (``get_Q(i, active_size)``).

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.gram import CachedGram
        >>> from svmlib.kernels import Linear
        >>> gram = CachedGram(np.eye(3), Linear(), cache_size=1)
        >>> gram.restrict(np.array([1, 2]))
        >>> gram.column(2)
        array([0., 1.])
        """
        self._rows = None if rows is None else np.asarray(rows, np.intp)
        self._X_rows = self.X if rows is None else self.X[self._rows]
        if self._sq_norms is not None:
            self._sq_norms_rows = (
                self._sq_norms if rows is None else self._sq_norms[rows]
            )
        self._restriction += 1
        held = {restriction for _, restriction in self._columns.values()}
        self._rows_of = {
            r: self._rows_of[r] for r in held | {0} if r in self._rows_of
        }
        self._rows_of[self._restriction] = self._rows
        self._positions = {}

    def column(self, i):
        """Column i of K over the current rows, from the cache or computed.

        Parameters
        ----------
        i : int
            The column.

        Returns
        -------
        ndarray of shape (n,) or (len(rows),)

        References
        ----------
        Chang & Lin (2011), section 5.1.

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.gram import CachedGram
        >>> from svmlib.kernels import Linear
        >>> CachedGram(np.eye(2), Linear(), cache_size=1).column(0)
        array([1., 0.])
        """
        entry = self._columns.get(i)
        if entry is None:
            self.misses += 1
            return self._store(i, self._compute_column(i))
        column, restriction = entry
        if restriction == self._restriction:
            self._columns.move_to_end(i)
            self.hits += 1
            return column
        if self._rows is None and self._rows_of[restriction] is None:
            self.hits += 1  # all rows then and now
            return self._store(i, column)
        # computed under another restriction: take the current rows it
        # holds, compute the ones it lacks (LIBSVM's partial columns)
        where = self._where(restriction)
        lacking = np.flatnonzero(where < 0)
        if lacking.size == 0:
            self.hits += 1
            return self._store(i, column[where])
        if 2 * lacking.size > where.size:  # mostly new: compute it all
            self.misses += 1
            return self._store(i, self._compute_column(i))
        self.extended += 1
        extended = np.empty(where.size, column.dtype)
        held = where >= 0
        extended[held] = column[where[held]]
        extended[lacking] = self._compute_column(i, lacking)
        return self._store(i, extended)

    def _where(self, restriction):
        """Position in ``restriction``'s rows of each current row (-1: none).

        Computed once per restriction while the current one lasts.
        """
        where = self._positions.get(restriction)
        if where is None:
            rows, current = self._rows_of[restriction], self._rows
            if rows is None:
                where = np.arange(self.n) if current is None else current
            else:
                inverse = np.full(self.n, -1, np.intp)
                inverse[rows] = np.arange(rows.size)
                where = inverse if current is None else inverse[current]
            self._positions[restriction] = where
        return where

    def _store(self, i, column, restriction=None):
        """Cache ``column`` as i's (current rows); evict the least used."""
        if restriction is None:
            restriction = self._restriction
        old = self._columns.pop(i, None)
        if old is not None:
            self._size -= old[0].size
        self._columns[i] = (column, restriction)
        self._size += column.size
        while self._size > self.capacity and len(self._columns) > 2:
            _, (evicted, _) = self._columns.popitem(last=False)
            self._size -= evicted.size
        return column

    def full_column(self, i):
        """Column i of K over all n rows, whatever the restriction.

        Served from the cache when a whole column is held there; else
        computed and cached as a whole column (which then serves every
        restriction).

        Parameters
        ----------
        i : int
            The column.

        Returns
        -------
        ndarray of shape (n,)

        References
        ----------
        Chang & Lin (2011), section 5.2 (``G_bar``, updated with whole
        columns).

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.gram import CachedGram
        >>> from svmlib.kernels import Linear
        >>> gram = CachedGram(np.eye(3), Linear(), cache_size=1)
        >>> gram.restrict(np.array([1, 2]))
        >>> gram.full_column(2)
        array([0., 0., 1.])
        """
        entry = self._columns.get(i)
        if entry is not None and self._rows_of[entry[1]] is None:
            self._columns.move_to_end(i)
            self.hits += 1
            return entry[0]
        self.misses += 1
        column = self._compute_column(i, all_rows=True)
        return self._store(i, column, restriction=0)

    def _compute_column(self, i, subset=None, all_rows=False):
        """K(x_r, x_i) for the current rows r, in one pass over them.

        ``subset``: positions among the current rows, to compute those
        only; ``all_rows``: all n rows, whatever the restriction.
        """
        x_i = self.X[i : i + 1]
        X_rows, sq_norms_rows = self._X_rows, self._sq_norms_rows
        if all_rows:
            X_rows, sq_norms_rows = self.X, self._sq_norms
        elif subset is not None:
            rows = subset if self._rows is None else self._rows[subset]
            X_rows = self.X[rows]
            if sq_norms_rows is not None:
                sq_norms_rows = self._sq_norms[rows]
        self.computed += X_rows.shape[0]
        if not self._one_pass:
            return self.kernel(X_rows, x_i)[:, 0]
        if sp.issparse(x_i):
            products = (X_rows @ x_i.T).toarray()
        else:
            products = (X_rows @ x_i[0])[:, None]
        z_sq = None if self._sq_norms is None else self._sq_norms[i : i + 1]
        K = self.kernel.from_inner_products(products, sq_norms_rows, z_sq)
        return K[:, 0]

    def block(self, rows, cols):
        """K[rows][:, cols], computed with one kernel call.

        Parameters
        ----------
        rows, cols : ndarray of int
            The rows and columns.

        Returns
        -------
        ndarray of shape (len(rows), len(cols))

        References
        ----------
        Book chapter *Scaling up*.

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.gram import CachedGram
        >>> from svmlib.kernels import Linear
        >>> CachedGram(np.eye(2), Linear(), cache_size=1).block([0], [0, 1])
        array([[1., 0.]])
        """
        return self.kernel(self.X[rows], self.X[cols])

    def products(self, rows, cols, coef, chunk=1024):
        """K[rows][:, cols] @ coef, shape (len(rows),), float64.

        The gradient reconstruction that ends shrinking (LIBSVM's
        ``reconstruct_gradient``). Computed block by block within the
        memory budget ``cache_size``: blocks of at most ``chunk`` columns
        (summed in the order of ``cols``) and as many rows as the budget
        leaves, counting the kernel values (and their float64 copy), the
        rows' and columns' points and the kernel's temporaries
        (``_products_blocks``). Each row's sum is the same whatever the
        number of rows in a block.

        Parameters
        ----------
        rows, cols : ndarray of int
            Indices of the points of the result, and of the columns summed.
        coef : ndarray of shape (len(cols),)
            The weight of each column (alpha_s y_s in SMO).
        chunk : int, default=1024
            At most this many columns per block.

        Returns
        -------
        ndarray of shape (len(rows),), float64

        References
        ----------
        Chang & Lin (2011), section 5.2 (shrinking and gradient
        reconstruction); book chapter *Scaling up*.

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.gram import CachedGram
        >>> from svmlib.kernels import Linear
        >>> X = np.arange(6.0).reshape(3, 2)
        >>> gram = CachedGram(X, Linear(), cache_size=1)
        >>> gram.products(np.array([0, 2]), np.array([1]), np.array([2.0]))
        array([ 6., 46.])
        """
        rows, cols = np.asarray(rows), np.asarray(cols)
        coef = np.asarray(coef, dtype=np.float64)
        result = np.zeros(len(rows))
        n_rows, n_cols = _products_blocks(
            len(rows),
            len(cols),
            self.X.shape[1],
            float_dtype(self.X.dtype).itemsize,
            self.budget,
            chunk,
        )
        for start in range(0, len(cols), n_cols):
            part = slice(start, start + n_cols)
            for first in range(0, len(rows), n_rows):
                band = slice(first, first + n_rows)
                result[band] += self.block(rows[band], cols[part]) @ coef[part]
        return result


def _products_blocks(n_rows, n_cols, d, itemsize, budget, chunk):
    """Rows and columns per block of :meth:`CachedGram.products`.

    A block of r rows and c columns holds, at once, the points of its rows
    and columns (gathered, and once more without their all-zero features:
    2 (r + c) d values) and its kernel values: the inner products, a
    second r x c array for a sum or product of kernels, and the float64
    copy that the product with coef makes, 3 r c values counted at 8
    bytes. The columns are halved until a block of one row fits, the rows
    then fill what ``budget`` (bytes) leaves.
    """
    n_cols = max(1, min(n_cols, chunk))
    item = max(itemsize, 8)

    def cost(r, c):
        return 2 * (r + c) * d * itemsize + 3 * r * c * item

    while n_cols > 1 and cost(1, n_cols) > budget:
        n_cols //= 2
    per_row = 2 * d * itemsize + 3 * n_cols * item
    spare = budget - 2 * n_cols * d * itemsize
    return max(1, min(n_rows, spare // per_row)), n_cols


def _kernel_diagonal(X, kernel, block=512):
    """K(x_i, x_i) for all i, in blocks of ``block`` rows."""
    parts = [
        np.diagonal(kernel(X[start : start + block], X[start : start + block]))
        for start in range(0, X.shape[0], block)
    ]
    return np.concatenate(parts).astype(np.float64)


def check_symmetric(K, rows=512):
    """Raise if the array K is not symmetric (to 1e-6 of its largest value).

    SMO reads K by columns and uses K_ij for K_ji: a non-symmetric matrix
    would be solved as some other problem without a word. Checked a block
    of rows at a time (no n x n temporary).

    Parameters
    ----------
    K : array-like of shape (n, n)
        The Gram matrix (another shape is left to :class:`DenseGram`).
    rows : int, default=512
        Rows per block.

    Raises
    ------
    ValueError
        If some K_ij and K_ji differ by more than 1e-6 max abs(K).

    References
    ----------
    Book chapter *Platt's SMO and working sets*.

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.gram import check_symmetric
    >>> check_symmetric(np.array([[1.0, 0.5], [0.5, 1.0]]))
    >>> check_symmetric(np.array([[1.0, 0.5], [0.0, 1.0]]))
    Traceback (most recent call last):
    ...
    ValueError: The Gram matrix K must be symmetric (K_ij = K_ji): rows 0 \
to 1 differ from the matching columns by up to 0.5.
    """
    K = np.asarray(K)
    if K.ndim != 2 or K.shape[0] != K.shape[1]:
        return  # DenseGram says what is wrong with the shape
    with np.errstate(invalid="ignore"):
        largest = float(np.max(np.abs(K))) if K.size else 0.0
        # a BLAS product X X^T is symmetric only to its rounding: float32
        # Gaussian Gram matrices of MNIST differ by one unit, 1.2e-7, also
        # once converted to float64; a matrix that is not a Gram matrix at
        # all (K(X, Z) for the wrong Z) differs by far more
        tolerance = 1e-6 * largest
        for start in range(0, K.shape[0], rows):
            block = K[start : start + rows]
            difference = np.abs(block - K[:, start : start + rows].T)
            if np.max(difference, initial=0.0) > tolerance:
                raise ValueError(
                    "The Gram matrix K must be symmetric (K_ij = K_ji): "
                    f"rows {start} to {start + block.shape[0] - 1} differ "
                    "from the matching columns by up to "
                    f"{float(np.max(difference)):.3g}."
                )


class DoubledGram:
    """The 2n x 2n matrix [[K, K], [K, K]] of a Gram object, for SVR.

    epsilon-SVR and nu-SVR have two multipliers per point (alpha_i and
    alpha_i^*); LIBSVM's ``SVR_Q`` solves them as 2n variables with
    y = (+1, ..., +1, -1, ..., -1), so that
    Q_kl = y_k y_l K_(k mod n),(l mod n).
    Index k < n is point k, index k >= n is point k - n: both read the
    same kernel column of the inner Gram object (computed and cached once,
    as LIBSVM's ``SVR_Q`` does).

    Parameters
    ----------
    inner : array-like of shape (n, n), or a Gram object
        The Gram matrix of the n training points.

    References
    ----------
    Chang & Lin (2011), section 2.3 and LIBSVM's ``SVR_Q``; book chapter
    *Regression: the epsilon-insensitive tube*.

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.gram import DoubledGram
    >>> gram = DoubledGram(np.array([[2.0, 1.0], [1.0, 3.0]]))
    >>> gram.n, gram.column(3), gram.diagonal()
    (4, array([1., 3., 1., 3.]), array([2., 3., 2., 3.]))
    """

    def __init__(self, inner):
        if not hasattr(inner, "column"):
            check_symmetric(inner)
        self.inner = as_gram(inner)
        self.m = self.inner.n  # the number of points
        self.n = 2 * self.m  # the number of variables
        self._diagonal = np.tile(self.inner.diagonal(), 2)
        self._take = None

    def diagonal(self):
        """K_kk for every variable k, shape (2n,), float64.

        Returns
        -------
        ndarray of shape (2n,), float64

        References
        ----------
        LIBSVM's ``SVR_Q::get_QD``.

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.gram import DoubledGram
        >>> DoubledGram(np.eye(1)).diagonal()
        array([1., 1.])
        """
        return self._diagonal

    def restrict(self, rows):
        """Make :meth:`column` cover the variables ``rows`` only.

        The inner Gram object is restricted to the points of those
        variables (each once).

        Parameters
        ----------
        rows : ndarray of int or None
            Active variables in 0 .. 2n - 1; None for all.

        References
        ----------
        Chang & Lin (2011), section 5.2 (shrinking).

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.gram import DoubledGram
        >>> gram = DoubledGram(np.array([[2.0, 1.0], [1.0, 3.0]]))
        >>> gram.restrict(np.array([0, 2, 3]))
        >>> gram.column(1)
        array([1., 1., 3.])
        """
        if rows is None:
            self._take = None
            points = None
        else:
            points, self._take = np.unique(
                np.asarray(rows) % self.m, return_inverse=True
            )
        if hasattr(self.inner, "restrict"):
            self.inner.restrict(points)
        elif points is not None:
            self._take = np.asarray(rows) % self.m  # full inner columns

    def column(self, k):
        """Column k over the current rows.

        Parameters
        ----------
        k : int
            The variable, 0 .. 2n - 1.

        Returns
        -------
        ndarray of shape (2n,) or (len(rows),)

        References
        ----------
        LIBSVM's ``SVR_Q::get_Q``.

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.gram import DoubledGram
        >>> DoubledGram(np.eye(2)).column(2)
        array([1., 0., 1., 0.])
        """
        column = self.inner.column(k % self.m)
        if self._take is None:
            return np.concatenate([column, column])
        return column[self._take]

    def full_column(self, k):
        """Column k over all 2n variables, whatever the restriction.

        Parameters
        ----------
        k : int
            The variable, 0 .. 2n - 1.

        Returns
        -------
        ndarray of shape (2n,)

        References
        ----------
        Chang & Lin (2011), section 5.2 (``G_bar``).

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.gram import DoubledGram
        >>> gram = DoubledGram(np.eye(2))
        >>> gram.restrict(np.array([0]))
        >>> gram.full_column(1)
        array([0., 1., 0., 1.])
        """
        # an inner object without it has no restriction: its columns are
        # whole
        full_column = getattr(self.inner, "full_column", self.inner.column)
        column = full_column(k % self.m)
        return np.concatenate([column, column])

    def block(self, rows, cols):
        """Entries [rows][:, cols] of the doubled matrix.

        Parameters
        ----------
        rows, cols : ndarray of int
            Variables, 0 .. 2n - 1.

        Returns
        -------
        ndarray of shape (len(rows), len(cols))

        References
        ----------
        Book chapter *Scaling up*.

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.gram import DoubledGram
        >>> DoubledGram(np.eye(2)).block(np.array([0, 3]), np.array([1]))
        array([[0.],
               [1.]])
        """
        rows, cols = np.asarray(rows), np.asarray(cols)
        return self.inner.block(rows % self.m, cols % self.m)

    def products(self, rows, cols, coef):
        """[rows][:, cols] @ coef, one inner column per point of ``cols``.

        Parameters
        ----------
        rows, cols : ndarray of int
            Variables, 0 .. 2n - 1.
        coef : ndarray of shape (len(cols),)
            The weight of each column.

        Returns
        -------
        ndarray of shape (len(rows),), float64

        References
        ----------
        Chang & Lin (2011), section 5.2 (gradient reconstruction).

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.gram import DoubledGram
        >>> gram = DoubledGram(np.array([[2.0, 1.0], [1.0, 3.0]]))
        >>> gram.products(np.array([0, 3]), np.array([0, 2]), np.ones(2))
        array([4., 2.])
        """
        rows, cols = np.asarray(rows), np.asarray(cols)
        points, where = np.unique(cols % self.m, return_inverse=True)
        combined = np.bincount(
            where, weights=np.asarray(coef, np.float64), minlength=points.size
        )
        return self.inner.products(rows % self.m, points, combined)


def as_gram(K):
    """Wrap an ndarray in :class:`DenseGram`; pass Gram objects through.

    Parameters
    ----------
    K : array-like of shape (n, n), DenseGram or CachedGram
        A Gram matrix, or an object with ``n``, ``column`` and
        ``diagonal``.

    Returns
    -------
    DenseGram or the object itself

    Raises
    ------
    ValueError
        From :class:`DenseGram`: K not square or not finite.

    References
    ----------
    Book chapter *Scaling up*.

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.gram import as_gram
    >>> gram = as_gram(np.eye(2))
    >>> as_gram(gram) is gram
    True
    """
    if hasattr(K, "column") and hasattr(K, "diagonal") and hasattr(K, "n"):
        return K
    return DenseGram(K)


def gram_fits(n, dtype, cache_size):
    """Whether an n x n Gram matrix of ``dtype`` fits in ``cache_size`` MiB.

    The one memory-budget rule of svmlib: :func:`make_gram` and the
    estimators precompute the Gram matrix when it fits, and fall back on
    :class:`CachedGram` otherwise (LIBSVM's ``cache_size``, in MiB).

    Parameters
    ----------
    n : int
        Number of training points.
    dtype : numpy dtype
        dtype of the *data*; the Gram matrix is float32 for float32 data and
        float64 otherwise (``svmlib._validation.float_dtype``).
    cache_size : float
        Memory budget in MiB (2^20 bytes), > 0.

    Returns
    -------
    bool

    Raises
    ------
    ValueError
        If ``cache_size`` is not a positive number.

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.gram import gram_fits
    >>> gram_fits(1024, np.float64, 8)  # 1024^2 * 8 bytes = 8 MiB
    True
    >>> gram_fits(1025, np.float64, 8)
    False

    References
    ----------
    Chang & Lin (2011), section 5.1 (``cache_size``).
    """
    cache_size = check_positive(cache_size, "cache_size", allow_inf=True)
    return n * n * float_dtype(dtype).itemsize <= cache_size * _MIB


def make_gram(X, kernel, cache_size):
    """Return the Gram matrix of ``X``: dense if it fits, else cached.

    Parameters
    ----------
    X : ndarray or scipy.sparse matrix of shape (n, d)
        Training points (float32 gives a float32 Gram matrix).
    kernel : callable
        ``kernel(X, Z)`` returns the Gram matrix of shape (len(X), len(Z)).
    cache_size : float
        Memory budget in MiB, > 0 (see :func:`gram_fits`).

    Returns
    -------
    DenseGram or CachedGram

    Raises
    ------
    ValueError
        If ``cache_size`` is not a positive number, or the kernel returns a
        matrix that is not square or not finite.

    References
    ----------
    Chang & Lin (2011), section 5.1; book chapter *Scaling up*.

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.gram import make_gram
    >>> from svmlib.kernels import RBF
    >>> X = np.random.default_rng(0).normal(size=(100, 3))
    >>> type(make_gram(X, RBF(gamma=1.0), 1)).__name__
    'DenseGram'
    >>> type(make_gram(X, RBF(gamma=1.0), 0.01)).__name__
    'CachedGram'
    """
    if gram_fits(X.shape[0], X.dtype, cache_size):
        return DenseGram(kernel(X, X))
    return CachedGram(X, kernel, cache_size)


#: The thread-pool state of :func:`blas_threads_scan` and
#: :func:`column_blas_threads`, per thread.
_threads = threading.local()


@contextmanager
def blas_threads_scan():
    """Context manager: one scan of the loaded BLAS libraries for many fits.

    ``threadpoolctl.threadpool_limits`` finds the BLAS libraries by reading
    the process's memory map (``/proc/self/maps``) every time it is entered:
    about 1.7 ms, measured in issue 24. A one-vs-one fit solves K (K - 1) / 2
    machines, each under :func:`column_blas_threads`: 44850 scans for 300
    classes. Inside this context the libraries are found once, and every
    :func:`column_blas_threads` only sets their thread counts (a few
    microseconds). BLAS calls outside a solver (the Gram blocks of a pair)
    keep all their threads.

    Yields
    ------
    None

    References
    ----------
    threadpoolctl's ``ThreadpoolController.limit``; book chapter *More than
    two classes*.

    Examples
    --------
    >>> from svmlib.gram import blas_threads_scan, column_blas_threads
    >>> with blas_threads_scan():
    ...     for machine in range(3):
    ...         with column_blas_threads():
    ...             pass  # one machine's solver
    """
    if getattr(_threads, "controller", None) is not None:
        yield  # an enclosing scan serves
        return
    _threads.controller = ThreadpoolController()
    try:
        yield
    finally:
        _threads.controller = None


@contextmanager
def column_blas_threads():
    """Context manager: one BLAS thread while a solver runs.

    Inside an SMO loop the only BLAS calls are single kernel columns (a
    matrix-vector product, for :class:`CachedGram`). Splitting such small
    products across threads costs more than it gains, and when the cores are
    busy it is catastrophic: measured here on MNIST 3 vs 8 with n = 1000,
    0.37 s with one thread against 10.7 s with two. The dense Gram matrix is
    computed before the solver starts, with all threads.

    Inside :func:`blas_threads_scan` the libraries found there are reused;
    nested inside another ``column_blas_threads`` it does nothing.

    Yields
    ------
    None

    References
    ----------
    threadpoolctl's ``threadpool_limits``; book chapter *Scaling up*.

    Examples
    --------
    >>> from threadpoolctl import threadpool_info
    >>> from svmlib.gram import column_blas_threads
    >>> with column_blas_threads():
    ...     blas = [p for p in threadpool_info() if p["user_api"] == "blas"]
    >>> all(p["num_threads"] == 1 for p in blas)
    True
    """
    if getattr(_threads, "single", False):
        yield
        return
    controller = getattr(_threads, "controller", None)
    if controller is None:
        limiter = threadpool_limits(limits=1, user_api="blas")
    else:
        limiter = controller.limit(limits=1, user_api="blas")
    with limiter:
        _threads.single = True
        try:
            yield
        finally:
            _threads.single = False


@contextmanager
def _under_dispatcher_limit(dispatcher_pid):
    """Context manager: a joblib thread under its dispatcher's BLAS limit.

    :func:`column_blas_threads` keeps its state per thread. A thread that
    ``fit_one_vs_one(n_jobs=...)`` dispatches inherits the process's BLAS
    thread count (set to one by the dispatching thread) but not that
    state, so each of its solvers would scan the memory map again and set
    and restore the count, racing the other threads. Inside this context,
    in the dispatcher's process, the thread's solvers know the limit is
    held; in another process (joblib's loky or Dask workers) nothing
    changes and each solver sets its own limit.
    """
    if os.getpid() != dispatcher_pid or getattr(_threads, "single", False):
        yield
        return
    _threads.single = True
    try:
        yield
    finally:
        _threads.single = False
