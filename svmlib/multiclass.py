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

import heapq
import os
from collections import OrderedDict
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from functools import partial

import numpy as np
from joblib import Parallel, delayed, effective_n_jobs
from numba import njit
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context, clone
from sklearn.utils import _safe_indexing
from sklearn.utils._param_validation import HasMethods
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data
from tqdm.auto import tqdm

from ._validation import (
    check_gram,
    check_int,
    check_n_classes,
    check_n_support,
    check_pairwise_decision,
    float_dtype,
)
from .gram import (
    DenseGram,
    _under_dispatcher_limit,
    blas_threads_scan,
    column_blas_threads,
    gram_fits,
    make_gram,
)
from .probability import cross_val_decision, fit_sigmoid

__all__ = [
    "class_pairs",
    "check_model_memory",
    "PairSchedule",
    "TrainingKernel",
    "OneVsOneFit",
    "fit_one_vs_one",
    "fit_pairwise_sigmoids",
    "ovo_coef",
    "ovo_decision",
    "ovo_votes",
    "ovr_from_ovo",
    "OneVsRest",
]


def class_pairs(n_classes):
    """Return the pairs (i, j), i < j, of class indices in LIBSVM's order.

    (0, 1), (0, 2), ..., (0, K-1), (1, 2), ..., (K-2, K-1).

    Parameters
    ----------
    n_classes : int
        K >= 2.

    Returns
    -------
    pairs : ndarray of shape (K (K - 1) / 2, 2), int

    Raises
    ------
    ValueError
        If ``n_classes`` is not an integer >= 2.

    References
    ----------
    Chang & Lin (2011), section 7 (LIBSVM's order of the machines).

    Examples
    --------
    >>> from svmlib.multiclass import class_pairs
    >>> class_pairs(3).tolist()
    [[0, 1], [0, 2], [1, 2]]
    """
    i, j = np.triu_indices(check_n_classes(n_classes), k=1)
    return np.column_stack([i, j])


@njit(cache=True, nogil=True)
def _take_square(K, members):
    """``K[np.ix_(members, members)]``, compiled: the same values.

    A pair's Gram matrix out of the full one, a row of K at a time: about
    three times as fast as NumPy's fancy indexing on the digits' pairs
    (0.31 against 1.03 ms for 357 of 1797 points; 45 pairs), and it
    releases the GIL, so that machines in ``n_jobs`` threads copy their
    matrices at the same time.
    """
    m = members.shape[0]
    out = np.empty((m, m), K.dtype)
    for a in range(m):
        row = K[members[a]]
        for b in range(m):
            out[a, b] = row[members[b]]
    return out


