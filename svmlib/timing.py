"""Timing done one way everywhere: the book's chapters and ``benchmarks/``.

One measurement is a warm-up call (not counted: it pays for imports, page
faults and caches filling), then at least three timed calls, reported by
their median, with the number of BLAS threads pinned for the whole
measurement and printed beside it. A comparison times every contender in
the same call of :func:`compare`, under the same thread count, and reports
ratios. A trend ("grows like n^2") is a fitted exponent over at least four
sizes, each a median, with its standard error, so that a reader can see
when the series is too noisy to tell, and with the slopes between
consecutive sizes and a test of whether one power law fits them all
(:func:`scaling_exponent`): a trend is stated only from repeated medians,
and never as one power law where the local slopes disagree.

The clock is ``time.perf_counter`` (wall time, in seconds).
"""

import time
from collections.abc import Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
from scipy import stats
from threadpoolctl import threadpool_info, threadpool_limits

__all__ = [
    "MIN_REPEATS",
    "MIN_SIZES",
    "Comparison",
    "Timing",
    "Trend",
    "blas_threads",
    "compare",
    "pinned_threads",
    "scaling_exponent",
    "time_call",
    "time_once",
]

#: The fewest timed calls behind a median (:func:`time_call`,
#: :func:`compare`).
MIN_REPEATS = 3
#: The fewest distinct sizes a trend is fitted to (:func:`scaling_exponent`).
MIN_SIZES = 4
# The lack-of-fit test's level: one power law is rejected when the
# p-value is below it (Trend.one_law).
_LACK_OF_FIT_LEVEL = 0.01
# The variance of the median of r normal draws over that of their mean,
# for large r (pi / 2): the local slopes' standard errors use it.
_MEDIAN_VARIANCE_FACTOR = np.pi / 2


def blas_threads():
    """Return the number of threads the loaded BLAS libraries use now.

    Returns
    -------
    int
        The largest ``num_threads`` over the BLAS libraries that
        threadpoolctl finds (1 if it finds none).

    References
    ----------
    threadpoolctl's ``threadpool_info`` (the BLAS libraries loaded in the
    process). The book's timing rules: CONTRIBUTING.md, "Every number
    computed".

    Examples
    --------
    >>> from svmlib.timing import blas_threads, pinned_threads
    >>> with pinned_threads(1):
    ...     blas_threads()
    1
    """
    counts = [
        info["num_threads"]
        for info in threadpool_info()
        if info.get("user_api") == "blas"
    ]
    return max(counts, default=1)


@contextmanager
def pinned_threads(threads=None):
    """Pin the BLAS thread count for the duration of a ``with`` block.

    Parameters
    ----------
    threads : int or None, default=None
        Threads to use; None keeps the current count (it is still pinned,
        so it cannot change in the middle of a measurement).

    Yields
    ------
    int
        The thread count in force inside the block.

    Raises
    ------
    ValueError
        If ``threads`` is not a positive integer or None.

    References
    ----------
    threadpoolctl's ``threadpool_limits``. The book's timing rules:
    CONTRIBUTING.md, "Every number computed".

    Examples
    --------
    >>> from svmlib.timing import blas_threads, pinned_threads
    >>> with pinned_threads(1) as threads:
    ...     threads, blas_threads()
    (1, 1)
    >>> with pinned_threads(0):
    ...     pass
    Traceback (most recent call last):
    ...
    ValueError: threads must be a positive int, got 0
    """
    if threads is None:
        threads = blas_threads()
    if isinstance(threads, bool) or not isinstance(threads, int | np.integer):
        raise ValueError(f"threads must be a positive int, got {threads!r}")
    if threads < 1:
        raise ValueError(f"threads must be a positive int, got {threads!r}")
    with threadpool_limits(limits=int(threads), user_api="blas"):
        yield int(threads)


