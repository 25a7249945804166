"""Two versions of svmlib against scikit-learn, in the same run.

For the small problems of ``small_problems.py`` (digits with RBF and
scikit-learn's defaults; raw breast_cancer, linear kernel, C=1), runs
rounds of child processes, alternating the svmlib of this tree ("after")
with an older one ("before": a folder that holds an ``svmlib`` package,
for example ``git archive <commit> svmlib | tar -x -C /tmp/old``). Each
child fits once to warm up (numba compiles or loads its cache), then times
``--repeats`` fits of svmlib and of scikit-learn's SVC alternately, one
BLAS thread, and prints the ratio of the medians. The script prints each
round's ratios and their medians: before and after measured in the same
run, under the same load (printed; the machine may be shared).

Run:  python benchmarks/before_after.py --old /tmp/old [--rounds 3]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

CHILD = r"""
import json, statistics, sys, time, warnings
import svmlib
from sklearn.datasets import load_breast_cancer, load_digits
from sklearn.svm import SVC as SklearnSVC
from svmlib import SVC
from svmlib.timing import pinned_threads
warnings.simplefilter("ignore")
repeats = int(sys.argv[1])
problems = {
    "digits": (load_digits(return_X_y=True), {}),
    "breast_cancer linear C=1": (
        load_breast_cancer(return_X_y=True), {"kernel": "linear", "C": 1.0}
    ),
}
out = {"svmlib": svmlib.__file__}
with pinned_threads(1) as threads:
    out["threads"] = threads
    for name, ((X, y), params) in problems.items():
        SVC(**params).fit(X, y)
        SklearnSVC(**params).fit(X, y)
        ours, theirs = [], []
        for _ in range(repeats):
            start = time.perf_counter()
            SVC(**params).fit(X, y)
            ours.append(time.perf_counter() - start)
            start = time.perf_counter()
            SklearnSVC(**params).fit(X, y)
            theirs.append(time.perf_counter() - start)
        out[name] = [statistics.median(ours), statistics.median(theirs)]
print(json.dumps(out))
"""


def child(path, repeats):
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = path
    here = os.path.dirname(os.path.abspath(__file__))
    result = subprocess.run(
        [sys.executable, "-c", CHILD, str(repeats)],
        env=env,
        cwd="/" if path is not None else os.path.dirname(here),
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(result.stdout.strip().splitlines()[-1])


def main(old, rounds, repeats):
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    print(f"os.cpu_count()={os.cpu_count()}; load average {load}")
    ratios = {}
    for round_ in range(rounds):
        for label, path in (("before", old), ("after", None)):
            out = child(path, repeats)
            if round_ == 0:
                print(f"{label}: {out['svmlib']} ({out['threads']} BLAS "
                      "thread)")  # fmt: skip
            for name, times in out.items():
                if name in ("svmlib", "threads"):
                    continue
                ours, theirs = times
                ratios.setdefault((name, label), []).append(ours / theirs)
                print(
                    f"round {round_ + 1} {label:<6} {name:<26} svmlib "
                    f"{ours:.3f} s, scikit-learn {theirs:.3f} s, "
                    f"ratio {ours / theirs:.3f}"
                )
    print("median ratio svmlib / scikit-learn over the rounds:")
    for (name, label), values in ratios.items():
        print(f"  {name:<26} {label:<6} {statistics.median(values):.3f}")
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    print(f"load average at the end {load}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    main(args.old, args.rounds, args.repeats)