class TrainingKernel:
    """The kernel on the training points, addressed by their indices.

    A one-vs-one SVM trains each machine on a subset of the points (and
    ``probability=True`` on subsets of those). If the Gram matrix of all the
    points fits the memory budget (:func:`svmlib.gram.gram_fits`), it is
    computed once with one BLAS call and every subset takes its block of
    rows and columns: a point takes part in K - 1 machines, but its kernel
    values are computed once. Otherwise each subset gets its own Gram
    matrix from :func:`svmlib.gram.make_gram` (cached columns if it is
    too large), and a pair of classes whose Gram matrix fits is assembled
    from blocks (``pair_gram``): the block of a class with itself is
    kept for the next pairs while the budget allows.

    Parameters
    ----------
    X : ndarray or scipy.sparse matrix of shape (n, d), or a sequence
        Training points: whatever ``kernel`` accepts (indexed with
        ``sklearn.utils._safe_indexing``).
    kernel : callable
        ``kernel(A, B)`` returns the Gram matrix of shape (len(A), len(B)).
    cache_size : float
        Memory budget in MiB, > 0.

    Attributes
    ----------
    K : ndarray of shape (n, n) or None
        The full Gram matrix, when it fits the budget.
    n : int
        Number of training points.
    dtype : numpy dtype
        float32 for float32 points, float64 otherwise.

    References
    ----------
    Chang & Lin (2011), section 5.1; book chapter *More than two
    classes*.

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.kernels import RBF
    >>> from svmlib.multiclass import TrainingKernel
    >>> X = np.random.default_rng(0).normal(size=(6, 2))
    >>> training = TrainingKernel(X, RBF(gamma=1.0), cache_size=1)
    >>> training.K.shape  # the whole Gram matrix fits
    (6, 6)
    """

    def __init__(self, X, kernel, cache_size):
        self.X = X
        self.kernel = kernel
        self.cache_size = cache_size
        self.n = _n_points(X)
        self.dtype = float_dtype(getattr(X, "dtype", np.float64))
        fits = gram_fits(self.n, self.dtype, cache_size)
        # checked here once: the machines' submatrices are not checked again
        self.K = check_gram(kernel(X, X)) if fits else None
        self._blocks = OrderedDict()  # class index -> its block with itself
        self.kept_log = []  # (class, kept or not), one entry per change
        self._buffer = None  # memory for one pair's Gram matrix

    def __sizeof__(self):
        """Bytes held, arrays included (``sys.getsizeof`` reads it).

        joblib's Dask backend scatters an argument to the workers once per
        fit when ``sizeof`` finds it larger than 1 kB, and otherwise sends
        it with every task: counted without its arrays, this object was
        sent with each of the one-vs-one machines, Gram matrix and all.
        """
        held = (self.X, self.K, self._buffer, *self._blocks.values())
        return object.__sizeof__(self) + sum(
            a.nbytes for a in held if isinstance(a, np.ndarray)
        )

    @classmethod
    def precomputed(cls, K):
        """Return the kernel given by its Gram matrix K, of shape (n, n).

        Parameters
        ----------
        K : ndarray of shape (n, n)
            The Gram matrix of the training points.

        Returns
        -------
        TrainingKernel

        References
        ----------
        Chang & Lin (2011), section 5.1; book chapter *More than two
        classes*.

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.multiclass import TrainingKernel
        >>> TrainingKernel.precomputed(np.eye(3)).n
        3
        """
        training = cls.__new__(cls)
        training.X, training.kernel, training.cache_size = None, None, None
        training.n = K.shape[0]
        training.K = check_gram(K)  # once; see __init__
        training.dtype = training.K.dtype
        training._blocks, training._buffer = OrderedDict(), None
        training.kept_log = []
        return training

    def kept_classes(self):
        """Return the classes whose block with themselves is kept (a set).

        Returns
        -------
        set of int

        References
        ----------
        Chang & Lin (2011), section 5.1; book chapter *More than two
        classes*.

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.kernels import RBF
        >>> from svmlib.multiclass import TrainingKernel
        >>> X = np.random.default_rng(0).normal(size=(6, 2))
        >>> training = TrainingKernel(X, RBF(gamma=1.0), cache_size=1)
        >>> training.kept_classes()  # the full matrix: no blocks
        set()
        """
        return set(self._blocks)

    def gram(self, members):
        """Return the Gram object of the points ``members`` (indices).

        Parameters
        ----------
        members : ndarray of int
            Indices of the points.

        Returns
        -------
        DenseGram or CachedGram

        References
        ----------
        Chang & Lin (2011), section 5.1; book chapter *More than two
        classes*.

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.kernels import RBF
        >>> from svmlib.multiclass import TrainingKernel
        >>> X = np.random.default_rng(0).normal(size=(6, 2))
        >>> training = TrainingKernel(X, RBF(gamma=1.0), cache_size=1)
        >>> training.gram(np.array([0, 2, 4])).n
        3
        """
        if self.K is not None:
            if self._all_in_order(members):  # no copy
                return DenseGram(self.K, checked=True)
            return DenseGram(_take_square(self.K, members), checked=True)
        return make_gram(self._points(members), self.kernel, self.cache_size)

    def pair_gram(self, groups, i, j, *, reuse=True):
        """Return the points of classes i and j, and their Gram object.

        When the full Gram matrix is not there but this pair's fits the
        memory budget, it is assembled from three blocks: K(i, i), K(j, j)
        and K(i, j) (its transpose fills the fourth). The blocks of a class
        with itself are kept, least recently used out, in what the budget
        leaves beside one pair's matrix; a pair computes only its
        cross block when both are kept. Ten classes of MNIST make 45 pairs
        but only 10 such blocks.

        Parameters
        ----------
        groups : sequence of ndarray of int
            The indices of the points of each class.
        i, j : int
            The two classes, i != j.
        reuse : bool, default=True
            Keep class blocks and reuse one buffer for the pair's matrix
            (valid until the next call). False: compute every block and
            give the pair a matrix of its own, for machines trained at the
            same time (``fit_one_vs_one(n_jobs=...)``); the values are
            those of the same block calls.

        Returns
        -------
        members : ndarray of int
            The indices of the points: in increasing order when the full
            Gram matrix is there (then two classes take it without a
            copy), else those of class i, then those of class j (LIBSVM's
            order).
        gram : DenseGram or CachedGram
            Over the points ``members``.

        References
        ----------
        Chang & Lin (2011), section 5.1; book chapter *More than two
        classes*.

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.kernels import RBF
        >>> from svmlib.multiclass import TrainingKernel
        >>> X = np.random.default_rng(0).normal(size=(6, 2))
        >>> training = TrainingKernel(X, RBF(gamma=1.0), cache_size=1)
        >>> groups = [np.array([0, 1, 2]), np.array([3, 4, 5])]
        >>> members, gram = training.pair_gram(groups, 0, 1)
        >>> members.tolist(), gram.n
        ([0, 1, 2, 3, 4, 5], 6)
        """
        first, second = groups[i], groups[j]
        members = np.concatenate([first, second])
        if self.K is not None:
            members = np.sort(members)
            return members, self.gram(members)
        if not gram_fits(members.size, self.dtype, self.cache_size):
            return members, self.gram(members)
        split = first.size
        if reuse:
            K = self._pair_matrix(members.size)
            K[:split, :split] = self._class_block(groups, i, members.size)
            K[split:, split:] = self._class_block(groups, j, members.size)
        else:
            K = np.empty((members.size, members.size), dtype=self.dtype)
            K[:split, :split] = self.block(first, first)
            K[split:, split:] = self.block(second, second)
        K[:split, split:] = self.block(first, second)
        _copy_transposed(K[:split, split:], K[split:, :split])
        return members, DenseGram(K)

    def _pair_matrix(self, m):
        """Return an m x m array in memory reused from pair to pair.

        Pairs are solved one after the other, so one buffer, as large as
        the largest pair, saves allocating (and faulting in the pages of)
        a new matrix of several hundred MB for each of them. The matrix of
        a pair is therefore valid until the next call of :meth:`pair_gram`.
        """
        if self._buffer is None or self._buffer.size < m * m:
            self._buffer = None  # free the old one before allocating
            self._buffer = np.empty(m * m, dtype=self.dtype)
        return self._buffer[: m * m].reshape(m, m)

    def _class_block(self, groups, c, pair_size):
        """K of class c with itself, from or into the block cache."""
        block = self._blocks.get(c)
        if block is not None:
            self._blocks.move_to_end(c)
            return block
        block = self.block(groups[c], groups[c])
        budget = self.cache_size * 2**20 - pair_size**2 * self.dtype.itemsize
        self._blocks[c] = block
        self.kept_log.append((c, True))
        while self._blocks and _nbytes(self._blocks) > budget:
            dropped, _ = self._blocks.popitem(last=False)
            self.kept_log.append((dropped, False))
        return block

    def block(self, rows, columns):
        """Return the kernel values K(x_r, x_c) of rows and columns.

        Parameters
        ----------
        rows, columns : ndarray of int
            Indices of the points.

        Returns
        -------
        ndarray of shape (len(rows), len(columns))

        References
        ----------
        Chang & Lin (2011), section 5.1; book chapter *More than two
        classes*.

        Examples
        --------
        >>> import numpy as np
        >>> from svmlib.kernels import RBF
        >>> from svmlib.multiclass import TrainingKernel
        >>> X = np.random.default_rng(0).normal(size=(6, 2))
        >>> training = TrainingKernel(X, RBF(gamma=1.0), cache_size=1)
        >>> training.block(np.array([0, 1]), np.array([5])).shape
        (2, 1)
        """
        if self.K is not None:
            return self.K[np.ix_(rows, columns)]
        points = self._points(rows)
        if columns is rows:  # K(X, X): BLAS's symmetric product, half the work
            return self.kernel(points, points)
        return self.kernel(points, self._points(columns))

    def _points(self, members):
        if self._all_in_order(members):
            return self.X
        return _safe_indexing(self.X, members)

    def _all_in_order(self, members):
        return members.size == self.n and np.all(np.diff(members) > 0)


