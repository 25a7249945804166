"""GISETTE (NIPS 2003 feature selection challenge), and a substitute.

GISETTE asks to tell handwritten 4s from 9s given 5000 integer features, half
of them "probes" with no predictive power (Guyon, Gunn, Ben-Hur & Dror 2004).
:func:`load_gisette` reads the UCI files (downloading and verifying them when
they are missing). Where they cannot be had, :func:`make_gisette_like` builds
a data set by the published recipe from MNIST 4s and 9s: it is *not* GISETTE,
and results on it are never compared with results reported for GISETTE.
"""

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split
from sklearn.utils import Bunch, check_random_state

from .mnist import fetch_file, get_data_home, load_mnist

__all__ = ["load_gisette", "make_gisette_like", "GISETTE_FILES"]

#: SHA-256 of the UCI files (published values).
GISETTE_FILES = {
    "gisette_train.data": (
        "6d4c5e998afe67937b9e77a3334e03c85e545ebc65a6eb1333ffc14125cfc389"
    ),
    "gisette_train.labels": (
        "42bd681fe51b161f033df773df14a0116e492676555ab14616c1b72edc054075"
    ),
    "gisette_valid.data": (
        "5cea897956dd172a006132738254a27a8f61ecc1ceb6f5b20639c281d2942254"
    ),
    "gisette_valid.labels": (
        "a6b857a0448023f033c4dda2ef848714b4be2ae45ce598d088fb3efb406e08c5"
    ),
}

#: Where each file is served by the UCI repository.
GISETTE_URLS = {
    "gisette_train.data": "https://archive.ics.uci.edu/ml/machine-learning-databases/gisette/GISETTE/",
    "gisette_train.labels": "https://archive.ics.uci.edu/ml/machine-learning-databases/gisette/GISETTE/",
    "gisette_valid.data": "https://archive.ics.uci.edu/ml/machine-learning-databases/gisette/GISETTE/",
    "gisette_valid.labels": "https://archive.ics.uci.edu/ml/machine-learning-databases/gisette/",
}

N_FEATURES = 5000


def _read_matrix(path, n_columns):
    """Read a whitespace-separated integer text file as an int16 array.

    Read with pandas' C parser (numpy's text readers are much slower on the
    5000 columns).
    """
    frame = pd.read_csv(path, sep=r"\s+", header=None, dtype=np.int16)
    if frame.shape[1] != n_columns:
        raise OSError(
            f"{path}: expected {n_columns} columns, found {frame.shape[1]}."
        )
    return frame.to_numpy()


def _read_labels(path, n_rows):
    labels = np.loadtxt(path, dtype=np.int64)
    if labels.shape != (n_rows,) or not np.all(np.isin(labels, (-1, 1))):
        raise OSError(
            f"{path}: expected {n_rows} labels in {{-1, +1}}, found shape "
            f"{labels.shape}."
        )
    return labels