@dataclass(frozen=True)
class Timing:
    """The repeated timings of one call.

    Attributes
    ----------
    seconds : tuple of float
        Wall time of each timed call (the warm-up is not among them).
    threads : int
        BLAS threads in force while they ran.
    warmup : int
        Untimed calls made before them.
    result : object
        What the last call returned.
    """

    seconds: tuple
    threads: int
    warmup: int
    result: object = None

    @property
    def median(self):
        """Median wall time in seconds."""
        return float(np.median(self.seconds))

    @property
    def spread(self):
        """(max - min) / median of the timed calls: 0 for identical runs."""
        return float(np.ptp(self.seconds) / self.median)

    def __str__(self):
        """Return the median, the number of runs and the thread count."""
        threads = f"{self.threads} BLAS thread{'s' * (self.threads != 1)}"
        if len(self.seconds) == 1:
            return (
                f"{_format_seconds(self.median)} (one run, not repeated, "
                f"{threads})"
            )
        return (
            f"{_format_seconds(self.median)} (median of "
            f"{len(self.seconds)} after {self.warmup} warm-up, {threads})"
        )


def _format_seconds(seconds):
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def _check_counts(repeats, warmup):
    if isinstance(repeats, bool) or not isinstance(repeats, int):
        raise ValueError(f"repeats must be an int, got {repeats!r}")
    if repeats < MIN_REPEATS:
        raise ValueError(
            f"repeats must be at least {MIN_REPEATS} (a median of fewer "
            f"runs is not a measurement), got {repeats}"
        )
    if isinstance(warmup, bool) or not isinstance(warmup, int) or warmup < 0:
        raise ValueError(f"warmup must be an int >= 0, got {warmup!r}")


def _run(function, repeats, warmup, threads):
    for _ in range(warmup):
        function()
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = function()
        seconds.append(time.perf_counter() - start)
    return Timing(tuple(seconds), threads, warmup, result)


def time_call(function, *, repeats=MIN_REPEATS, warmup=1, threads=None):
    """Time ``function()``: warm-up calls, then the median of repeats.

    Parameters
    ----------
    function : callable
        Called with no arguments (wrap arguments with ``functools.partial``
        or a ``lambda``).
    repeats : int, default=3
        Timed calls; at least 3.
    warmup : int, default=1
        Untimed calls made first.
    threads : int or None, default=None
        BLAS threads, pinned during all the calls (None: the current count).

    Returns
    -------
    Timing
        ``str()`` of it reads e.g. "1.23 s (median of 3 after 1 warm-up,
        2 BLAS threads)".

    Raises
    ------
    TypeError
        If ``function`` is not callable.
    ValueError
        If ``repeats < 3``, ``warmup < 0`` or ``threads`` is not positive.

    References
    ----------
    Python's ``timeit`` documentation (repeated timings, the clock);
    The book's timing rules: CONTRIBUTING.md, "Every number computed".

    Examples
    --------
    >>> from svmlib.timing import time_call
    >>> t = time_call(lambda: sum(range(1000)))
    >>> len(t.seconds), t.warmup, t.result
    (3, 1, 499500)
    """
    if not callable(function):
        raise TypeError(f"function must be callable, got {function!r}")
    _check_counts(repeats, warmup)
    with pinned_threads(threads) as n_threads:
        return _run(function, repeats, warmup, n_threads)


def time_once(function, *, threads=None):
    """Time one call of ``function()``, with no warm-up and no repeat.

    For work too long to repeat where it is done, such as training on all
    of MNIST inside a chapter: the chapter needs the fitted model once, and
    reports this single run as such (``str()`` says "one run, not
    repeated"). It is not a measurement to compare with: ratios and trends
    come from :func:`compare` and :func:`scaling_exponent`, and a repeated
    median of the same work belongs in ``benchmarks/``.

    Parameters
    ----------
    function : callable
        Called once, with no arguments.
    threads : int or None, default=None
        BLAS threads, pinned during the call (None: the current count).

    Returns
    -------
    Timing
        With one entry in ``seconds`` and ``warmup == 0``.

    Raises
    ------
    TypeError
        If ``function`` is not callable.
    ValueError
        If ``threads`` is not a positive integer or None.

    References
    ----------
    The book's timing rules: CONTRIBUTING.md, "Every number computed".

    Examples
    --------
    >>> from svmlib.timing import time_once
    >>> t = time_once(lambda: sum(range(1000)), threads=1)
    >>> len(t.seconds), t.warmup, t.threads, t.result
    (1, 0, 1, 499500)
    >>> "one run, not repeated, 1 BLAS thread" in str(t)
    True
    """
    if not callable(function):
        raise TypeError(f"function must be callable, got {function!r}")
    with pinned_threads(threads) as n_threads:
        return _run(function, 1, 0, n_threads)