@dataclass
class OneVsOneFit:
    """The K (K - 1) / 2 machines of a one-vs-one SVM, in LIBSVM's layout.

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
    kkt_violation : ndarray of shape (K (K - 1) / 2,), float64
        The maximal KKT violation of each machine at return.
    """

    support: np.ndarray
    n_support: np.ndarray
    dual_coef: np.ndarray
    intercept: np.ndarray
    alpha: np.ndarray
    n_iter: np.ndarray
    dual_objective: np.ndarray
    converged: np.ndarray
    kkt_violation: np.ndarray


def next_pair(pairs, solved, kept):
    """Return the next machine to train: one whose blocks are at hand.

    The machines are independent, so any order gives the same model. The
    first unsolved pair with the most classes in ``kept`` (the classes
    whose block with themselves :class:`TrainingKernel` still holds) needs
    the fewest new blocks. On MNIST's 60000 training images with
    ``cache_size=1024`` (room for about three blocks beside a pair's
    matrix), the 45 machines then compute 34 class blocks instead of the 51
    of LIBSVM's order (0, 1), (0, 2), ..., (8, 9).

    Parameters
    ----------
    pairs : list of tuple of int
        All pairs (i, j), i < j, in LIBSVM's order (the rows of
        :func:`class_pairs`).
    solved : container of tuple of int
        The pairs already trained.
    kept : set of int
        Classes whose block is kept.

    Returns
    -------
    tuple of int
        An unsolved pair; ties go to the earliest in ``pairs``.
    """
    unsolved = [pair for pair in pairs if pair not in solved]
    return max(unsolved, key=lambda pair: len(kept.intersection(pair)))


class PairSchedule:
    """The order of :func:`next_pair`, in O(1) amortised time per pair.

    :func:`next_pair` states the rule by scanning every unsolved pair:
    O(P) per machine, O(P^2) over the P = K (K - 1) / 2 machines (issue 24:
    300 classes, 44850 machines, more than 20 s of scheduling alone). The
    schedule gives the same pairs in the same order from three lazy
    candidate lists, checked when they are read:

    * a heap of the pairs whose two classes were kept when the second one
      was (a pair of two kept classes);
    * a heap holding, for each kept class, its first unsolved pair (each
      class's pairs are visited once, by a pointer that only moves on);
    * a pointer to the first unsolved pair of all.

    The kept classes are read from the training kernel's ``kept_log``
    (one entry per block kept or dropped), not rescanned.

    Parameters
    ----------
    n_classes : int
        K >= 2.
    training : TrainingKernel, optional
        Its ``kept_log`` tells which classes have their block kept; without
        it, no class does (LIBSVM's order).

    Raises
    ------
    ValueError
        If ``n_classes`` is not an integer >= 2.

    References
    ----------
    Chang & Lin (2011), section 7 (LIBSVM's order of the pairs); book
    chapter *More than two classes*.

    Examples
    --------
    >>> from svmlib.multiclass import PairSchedule
    >>> schedule = PairSchedule(3)
    >>> order = []
    >>> for _ in range(3):
    ...     pair = schedule.next_pair()
    ...     schedule.solved(*pair)
    ...     order.append(pair)
    >>> order
    [(0, 1), (0, 2), (1, 2)]
    """

    def __init__(self, n_classes, training=None):
        self.n_classes = check_n_classes(n_classes)
        self.pairs = [(int(i), int(j)) for i, j in class_pairs(n_classes)]
        self._unsolved = [True] * len(self.pairs)
        self._first = 0  # every pair before it is solved
        self._partner = [0] * n_classes  # per class, likewise in its pairs
        self._kept = set()
        self._generation = [0] * n_classes
        self._one = []  # (pair index, class, generation): one per kept class
        self._two = []  # pair indices of two kept classes
        self._training = training
        self._log_read = 0

    def _index(self, i, j):
        """Position of the pair (i, j) or (j, i) in LIBSVM's order."""
        i, j = min(i, j), max(i, j)
        return i * (2 * self.n_classes - i - 1) // 2 + (j - i - 1)

    def _first_pair_of(self, c):
        """Index of the first unsolved pair of class c, or None."""
        while self._partner[c] < self.n_classes - 1:
            position = self._partner[c]
            other = position if position < c else position + 1
            p = self._index(c, other)
            if self._unsolved[p]:
                return p
            self._partner[c] += 1
        return None

    def _keep(self, c):
        if c in self._kept:
            return
        self._kept.add(c)
        self._generation[c] += 1
        p = self._first_pair_of(c)
        if p is not None:
            heapq.heappush(self._one, (p, c, self._generation[c]))
        for other in self._kept:
            if other != c and self._unsolved[self._index(c, other)]:
                heapq.heappush(self._two, self._index(c, other))

    def _drop(self, c):
        self._kept.discard(c)
        self._generation[c] += 1  # its entry in the heap is stale

    def _read_log(self):
        log = [] if self._training is None else self._training.kept_log
        for c, kept in log[self._log_read :]:
            if kept:
                self._keep(c)
            else:
                self._drop(c)
        self._log_read = len(log)

    def next_pair(self):
        """Return the next pair (i, j) to train, by :func:`next_pair`'s rule.

        Returns
        -------
        tuple of int
            An unsolved pair (i, j), i < j.

        Raises
        ------
        StopIteration
            When every pair is solved.

        References
        ----------
        Chang & Lin (2011), section 7.

        Examples
        --------
        >>> from svmlib.multiclass import PairSchedule
        >>> schedule = PairSchedule(4)
        >>> schedule.next_pair()
        (0, 1)
        """
        self._read_log()
        two, one = self._two, self._one
        while two:
            i, j = self.pairs[two[0]]
            if self._unsolved[two[0]] and {i, j} <= self._kept:
                return i, j
            heapq.heappop(two)
        while one:
            p, c, generation = one[0]
            if generation != self._generation[c]:
                heapq.heappop(one)
            elif self._unsolved[p]:
                return self.pairs[p]
            else:
                p = self._first_pair_of(c)
                if p is None:
                    heapq.heappop(one)
                else:
                    heapq.heapreplace(one, (p, c, generation))
        while self._first < len(self.pairs):
            if self._unsolved[self._first]:
                return self.pairs[self._first]
            self._first += 1
        raise StopIteration("every pair is solved")

    def solved(self, i, j):
        """Mark the pair (i, j) as trained.

        Parameters
        ----------
        i, j : int
            The pair, i < j.

        References
        ----------
        Chang & Lin (2011), section 7.

        Examples
        --------
        >>> from svmlib.multiclass import PairSchedule
        >>> schedule = PairSchedule(4)
        >>> schedule.solved(0, 1)
        >>> schedule.next_pair()
        (0, 2)
        """
        self._unsolved[self._index(i, j)] = False


