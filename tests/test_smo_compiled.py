"""The compiled SMO loop takes exactly the steps of the readable NumPy one.

``svmlib.solvers._smo_compiled`` runs the plain steps of ``smo``'s WSS 2
loop in numba and hands the others back to the NumPy code. Each problem
here is solved twice, with the compiled loop switched off
(``_smo_compiled.ENABLED = False``) and on, and the two results must agree
bitwise: the same number of steps, the same status, the same multipliers
and the same intercept. The problems cover what the solver meets: Gaussian,
linear and polynomial Gram matrices in float32 and float64, per-point C,
tiny and huge C, the hard margin, duplicate points with opposite labels,
kernel values of 1e20 (the rounding floor and the fallback pair), every
formulation of ``svmlib.formulations`` (their p, alpha_init, per_class and
doubled Gram matrix), shrinking on and off, ``max_iter`` and the stall
detector.
"""

import warnings

import numpy as np
import pytest
from sklearn.metrics.pairwise import (
    linear_kernel,
    polynomial_kernel,
    rbf_kernel,
)

from svmlib import formulations
from svmlib.solvers import _smo_compiled, smo
from svmlib.solvers.sequential_minimal import _Progress


def _both(solve):
    """Run ``solve()`` on the NumPy path, then on the compiled one."""
    results = []
    for enabled in (False, True):
        previous = _smo_compiled.ENABLED
        _smo_compiled.ENABLED = enabled
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                results.append(solve())
        finally:
            _smo_compiled.ENABLED = previous
    return results


def _assert_same(numpy_result, compiled_result):
    assert compiled_result.n_iter == numpy_result.n_iter
    assert compiled_result.status == numpy_result.status
    # bitwise: the same float64 bit patterns
    np.testing.assert_array_equal(
        compiled_result.alpha.view(np.int64), numpy_result.alpha.view(np.int64)
    )
    for name in ("b", "intercept", "r", "epsilon"):
        if hasattr(numpy_result, name):
            assert getattr(compiled_result, name) == getattr(
                numpy_result, name
            ), name


