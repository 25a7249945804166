"""The MNIST loader, and the download-and-verify machinery the loaders share.

Where the files live
--------------------
Loaders look for their files in a data folder chosen in this order:

1. the ``data_home`` argument;
2. the environment variable ``SVMLIB_DATA_DIR``;
3. the ``data/`` folder of the book's repository (when svmlib is installed
   from a checkout), else the user cache folder given by
   ``pooch.os_cache("svmlib")``.

Each data set has its own subfolder (``mnist/``). A file that is present is
verified against its published SHA-256 checksum before it is read; a missing
file is downloaded with pooch (from the official source, then mirrors) into
that folder, verified, and only then moved into place, so an interrupted
download never leaves a half-written file behind.
"""

import gzip
import os
from pathlib import Path

import numpy as np
import pooch

__all__ = [
    "MNIST_FILES",
    "MNIST_URLS",
    "deskew",
    "load_mnist",
    "get_data_home",
    "fetch_file",
    "read_idx",
]

#: SHA-256 of the four original MNIST gzip files (LeCun, Cortes & Burges).
MNIST_FILES = {
    "train-images-idx3-ubyte.gz": (
        "440fcabf73cc546fa21475e81ea370265605f56be210a4024d2ca8f203523609"
    ),
    "train-labels-idx1-ubyte.gz": (
        "3552534a0a558bbed6aed32b30c495cca23d567ec52cac8be1a0730e8010255c"
    ),
    "t10k-images-idx3-ubyte.gz": (
        "8d422c7b0a1c1c79245a5bcf07fe86e33eeafee792b84584aec276f5a2dbc4e6"
    ),
    "t10k-labels-idx1-ubyte.gz": (
        "f7ae60f92e00ec6debd23a6088c31dbd2371eca3ffa0defaefb259924204aec6"
    ),
}

#: Where the MNIST files are served, tried in order.
MNIST_URLS = (
    "https://yann.lecun.com/exdb/mnist/",
    "https://ossci-datasets.s3.amazonaws.com/mnist/",
    "https://storage.googleapis.com/cvdf-datasets/mnist/",
)

_IDX_DTYPES = {0x08: np.uint8}


def get_data_home(data_home=None):
    """Return the data folder: ``data_home``, ``$SVMLIB_DATA_DIR`` or default.

    Parameters
    ----------
    data_home : str or path-like, optional
        A folder chosen by the caller; it wins over everything else.

    Returns
    -------
    pathlib.Path
        ``data_home``; else the folder named by the environment variable
        ``SVMLIB_DATA_DIR``; else the ``data/`` folder of the book's
        repository when svmlib runs from a checkout; else the user cache
        folder ``pooch.os_cache("svmlib")``.

    Examples
    --------
    >>> from pathlib import Path
    >>> from svmlib.datasets import get_data_home
    >>> get_data_home("course_data") == Path("course_data")
    True

    References
    ----------
    The book's README, section "Data" (the data folder and
    ``SVMLIB_DATA_DIR``); scikit-learn's ``sklearn.datasets.get_data_home``
    works alike.
    """
    if data_home is not None:
        return Path(data_home)
    if os.environ.get("SVMLIB_DATA_DIR"):
        return Path(os.environ["SVMLIB_DATA_DIR"])
    checkout_data = Path(__file__).resolve().parents[2] / "data"
    if checkout_data.is_dir():
        return checkout_data
    return Path(pooch.os_cache("svmlib"))


def fetch_file(folder, name, sha256, urls, download=True):
    """Path to a verified local copy of ``name``, downloading it if allowed.

    Parameters
    ----------
    folder : str or path-like
        Where the file is, or will be written.
    name : str
        File name.
    sha256 : str
        Its published SHA-256, hex.
    urls : sequence of str
        Base addresses to try in order (``url + name``).
    download : bool, default=True
        Whether a missing file may be downloaded.

    Returns
    -------
    pathlib.Path
        ``folder / name``, whose SHA-256 is ``sha256``.

    Raises
    ------
    OSError
        If the file is missing and cannot be downloaded (or ``download`` is
        False), or if it is present but its checksum does not match.

    Examples
    --------
    A file that is present is verified, and not downloaded again:

    >>> import hashlib, tempfile
    >>> from pathlib import Path
    >>> from svmlib.datasets import fetch_file
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "hello.txt").write_bytes(b"hello")
    >>> digest = hashlib.sha256(b"hello").hexdigest()
    >>> fetch_file(folder, "hello.txt", digest, urls=(), download=False).name
    'hello.txt'
    >>> fetch_file(folder, "hello.txt", "0" * 64, ())  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    OSError: ...hello.txt is corrupt: its SHA-256 is 2cf24dba...

    References
    ----------
    pooch (Uieda et al. 2020), whose ``retrieve`` downloads and verifies the
    file.
    """
    folder = Path(folder)
    path = folder / name
    if path.exists():
        actual = pooch.file_hash(str(path), alg="sha256")
        if actual != sha256:
            raise OSError(
                f"{path} is corrupt: its SHA-256 is {actual}, expected "
                f"{sha256}. Delete it so that it can be downloaded again, or "
                "replace it with the original file."
            )
        return path
    if not download:
        raise OSError(
            f"{name} is not in {folder} and download=False. Put the file "
            "there, point SVMLIB_DATA_DIR (or data_home) at a folder that "
            "has it, or allow downloads."
        )
    errors = []
    for base in urls:
        try:
            fetched = pooch.retrieve(
                base + name,
                known_hash=f"sha256:{sha256}",
                fname=name,
                path=folder,
                progressbar=False,
            )
            return Path(fetched)
        # a mirror that fails is skipped; all failing is reported below
        except Exception as error:
            errors.append(f"{base}{name}: {error}")
    raise OSError(
        f"{name} is not in {folder} and could not be downloaded:\n  "
        + "\n  ".join(errors)
        + "\nOffline? Point SVMLIB_DATA_DIR (or data_home) at a folder "
        "holding the file."
    )


