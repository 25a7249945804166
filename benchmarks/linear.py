"""Benchmark: linear SVMs on MNIST 3 vs 8 and linear SVR on Friedman's data.

svmlib.LinearSVC (dual coordinate descent) against LIBLINEAR through
scikit-learn's LinearSVC (dual=True, the same algorithm), and against the
kernel SMO of svmlib.SVC and scikit-learn's SVC with a linear kernel: the
same problem (C = 0.01, hinge loss unless said), each to its own stopping
rule. Prints medians and ratios measured in one run (svmlib.timing), the
primal objective of each linear model (the quantity both minimise, with the
bias regularised as LIBLINEAR does), its relative difference to LIBLINEAR's,
and test accuracy; at all BLAS threads and at one.

Linear SVR (``--part svr``): svmlib's LinearSVR (dual coordinate descent,
Ho & Lin 2012) against LIBLINEAR through scikit-learn's LinearSVR, both with
dual=True and the same parameters (tol, C, epsilon, max_iter, seed), on
Friedman's first regression problem (make_friedman1, 20000 training and
5000 test points, 10 features, standardised), both losses; with the primal
objective of each, its difference to LIBLINEAR's, the passes of each, and
the test R^2. dual=False (squared loss) is timed against LIBLINEAR's primal
Newton solver (-s 11) too.

Run:  SVMLIB_DATA_DIR=../shared/data python benchmarks/linear.py
      python benchmarks/linear.py --part svr   (no data to download)
"""

import argparse
import warnings

import numpy as np
from _common import mnist_3_vs_8, plus_minus
from sklearn import svm
from sklearn.datasets import make_friedman1
from sklearn.exceptions import ConvergenceWarning
from sklearn.preprocessing import StandardScaler

from svmlib import SVC, LinearSVC
from svmlib.linear_svr import LinearSVR
from svmlib.timing import blas_threads, compare

C = 0.01


def _primal(model, X, y, loss):
    """1/2 ||w||^2 + 1/2 b^2 + C sum loss: the objective with B = 1."""
    w, b = model.coef_.ravel(), float(np.ravel(model.intercept_)[0])
    slack = np.maximum(0.0, 1.0 - y * (X @ w + b))
    penalty = slack if loss == "hinge" else slack**2
    return 0.5 * (w @ w + b * b) + C * penalty.sum()


def _quiet(fit):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return fit()


def contenders(X, y, loss):
    """Name -> a function of no arguments that fits one model."""
    linear = {
        "LIBLINEAR (sklearn LinearSVC)": lambda: _quiet(
            lambda: svm.LinearSVC(
                C=C, loss=loss, dual=True, tol=0.1, random_state=0
            ).fit(X, y)
        ),
        "svmlib.LinearSVC": lambda: LinearSVC(
            C=C, loss=loss, tol=0.1, random_state=0
        ).fit(X, y),
    }
    if loss != "hinge":
        return linear
    return {
        **linear,
        "svmlib.SVC linear (SMO)": lambda: SVC(C=C, kernel="linear").fit(X, y),
        "sklearn SVC linear (LIBSVM)": lambda: svm.SVC(
            C=C, kernel="linear", cache_size=1024
        ).fit(X, y),
    }


def main(repeats=3, threads=(None, 1)):
    X, digits, X_test, digits_test = mnist_3_vs_8()
    y, y_test = plus_minus(digits), plus_minus(digits_test)
    print(f"MNIST 3 vs 8: {X.shape[0]} training images, {X.dtype}, C = {C}")
    for loss in ("hinge", "squared_hinge"):
        for n_threads in threads:
            shown = blas_threads() if n_threads is None else n_threads
            print(f"\n--- loss={loss}, {shown} BLAS thread(s)")
            result = compare(
                contenders(X, y, loss), repeats=repeats, threads=n_threads
            )
            print(result)
            _report(result, X, y, X_test, y_test, loss)