@dataclass(frozen=True)
class Comparison:
    """Several contenders timed in one call, under one thread count.

    Attributes
    ----------
    timings : dict of str to Timing
        In the order given.
    baseline : str
        The contender that ratios are relative to.
    """

    timings: dict
    baseline: str

    def ratio(self, name, baseline=None):
        """Return the median time of ``name`` over that of ``baseline``.

        Parameters
        ----------
        name : str
            A contender.
        baseline : str or None, default=None
            The contender to divide by (None: the comparison's baseline).

        Returns
        -------
        float
            The ratio of the two medians.

        References
        ----------
        The book's timing rules: CONTRIBUTING.md, "Every number computed".

        Examples
        --------
        >>> from svmlib.timing import Comparison, Timing
        >>> c = Comparison({"a": Timing((1.0, 2.0, 3.0), 1, 1),
        ...                 "b": Timing((4.0, 4.0, 4.0), 1, 1)}, "a")
        >>> c.ratio("b"), c.ratio("a", baseline="b")
        (2.0, 0.5)
        """
        reference = self.timings[baseline or self.baseline].median
        return self.timings[name].median / reference

    def __str__(self):
        """Return a table of the medians and their ratios to the baseline."""
        width = max(map(len, self.timings))
        lines = [
            f"{name:<{width}}  {timing}  x{self.ratio(name):.2f}"
            for name, timing in self.timings.items()
        ]
        return "\n".join(lines + [f"(ratios are to {self.baseline})"])


def compare(
    functions, *, baseline=None, repeats=MIN_REPEATS, warmup=1, threads=None
):
    """Time several functions in the same run and give their ratios.

    The contenders alternate within each round (a warm-up round, then
    ``repeats`` timed rounds), so a machine that slows down in the middle
    slows all of them alike.

    Parameters
    ----------
    functions : mapping of str to callable
        Name to a function of no arguments.
    baseline : str or None, default=None
        The name that ratios are relative to (None: the first).
    repeats, warmup, threads
        As in :func:`time_call`.

    Returns
    -------
    Comparison
        ``str()`` of it is a table of medians and ratios.

    Raises
    ------
    ValueError
        If ``functions`` is empty, ``baseline`` is not one of its names,
        or a count is invalid.

    References
    ----------
    The book's timing rules: CONTRIBUTING.md, "Every number computed".

    Examples
    --------
    >>> from svmlib.timing import compare
    >>> c = compare({"short": lambda: sum(range(10)),
    ...              "long": lambda: sum(range(100_000))})
    >>> list(c.timings), c.baseline, c.timings["long"].result
    (['short', 'long'], 'short', 4999950000)
    """
    if not isinstance(functions, Mapping) or not functions:
        raise ValueError("functions must be a non-empty mapping name->call")
    baseline = next(iter(functions)) if baseline is None else baseline
    if baseline not in functions:
        raise ValueError(f"baseline {baseline!r} is not one of the names")
    _check_counts(repeats, warmup)
    seconds = {name: [] for name in functions}
    results = {}
    with pinned_threads(threads) as n_threads:
        for _ in range(warmup):
            for function in functions.values():
                function()
        for _ in range(repeats):
            for name, function in functions.items():
                start = time.perf_counter()
                results[name] = function()
                seconds[name].append(time.perf_counter() - start)
    timings = {
        name: Timing(tuple(seconds[name]), n_threads, warmup, results[name])
        for name in functions
    }
    return Comparison(timings, baseline)