def read_idx(path):
    """Read a gzip-compressed IDX file (the MNIST format) into an ndarray.

    Parameters
    ----------
    path : path-like
        A ``.gz`` IDX file: two zero bytes, a type code (0x08 for unsigned
        bytes), the number of dimensions, one big-endian uint32 per
        dimension, then the data.

    Returns
    -------
    ndarray
        uint8 array with the shape given in the header.

    Raises
    ------
    OSError
        If the header is malformed or the data size does not match it.

    Examples
    --------
    A 2 x 3 array of bytes, written in the IDX format and read back:

    >>> import gzip, tempfile
    >>> from pathlib import Path
    >>> from svmlib.datasets import read_idx
    >>> path = Path(tempfile.mkdtemp()) / "tiny-idx2-ubyte.gz"
    >>> header = bytes([0, 0, 0x08, 2]) + bytes([0, 0, 0, 2, 0, 0, 0, 3])
    >>> with gzip.open(path, "wb") as f:
    ...     _ = f.write(header + bytes(range(6)))
    >>> read_idx(path)
    array([[0, 1, 2],
           [3, 4, 5]], dtype=uint8)

    References
    ----------
    Y. LeCun, C. Cortes and C. J. C. Burges, "The MNIST database of
    handwritten digits", the section "File formats for the MNIST database".
    """
    with gzip.open(path, "rb") as f:
        raw = f.read()
    if len(raw) < 4 or raw[0] != 0 or raw[1] != 0 or raw[2] not in _IDX_DTYPES:
        raise OSError(
            f"{path} is not an IDX file of unsigned bytes (bad magic number)."
        )
    ndim = raw[3]
    header_end = 4 + 4 * ndim
    shape = tuple(
        int(v) for v in np.frombuffer(raw[4:header_end], dtype=">u4")
    )
    if len(shape) != ndim or len(raw) - header_end != int(np.prod(shape)):
        raise OSError(
            f"{path}: the header announces shape {shape}, which does not "
            "match the file size."
        )
    return np.frombuffer(
        raw, dtype=_IDX_DTYPES[raw[2]], offset=header_end
    ).reshape(shape)


def _read_mnist_part(folder, prefix, download):
    """Images (n, 28, 28) and labels (n,) of the "train" or "t10k" files."""
    arrays = []
    for name in (
        f"{prefix}-images-idx3-ubyte.gz",
        f"{prefix}-labels-idx1-ubyte.gz",
    ):
        arrays.append(
            read_idx(
                fetch_file(
                    folder, name, MNIST_FILES[name], MNIST_URLS, download
                )
            )
        )
    images, labels = arrays
    if (
        images.ndim != 3
        or labels.ndim != 1
        or images.shape[0] != labels.shape[0]
    ):
        raise OSError(
            f"The MNIST {prefix} files do not match: images "
            f"{images.shape}, labels {labels.shape}."
        )
    return images, labels


