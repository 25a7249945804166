"""The RBF Gram matrix's elementwise work: whole-matrix vs row blocks.

svmlib.kernels computes exp(-gamma ||x_i - z_j||^2) from the inner
products in row blocks that stay in cache, shared among BLAS's threads on
large matrices (issue 27). This script times, in the same run and
alternately (svmlib.timing.compare), the elementwise work on the inner
products of a stratified MNIST sample (float32): the previous
whole-matrix NumPy operations (one pass over memory per operation)
against svmlib's, at 1 and 2 BLAS threads, checks that the values are
bitwise the same, and times the whole rbf_kernel and X @ X.T (NumPy calls
BLAS's symmetric rank-k update, syrk, when both operands are X) against
X @ Y.T with Y a copy of X (the general product, gemm). The machine may
be shared: read the ratios, not the absolute times.

Run:  python benchmarks/rbf_elementwise.py [--n 4000] [--repeats 5]
"""

import argparse
import os
import sys

import numpy as np

from svmlib.kernels import RBF, rbf_kernel, squared_norms
from svmlib.timing import compare

sys.path.insert(0, os.path.dirname(__file__))
from cores import training_set  # noqa: E402

GAMMA = 0.02


def whole_matrix(P, x_sq, gamma):
    """The previous code: each operation over the whole matrix."""
    P *= -2.0
    P += x_sq[:, None]
    P += x_sq[None, :]
    np.maximum(P, 0.0, out=P)
    P *= -gamma
    return np.exp(P, out=P)


def main(n, repeats):
    X, _ = training_set(n)
    X = np.ascontiguousarray(X)
    P0 = X @ X.T
    x_sq = squared_norms(X)
    kernel = RBF(gamma=GAMMA)
    Y = X.copy()
    print(
        f"MNIST sample: {X.shape} {X.dtype}; load average "
        f"{', '.join(f'{v:.2f}' for v in os.getloadavg())}"
    )
    same = np.array_equal(
        whole_matrix(P0.copy(), x_sq, GAMMA),
        kernel.from_inner_products(P0.copy(), x_sq, x_sq),
    )
    print(f"row blocks give bitwise the values of whole-matrix ops: {same}")
    for threads in (1, 2):
        comparison = compare(
            {
                "whole-matrix ops": lambda: whole_matrix(
                    P0.copy(), x_sq, GAMMA
                ),
                "row blocks (svmlib)": lambda: kernel.from_inner_products(
                    P0.copy(), x_sq, x_sq
                ),
                "copy of P alone": lambda: P0.copy(),
                "rbf_kernel(X)": lambda: rbf_kernel(X, gamma=GAMMA),
                "X @ X.T (syrk)": lambda: X @ X.T,
                "X @ Y.T (gemm)": lambda: X @ Y.T,
            },
            repeats=repeats,
            threads=threads,
        )
        print(f"--- {comparison.timings['copy of P alone'].threads} BLAS "
              "thread(s)")  # fmt: skip
        print(comparison)
        ratio = comparison.ratio("row blocks (svmlib)", "whole-matrix ops")
        print(f"ratio row blocks / whole-matrix ops: {ratio:.3f}")
        ratio = comparison.ratio("X @ X.T (syrk)", "X @ Y.T (gemm)")
        print(f"ratio syrk / gemm: {ratio:.3f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=4000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    main(args.n, args.repeats)
