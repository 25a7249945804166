"""Benchmark: fit time against n for svmlib's SMO and scikit-learn.

svmlib runs twice, with the dense and with the cached Gram matrix. MNIST 3
vs 8, RBF sigma=5 (gamma=0.02), C=10, training sets of 500 to 8379 images
(prefixes of the case study's training split). The cached runs get a column
cache of a quarter of the Gram matrix. Prints one row per n and the fitted
log-log slopes.

Run:  SVMLIB_DATA_DIR=../shared/data python benchmarks/scaling.py
"""

import numpy as np
from _common import mnist_3_vs_8, timed
from sklearn.svm import SVC as SklearnSVC

from svmlib import SVC

SIGMA, C = 5.0, 10.0
SIZES = (500, 1000, 2000, 4000, 8379)


def main():
    X_train, y_train, _, _ = mnist_3_vs_8()
    print(
        f"{'n':>6} {'svmlib dense (s)':>17} {'svmlib cached (s)':>18} "
        f"{'sklearn (s)':>12} {'dense/sklearn':>14}"
    )
    times = {"dense": [], "cached": [], "sklearn": []}
    for n in SIZES:
        X, y = X_train[:n], y_train[:n]
        quarter_mib = 0.25 * n * n * 4 / 2**20
        times["dense"].append(timed(SVC(C=C, sigma=SIGMA).fit, X, y)[0])
        times["cached"].append(
            timed(SVC(C=C, sigma=SIGMA, cache_size=quarter_mib).fit, X, y)[0]
        )
        times["sklearn"].append(
            timed(SklearnSVC(C=C, gamma=1 / (2 * SIGMA**2)).fit, X, y)[0]
        )
        row = [times[key][-1] for key in ("dense", "cached", "sklearn")]
        print(
            f"{n:>6} {row[0]:>17.3f} {row[1]:>18.3f} {row[2]:>12.3f} "
            f"{row[0] / row[2]:>14.3f}"
        )
    slopes = {
        key: np.polyfit(np.log(SIZES), np.log(values), 1)[0]
        for key, values in times.items()
    }
    print(
        "log-log slopes: "
        + ", ".join(f"{key} {slope:.2f}" for key, slope in slopes.items())
    )


if __name__ == "__main__":
    main()