def _check_class_indices(y_index, n_classes):
    """y_index as an array; ValueError unless it holds exactly 0 .. K - 1."""
    y_index = np.asarray(y_index)
    valid = (
        y_index.ndim == 1
        and np.issubdtype(y_index.dtype, np.integer)
        and y_index.min(initial=0) >= 0
        and y_index.max(initial=0) < n_classes
    )
    if not valid or np.unique(y_index).size != n_classes:
        raise ValueError(
            f"y_index must hold every class index 0 .. {n_classes - 1} "
            "and nothing else."
        )
    return y_index


def _available_memory():
    """Bytes of memory available to this process, or None if unknown.

    Linux's ``MemAvailable`` (``/proc/meminfo``), lowered to what a
    cgroup v2 memory limit leaves (``/sys/fs/cgroup``).
    """
    available = None
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    available = int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    try:
        with open("/sys/fs/cgroup/memory.max") as limit_file:
            limit = limit_file.read().strip()
        with open("/sys/fs/cgroup/memory.current") as current_file:
            current = int(current_file.read().strip())
        if limit != "max" and available is not None:
            available = min(available, int(limit) - current)
    except (OSError, ValueError):
        pass
    return available


def _format_bytes(size):
    """Return a size in bytes as MiB, or GiB from 1 GiB on (3 digits)."""
    if size >= 2**30:
        return f"{size / 2**30:.3g} GiB"
    return f"{size / 2**20:.3g} MiB"


def check_model_memory(n_classes, n_samples, copies=1):
    """Raise MemoryError if the pairwise model cannot fit in memory.

    A one-vs-one model keeps the multipliers of every training point in
    every machine: ``alpha`` of shape (K (K - 1) / 2, n_samples), float64,
    a size that grows with the cube of K for classes of a fixed size (300
    classes of 20 points: 44850 x 6000 values, 2.0 GiB). The check runs
    before any kernel value is computed.

    Parameters
    ----------
    n_classes : int
        K >= 2.
    n_samples : int
        Number of training points, >= 0.
    copies : int, default=1
        How many such arrays exist at once (``svmlib.SVC`` holds two when
        sample weights leave points out).

    Returns
    -------
    needed : int
        The bytes of the arrays.

    Raises
    ------
    MemoryError
        If ``needed`` exceeds the memory available (Linux's
        ``MemAvailable``, within a cgroup's limit); the message names the
        shape and both sizes. Without a way to know the available memory,
        nothing is raised.
    ValueError
        If ``n_classes`` or ``n_samples`` is not a valid count.

    References
    ----------
    Hsu & Lin (2002); book chapter *More than two classes*.

    Examples
    --------
    >>> from svmlib.multiclass import check_model_memory
    >>> check_model_memory(10, 60000)  # MNIST: 45 x 60000 float64
    21600000
    """
    n_classes = check_n_classes(n_classes)
    n_samples = check_int(n_samples, "n_samples", minimum=0)
    n_pairs = n_classes * (n_classes - 1) // 2
    needed = copies * n_pairs * n_samples * 8
    available = _available_memory()
    if available is not None and needed > available:
        raise MemoryError(
            f"A one-vs-one model of {n_classes} classes on {n_samples} "
            f"points keeps alpha of shape ({n_pairs}, {n_samples}) float64"
            f"{f' ({copies} copies)' if copies > 1 else ''}: "
            f"{_format_bytes(needed)}, more than the "
            f"{_format_bytes(available)} of memory available. Use fewer "
            "classes or points, or a one-vs-rest model (OneVsRest)."
        )
    return needed


