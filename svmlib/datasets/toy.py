"""Two-dimensional toy data for the book's figures and experiments.

Every generator returns ``X`` of shape (n_samples, 2), float64, and ``y`` of
shape (n_samples,), float64 with values -1.0 and +1.0 (the solvers' labels),
in a random order; every random draw goes through ``random_state``.

* :func:`make_separable`: two clouds with an empty strip of known width
  between them (linearly separable by construction);
* :func:`make_outlier_data`: the same with one extra point of class +1 moved
  towards (or into) class -1, for the hard-versus-soft-margin experiments;
* :func:`make_sine_separated`: two classes on either side of a sine curve,
  separable by a smooth curve but not by a line (the setting of the blog
  series' SMO experiments; book source 004).

Book chapters: *Margins and the hinge loss*, *The soft margin*, and the SMO
chapters.
"""

import numpy as np
from sklearn.utils import check_random_state

from .._validation import (
    check_int,
    check_nonnegative,
    check_positive,
    check_real,
)

__all__ = ["make_separable", "make_outlier_data", "make_sine_separated"]


def _rotation(angle):
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s], [s, c]])


def _class_sizes(n_samples):
    n_positive = n_samples // 2
    return n_samples - n_positive, n_positive  # (class -1, class +1)


def _separable_coordinates(n_samples, margin, scale, rng):
    """(t, u, y): t across the strip |t| < margin / 2, u along it."""
    n_negative, n_positive = _class_sizes(n_samples)
    y = np.r_[-np.ones(n_negative), np.ones(n_positive)]
    # Across the strip: the distance to the strip's edge is half-normal, so
    # each cloud is densest next to the gap and thins out away from it.
    t = y * (margin / 2 + scale * np.abs(rng.standard_normal(n_samples)))
    u = 1.5 * scale * rng.standard_normal(n_samples)
    return t, u, y


def _finish(t, u, y, angle, rng):
    """Rotate (t, u) by ``angle`` and shuffle the points."""
    X = np.column_stack([t, u]) @ _rotation(angle).T
    order = rng.permutation(len(y))
    return np.ascontiguousarray(X[order]), y[order]


def make_separable(
    n_samples=100, *, margin=1.0, scale=1.0, angle=np.pi / 6, random_state=None
):
    """Two linearly separable clouds, an empty strip of width ``margin`` apart.

    Across the strip, each point's distance from the strip's edge is
    half-normal with scale ``scale``; along the strip it is normal with
    standard deviation 1.5 ``scale``. The strip is centred on the origin and
    its normal makes the angle ``angle`` with the first axis. The widest
    separating strip of the data (twice the geometric margin of the
    hard-margin SVM) is therefore at least ``margin`` wide.

    Parameters
    ----------
    n_samples : int, default=100
        Number of points, >= 2; class +1 gets n_samples // 2 of them.
    margin : float, default=1.0
        Width of the empty strip, > 0, in the units of X.
    scale : float, default=1.0
        Spread of the clouds, > 0.
    angle : float, default=pi/6
        Direction of the strip's normal (radians), from the first axis
        towards the second; class +1 lies on the side the normal points to.
    random_state : int, RandomState instance or None, default=None
        Seeds the draw and the shuffle.

    Returns
    -------
    X : ndarray of shape (n_samples, 2), float64
        The points.
    y : ndarray of shape (n_samples,), float64 in {-1, +1}
        Their labels.

    Raises
    ------
    ValueError
        If n_samples < 2, or margin, scale or angle is not a finite number
        (margin and scale must be > 0).

    References
    ----------
    Book chapter: *Margins and the hinge loss* (part I), where the data and
    the hard-margin SVM's margin on it are drawn.

    Examples
    --------
    Every point is at least margin / 2 from the centre line, on its side:

    >>> import numpy as np
    >>> from svmlib.datasets import make_separable
    >>> X, y = make_separable(50, margin=1.0, random_state=0)
    >>> X.shape, y.dtype
    ((50, 2), dtype('float64'))
    >>> normal = np.array([np.cos(np.pi / 6), np.sin(np.pi / 6)])
    >>> bool(np.all(y * (X @ normal) >= 0.5))
    True
    """
    n_samples = check_int(n_samples, "n_samples", minimum=2)
    margin = check_positive(margin, "margin")
    scale = check_positive(scale, "scale")
    angle = check_real(angle, "angle")
    rng = check_random_state(random_state)
    t, u, y = _separable_coordinates(n_samples, margin, scale, rng)
    return _finish(t, u, y, angle, rng)


