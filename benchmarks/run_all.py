"""Run every benchmark in one process.

The solver table, the full-size ratio, the scaling table, the scaling from
500 to 30000 MNIST images (benchmarks/scaling_all.py, printed only: its
CSV, which the chapter reads, is written by running that script with
--csv), the linear SVMs (benchmarks/linear.py; left out by --quick),
svmlib against every peer (benchmarks/peers.py, at one BLAS thread and at
all cores whatever --threads; the optional peers of
benchmarks/requirements.txt are skipped if not installed); every timing
from svmlib.timing (a warm-up, then the median of the repeats, BLAS
threads pinned and printed, ratios measured in the same run).

Run:  SVMLIB_DATA_DIR=../shared/data python benchmarks/run_all.py
      (options: --threads T (default 1); --quick for small sizes, a check
      that everything runs in a minute or two, not a measurement to quote)
"""

import argparse

import linear
import peers
import scaling
import scaling_all
import smo_vs_sklearn
import solvers
from _common import DEFAULT_THREADS

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--threads",
        type=int,
        default=DEFAULT_THREADS,
        help=f"BLAS threads, pinned while timing (default {DEFAULT_THREADS})",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="small sizes: 500 images for the solvers and the peers, 1000 "
        "for svmlib against sklearn, 250 to 2000 for the scaling, 500 to "
        "4000 for the scaling to all images",
    )
    arguments = parser.parse_args()
    threads, quick = arguments.threads, arguments.quick
    n_solvers = 500 if quick else solvers.N
    print(f"=== solvers on {n_solvers} images")
    solvers.main(repeats=3, threads=threads, n=n_solvers)
    n_full = 1000 if quick else None
    on = f"the first {n_full}" if quick else "all the training"
    print(f"\n=== svmlib.SVC against scikit-learn on {on} images")
    smo_vs_sklearn.main(repeats=5, threads=threads, n=n_full)
    print("\n=== scaling")
    sizes = (250, 500, 1000, 2000) if quick else scaling.SIZES
    scaling.main(repeats=3, threads=threads, sizes=sizes)
    sizes = (500, 1000, 2000, 4000) if quick else scaling_all.SIZES
    print(f"\n=== scaling, even vs odd digits, n = {sizes[0]} to {sizes[-1]}")
    scaling_all.main(repeats=3, threads=threads, sizes=sizes, csv_path=None)
    print("\n=== linear SVMs")
    if quick:
        print("(left out by --quick: benchmarks/linear.py has no small size)")
    else:
        linear.main(repeats=3, threads=(threads,))
    n_peers = 500 if quick else None
    on = f"the first {n_peers}" if quick else "all the training"
    print(f"\n=== svmlib against every peer on {on} images")
    peers.main(repeats=3, n=n_peers)
