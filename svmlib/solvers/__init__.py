"""Solvers for the SVM training problem.

Each dual solver takes a Gram matrix ``K`` (or a Gram object from
:mod:`svmlib.gram`), labels ``y`` in {-1, +1} and the box constraint ``C``
(:func:`smo` also one bound C_i per point, for sample and class weights),
and returns a :class:`SolverResult`. Their inputs are checked by
``svmlib._validation``.

* :func:`primal_gd`: mini-batch subgradient descent on the regularised hinge
  loss (book part I);
* :func:`dual_gd`: projected gradient ascent on the dual (book part I);
* :func:`smo`: sequential minimal optimization with Platt's selection or
  LIBSVM's second-order working sets (book part III);
* :func:`simplified_smo`: the CS229 handout's simplified SMO;
* :func:`dual_cd`: dual coordinate descent for linear SVMs (LIBLINEAR's
  algorithm; no equality constraint, the bias is a feature);
* :func:`two_variable_step`, :func:`step_bounds`: SMO's analytic step.
"""

from ._common import SolverResult
from .dual_cd import LinearResult, dual_cd
from .dual_gd import dual_gd
from .primal import PrimalResult, primal_gd
from .simplified_smo import simplified_smo
from .smo import smo, step_bounds, two_variable_step

__all__ = [
    "LinearResult",
    "PrimalResult",
    "SolverResult",
    "dual_cd",
    "dual_gd",
    "primal_gd",
    "simplified_smo",
    "smo",
    "step_bounds",
    "two_variable_step",
]
