"""Benchmark: LIBSVM's five formulations, svmlib against scikit-learn.

One problem of at least 5000 training points per formulation, each fitted
by svmlib's estimator and by scikit-learn's (LIBSVM) with the same
parameters, kernel and tolerance (tol=1e-3, the default of both):

* C-SVC and nu-SVC: MNIST 3 vs 8, the first N (default 5000) images of the
  case study's 60% training split, RBF gamma=0.02 (C=10; nu=0.1); held out:
  its 20% test split (2794 images). Kernel-heavy: 784 features.
* one-class SVM: MNIST 0s, the first N of the training set's 5923, RBF
  gamma=0.02, nu=0.1; held out: 1000 test images drawn at random
  (all digits).
* epsilon-SVR and nu-SVR: Friedman #1 (``make_friedman1``, noise 1,
  random_state=0), N training and 2000 test points, RBF gamma=0.1, C=10
  (epsilon=0.5; nu=0.3). Kernel-light: 10 features, so the time is the
  solver's.
* epsilon-SVR and nu-SVR again, kernel-heavy: MNIST pixel completion, the
  centre pixel (row 14, column 14) of the first N training images
  predicted from their other 783 pixels, RBF gamma=0.02, C=1
  (epsilon=0.05; nu=0.3); held out: 2000 test images drawn at random.

Both fits of a formulation are timed by svmlib.timing.compare in the same
run, alternately (a warm-up round, then the median of the repeats, BLAS
threads pinned and printed), with the same cache_size (200 MiB,
scikit-learn's default). For each the script prints the fit-time ratio
svmlib / sklearn and the agreement: the relative difference of the dual
objectives (both computed here, in LIBSVM's form, from the models' dual
coefficients on one float64 Gram matrix), the support vectors that only
one model has (size of the symmetric difference), and on the held-out
points the fraction of equal predictions (classes, inlier/outlier; for
regression, predictions within 1e-3 of each other) and the largest
difference of the decision values.

Run:  SVMLIB_DATA_DIR=../shared/data python benchmarks/formulations.py
      (options: --repeats N (default 3), --threads T (default 1), --n N
      training points (default 5000), --only NAME [NAME ...] among
      c_svc nu_svc one_class epsilon_svr nu_svr epsilon_svr_mnist
      nu_svr_mnist)
Targets (issue 26): fit time <= 0.5 x scikit-learn's, dual objectives
within 1e-6 relative, the same support vectors, >= 99.9% of the held-out
predictions equal.
"""

import argparse

import numpy as np
from _common import add_timing_options, mnist_3_vs_8
from sklearn import svm
from sklearn.datasets import make_friedman1

from svmlib import SVC, NuSVC
from svmlib.datasets import load_mnist
from svmlib.kernels import rbf_kernel
from svmlib.one_class import OneClassSVM
from svmlib.svr import SVR, NuSVR
from svmlib.timing import compare

CACHE_SIZE = 200  # MiB, scikit-learn's default, for both libraries
GAMMA_MNIST, GAMMA_FRIEDMAN = 0.02, 0.1


def _coef(model, n):
    """Dual coefficients of all n training points (0 off the support)."""
    coef = np.zeros(n)
    coef[model.support_] = np.ravel(model.dual_coef_)
    return coef


def _mnist_pair(n):
    X_train, y_train, X_test, y_test = mnist_3_vs_8()
    return X_train[:n], y_train[:n], X_test, y_test


def _mnist_zeros(n):
    X, _ = load_mnist(digits=(0,), subset="train")
    X_test, digit_test = load_mnist(subset="test")
    rng = np.random.default_rng(0)
    test = rng.choice(len(digit_test), size=1000, replace=False)
    return X[:n], X_test[test], digit_test[test]


def _mnist_pixel(n):
    """MNIST pixel completion: the centre pixel from the other 783."""
    X, _ = load_mnist(subset="train")
    X_test, _ = load_mnist(subset="test")
    centre = 14 * 28 + 14
    others = np.delete(np.arange(28 * 28), centre)
    rng = np.random.default_rng(0)
    test = rng.choice(len(X_test), size=2000, replace=False)
    return (
        X[:n][:, others],
        X[:n, centre].astype(np.float64),
        X_test[test][:, others],
        X_test[test, centre].astype(np.float64),
    )


def _friedman(n):
    X, y = make_friedman1(n + 2000, noise=1.0, random_state=0)
    return X[:n], y[:n], X[n:], y[n:]


#: name -> (description, svmlib class, sklearn class, parameters, data).
PROBLEMS = {
    "c_svc": (
        "C-SVC, MNIST 3 vs 8, RBF gamma=0.02, C=10",
        SVC,
        svm.SVC,
        dict(C=10.0, gamma=GAMMA_MNIST),
        _mnist_pair,
    ),
    "nu_svc": (
        "nu-SVC, MNIST 3 vs 8, RBF gamma=0.02, nu=0.1",
        NuSVC,
        svm.NuSVC,
        dict(nu=0.1, gamma=GAMMA_MNIST),
        _mnist_pair,
    ),
    "one_class": (
        "one-class SVM, MNIST 0s, RBF gamma=0.02, nu=0.1",
        OneClassSVM,
        svm.OneClassSVM,
        dict(nu=0.1, gamma=GAMMA_MNIST),
        _mnist_zeros,
    ),
    "epsilon_svr": (
        "epsilon-SVR, Friedman #1, RBF gamma=0.1, C=10, epsilon=0.5",
        SVR,
        svm.SVR,
        dict(C=10.0, epsilon=0.5, gamma=GAMMA_FRIEDMAN),
        _friedman,
    ),
    "epsilon_svr_mnist": (
        "epsilon-SVR, MNIST centre pixel from the other 783, RBF "
        "gamma=0.02, C=1, epsilon=0.05",
        SVR,
        svm.SVR,
        dict(C=1.0, epsilon=0.05, gamma=GAMMA_MNIST),
        _mnist_pixel,
    ),
    "nu_svr_mnist": (
        "nu-SVR, MNIST centre pixel from the other 783, RBF gamma=0.02, "
        "C=1, nu=0.3",
        NuSVR,
        svm.NuSVR,
        dict(C=1.0, nu=0.3, gamma=GAMMA_MNIST),
        _mnist_pixel,
    ),
    "nu_svr": (
        "nu-SVR, Friedman #1, RBF gamma=0.1, C=10, nu=0.3",
        NuSVR,
        svm.NuSVR,
        dict(C=10.0, nu=0.3, gamma=GAMMA_FRIEDMAN),
        _friedman,
    ),
}