@dataclass(frozen=True)
class Trend:
    """A power law t = c n^k fitted to timings over sizes, and its check.

    Attributes
    ----------
    exponent : float
        k, the least-squares slope of log t on log n over every timed run.
    stderr : float
        Its standard error.
    monotone : bool
        Whether the medians increase with n.
    sizes : tuple of int
        The sizes n, increasing.
    medians : tuple of float
        The median times in seconds, in the order of ``sizes``.
    local_slopes : tuple of float
        The slope of log(median) against log n between each two consecutive
        sizes (length ``len(sizes) - 1``): the exponent the series has
        there.
    local_stderrs : tuple of float
        Their standard errors, from the scatter of the repeats about their
        size's mean (pooled over the sizes, on log t), times pi/2 for a
        median; NaN where no size was timed more than once.
    lack_of_fit_p : float
        The p-value of the lack-of-fit F test of the straight line
        log t = log c + k log n (the spread of the sizes' means about the
        line against the spread of the repeats within a size); NaN without
        repeats.
    one_law : bool
        Whether one power law fits: the repeats allow the test and its
        p-value is at least 0.01.
    verdict : str
        "clear", "too noisy to tell" (the medians do not rise, or the
        standard error is 0.15 or more), "one power law does not fit:
        local slopes X..Y", or "not repeated: whether one power law fits
        cannot be tested".
    """

    exponent: float
    stderr: float
    monotone: bool
    sizes: tuple
    medians: tuple
    local_slopes: tuple = ()
    local_stderrs: tuple = ()
    lack_of_fit_p: float = float("nan")

    @property
    def one_law(self):
        """Whether one power law fits every size (lack-of-fit test)."""
        return bool(self.lack_of_fit_p >= _LACK_OF_FIT_LEVEL)

    @property
    def clear(self):
        """Whether the series can support a trend t ~ n^k.

        True when the medians increase with n, the exponent's standard
        error is below 0.15 (about +-0.3 for a 95% interval), and one power
        law fits (``one_law``: the slopes between consecutive sizes agree
        within the scatter of the repeats).
        """
        return self.monotone and self.stderr < 0.15 and self.one_law

    @property
    def verdict(self):
        """The reading of the series, in words (see the class docstring)."""
        if not self.monotone:
            return "too noisy to tell"
        if np.isnan(self.lack_of_fit_p):
            return "not repeated: whether one power law fits cannot be tested"
        if not self.one_law:
            low, high = min(self.local_slopes), max(self.local_slopes)
            return (
                f"one power law does not fit: local slopes "
                f"{low:.2f}..{high:.2f}"
            )
        return "clear" if self.clear else "too noisy to tell"

    def __str__(self):
        """Return the exponent, its standard error and the verdict."""
        fitted = f"t ~ n^{self.exponent:.2f} +- {self.stderr:.2f}"
        if self.clear:
            return fitted
        return f"{fitted} ({self.verdict})"


def _lack_of_fit(log_n, log_t, fitted):
    """Lack-of-fit F test of a straight line, with repeats at each x.

    Returns the p-value and the pooled variance of the repeats (NaN for
    both when no x has two values).
    """
    levels, group = np.unique(log_n, return_inverse=True)
    counts = np.bincount(group)
    means = np.bincount(group, weights=log_t) / counts
    pure = float(np.sum((log_t - means[group]) ** 2))
    dof_pure = len(log_t) - len(levels)
    lack = float(np.sum(counts * (means - fitted(levels)) ** 2))
    dof_lack = len(levels) - 2
    if dof_pure == 0:
        return float("nan"), float("nan")
    if pure <= 1e-24 * len(log_t):  # identical repeats: exact or not at all
        return (1.0 if lack <= 1e-20 * len(log_t) else 0.0), 0.0
    statistic = (lack / dof_lack) / (pure / dof_pure)
    return float(stats.f.sf(statistic, dof_lack, dof_pure)), pure / dof_pure


