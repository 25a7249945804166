"""Benchmark: shrinking against no shrinking on the cached route.

MNIST even (+1) against odd (-1) digits, the first n images of one random
permutation of the training set (as ``scaling_all.py``), RBF gamma=0.02,
C=10, tol=1e-3, float32 pixels. svmlib's ``SVC`` with a ``cache_size`` a
quarter of the n x n float32 Gram matrix (so the cached route:
:class:`svmlib.gram.CachedGram`), with ``shrinking=True`` and
``shrinking=False``, timed by :func:`svmlib.timing.compare` (the two
alternate within each round: a warm-up round, then the median of
``--repeats`` rounds), BLAS threads pinned and printed, with the load
average before and after each size (the machine is shared). For each fit
it also prints the steps, the kernel columns computed (misses) and served
from the cache (hits), and the support vectors.

Run:  SVMLIB_DATA_DIR=../shared/data python benchmarks/shrinking.py \
          --sizes 5000 10000 20000 | tee benchmarks/results/shrinking.txt
"""

import argparse
import datetime
import os
import platform
import subprocess
from pathlib import Path

import numpy as np
from _common import add_timing_options
from scaling_all import GAMMA, TOL, C, even_odd

import svmlib
from svmlib import SVC
from svmlib.gram import CachedGram
from svmlib.timing import compare

SIZES = (5000, 10000, 20000)


def commit():
    """The short commit, and whether the tracked files differ from it."""
    where = Path(__file__).parent

    def git(*args):
        return subprocess.run(
            ["git", *args], capture_output=True, text=True, cwd=where
        ).stdout.strip()

    dirty = git("status", "--porcelain", "--untracked-files=no", ":/svmlib")
    short = git("rev-parse", "--short", "HEAD")
    return short + (" (svmlib/ with uncommitted changes)" if dirty else "")


class Counted:
    """A fit that records the Gram object's hits and misses."""

    def __init__(self, model):
        self.model = model
        self.stats = None

    def __call__(self):
        grams = []
        original = CachedGram.__init__

        def spy(gram, *args, **kwargs):
            original(gram, *args, **kwargs)
            grams.append(gram)

        CachedGram.__init__ = spy
        try:
            self.model.fit(*self.data)
        finally:
            CachedGram.__init__ = original
        gram = grams[0]
        self.stats = (
            int(np.sum(self.model.n_iter_)),
            gram.hits,
            gram.misses,
            int(self.model.support_.size),
            getattr(gram, "extended", 0),
        )
        return self.model


def main(sizes=SIZES, repeats=3, threads=1, warmup=1):
    print(
        f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, "
        f"commit {commit()}, svmlib {svmlib.__version__}, "
        f"numpy {np.__version__}, {platform.machine()}, "
        f"{os.cpu_count()} cores"
    )
    print(
        f"MNIST even vs odd, RBF gamma={GAMMA}, C={C}, tol={TOL}, float32; "
        "cache = 1/4 of the Gram matrix"
    )
    X_all, y_all = even_odd()
    for n in sizes:
        X, y = X_all[:n], y_all[:n]
        quarter = 0.25 * n * n * X.itemsize / 2**20
        fits = {}
        for shrinking in (True, False):
            name = "shrinking" if shrinking else "no shrinking"
            fits[name] = Counted(
                SVC(
                    C=C, gamma=GAMMA, tol=TOL, cache_size=quarter,
                    shrinking=shrinking,
                )
            )  # fmt: skip
            fits[name].data = (X, y)
        print(f"\nn = {n}, cache_size = {quarter:.1f} MiB")
        print(f"load average before: {os.getloadavg()}")
        comparison = compare(
            fits,
            baseline="no shrinking",
            repeats=repeats,
            warmup=warmup,
            threads=threads,
        )
        print(f"load average after:  {os.getloadavg()}")
        print(comparison)
        for name, fit in fits.items():
            steps, hits, misses, n_sv, extended = fit.stats
            print(
                f"  {name}: {steps} steps, {misses} columns computed, "
                f"{extended} extended, {hits} from the cache, "
                f"{n_sv} support vectors"
            )
        speedup = 1 / comparison.ratio("shrinking")
        print(
            f"shrinking is {speedup:.2f} times as fast as no shrinking",
            flush=True,
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_timing_options(parser, repeats=3)
    parser.add_argument(
        "--sizes", type=int, nargs="+", default=SIZES, help="sizes n"
    )
    parser.add_argument(
        "--warmup", type=int, default=1, help="warm-up rounds (default 1)"
    )
    arguments = parser.parse_args()
    main(
        arguments.sizes, arguments.repeats, arguments.threads,
        arguments.warmup,
    )  # fmt: skip
