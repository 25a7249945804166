"""Solvers for the SVM training problem.

Each dual solver takes a Gram matrix ``K`` (or a Gram object from
:mod:`svmlib.gram`), labels ``y`` in {-1, +1} and the box constraint ``C``
(:func:`smo` also one bound C_i per point, for sample and class weights),
and returns a :class:`SolverResult`. Their inputs are checked by
``svmlib._validation``.

* :func:`primal_gd` (module ``primal``): mini-batch subgradient descent on
  the regularised hinge loss (book part I);
* :func:`dual_gd` (module ``gradient_ascent``): projected gradient ascent
  on the dual (book part I);
* :func:`smo` (module ``sequential_minimal``): sequential minimal
  optimization with Platt's selection or LIBSVM's second-order working
  sets, for LIBSVM's general dual (book parts III and IV);
* :func:`simplified_smo` (module ``simplified``): the CS229 handout's
  simplified SMO;
* :func:`dual_cd` (module ``coordinate_descent``): dual coordinate descent
  for linear SVMs (LIBLINEAR's algorithm; no equality constraint, the bias
  is a feature), and ``coordinate_descent_svr.dual_cd_svr`` for linear SVR;
* :func:`two_variable_step`, :func:`step_bounds`: SMO's analytic step.

The modules are named for their algorithm and the functions for the
solver, so that no module shares a name with a function the package
exports: ``import svmlib.solvers.sequential_minimal as m`` is the module,
``from svmlib.solvers import smo`` the function.
"""

from ._common import SolverResult
from .coordinate_descent import LinearResult, dual_cd
from .gradient_ascent import dual_gd
from .primal import PrimalResult, primal_gd
from .sequential_minimal import smo, step_bounds, two_variable_step
from .simplified import simplified_smo

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
