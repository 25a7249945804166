"""Bad input to the dual solvers: the checks they share, run on each of them.

Every dual solver takes (K, y, C) and validates them the same way (through
svmlib._validation); each raises a ValueError that names the problem.
Parameters that only one solver has are tested in that solver's own file.
"""

import numpy as np
import pytest

from svmlib.solvers import dual_gd, simplified_smo, smo

SOLVERS = {"smo": smo, "simplified_smo": simplified_smo, "dual_gd": dual_gd}


@pytest.mark.parametrize("solver", sorted(SOLVERS))
@pytest.mark.parametrize(
    "change, message",
    [
        (dict(C=0.0), "C must be a positive"),
        (dict(C=-1.0), "C must be a positive"),
        (dict(C=float("nan")), "C must be a positive"),
        (dict(tol=0.0), "tol must be"),
        (dict(tol=-1.0), "tol must be"),
        (dict(max_iter=0), "max_iter must be"),
        (dict(y=np.ones(4)), "only one class"),
        (dict(y=np.array([0.0, 1.0, 0.0, 1.0])), r"labels in \{-1, \+1\}"),
        (dict(y=np.array([1.0, -1.0, 1.0])), "length 4"),
        (dict(K=np.ones((4, 3))), "square"),
        (dict(K=np.full((4, 4), np.nan)), "NaN"),
    ],
)
def test_shared_checks(solver, change, message):
    args = dict(K=np.eye(4), y=np.array([1.0, -1.0, 1.0, -1.0]), C=1.0)
    args.update(change)
    K, y, C = args.pop("K"), args.pop("y"), args.pop("C")
    with pytest.raises(ValueError, match=message):
        SOLVERS[solver](K, y, C, **args)


@pytest.mark.parametrize("solver", sorted(SOLVERS))
@pytest.mark.parametrize("C", ["1", True, None, {}])
def test_C_of_the_wrong_type(solver, C):
    with pytest.raises(ValueError, match="C must be a positive number"):
        SOLVERS[solver](np.eye(2), np.array([1.0, -1.0]), C)


@pytest.mark.parametrize("solver", ["simplified_smo", "dual_gd"])
def test_per_point_C_only_for_smo(solver):
    K, y, C = np.eye(4), np.array([1.0, -1.0, 1.0, -1.0]), np.ones(4)
    assert smo(K, y, C).converged
    with pytest.raises(ValueError, match="per-point bounds C_i are not"):
        SOLVERS[solver](K, y, C)
