"""svmlib: support vector machines from the dual up.

The library taught by the svmbook Jupyter Book. Modules mirror the book:

* :mod:`svmlib.duality`: dual objective, KKT conditions, recovering w and b;
* :mod:`svmlib.kernels`: kernel functions (Gram matrices with BLAS);
* :mod:`svmlib.gram`: dense and cached access to the training Gram matrix;
* :mod:`svmlib.solvers`: the solvers (SMO with Platt's and LIBSVM's selection);
* :mod:`svmlib.svc`: :class:`SVC`, a scikit-learn compatible classifier;
* :mod:`svmlib.linear_svc`: :class:`LinearSVC`, linear SVMs by dual
  coordinate descent (LIBLINEAR's algorithm);
* :mod:`svmlib.multiclass`: more than two classes (one-vs-one, one-vs-rest);
* :mod:`svmlib.probability`: probabilities (Platt scaling, pairwise coupling);
* :mod:`svmlib.datasets`: MNIST and GISETTE loaders, a Gisette-style generator;
* :mod:`svmlib.mixture`: EM for coin and Gaussian mixtures (side topics).
"""

from .linear_svc import LinearSVC
from .svc import SVC

__all__ = ["LinearSVC", "SVC"]
__version__ = "0.1.0"