def _data(seed, n=120, d=5, scale=1.0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * scale
    y = np.where(X[:, 0] + 0.7 * rng.normal(size=n) > 0, 1.0, -1.0)
    return X, y


KERNELS = {
    "rbf": lambda X: rbf_kernel(X, gamma=0.3),
    "linear": linear_kernel,
    "poly": lambda X: polynomial_kernel(X, degree=3, gamma=0.5, coef0=1.0),
}


# (a linear kernel with C = 1000 takes about 10^6 steps here: left out)
CASES = [
    (kernel, C)
    for kernel in sorted(KERNELS)
    for C in (1e-13, 0.05, 1.0, 1e3)
    if not (kernel == "linear" and C > 1)
]


@pytest.mark.parametrize(("kernel", "C"), CASES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shrinking", [True, False])
def test_c_svc_same_steps(kernel, C, dtype, shrinking):
    X, y = _data(CASES.index((kernel, C)))
    K = KERNELS[kernel](X).astype(dtype)
    a, b = _both(lambda: smo(K, y, C, shrinking=shrinking, tol=1e-4))
    assert a.n_iter > 0
    _assert_same(a, b)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shrinking", [True, False])
def test_per_point_C_same_steps(dtype, shrinking):
    X, y = _data(3, n=150)
    K = rbf_kernel(X, gamma=0.5).astype(dtype)
    C = np.random.default_rng(4).uniform(0.0, 5.0, size=y.size)
    C[:10] = 0.0  # dropped points
    a, b = _both(lambda: smo(K, y, C, shrinking=shrinking))
    _assert_same(a, b)


@pytest.mark.parametrize("shrinking", [True, False])
def test_duplicates_with_opposite_labels(shrinking):
    X, y = _data(5, n=80)
    X = np.vstack([X, X[:20]])
    y = np.concatenate([y, -y[:20]])
    K = rbf_kernel(X, gamma=0.2)
    a, b = _both(lambda: smo(K, y, 10.0, shrinking=shrinking))
    _assert_same(a, b)
    # the hard margin is unbounded there: both raise the same error
    with pytest.raises(ValueError, match="unbounded") as numpy_error:
        _both(lambda: smo(K, y, np.inf, shrinking=shrinking))
    previous = _smo_compiled.ENABLED
    _smo_compiled.ENABLED = True
    try:
        with pytest.raises(ValueError) as compiled_error:
            smo(K, y, np.inf, shrinking=shrinking)
    finally:
        _smo_compiled.ENABLED = previous
    assert str(compiled_error.value) == str(numpy_error.value)


def test_hard_margin_separable():
    X, _ = _data(6, n=100)
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    K = linear_kernel(X)
    a, b = _both(lambda: smo(K, y, np.inf))
    assert a.status == "converged"
    _assert_same(a, b)


@pytest.mark.parametrize("shrinking", [True, False])
def test_huge_kernel_values(shrinking):
    """Kernel values up to 1e20: the rounding floor and the fallback pair."""
    X, y = _data(7, n=100, d=10)
    K = polynomial_kernel(X, degree=12, gamma=1.0, coef0=1.0)
    assert K.max() > 1e15
    a, b = _both(lambda: smo(K, y, 1.0, shrinking=shrinking))
    _assert_same(a, b)


@pytest.mark.parametrize("shrinking", [True, False])
def test_max_iter_and_stall(shrinking, monkeypatch):
    X, y = _data(8, n=200)
    K = rbf_kernel(X, gamma=1.0)
    a, b = _both(lambda: smo(K, y, 100.0, max_iter=57, shrinking=shrinking))
    assert a.status == "max_iter" and a.n_iter == 57
    _assert_same(a, b)
    monkeypatch.setattr(_Progress, "MIN_PATIENCE", 5)
    monkeypatch.setattr(_Progress, "STEPS_PER_POINT", 0)
    a, b = _both(lambda: smo(K, y, 100.0, shrinking=shrinking, tol=1e-9))
    assert a.status == "stalled"
    _assert_same(a, b)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shrinking", [True, False])
def test_formulations_same_steps(dtype, shrinking):
    X, y = _data(9, n=150)
    K = rbf_kernel(X, gamma=0.4).astype(dtype)
    z = X[:, 1] + 0.1 * np.random.default_rng(10).normal(size=y.size)
    options = {"shrinking": shrinking, "tol": 1e-4}
    weight = np.random.default_rng(11).uniform(0.5, 2.0, size=y.size)
    problems = [
        lambda: formulations.nu_svc(K, y, 0.3, **options),
        lambda: formulations.nu_svc(K, y, 0.5, weight=weight, **options),
        lambda: formulations.one_class(K, 0.2, **options),
        lambda: formulations.epsilon_svr(K, z, 10.0, 0.1, **options),
        lambda: formulations.nu_svr(K, z, 10.0, 0.4, **options),
        lambda: formulations.nu_svr(K, z, 3.0, 0.6, weight=weight, **options),
    ]
    for solve in problems:
        a, b = _both(solve)
        assert a.n_iter > 0
        _assert_same(a, b)
        np.testing.assert_array_equal(a.coef, b.coef)


def test_the_compiled_loop_takes_the_steps(monkeypatch):
    """Not a vacuous comparison: the compiled loop does take the steps."""
    X, y = _data(12, n=300)
    K = rbf_kernel(X, gamma=0.3)
    taken = []
    run = _smo_compiled.CompiledLoop.run

    def counting_run(self, *args):
        before = self.state.n_iter
        out = run(self, *args)
        taken.append(self.state.n_iter - before)
        return out

    monkeypatch.setattr(_smo_compiled.CompiledLoop, "run", counting_run)
    result = smo(K, y, 10.0, tol=1e-5)
    assert result.converged
    # all but the steps that shrink (every min(n, 1000) steps) or unshrink
    assert sum(taken) >= result.n_iter - result.n_iter // 300 - 3
    taken.clear()
    _smo_compiled.ENABLED, previous = False, _smo_compiled.ENABLED
    try:
        smo(K, y, 10.0, tol=1e-5)
    finally:
        _smo_compiled.ENABLED = previous
    assert taken == []


def test_gram_objects_without_an_array_stay_in_numpy():
    from svmlib.gram import CachedGram

    X, y = _data(13, n=100)
    gram = CachedGram(X, lambda A, B: rbf_kernel(A, B, gamma=0.3), 1.0)
    a, b = _both(lambda: smo(gram, y, 1.0))
    _assert_same(a, b)
