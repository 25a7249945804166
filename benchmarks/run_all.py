"""Run every benchmark in one process.

The solver table, the full-size ratio, the scaling table.

Run:  SVMLIB_DATA_DIR=../shared/data python benchmarks/run_all.py
"""

import scaling
import smo_vs_sklearn
import solvers

if __name__ == "__main__":
    print("=== solvers on 2000 images")
    solvers.main(repeats=3)
    print("\n=== svmlib.SVC against scikit-learn on 8379 images")
    smo_vs_sklearn.main(repeats=5)
    print("\n=== scaling")
    scaling.main()