def fit_one_vs_one(
    training, y_index, n_classes, solve, *, progress=False, n_jobs=None
):
    """Train the K (K - 1) / 2 pairwise SVMs of one-vs-one.

    The machine for the pair (i, j), i < j, is trained on the points of
    classes i and j only, with y = +1 for class i and y = -1 for class j (so
    a positive decision value is a vote for i, as in LIBSVM). Each machine
    takes the Gram matrix of its points from ``training``, a block of the
    full Gram matrix when that fits the memory budget.

    Parameters
    ----------
    training : TrainingKernel
        The kernel on the training points.
    y_index : ndarray of shape (n_samples,), int
        Class index of each point, in 0 .. K - 1.
    n_classes : int
        K >= 2; every class must occur in ``y_index``.
    solve : callable
        ``solve(gram, y, members)`` solves the binary dual of the points
        ``members`` (indices into the training set; gram: an
        ``svmlib.gram`` object, y in {-1, +1}) and returns a
        ``svmlib.solvers.SolverResult``, for example
        ``lambda gram, y, members: smo(gram, y, C)``.
    progress : bool, default=False
        Show a progress bar over the machines (``tqdm.auto``: a widget in
        a notebook with ipywidgets, text on stderr elsewhere;
        ``SVC(verbose=True)``).
    n_jobs : int or None, default=None
        How many machines are trained at the same time, in scikit-learn's
        convention: None means 1 unless a ``joblib.parallel_config``
        context says otherwise, -1 all cores. With more than one job the
        machines run in :class:`joblib.Parallel` (threads unless the
        joblib context chooses another backend: processes, Dask's
        workers); see ``_solve_in_parallel``. The model is the same:
        the machines are independent, and their results are put in
        LIBSVM's order whatever order they finish in.

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

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from svmlib.kernels import RBF
    >>> from svmlib.multiclass import TrainingKernel, fit_one_vs_one
    >>> from svmlib.solvers import smo
    >>> X, y = load_iris(return_X_y=True)
    >>> training = TrainingKernel(X, RBF(gamma=0.5), cache_size=64)
    >>> fit = fit_one_vs_one(training, y, 3, lambda K, y, m: smo(K, y, 1.0))
    >>> fit.dual_coef.shape == (2, fit.support.size), fit.intercept.shape
    (True, (3,))
    """
    y_index = _check_class_indices(y_index, n_classes)
    check_model_memory(n_classes, y_index.size)
    schedule = PairSchedule(n_classes, training)  # next_pair's order
    pairs = schedule.pairs
    groups = [np.flatnonzero(y_index == c) for c in range(n_classes)]
    solved = {}  # (i, j) -> (members, result), in the order of solving
    if len(pairs) > 1 and effective_n_jobs(n_jobs) != 1:
        solved = _solve_in_parallel(
            training, groups, y_index, pairs, solve, n_jobs, progress
        )
    else:
        # BLAS libraries found once for all; with the full Gram matrix at
        # hand no machine calls BLAS outside its solver, so one BLAS thread
        # is set once for all of them (not set and restored per machine)
        single = column_blas_threads() if training.K is not None else None
        with blas_threads_scan(), single or nullcontext():
            for _ in tqdm(pairs, desc=_BAR, disable=not progress):
                i, j = schedule.next_pair()
                members, gram = training.pair_gram(groups, i, j)
                y_pm = np.where(y_index[members] == i, 1.0, -1.0)
                solved[i, j] = members, solve(gram, y_pm, members)
                schedule.solved(i, j)
    results = [solved[pair] for pair in pairs]  # LIBSVM's order

    alpha = np.zeros((len(pairs), y_index.size))
    for p, (members, result) in enumerate(results):
        alpha[p, members] = result.alpha
    support, n_support = _group_support_by_class(alpha, y_index, n_classes)
    dual_coef = _libsvm_dual_coef(
        alpha, y_index[support], support, pairs, n_classes
    )
    return OneVsOneFit(
        support,
        n_support,
        dual_coef,
        intercept=np.array([r.b for _, r in results]),
        alpha=alpha,
        n_iter=np.array([r.n_iter for _, r in results]),
        dual_objective=np.array([r.dual_objective for _, r in results]),
        converged=np.array([r.converged for _, r in results]),
        kkt_violation=np.array([r.kkt_violation for _, r in results]),
    )


_BAR = "one-vs-one machines"


def _solve_in_parallel(training, groups, y_index, pairs, solve, n_jobs, bar):
    """Train the machines of ``pairs`` as joblib tasks; {(i, j): result}.

    The tasks are dispatched largest pair first (the longest machines do
    not wait at the end), and each result is stored under its pair, so
    the model does not depend on the order in which the tasks run or
    finish. When the full Gram matrix fits the budget it is computed
    once, here, before the tasks (every machine then takes its block, as
    with one job); otherwise each task assembles its pair's matrix from
    the same kernel blocks as one job does (``pair_gram(reuse=False)``),
    so up to ``n_jobs`` pair matrices are in memory at once, and their
    blocks are computed with one BLAS thread per job (in float32 the last
    bit of a kernel value can then differ from a one-job fit's, which
    computes them with all BLAS threads).

    The default backend is threads (joblib's ``prefer="threads"``; a
    ``joblib.parallel_config(backend=...)`` context overrides it, and
    ``backend="dask"`` sends the tasks to a Dask cluster's workers).
    """
    # Threads or processes (measured with benchmarks/cores.py and by hand
    # on the 2-core development machine, 2026-11-26, MNIST samples, C=10,
    # gamma=0.02, 45 machines; the machine was shared, load average 15):
    # n = 3000: n_jobs=1 2.8 s, threads 3.9-4.5 s, loky processes 9.0 s;
    # n = 4000: n_jobs=1 3.2-5.0 s, threads 4.3-4.6 s, loky 10.8 s;
    # benchmarks/cores.py at n = 4000: 1 core 11.19 s, 2 cores (threads)
    # 11.29 s. Threads, because the work they share is the full Gram
    # matrix, computed once here, before the tasks, with all of BLAS's
    # threads: threads read it where it is, while processes get it
    # memory-mapped through a file that joblib writes at every fit (64 MB
    # at n = 4000, 400 MB at n = 10000), which cost more than the
    # machines. A thread runs concurrently with the others where NumPy
    # and BLAS release the GIL: the block copies of a pair and the
    # compiled SMO loop (numba, nogil=True). Each thread's solvers run
    # under the one-BLAS-thread limit set here (_under_dispatcher_limit):
    # before that, every machine scanned /proc/self/maps and set and
    # restored the count itself; n = 4000, precomputed Gram matrix, load
    # average 12: n_jobs=2 / n_jobs=1 was 1.74 before, 0.81 after.
    order = sorted(
        pairs, key=lambda p: -(groups[p[0]].size + groups[p[1]].size)
    )
    tasks = (
        delayed(_solve_pair)(
            training, groups, y_index, i, j, solve, os.getpid()
        )
        for i, j in order
    )
    run = Parallel(n_jobs=n_jobs, prefer="threads", return_as="generator")
    # One BLAS thread per job, set here for the whole run: BLAS's thread
    # count is one per process, and solvers in threads that each set and
    # restored it (column_blas_threads) would leave it at a count that
    # depends on the order in which they finished.
    with blas_threads_scan(), column_blas_threads():
        bar = tqdm(run(tasks), total=len(order), desc=_BAR, disable=not bar)
        return dict(zip(order, list(bar), strict=True))


