"""Solvers for the SVM training problem.

Each solver takes a Gram matrix ``K`` (or data, for the primal methods),
labels ``y`` in {-1, +1} and the box constraint ``C``, and returns a
:class:`SolverResult`.

* :func:`smo`: sequential minimal optimization, Platt's selection or LIBSVM's
  second-order working sets (part III of the book).
"""

from ._common import SolverResult
from .smo import smo, two_variable_step

__all__ = ["SolverResult", "smo", "two_variable_step"]