def load_gisette(data_home=None, download=True):
    """Load the labelled parts of GISETTE: 6000 training, 1000 validation.

    Parameters
    ----------
    data_home : str or path-like, optional
        Data folder (see :func:`svmlib.datasets.get_data_home`); the files are
        in its ``gisette/`` subfolder.
    download : bool, default=True
        Download missing files from the UCI repository (verified by SHA-256).

    Returns
    -------
    Bunch
        ``X_train`` (6000, 5000) int16 with values 0-999, ``y_train`` (6000,)
        in {-1, +1}, ``X_valid`` (1000, 5000), ``y_valid`` (1000,). The
        test labels of the challenge were never published.

    Raises
    ------
    OSError
        If a file is missing and cannot be downloaded, is corrupt (checksum),
        or does not have the expected shape.

    References
    ----------
    I. Guyon, S. Gunn, A. Ben-Hur, G. Dror, "Result analysis of the NIPS 2003
    feature selection challenge", NIPS 17 (2004); UCI Machine Learning
    Repository, "Gisette".

    Examples
    --------
    The files are read from the data folder (see
    :func:`svmlib.datasets.get_data_home`), downloaded only if allowed:

    >>> import tempfile
    >>> from svmlib.datasets import load_gisette
    >>> load_gisette(tempfile.mkdtemp(), download=False)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    OSError: gisette_train.data is not in ... and download=False. ...
    """
    folder = get_data_home(data_home) / "gisette"
    paths = {
        name: fetch_file(folder, name, sha256, (GISETTE_URLS[name],), download)
        for name, sha256 in GISETTE_FILES.items()
    }
    X_train = _read_matrix(paths["gisette_train.data"], N_FEATURES)
    X_valid = _read_matrix(paths["gisette_valid.data"], N_FEATURES)
    return Bunch(
        X_train=X_train,
        y_train=_read_labels(paths["gisette_train.labels"], X_train.shape[0]),
        X_valid=X_valid,
        y_valid=_read_labels(paths["gisette_valid.labels"], X_valid.shape[0]),
        description="GISETTE (UCI), training and validation parts",
    )


#: The top-middle region of the 28 x 28 image where a 4 (open at the top)
#: and a 9 (closed loop) differ: rows 4-15, columns 6-21.
REGION_ROWS, REGION_COLUMNS = (4, 16), (6, 22)


def _region_pixels(rows=REGION_ROWS, columns=REGION_COLUMNS):
    """Return the indices of the 784 pixels in the rectangle rows x columns."""
    row, column = np.divmod(np.arange(784), 28)
    region = (
        (row >= rows[0])
        & (row < rows[1])
        & (column >= columns[0])
        & (column < columns[1])
    )
    return np.flatnonzero(region)


def _sampled_pixels(n_pixels, rng):
    """``n_pixels`` distinct pixels of the region, sampled uniformly at random.

    The choice looks at no image and no label (the published recipe samples
    the pixels at random), so no part of the data, in particular no example
    that later serves for development or testing, influences which features
    are built.
    """
    return np.sort(rng.choice(_region_pixels(), n_pixels, replace=False))


def _quantize(F):
    """Scale each column to integers 0-999 (its maximum maps to 999)."""
    top = F.max(axis=0)
    top[top == 0] = 1.0
    return np.rint(999 * F / top).astype(np.int16)