def _solve_pair(training, groups, y_index, i, j, solve, dispatcher_pid):
    """One machine, as a task: (members, result) of the pair (i, j).

    In a thread of the dispatching process, the one-BLAS-thread limit
    that ``_solve_in_parallel`` holds serves its solver (no scan of the
    memory map, no setting and restoring of the count per machine).
    """
    with _under_dispatcher_limit(dispatcher_pid):
        members, gram = training.pair_gram(groups, i, j, reuse=False)
        y_pm = np.where(y_index[members] == i, 1.0, -1.0)
        return members, solve(gram, y_pm, members)


def fit_pairwise_sigmoids(training, y_index, n_classes, solve, random_state):
    """Platt's sigmoid for each machine of a one-vs-one SVM.

    For the machine (i, j), i < j, on the points of classes i and j (class
    i positive): out-of-fold decision values by
    :func:`svmlib.probability.cross_val_decision`, each fold's machine
    trained by ``solve`` with the settings of the final one, then
    :func:`svmlib.probability.fit_sigmoid` on them; LIBSVM's ``svm_train`` with
    ``probability = 1`` (its ``svm_binary_svc_probability`` per pair).

    Parameters
    ----------
    training : TrainingKernel
        The kernel on the training points.
    y_index : ndarray of shape (n_samples,), int
        Class index of each point, in 0 .. K - 1, every class present.
    n_classes : int
        K >= 2.
    solve : callable
        ``solve(gram, y, members)``, as for :func:`fit_one_vs_one`.
    random_state : int, RandomState instance or None
        Seeds the folds; a RandomState is drawn from pair after pair.

    Returns
    -------
    A, B : ndarray of shape (K (K - 1) / 2,), float64
        The sigmoid of each machine, in the order of :func:`class_pairs`.

    References
    ----------
    Platt (1999); Lin, Lin & Weng (2007); Chang & Lin (2011), section 8
    (``svm_binary_svc_probability``).

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from svmlib.kernels import RBF
    >>> from svmlib.multiclass import TrainingKernel, fit_pairwise_sigmoids
    >>> from svmlib.solvers import smo
    >>> X, y = load_iris(return_X_y=True)
    >>> training = TrainingKernel(X, RBF(gamma=0.5), cache_size=64)
    >>> solve = lambda K, y, members: smo(K, y, 1.0)
    >>> A, B = fit_pairwise_sigmoids(training, y, 3, solve, random_state=0)
    >>> A.shape, bool((A < 0).all())
    ((3,), True)
    """
    A = []
    B = []
    for i, j in class_pairs(n_classes):
        members = np.flatnonzero((y_index == i) | (y_index == j))
        y = np.where(y_index[members] == i, 1.0, -1.0)
        f = cross_val_decision(
            y,
            partial(_fold_decision, training, members, y, solve),
            random_state,
        )
        A_ij, B_ij = fit_sigmoid(f, y)
        A.append(A_ij)
        B.append(B_ij)
    return np.array(A), np.array(B)


def _fold_decision(training, members, y, solve, train, test):
    """Decision values at members[test] of the machine of members[train]."""
    result = solve(training.gram(members[train]), y[train], members[train])
    support = np.flatnonzero(result.alpha > 0)
    K = training.block(members[test], members[train][support])
    return K @ (result.alpha * y[train])[support] + result.b


def _group_support_by_class(alpha, y_index, n_classes):
    """Support vectors of any machine, grouped by class; counts per class."""
    is_support = np.any(alpha > 0, axis=0)
    order = np.argsort(y_index, kind="stable")  # by class, then by index
    support = order[is_support[order]]
    n_support = np.bincount(y_index[support], minlength=n_classes)
    return support, n_support


def _libsvm_dual_coef(alpha, support_class, support, pairs, n_classes):
    """dual_coef_ of shape (K - 1, n_SV) in LIBSVM's layout (OneVsOneFit)."""
    dual_coef = np.zeros((n_classes - 1, support.size))
    for p, (i, j) in enumerate(pairs):
        of_i = support_class == i
        of_j = support_class == j
        dual_coef[j - 1, of_i] = alpha[p, support[of_i]]  # y = +1 for class i
        dual_coef[i, of_j] = -alpha[p, support[of_j]]  # y = -1 for class j
    return dual_coef


def ovo_decision(K, dual_coef, intercept, n_support):
    """Decision values of the pairwise machines, from the kernel values.

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

    Raises
    ------
    ValueError
        If the shapes disagree: K not 2-D, ``n_support`` not K >= 2
        non-negative counts summing to K's columns, ``dual_coef`` not of
        shape (K - 1, n_SV), ``intercept`` not of shape (K (K - 1) / 2,).

    References
    ----------
    Chang & Lin (2011), section 7; book chapter *More than two classes*.

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.multiclass import ovo_decision
    >>> K = np.array([[1.0, 0.0], [0.0, 1.0]])  # two points, two SVs
    >>> ovo_decision(K, np.array([[1.0, -1.0]]), np.array([0.5]), [1, 1])
    array([[ 1.5],
           [-0.5]])
    """
    K = np.asarray(K) if not hasattr(K, "shape") else K
    if K.ndim != 2:
        raise ValueError(
            f"K must be 2-D (points x support vectors), got shape {K.shape}."
        )
    n_support = check_n_support(n_support, K.shape[1], name="K")
    dual_coef, intercept = _check_model(dual_coef, intercept, n_support)
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


