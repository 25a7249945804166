"""Data sets used by the book: loaders for real data, generators for toy data.

* :func:`load_mnist`: the MNIST digits (downloaded and verified, or read from
  ``SVMLIB_DATA_DIR``), in :mod:`svmlib.datasets.mnist`.
"""

from .mnist import MNIST_FILES, MNIST_URLS, fetch_file, get_data_home, load_mnist, read_idx

__all__ = ["MNIST_FILES", "MNIST_URLS", "fetch_file", "get_data_home", "load_mnist", "read_idx"]
