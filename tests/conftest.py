"""Shared fixtures: small binary problems, separable and not."""

import numpy as np
import pytest
from sklearn.datasets import make_blobs, make_classification, make_moons


def _pm(y):
    return np.where(y == 1, 1.0, -1.0)


PROBLEMS = {
    # two well separated blobs: linearly separable
    "blobs": lambda: make_blobs(
        60, centers=[[-2, -2], [2, 2]], cluster_std=0.8, random_state=0
    ),
    # interleaved half moons: not linearly separable, noisy
    "moons": lambda: make_moons(80, noise=0.25, random_state=1),
    # five features, overlapping classes
    "overlap": lambda: make_classification(
        70, n_features=5, n_informative=3, flip_y=0.1, random_state=2
    ),
}


@pytest.fixture(params=sorted(PROBLEMS))
def problem(request):
    """(name, X float64, y in {-1, +1})."""
    X, y = PROBLEMS[request.param]()
    return request.param, X.astype(np.float64), _pm(y)
