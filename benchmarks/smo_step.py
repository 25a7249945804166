"""Benchmark: the cost of one SMO step, compiled loop against NumPy loop.

``svmlib.solvers.smo`` (``selection="wss2"``) runs its plain steps in a
numba loop (``svmlib.solvers._smo_compiled``) when the Gram matrix is an
array; ``_smo_compiled.ENABLED = False`` keeps every step in the readable
NumPy code. Both take the same steps (tests/test_smo_compiled.py), so the
time per step compares the two directly. Timed in the same run, with
svmlib.timing (a warm-up, then the median of the repeats, BLAS threads
pinned and printed):

* MNIST 3 vs 8 (the case study's 8379 training images, RBF, C=10,
  gamma=0.02, tol=1e-3): SMO on the precomputed float32 Gram matrix, both
  paths, and scikit-learn's SVC fit on the images (LIBSVM computes its
  kernel columns as it goes, so its time per step includes them);
* a few hundred points (the first 400 of those images): SMO on the
  precomputed float64 Gram matrix, both paths, and scikit-learn's SVC
  with ``kernel="precomputed"`` on the same matrix;
* digits (1797 images, 10 classes, RBF, scikit-learn's defaults):
  ``svmlib.SVC().fit`` against ``sklearn.svm.SVC().fit``.

Run:  SVMLIB_DATA_DIR=../shared/data python benchmarks/smo_step.py
      (options: --repeats N (default 3), --threads T (default 1))
Targets (issue 27): <= 20 us a step at 8379 points; within 5 times
LIBSVM's step on a few hundred points; digits fit <= 1.0 x scikit-learn.
"""

import argparse

from _common import add_timing_options, mnist_3_vs_8, plus_minus
from sklearn.datasets import load_digits
from sklearn.svm import SVC as SklearnSVC

from svmlib import SVC
from svmlib.gram import DenseGram
from svmlib.kernels import rbf_kernel
from svmlib.solvers import _smo_compiled, smo
from svmlib.timing import compare

C, GAMMA, TOL = 10.0, 0.02, 1e-3


def _smo_on(K, y, compiled):
    """SMO on the Gram object K with the compiled loop on or off."""

    def solve():
        previous = _smo_compiled.ENABLED
        _smo_compiled.ENABLED = compiled
        try:
            return smo(K, y, C, tol=TOL)
        finally:
            _smo_compiled.ENABLED = previous

    return solve


def _per_step(comparison, name, steps):
    timing = comparison.timings[name]
    return 1e6 * timing.median / steps


def _steps_case(title, K, y, sklearn_fit, repeats, threads):
    print(title)
    K = DenseGram(K)  # checked once here, not in every timed call
    comparison = compare(
        {
            "compiled": _smo_on(K, y, True),
            "numpy": _smo_on(K, y, False),
            "sklearn": sklearn_fit,
        },
        baseline="sklearn",
        repeats=repeats,
        threads=threads,
    )
    print(comparison)
    compiled = comparison.timings["compiled"].result
    numpy_ = comparison.timings["numpy"].result
    assert compiled.n_iter == numpy_.n_iter
    assert (compiled.alpha == numpy_.alpha).all()
    steps = compiled.n_iter
    sklearn_steps = int(comparison.timings["sklearn"].result.n_iter_[0])
    us = {
        "compiled": _per_step(comparison, "compiled", steps),
        "numpy": _per_step(comparison, "numpy", steps),
        "sklearn": _per_step(comparison, "sklearn", sklearn_steps),
    }
    print(
        f"  steps: svmlib {steps} (both paths, identical alpha), "
        f"sklearn {sklearn_steps}"
    )
    print(
        f"  us per step: compiled {us['compiled']:.1f}, "
        f"numpy {us['numpy']:.1f}, sklearn (whole fit / its steps) "
        f"{us['sklearn']:.1f}"
    )
    print(
        f"  compiled / numpy per step: "
        f"{us['compiled'] / us['numpy']:.3f}; compiled / sklearn per step: "
        f"{us['compiled'] / us['sklearn']:.2f}"
    )


def main(repeats=3, threads=1):
    X_train, y_train, _, _ = mnist_3_vs_8()
    y_pm = plus_minus(y_train)
    K32 = rbf_kernel(X_train, gamma=GAMMA)
    _steps_case(
        f"MNIST 3 vs 8, {len(y_pm)} points, float32 Gram matrix "
        "(target <= 20 us a step)",
        K32,
        y_pm,
        lambda: SklearnSVC(C=C, gamma=GAMMA, tol=TOL).fit(X_train, y_train),
        repeats,
        threads,
    )
    del K32
    small = 400
    X_small, y_small = X_train[:small].astype(float), y_pm[:small]
    K_small = rbf_kernel(X_small, gamma=GAMMA).astype(float)
    _steps_case(
        f"{small} points of it, float64 Gram matrix "
        "(target: within 5 x LIBSVM's step)",
        K_small,
        y_small,
        lambda: SklearnSVC(kernel="precomputed", C=C, tol=TOL).fit(
            K_small, y_small
        ),
        repeats,
        threads,
    )
    X_digits, y_digits = load_digits(return_X_y=True)
    print("digits, 1797 images, 10 classes, RBF, defaults (target <= 1.0)")
    comparison = compare(
        {
            "svmlib.SVC": lambda: SVC().fit(X_digits, y_digits),
            "sklearn SVC": lambda: SklearnSVC().fit(X_digits, y_digits),
        },
        baseline="sklearn SVC",
        repeats=repeats,
        threads=threads,
    )
    print(comparison)
    print(
        "  fit-time ratio svmlib / sklearn (medians, same run): "
        f"{comparison.ratio('svmlib.SVC'):.3f}"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_timing_options(parser, repeats=3)
    arguments = parser.parse_args()
    main(arguments.repeats, arguments.threads)
