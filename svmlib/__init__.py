"""svmlib: support vector machines from the dual up.

The library taught by the svmbook Jupyter Book. Modules mirror the book:

* :mod:`svmlib.duality`: dual objective, KKT conditions, recovering w and b;
* :mod:`svmlib.kernels`: kernel functions (Gram matrices with BLAS);
* :mod:`svmlib.gram`: dense and cached access to the training Gram matrix;
* :mod:`svmlib.solvers`: the solvers (SMO with Platt's and LIBSVM's selection);
* :mod:`svmlib.formulations`: C-SVC, nu-SVC, one-class SVM, epsilon-SVR and
  nu-SVR as problems for the one SMO solver (LIBSVM's formulations);
* :mod:`svmlib.svc`: :class:`SVC` and :class:`NuSVC`, scikit-learn compatible
  classifiers (C-SVC and nu-SVC);
* :mod:`svmlib.svr`: :class:`SVR` and :class:`NuSVR`, support vector
  regression (epsilon-SVR and nu-SVR);
* :mod:`svmlib.one_class`: :class:`OneClassSVM`, novelty detection;
* :mod:`svmlib.linear_svc`: :class:`LinearSVC`, linear SVMs by dual
  coordinate descent (LIBLINEAR's algorithm);
* :mod:`svmlib.linear_svr`: :class:`LinearSVR`, linear support vector
  regression (LIBLINEAR's dual coordinate descent, or a primal Newton
  method);
* :mod:`svmlib.multiclass`: more than two classes (one-vs-one, one-vs-rest);
* :mod:`svmlib.probability`: probabilities (Platt scaling, pairwise coupling);
* :mod:`svmlib.datasets`: MNIST and GISETTE loaders, a Gisette-style generator;
* :mod:`svmlib.mixture`: EM for coin and Gaussian mixtures (side topics).
"""

from .linear_svc import LinearSVC
from .linear_svr import LinearSVR
from .one_class import OneClassSVM
from .svc import SVC, NuSVC
from .svr import SVR, NuSVR

__all__ = [
    "LinearSVC",
    "LinearSVR",
    "NuSVC",
    "NuSVR",
    "OneClassSVM",
    "SVC",
    "SVR",
]
__version__ = "0.1.0"
