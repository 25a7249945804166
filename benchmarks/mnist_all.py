"""Benchmark: all of MNIST, ten digits, svmlib.SVC against scikit-learn's SVC.

The setting of the book's chapter *Case study: all of MNIST*: the 60000
official training images (pixels in [0, 1]), the 10000 test images, RBF
kernel with C=10 and gamma=0.02 unless --C/--gamma say otherwise, tol=1e-3,
one-vs-one (45 machines) on both sides, the same memory budget for kernel
values (cache_size=1024 MiB). Fits are timed by svmlib.timing.compare in
the same run, alternately (by default no warm-up round: a fit takes minutes,
and the first round is as warm as the others; --warmup 1 adds one), then
the median of the repeats, BLAS threads pinned and printed; predictions of
the test images likewise. Also printed: test errors, how often the two
models agree, support vectors, whether each converged, and the peak of
NumPy's memory (tracemalloc) during one more fit of svmlib's model
(LIBSVM allocates in C, out of tracemalloc's sight, so it has no such
number).

Run:  SVMLIB_DATA_DIR=../shared/data python benchmarks/mnist_all.py
      (options: --repeats N (default 3), --threads T (default 1),
      --warmup W (default 0), --n N for a stratified sample of N training
      images, a quick check; scikit-learn's fit takes about three minutes
      on all 60000 images, so the default run takes about 15 minutes)
Targets: svmlib's fit <= 60 s and <= 0.2 x scikit-learn's; test error at
or below LeCun et al.'s 1.4% with the chapter's validation-chosen setting.
"""

import argparse
import tracemalloc

import numpy as np
from _common import add_timing_options
from sklearn.model_selection import train_test_split
from sklearn.svm import SVC as SklearnSVC

from svmlib import SVC
from svmlib.datasets import load_mnist
from svmlib.timing import compare, time_once

TOL, CACHE_SIZE = 1e-3, 1024  # cache_size in MiB, for both libraries


def training_set(n, random_state=0):
    """All training images, or a stratified sample of n of them."""
    X, y = load_mnist(subset="train")
    if n is None or n >= len(y):
        return X, y
    X, _, y, _ = train_test_split(
        X, y, train_size=n, stratify=y, random_state=random_state
    )
    return X, y


def peak_memory_of_fit(model, X, y):
    """Peak bytes NumPy allocated (tracemalloc) during one fit."""
    tracemalloc.start()
    try:
        time_once(lambda: model.fit(X, y))
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def main(C, gamma, repeats, threads, warmup, n):
    X_train, y_train = training_set(n)
    X_test, y_test = load_mnist(subset="test")
    print(
        f"MNIST, ten digits: {len(y_train)} training and {len(y_test)} test "
        f"images, {X_train.shape[1]} features, {X_train.dtype}; RBF C={C:g} "
        f"gamma={gamma:g} tol={TOL:g}; one-vs-one; cache_size={CACHE_SIZE} "
        "MiB for both"
    )
    models = {
        "svmlib.SVC": SVC(C=C, gamma=gamma, tol=TOL, cache_size=CACHE_SIZE),
        "sklearn SVC": SklearnSVC(
            C=C, gamma=gamma, tol=TOL, cache_size=CACHE_SIZE
        ),
    }
    timing = dict(repeats=repeats, threads=threads, warmup=warmup)
    fits = compare(
        {
            name: lambda m=m: m.fit(X_train, y_train)
            for name, m in models.items()
        },
        baseline="sklearn SVC",
        **timing,
    )
    print("fit:")
    print(fits)
    predictions = compare(
        {name: lambda m=m: m.predict(X_test) for name, m in models.items()},
        baseline="sklearn SVC",
        **timing,
    )
    print("predict the test images:")
    print(predictions)
    ours, theirs = (predictions.timings[k].result for k in models)
    for name, predicted in zip(models, (ours, theirs), strict=True):
        print(f"{name}: test error {np.mean(predicted != y_test):.2%}")
    print(f"the two agree on {np.mean(ours == theirs):.4%} of the test images")
    svmlib_model, sklearn_model = models.values()
    print(
        f"support vectors: svmlib {len(svmlib_model.support_)}, sklearn "
        f"{sklearn_model.n_support_.sum()}; converged: svmlib "
        f"{svmlib_model.converged_}, sklearn fit_status_ "
        f"{sklearn_model.fit_status_} (0: converged)"
    )
    peak = peak_memory_of_fit(SVC(C=C, gamma=gamma, tol=TOL), X_train, y_train)
    print(f"svmlib.SVC peak NumPy memory during a fit: {peak / 2**30:.2f} GiB")
    print(
        f"fit-time ratio svmlib / sklearn (medians, same run): "
        f"{fits.ratio('svmlib.SVC'):.3f}   (target <= 0.2); svmlib's median "
        f"fit {fits.timings['svmlib.SVC'].median:.1f} s   (target <= 60 s)"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_timing_options(parser, repeats=3)
    parser.add_argument("--C", type=float, default=10.0)
    parser.add_argument("--gamma", type=float, default=0.02)
    parser.add_argument(
        "--warmup", type=int, default=0, help="warm-up rounds (default 0)"
    )
    parser.add_argument(
        "--n", type=int, default=None, help="a sample of N training images"
    )
    arguments = parser.parse_args()
    main(
        arguments.C,
        arguments.gamma,
        arguments.repeats,
        arguments.threads,
        arguments.warmup,
        arguments.n,
    )