def load_mnist(digits=None, subset="all", data_home=None, download=True):
    """Load the MNIST handwritten digits, as flat pixel vectors in [0, 1].

    Parameters
    ----------
    digits : sequence of int, optional
        Keep only these digits (for example ``(3, 8)``); default all ten.
    subset : {"train", "test", "all"}, default="all"
        The official 60000 training images, the 10000 test images, or both
        (training images first).
    data_home : str or path-like, optional
        Data folder (see :func:`get_data_home`); the files are in its
        ``mnist/`` subfolder.
    download : bool, default=True
        Download missing files (verified by SHA-256) if True.

    Returns
    -------
    X : ndarray of shape (n, 784), float32
        Pixel intensities divided by 255, row-major 28 x 28 images.
    y : ndarray of shape (n,), int64
        Digit labels 0-9.

    Raises
    ------
    ValueError
        If ``subset`` is unknown or ``digits`` holds values outside 0-9.
    OSError
        If a file is missing and cannot be downloaded, or is corrupt.

    References
    ----------
    Y. LeCun, C. Cortes and C. J. C. Burges, "The MNIST database of
    handwritten digits".

    Examples
    --------
    The 3s and 8s of the test set (from the data folder, see
    :func:`get_data_home`):

    >>> from svmlib.datasets import load_mnist
    >>> X, y = load_mnist(digits=(3, 8), subset="test", download=False)
    >>> X.shape, X.dtype, y.dtype
    ((1984, 784), dtype('float32'), dtype('int64'))
    >>> [int(n) for n in np.bincount(y)[[3, 8]]], float(X.max())
    ([1010, 974], 1.0)
    """
    parts = {"train": ("train",), "test": ("t10k",), "all": ("train", "t10k")}
    if subset not in parts:
        raise ValueError(
            f"subset must be 'train', 'test' or 'all', got {subset!r}."
        )
    if digits is not None:
        digits = np.atleast_1d(np.asarray(digits))
        if digits.size == 0 or not np.all(np.isin(digits, np.arange(10))):
            raise ValueError(
                f"digits must be values from 0 to 9, got {digits.tolist()}."
            )
    folder = get_data_home(data_home) / "mnist"
    images, labels = [], []
    for prefix in parts[subset]:
        image_array, label_array = _read_mnist_part(folder, prefix, download)
        images.append(image_array.reshape(image_array.shape[0], -1))
        labels.append(label_array)
    X = np.concatenate(images)
    y = np.concatenate(labels).astype(np.int64)
    if digits is not None:
        keep = np.isin(y, digits)
        X, y = X[keep], y[keep]
    return X.astype(np.float32) / np.float32(255), y


def deskew(X, shape=(28, 28)):
    """Straighten slanted digits: the shear that zeroes each image's slant.

    LeCun et al. (1998) deskew MNIST before training their best polynomial
    SVM: "the second moments of the pixel intensities are used to compute
    a shear" that makes the principal axis vertical. For an image with
    pixel intensities I(r, c) (row r, column c), centre of mass
    (r_0, c_0), row variance s_rr and row-column covariance s_rc, the
    shear c' = c - (s_rc / s_rr) (r - r_0) leaves the image with
    covariance zero; the image is also moved so that its centre of mass
    is the frame's centre. Pixels are resampled by bilinear interpolation
    (``scipy.ndimage.affine_transform``, order 1, zeros outside).

    Parameters
    ----------
    X : array-like of shape (n, h * w)
        Images as flat rows, row-major (as :func:`load_mnist` returns them).
    shape : tuple of int, default=(28, 28)
        (h, w) of one image.

    Returns
    -------
    ndarray of shape (n, h * w)
        The deskewed images, in X's float dtype (float64 for integer
        input); a blank image is returned unchanged.

    Raises
    ------
    ValueError
        If X is not 2-D with h * w columns, or holds negative or non-finite
        intensities.

    References
    ----------
    LeCun, Bottou, Bengio & Haffner (1998), "Gradient-based learning
    applied to document recognition", section on MNIST results.

    Examples
    --------
    A bar slanted by one column per row becomes upright:

    >>> image = np.zeros((5, 5))
    >>> for r in range(5):
    ...     image[r, r] = 1.0
    >>> straight = deskew(image.reshape(1, -1), shape=(5, 5)).reshape(5, 5)
    >>> straight.argmax(axis=1).tolist()
    [2, 2, 2, 2, 2]
    """
    from scipy.ndimage import affine_transform

    X = np.asarray(X)
    dtype = X.dtype if np.issubdtype(X.dtype, np.floating) else np.float64
    h, w = shape
    if X.ndim != 2 or X.shape[1] != h * w:
        raise ValueError(
            f"X must have shape (n, {h * w}) for images of shape {shape}, "
            f"got {X.shape}."
        )
    if not np.all(np.isfinite(X)) or np.any(X < 0):
        raise ValueError("X must hold finite intensities >= 0.")
    images = X.reshape(-1, h, w).astype(np.float64)
    out = np.empty_like(images)
    centre = (np.array([h, w]) - 1) / 2
    for k, image in enumerate(images):
        total = image.sum()
        if total == 0:
            out[k] = image
            continue
        (r0, c0), slant = _centre_and_slant(image, total)
        shear = np.array([[1.0, 0.0], [slant, 1.0]])
        offset = np.array([r0, c0]) - shear @ centre
        out[k] = affine_transform(image, shear, offset=offset, order=1)
    return out.reshape(X.shape).astype(dtype, copy=False)


def _centre_and_slant(image, total):
    """Centre of mass (r_0, c_0) and s_rc / s_rr of one image."""
    rows, cols = np.indices(image.shape)
    r0 = (image * rows).sum() / total
    c0 = (image * cols).sum() / total
    s_rr = (image * (rows - r0) ** 2).sum() / total
    s_rc = (image * (rows - r0) * (cols - c0)).sum() / total
    return (r0, c0), (s_rc / s_rr if s_rr > 0 else 0.0)