def scaling_exponent(sizes, timings):
    """Fit t = c n^k to repeated timings at four or more sizes, and test it.

    The exponent k is the least-squares slope of log t on log n over every
    timed run. Beside it: the slopes between consecutive sizes (from the
    medians), and a lack-of-fit F test of whether one power law fits all
    the sizes, which compares the scatter of the sizes' mean log times
    about the fitted line with the scatter of the repeats within a size.
    When it rejects (p < 0.01) the series grows at a rate that changes
    with n, and the verdict gives the range of the local slopes instead of
    one exponent.

    Parameters
    ----------
    sizes : sequence of int, length m >= 4
        Problem sizes n, distinct and positive.
    timings : sequence of Timing, length m
        One :func:`time_call` result per size.

    Returns
    -------
    Trend
        The exponent k, its standard error, whether the medians rise, the
        local slopes with their standard errors, and the test's p-value.

    Raises
    ------
    ValueError
        If fewer than four sizes are given, the lengths differ, or a size
        is not positive.

    References
    ----------
    Press, Teukolsky, Vetterling & Flannery (2007), *Numerical Recipes*,
    3rd ed., section 15.2 (a straight line fitted by least squares, the
    standard error of its slope), here on log t against log n. Draper &
    Smith (1998), *Applied Regression Analysis*, 3rd ed., section 2.1
    (lack of fit and pure error: the F test with repeated observations).
    The book's timing rules: CONTRIBUTING.md, "Every number computed".

    Examples
    --------
    >>> from svmlib.timing import Timing, scaling_exponent
    >>> sizes = [100, 200, 400, 800]
    >>> fake = [Timing((n**2 * 1e-9,) * 3, 1, 1) for n in sizes]
    >>> trend = scaling_exponent(sizes, fake)
    >>> round(trend.exponent, 6), trend.verdict
    (2.0, 'clear')

    A cost n + n^2 / 400, whose slope climbs from 1 towards 2, is not one
    power law, even with repeats within 1% of each other:

    >>> times = [1e-3 * n * (1 + n / 400) for n in sizes]
    >>> bent = [Timing((t * 0.99, t, t * 1.01), 1, 1) for t in times]
    >>> scaling_exponent(sizes, bent).verdict
    'one power law does not fit: local slopes 1.26..1.58'
    """
    if not isinstance(sizes, Sequence) or not isinstance(timings, Sequence):
        raise ValueError("sizes and timings must be sequences")
    if len(sizes) != len(timings):
        raise ValueError(
            f"{len(sizes)} sizes but {len(timings)} timings were given"
        )
    if len(set(sizes)) < MIN_SIZES:
        raise ValueError(
            f"a trend needs at least {MIN_SIZES} distinct sizes, "
            f"got {len(set(sizes))}"
        )
    if min(sizes) <= 0:
        raise ValueError("sizes must be positive")
    pairs = zip(sizes, timings, strict=True)
    log_n = np.concatenate(
        [np.full(len(t.seconds), np.log(n)) for n, t in pairs]
    )
    log_t = np.log(np.concatenate([t.seconds for t in timings]))
    design = np.column_stack([np.ones_like(log_n), log_n])
    coef, *_ = np.linalg.lstsq(design, log_t, rcond=None)
    residual = log_t - design @ coef
    dof = max(len(log_t) - 2, 1)
    sigma2 = residual @ residual / dof
    stderr = np.sqrt(sigma2 / np.sum((log_n - log_n.mean()) ** 2))
    order = np.argsort(sizes)
    medians = np.array([t.median for t in timings])[order]
    sorted_sizes = np.asarray(sizes, dtype=float)[order]
    repeats = np.array([len(t.seconds) for t in timings])[order]
    p_value, pure_variance = _lack_of_fit(
        log_n, log_t, lambda x: coef[0] + coef[1] * x
    )
    step = np.diff(np.log(sorted_sizes))
    slopes = np.diff(np.log(medians)) / step
    variance = _MEDIAN_VARIANCE_FACTOR * pure_variance / repeats
    slope_stderrs = np.sqrt(variance[:-1] + variance[1:]) / step
    return Trend(
        exponent=float(coef[1]),
        stderr=float(stderr),
        monotone=bool(np.all(np.diff(medians) > 0)),
        sizes=tuple(int(n) for n in sorted_sizes),
        medians=tuple(float(m) for m in medians),
        local_slopes=tuple(float(k) for k in slopes),
        local_stderrs=tuple(float(se) for se in slope_stderrs),
        lack_of_fit_p=p_value,
    )