def dual_objective(name, K, coef, y=None, epsilon=None):
    """The dual objective -(1/2 a'Qa + p'a) of LIBSVM's form, from coef.

    C-SVC and nu-SVC: with |coef_i| = alpha_i (nu-SVC's rescaled to
    C-SVC's form, as both libraries store it), sum alpha - 1/2 coef'K coef.
    One-class: -1/2 alpha'K alpha. epsilon-SVR: -(1/2 coef'K coef +
    epsilon sum |coef| - y'coef). nu-SVR: -(1/2 coef'K coef - y'coef).
    """
    quadratic = 0.5 * coef @ K @ coef
    if name in ("c_svc", "nu_svc"):
        return np.abs(coef).sum() - quadratic
    if name == "one_class":
        return -quadratic
    if name.startswith("epsilon_svr"):
        return -(quadratic + epsilon * np.abs(coef).sum() - y @ coef)
    return -(quadratic - y @ coef)


def run(name, n, repeats, threads):
    """Time and compare one formulation; print its lines."""
    description, Ours, Theirs, params, load = PROBLEMS[name]
    data = load(n)
    X = data[0]
    y = data[1] if name != "one_class" else None
    X_test = data[2] if name != "one_class" else data[1]
    fit_args = (X,) if y is None else (X, y)
    print(
        f"\n== {description}: {X.shape[0]} training points, "
        f"{X.shape[1]} features, {X_test.shape[0]} held out"
    )
    comparison = compare(
        {
            "svmlib": lambda: Ours(cache_size=CACHE_SIZE, **params).fit(
                *fit_args
            ),
            "sklearn": lambda: Theirs(cache_size=CACHE_SIZE, **params).fit(
                *fit_args
            ),
        },
        baseline="sklearn",
        repeats=repeats,
        threads=threads,
    )
    print(comparison)
    ours = comparison.timings["svmlib"].result
    theirs = comparison.timings["sklearn"].result
    ratio = comparison.ratio("svmlib")
    print(f"fit-time ratio svmlib / sklearn: {ratio:.3f}   (target <= 0.5)")

    K = rbf_kernel(X.astype(np.float64), gamma=params["gamma"])
    if name in ("c_svc", "nu_svc"):
        y_dual = None
    else:
        y_dual = y
    values = [
        dual_objective(
            name, K, _coef(model, len(X)), y_dual, params.get("epsilon")
        )
        for model in (ours, theirs)
    ]
    relative = abs(values[0] - values[1]) / abs(values[1])
    print(
        f"dual objective: svmlib {values[0]:.8g}, sklearn {values[1]:.8g}, "
        f"relative difference {relative:.2e}   (target <= 1e-6)"
    )
    only_one = set(ours.support_.tolist()) ^ set(theirs.support_.tolist())
    print(
        f"support vectors: svmlib {len(ours.support_)}, sklearn "
        f"{len(theirs.support_)}, in one model only: {len(only_one)}"
        "   (target 0)"
    )
    n_iter = np.sum(ours.n_iter_), np.sum(theirs.n_iter_)
    print(f"SMO steps: svmlib {n_iter[0]}, sklearn {n_iter[1]}")
    if name.startswith(("epsilon_svr", "nu_svr")):
        difference = np.abs(ours.predict(X_test) - theirs.predict(X_test))
        agree = np.mean(difference <= 1e-3)
        print(
            f"held-out predictions within 1e-3: {agree:.4%} of "
            f"{len(X_test)}; largest difference {difference.max():.2e} "
            f"(targets: y std {np.std(data[3]):.2f})   (target >= 99.9%)"
        )
    else:
        agree = np.mean(ours.predict(X_test) == theirs.predict(X_test))
        difference = np.abs(
            ours.decision_function(X_test) - theirs.decision_function(X_test)
        )
        print(
            f"held-out predictions equal: {agree:.4%} of {len(X_test)}; "
            f"largest decision-value difference {difference.max():.2e}"
            "   (target >= 99.9%)"
        )
    if name.startswith("nu_svr"):
        print(f"tube found by svmlib's NuSVR: epsilon_ = {ours.epsilon_:.6g}")


def main(repeats=3, threads=1, n=5000, only=None):
    for name in only or PROBLEMS:
        run(name, n, repeats, threads)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_timing_options(parser, repeats=3)
    parser.add_argument(
        "--n", type=int, default=5000, help="training points (default 5000)"
    )
    parser.add_argument(
        "--only", nargs="+", choices=list(PROBLEMS), help="these only"
    )
    arguments = parser.parse_args()
    main(arguments.repeats, arguments.threads, arguments.n, arguments.only)
