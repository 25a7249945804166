"""Data sets used by the book: loaders for real data, generators for toy data.

* :func:`load_mnist`: the MNIST digits (downloaded and verified, or read from
  ``SVMLIB_DATA_DIR``), and :func:`deskew`, LeCun's moment-based
  straightening of slanted digits, in ``svmlib.datasets.mnist``;
* :func:`load_gisette`: the GISETTE challenge data (UCI), and
  :func:`make_gisette_like`, a substitute built from MNIST by the published
  recipe, in ``svmlib.datasets.gisette``;
* :func:`make_separable`, :func:`make_outlier_data`,
  :func:`make_sine_separated`: 2-D toy problems, in ``svmlib.datasets.toy``.
"""

from .gisette import GISETTE_FILES, load_gisette, make_gisette_like
from .mnist import (
    MNIST_FILES,
    MNIST_URLS,
    deskew,
    fetch_file,
    get_data_home,
    load_mnist,
    read_idx,
)
from .toy import make_outlier_data, make_separable, make_sine_separated

__all__ = [
    "GISETTE_FILES",
    "MNIST_FILES",
    "MNIST_URLS",
    "deskew",
    "fetch_file",
    "get_data_home",
    "load_gisette",
    "load_mnist",
    "make_gisette_like",
    "make_outlier_data",
    "make_separable",
    "make_sine_separated",
    "read_idx",
]