def make_outlier_data(
    n_samples=60,
    *,
    margin=2.0,
    outlier_position=-0.6,
    outlier_shift=0.0,
    scale=1.0,
    angle=np.pi / 6,
    random_state=None,
):
    """:func:`make_separable` data plus one outlier of class +1 pushed over.

    The outlier is pushed towards (or into) class -1.

    The first ``n_samples - 1`` points are drawn as by
    :func:`make_separable`. The last point, the outlier, has label +1; it
    sits at the signed distance ``outlier_position * margin / 2`` across the
    strip (measured from the strip's centre line) and ``outlier_shift``
    along it (from the origin):

    * ``outlier_position`` in (-1, 1): inside the empty strip, the data stay
      linearly separable but the widest separating strip becomes much
      narrower (for a negative position, the outlier sits on class -1's
      side of the centre);
    * ``outlier_position`` <= -1: on class -1's side of the gap, among its
      points; the data are then (typically) not linearly separable.

    Parameters
    ----------
    n_samples : int, default=60
        Total number of points including the outlier, >= 3.
    margin : float, default=2.0
        Width of the empty strip of the clean data, > 0.
    outlier_position : float, default=-0.6
        Position of the outlier across the strip in units of ``margin / 2``
        (+1 is class +1's edge, -1 is class -1's edge).
    outlier_shift : float, default=0.0
        Position of the outlier along the strip, in the units of X. Away
        from 0, the outlier tilts the hard-margin hyperplane as well as
        narrowing its margin.
    scale, angle, random_state
        As in :func:`make_separable`.

    Returns
    -------
    X : ndarray of shape (n_samples, 2), float64
        The outlier is the last row, ``X[-1]``.
    y : ndarray of shape (n_samples,), float64 in {-1, +1}
        ``y[-1] == 1``.

    Raises
    ------
    ValueError
        If n_samples < 3, or a parameter is out of range (see
        :func:`make_separable`; outlier_position and outlier_shift must be
        finite).

    References
    ----------
    Book chapter: *The soft margin* (part I), the hard-versus-soft-margin
    experiments.

    Examples
    --------
    The last point is the outlier, of class +1, at the signed distance
    -0.6 x margin / 2 = -0.6 from the centre line:

    >>> import numpy as np
    >>> from svmlib.datasets import make_outlier_data
    >>> X, y = make_outlier_data(20, margin=2.0, random_state=0)
    >>> normal = np.array([np.cos(np.pi / 6), np.sin(np.pi / 6)])
    >>> float(y[-1]), round(float(X[-1] @ normal), 12)
    (1.0, -0.6)
    """
    # two classes and the outlier
    n_samples = check_int(n_samples, "n_samples", minimum=3)
    margin = check_positive(margin, "margin")
    scale = check_positive(scale, "scale")
    angle = check_real(angle, "angle")
    outlier_position = check_real(outlier_position, "outlier_position")
    outlier_shift = check_real(outlier_shift, "outlier_shift")
    rng = check_random_state(random_state)
    t, u, y = _separable_coordinates(n_samples - 1, margin, scale, rng)
    X, y = _finish(t, u, y, angle, rng)
    outlier = (
        np.array([outlier_position * margin / 2, outlier_shift])
        @ _rotation(angle).T
    )
    return np.vstack([X, outlier]), np.r_[y, 1.0]


def make_sine_separated(
    n_samples=200, *, noise=0.0, gap=0.5, width=6.0, random_state=None
):
    """Two classes on either side of the curve x2 = sin(x1).

    The first coordinate is uniform on [-``width``, ``width``]. Class +1 lies
    above the curve and class -1 below it, at a vertical distance
    ``gap / 2`` plus a half-normal amount (scale 1) from it, so that the two
    classes are separated by a sine-shaped corridor of height ``gap``. Then
    Gaussian noise of standard deviation ``noise`` is added to both
    coordinates, which lets points cross the curve when ``noise`` is
    comparable to ``gap``. The data are not linearly separable (for
    ``width`` of a period or more) but a Gaussian kernel separates them well.

    Parameters
    ----------
    n_samples : int, default=200
        Number of points, >= 2; class +1 gets n_samples // 2 of them.
    noise : float, default=0.0
        Standard deviation of the Gaussian noise, >= 0.
    gap : float, default=0.5
        Height of the empty corridor around the curve, >= 0.
    width : float, default=6.0
        Half-width of the range of the first coordinate, > 0.
    random_state : int, RandomState instance or None, default=None
        Seeds the draw and the shuffle.

    Returns
    -------
    X : ndarray of shape (n_samples, 2), float64
        The points.
    y : ndarray of shape (n_samples,), float64 in {-1, +1}
        Their labels.

    Raises
    ------
    ValueError
        If n_samples < 2, noise or gap is negative or not finite, or width is
        not positive.

    Notes
    -----
    After the toy data of the blog series' SMO experiments (book source
    004), which draws two elongated Gaussian clouds and keeps the points
    above sin(x1) + 0.5, respectively below sin(x1).

    References
    ----------
    The blog series on SMO that is one of the book's sources (source 004);
    book chapters: *Simplified SMO* and *Platt's SMO and working sets*.

    Examples
    --------
    Without noise, every point is at least gap / 2 from the curve, on its
    side:

    >>> import numpy as np
    >>> from svmlib.datasets import make_sine_separated
    >>> X, y = make_sine_separated(100, gap=0.5, random_state=0)
    >>> bool(np.all(y * (X[:, 1] - np.sin(X[:, 0])) >= 0.25))
    True
    """
    n_samples = check_int(n_samples, "n_samples", minimum=2)
    noise = check_nonnegative(noise, "noise")
    gap = check_nonnegative(gap, "gap")
    width = check_positive(width, "width")
    rng = check_random_state(random_state)
    n_negative, n_positive = _class_sizes(n_samples)
    y = np.r_[-np.ones(n_negative), np.ones(n_positive)]
    x1 = rng.uniform(-width, width, n_samples)
    x2 = np.sin(x1) + y * (gap / 2 + np.abs(rng.standard_normal(n_samples)))
    X = np.column_stack([x1, x2]) + noise * rng.standard_normal((n_samples, 2))
    order = rng.permutation(n_samples)
    return np.ascontiguousarray(X[order]), y[order]