def ovo_coef(dual_coef, n_support, support_vectors):
    """Return the weight vectors w_ij of the machines of a linear kernel.

    With K(x, z) = x . z, the machine (i, j) is f_ij(x) = w_ij . x + b_ij
    with w_ij = sum over its support vectors s of coef_s x_s (scikit-learn's
    ``coef_``).

    Parameters
    ----------
    dual_coef : ndarray of shape (K - 1, n_SV)
        In LIBSVM's layout (:class:`OneVsOneFit`).
    n_support : ndarray of shape (K,)
    support_vectors : ndarray or scipy.sparse matrix of shape (n_SV, d)
        Grouped by class.

    Returns
    -------
    coef : ndarray of shape (K (K - 1) / 2, d), float64
        Rows in the order of :func:`class_pairs`.

    Raises
    ------
    ValueError
        If ``n_support`` is not K >= 2 non-negative counts summing to the
        rows of ``support_vectors``, or ``dual_coef`` is not of shape
        (K - 1, n_SV).

    References
    ----------
    Chang & Lin (2011), section 7; scikit-learn's ``SVC.coef_``.

    Examples
    --------
    >>> import numpy as np
    >>> from svmlib.multiclass import ovo_coef
    >>> sv = np.array([[1.0, 0.0], [0.0, 2.0]])
    >>> ovo_coef(np.array([[0.5, -0.5]]), [1, 1], sv)
    array([[ 0.5, -1. ]])
    """
    if getattr(support_vectors, "ndim", 2) != 2:
        raise ValueError(
            f"support_vectors must be 2-D, got shape {support_vectors.shape}."
        )
    n_support = check_n_support(
        n_support, support_vectors.shape[0], name="support_vectors"
    )
    dual_coef, _ = _check_model(dual_coef, None, n_support)
    starts = np.concatenate([[0], np.cumsum(n_support)])
    rows = []
    for i, j in class_pairs(len(n_support)):
        block_i = slice(starts[i], starts[i + 1])
        block_j = slice(starts[j], starts[j + 1])
        rows.append(
            support_vectors[block_i].T @ dual_coef[j - 1, block_i]
            + support_vectors[block_j].T @ dual_coef[i, block_j]
        )
    return np.vstack(rows).astype(np.float64, copy=False)


def _check_model(dual_coef, intercept, n_support):
    """dual_coef (K - 1, n_SV) and intercept (K (K - 1) / 2,) as float64."""
    n_classes, n_sv = n_support.size, int(n_support.sum())
    dual_coef = np.asarray(dual_coef, dtype=np.float64)
    if dual_coef.shape != (n_classes - 1, n_sv):
        raise ValueError(
            f"dual_coef must be of shape ({n_classes - 1}, {n_sv}) for "
            f"{n_classes} classes and {n_sv} support vectors, got "
            f"{dual_coef.shape}."
        )
    if intercept is not None:
        n_pairs = n_classes * (n_classes - 1) // 2
        intercept = np.asarray(intercept, dtype=np.float64)
        if intercept.shape != (n_pairs,):
            raise ValueError(
                f"intercept must be of shape ({n_pairs},), one b per pair "
                f"of the {n_classes} classes, got {intercept.shape}."
            )
    return dual_coef, intercept


def _pair_indicators(n_classes):
    """One-hot (n_pairs, K) matrices of the first and second class of pairs."""
    pairs = class_pairs(n_classes)
    eye = np.eye(n_classes)
    return eye[pairs[:, 0]], eye[pairs[:, 1]]


def ovo_votes(decision, n_classes):
    """Votes of the pairwise machines: f_ij(x) > 0 votes for i, otherwise j.

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

    Raises
    ------
    ValueError
        If ``n_classes`` is not an integer >= 2, or ``decision`` is not
        2-D with K (K - 1) / 2 columns, or holds NaN.

    References
    ----------
    Knerr, Personnaz & Dreyfus (1990); Chang & Lin (2011), section 7.

    Examples
    --------
    >>> from svmlib.multiclass import ovo_votes
    >>> ovo_votes([[1.0, 1.0, -1.0]], 3)  # (0,1): 0, (0,2): 0, (1,2): 2
    array([[2., 0., 1.]])
    """
    decision = check_pairwise_decision(decision, n_classes)
    first, second = _pair_indicators(n_classes)
    wins = (decision > 0).astype(np.float64)
    return wins @ first + (1.0 - wins) @ second


def ovr_from_ovo(decision, n_classes):
    """One score per class from the pairwise decision values ("ovr" shape).

    score_k = votes_k + s_k / (3 (abs(s_k) + 1)), where s_k sums the decision
    values in favour of k (f_kj for j > k, -f_ik for i < k). The second term
    lies in (-1/3, 1/3), so it only breaks ties between classes with equal
    votes; this is ``sklearn.utils.multiclass._ovr_decision_function``, as
    scikit-learn's SVC calls it. One difference from :func:`ovo_votes`,
    scikit-learn's too: here f_ij = 0 exactly counts as a vote for i, in
    ``predict`` (LIBSVM's vote) for j.

    Parameters
    ----------
    decision : ndarray of shape (n_samples, K (K - 1) / 2)
    n_classes : int

    Returns
    -------
    scores : ndarray of shape (n_samples, K), float64

    Raises
    ------
    ValueError
        As :func:`ovo_votes`.

    References
    ----------
    scikit-learn's ``sklearn.utils.multiclass._ovr_decision_function``.

    Examples
    --------
    >>> from svmlib.multiclass import ovr_from_ovo
    >>> ovr_from_ovo([[2.0, 1.0, 0.5]], 3).round(3)
    array([[ 2.25,  0.8 , -0.2 ]])
    """
    decision = check_pairwise_decision(decision, n_classes)
    first, second = _pair_indicators(n_classes)
    wins = (decision >= 0).astype(np.float64)
    votes = wins @ first + (1.0 - wins) @ second
    confidence = decision @ first - decision @ second
    return votes + confidence / (3.0 * (np.abs(confidence) + 1.0))


@contextmanager
def _fresh_fit(estimator):
    """Context manager for the body of ``fit``: all of the new model or none.

    On entry, the fitted attributes (names ending in "_") of an earlier fit
    are set aside; on any exception inside the block, those set so far are
    removed and the earlier ones put back: a failed fit leaves the
    estimator as it was (fitted with its earlier model, or unfitted).
    scikit-learn's ``validate_data`` sets ``n_features_in_`` before the
    checks on the data that may still fail (one class, bad weights, ...):
    without this, a failed fit would leave half a model, and ``predict``
    would raise AttributeError instead of ``NotFittedError``, or mix two
    models.
    """
    earlier = _remove_fitted_attributes(estimator)
    try:
        yield
    except BaseException:
        _remove_fitted_attributes(estimator)
        vars(estimator).update(earlier)
        raise