def make_gisette_like(
    n_train=6000,
    n_valid=1000,
    n_pixels=150,
    random_state=0,
    data_home=None,
    download=True,
):
    """Build a Gisette-style data set from MNIST 4s and 9s (published recipe).

    Recipe (after Guyon et al. 2004): pixels sampled uniformly at random from
    the top-middle region of the image (rows 4-15, columns 6-21), where a 4
    (open) and a 9 (closed loop) differ; products of
    random pairs of those pixels as higher-order features, up to 2500 "real"
    features; 2500 "probes" with no predictive power, each a real feature's
    values permuted across examples (same distribution, no relation to the
    label); every feature scaled to integers 0-999; features and examples
    shuffled; classes balanced.

    No step looks at a label except the balanced draw of the examples: the
    pixels are drawn from ``random_state`` alone, before any image is read,
    so a development or test part cut from the returned examples has not
    influenced the features (an earlier version ranked the pixels by a
    class-separation score over all the examples, a label leak).

    Parameters
    ----------
    n_train, n_valid : int, default=6000 and 1000
        Examples in the training and validation parts (balanced, even).
    n_pixels : int, default=150
        Pixels sampled from the region (at most its 192 pixels); the rest of
        the 2500 real features are products of pairs of them.
    random_state : int, RandomState instance or None, default=0
        Seeds every random choice.
    data_home, download
        Passed to :func:`svmlib.datasets.load_mnist`.

    Returns
    -------
    Bunch
        ``X_train`` (n_train, 5000) int16 in 0-999, ``y_train`` in {-1, +1}
        (+1 for 9, -1 for 4), ``X_valid``, ``y_valid``, ``is_probe`` (5000,)
        bool, ``pixels`` (n_pixels,) int, the sampled pixels (indices into
        the 784 pixels of an MNIST image, row-major), ``description``.

    Raises
    ------
    ValueError
        If the sizes are not positive and even, or exceed the 4s and 9s of
        MNIST, or n_pixels is not between 2 and the 192 pixels of the region.
    OSError
        If MNIST cannot be loaded.

    References
    ----------
    I. Guyon, S. Gunn, A. Ben-Hur, G. Dror, "Result analysis of the NIPS 2003
    feature selection challenge", NIPS 17 (2004); UCI Machine Learning
    Repository, "Gisette" (pixels "sampled at random in the middle top part"
    of the image, products of them as higher-order features, probes added,
    features and patterns in random order).

    Examples
    --------
    >>> from svmlib.datasets import make_gisette_like
    >>> data = make_gisette_like(n_train=200, n_valid=100, download=False)
    >>> data.X_train.shape, data.X_valid.shape, data.X_train.dtype
    ((200, 5000), (100, 5000), dtype('int16'))
    >>> int(data.is_probe.sum()), sorted(set(data.y_train.tolist()))
    (2500, [-1, 1])
    >>> int(data.X_train.min()) >= 0 and int(data.X_train.max()) <= 999
    True
    """
    for name, value in (("n_train", n_train), ("n_valid", n_valid)):
        if not isinstance(value, (int, np.integer)) or value <= 0 or value % 2:
            raise ValueError(
                f"{name} must be a positive even integer (balanced "
                f"classes), got {value!r}."
            )
    n_region = len(_region_pixels())
    if not 2 <= n_pixels <= n_region:
        raise ValueError(
            f"n_pixels must be between 2 and {n_region} (the pixels of the "
            f"region), got {n_pixels!r}."
        )
    rng = check_random_state(random_state)
    # drawn first, from the seed alone: no image or label is involved
    pixels = _sampled_pixels(n_pixels, rng)
    X, digit = load_mnist(
        digits=(4, 9), data_home=data_home, download=download
    )
    y = np.where(digit == 9, 1, -1)
    n_total = n_train + n_valid
    if n_total // 2 > min(np.sum(y == 1), np.sum(y == -1)):
        raise ValueError(
            f"n_train + n_valid = {n_total} is more balanced examples than "
            "MNIST has 4s and 9s for."
        )
    chosen = np.concatenate(
        [
            rng.choice(np.flatnonzero(y == label), n_total // 2, replace=False)
            for label in (-1, 1)
        ]
    )
    X, y = X[chosen].astype(np.float64), y[chosen]

    n_real = N_FEATURES // 2
    pairs = rng.randint(n_pixels, size=(n_real - n_pixels, 2))
    real = np.hstack(
        [X[:, pixels], X[:, pixels[pairs[:, 0]]] * X[:, pixels[pairs[:, 1]]]]
    )
    source = rng.randint(n_real, size=N_FEATURES - n_real)
    probes = np.column_stack([rng.permutation(real[:, k]) for k in source])

    features = _quantize(np.hstack([real, probes]))
    order = rng.permutation(N_FEATURES)
    is_probe = np.r_[
        np.zeros(n_real, bool), np.ones(N_FEATURES - n_real, bool)
    ][order]
    X_train, X_valid, y_train, y_valid = train_test_split(
        features[:, order],
        y,
        train_size=n_train,
        test_size=n_valid,
        stratify=y,
        random_state=rng,
    )
    return Bunch(
        X_train=X_train,
        y_train=y_train,
        X_valid=X_valid,
        y_valid=y_valid,
        is_probe=is_probe,
        pixels=pixels,
        description=(
            "Gisette-style data built from MNIST 4 vs 9 "
            "(not the GISETTE data set)"
        ),
    )