def _report(result, X, y, X_test, y_test, loss):
    reference = None
    for name, timing in result.timings.items():
        model = timing.result
        accuracy = np.mean(model.predict(X_test) == y_test)
        line = f"  {name:<30} test accuracy {accuracy:.4f}"
        if hasattr(model, "n_iter_") and "LinearSVC" in name:
            primal = _primal(model, X, y, loss)
            reference = reference or primal
            line += (
                f", primal {primal:.6f} "
                f"({(primal - reference) / reference:+.1e} vs LIBLINEAR), "
                f"{int(np.max(model.n_iter_))} passes"
            )
        print(line)


# -- linear SVR -------------------------------------------------------------

SVR_PARAMS = {"C": 1.0, "epsilon": 0.5, "tol": 1e-4, "random_state": 0}


def friedman(n_train=20_000, n_test=5_000, random_state=0):
    """Friedman's first problem, standardised features; train and test."""
    X, y = make_friedman1(
        n_samples=n_train + n_test, n_features=10, noise=1.0,
        random_state=random_state,
    )  # fmt: skip
    scaler = StandardScaler().fit(X[:n_train])
    X = scaler.transform(X)
    return X[:n_train], y[:n_train], X[n_train:], y[n_train:]


def _svr_primal(model, X, y, loss):
    """1/2 ||w||^2 + 1/2 b^2 + C sum loss: the objective with B = 1."""
    w, b = model.coef_, float(np.ravel(model.intercept_)[0])
    excess = np.maximum(0.0, np.abs(X @ w + b - y) - SVR_PARAMS["epsilon"])
    penalty = excess if loss == "epsilon_insensitive" else excess**2
    return 0.5 * (w @ w + b * b) + SVR_PARAMS["C"] * penalty.sum()


def svr_contenders(X, y, loss, dual=True):
    """Name -> a function of no arguments that fits one LinearSVR."""
    params = dict(SVR_PARAMS, loss=loss, dual=dual)
    return {
        "LIBLINEAR (sklearn LinearSVR)": lambda: _quiet(
            lambda: svm.LinearSVR(**params).fit(X, y)
        ),
        "svmlib LinearSVR": lambda: _quiet(
            lambda: LinearSVR(**params).fit(X, y)
        ),
    }


def main_svr(repeats=3, threads=(None, 1)):
    X, y, X_test, y_test = friedman()
    print(
        f"\nFriedman #1: {X.shape[0]} training, {X_test.shape[0]} test "
        f"points, {X.shape[1]} features; {SVR_PARAMS}"
    )
    cases = [
        ("epsilon_insensitive", True),
        ("squared_epsilon_insensitive", True),
        ("squared_epsilon_insensitive", False),
    ]
    for loss, dual in cases:
        for n_threads in threads:
            shown = blas_threads() if n_threads is None else n_threads
            print(f"\n--- loss={loss}, dual={dual}, {shown} BLAS thread(s)")
            result = compare(
                svr_contenders(X, y, loss, dual),
                repeats=repeats,
                threads=n_threads,
            )
            print(result)
            reference = None
            for name, timing in result.timings.items():
                model = timing.result
                primal = _svr_primal(model, X, y, loss)
                reference = reference or primal
                print(
                    f"  {name:<30} test R^2 {model.score(X_test, y_test):.6f}"
                    f", primal {primal:.6f} "
                    f"({(primal - reference) / reference:+.1e} vs "
                    f"LIBLINEAR), {model.n_iter_} "
                    f"{'passes' if dual else 'Newton steps'}"
                )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--part", choices=("svc", "svr", "all"), default="all",
        help="LinearSVC on MNIST (svc), LinearSVR on Friedman's data (svr)",
    )  # fmt: skip
    arguments = parser.parse_args()
    if arguments.part in ("svc", "all"):
        main(arguments.repeats)
    if arguments.part in ("svr", "all"):
        main_svr(arguments.repeats)