def _remove_fitted_attributes(estimator):
    """Remove the fitted attributes; return them as a dict."""
    fitted = {
        name: value
        for name, value in vars(estimator).items()
        if name.endswith("_") and not name.startswith("__")
    }
    for name in fitted:
        delattr(estimator, name)
    return fitted


def _copy_transposed(source, target, tile=256):
    """target[:] = source.T, a band of ``tile`` rows of source at a time.

    A plain ``target[:] = source.T`` reads or writes with a stride of a
    whole row at every element; bands that fit the CPU cache make it about
    three times faster (measured: 6000 x 6000 float32, 0.058 s against
    0.020 s).
    """
    for start in range(0, source.shape[0], tile):
        band = slice(start, start + tile)
        target[:, band] = source[band].T


def _nbytes(arrays):
    return sum(array.nbytes for array in arrays.values())


def _n_points(X):
    """Return the number of points of X: its rows, or len(X)."""
    return X.shape[0] if hasattr(X, "shape") else len(X)


class OneVsRest(ClassifierMixin, BaseEstimator):
    """One-vs-rest: one binary machine per class, k against all the others.

    ``fit`` trains K clones of ``estimator`` on all N points, the k-th with
    the labels ``y == classes_[k]`` (True is the positive class);
    ``predict`` returns the class whose machine has the largest decision
    value. The K machines are trained independently, so their decision
    values are on scales that need not be comparable: a known weakness of
    the method (Hsu & Lin 2002). With two classes there is one machine,
    ``classes_[1]`` against ``classes_[0]``, and ``decision_function`` is
    1-D, as with scikit-learn's ``OneVsRestClassifier``.

    Parameters
    ----------
    estimator : binary classifier with ``fit`` and ``decision_function``
        For example ``svmlib.SVC(C=10, sigma=5)``; positive decision values
        must mean the second class of its ``classes_`` (True).

    Attributes
    ----------
    classes_ : ndarray of shape (K,)
    estimators_ : list of K fitted estimators (one for two classes)
    n_features_in_ : int

    Raises
    ------
    sklearn.utils._param_validation.InvalidParameterError
        From ``fit`` (a ``ValueError``): ``estimator`` lacks ``fit`` or
        ``decision_function``.
    ValueError
        From ``fit``: fewer than two classes, or invalid X, y. A fit that
        fails leaves the estimator as it was.

    References
    ----------
    Vapnik (1998); Rifkin & Klautau (2004), "In defense of one-vs-all
    classification"; Hsu & Lin (2002).

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from svmlib import SVC
    >>> from svmlib.multiclass import OneVsRest
    >>> X, y = load_iris(return_X_y=True)
    >>> model = OneVsRest(SVC(C=10.0)).fit(X, y)
    >>> len(model.estimators_), model.decision_function(X).shape
    (3, (150, 3))
    """

    _parameter_constraints = {
        "estimator": [HasMethods(["fit", "decision_function"])],
    }

    def __init__(self, estimator):
        self.estimator = estimator

    def __sklearn_tags__(self):
        """Return scikit-learn's tags: sparse input accepted."""
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y):
        """Train one machine per class on X, y.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            At least two classes.

        Returns
        -------
        self : OneVsRest

        Raises
        ------
        ValueError
            Fewer than two classes, invalid X or y, or an invalid
            ``estimator``; the estimator is then left unfitted.

        References
        ----------
        Rifkin & Klautau (2004); Hsu & Lin (2002).

        Examples
        --------
        >>> from sklearn.datasets import load_iris
        >>> from svmlib import SVC
        >>> from svmlib.multiclass import OneVsRest
        >>> X, y = load_iris(return_X_y=True)
        >>> model = OneVsRest(SVC(C=10.0)).fit(X, y)
        >>> len(model.estimators_)
        3
        """
        with _fresh_fit(self):
            X, y = validate_data(
                self, X, y, accept_sparse="csr", dtype=(np.float64, np.float32)
            )
            check_classification_targets(y)
            classes = np.unique(y)
            if classes.size < 2:
                raise ValueError(
                    "OneVsRest needs at least two classes in y, got one "
                    f"class: {classes.tolist()}."
                )
            positives = classes[1:] if classes.size == 2 else classes
            self.estimators_ = [
                clone(self.estimator).fit(X, y == label) for label in positives
            ]
            self.classes_ = classes
        return self

    def decision_function(self, X):
        """f_k(X) of every machine.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n_samples, n_features)

        Returns
        -------
        scores : ndarray of shape (n_samples, K), or (n_samples,), float64
            With two classes, positive values mean ``classes_[1]``.

        References
        ----------
        Rifkin & Klautau (2004); Hsu & Lin (2002).

        Examples
        --------
        >>> from sklearn.datasets import load_iris
        >>> from svmlib import SVC
        >>> from svmlib.multiclass import OneVsRest
        >>> X, y = load_iris(return_X_y=True)
        >>> model = OneVsRest(SVC(C=10.0)).fit(X, y)
        >>> model.decision_function(X[:2]).shape
        (2, 3)
        """
        check_is_fitted(self)
        X = validate_data(
            self,
            X,
            reset=False,
            accept_sparse="csr",
            dtype=(np.float64, np.float32),
        )
        scores = np.column_stack(
            [
                np.asarray(e.decision_function(X), dtype=np.float64)
                for e in self.estimators_
            ]
        )
        return scores[:, 0] if self.classes_.size == 2 else scores

    def predict(self, X):
        """Return the class with the largest decision value.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n_samples, n_features)

        Returns
        -------
        y : ndarray of shape (n_samples,)
            Labels from ``classes_``.

        References
        ----------
        Rifkin & Klautau (2004); Hsu & Lin (2002).

        Examples
        --------
        >>> from sklearn.datasets import load_iris
        >>> from svmlib import SVC
        >>> from svmlib.multiclass import OneVsRest
        >>> X, y = load_iris(return_X_y=True)
        >>> model = OneVsRest(SVC(C=10.0)).fit(X, y)
        >>> model.predict(X[[0, 50, 100]]).tolist()
        [0, 1, 2]
        """
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]
