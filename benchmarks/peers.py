"""Benchmark: svmlib against every peer, the same work on each side.

MNIST 3 vs 8 as in the case study (8379 training images, scaled as in
_common.mnist_3_vs_8), labels -1/+1, tol 1e-3 everywhere, three
configurations timed by svmlib.timing.compare in one run (a warm-up round,
then the median of --repeats, contenders alternating):

* "dense": RBF C=10 gamma=0.02. svmlib.SVC with its default cache_size
  (1024 MiB: the whole float32 Gram matrix, one BLAS product), scikit-learn's
  SVC with the same cache_size, LIBSVM 3.37's own binding (libsvm-official,
  ``-c 10 -g 0.02 -m 1024 -e 0.001 -h 1 -q``) and ThunderSVM's CPU build.
* "cached": the same with cache_size a quarter of the float32 Gram matrix
  (n^2 bytes, in MiB, rounded up) for svmlib, scikit-learn and LIBSVM, so
  that svmlib takes its cached route (kernel columns on demand, LRU).
* "linear": linear kernel, C=0.01: svmlib.LinearSVC (dual coordinate
  descent) and LIBLINEAR (scikit-learn's LinearSVC, hinge loss, dual=True),
  both with tol=0.1 as in benchmarks/linear.py, against the kernel SMO of
  svmlib.SVC, scikit-learn's SVC and LIBSVM with ``-t 0``.

Each configuration runs at one thread and at all cores (--threads-list),
the same count for every kind of thread: BLAS threads (svmlib's Gram matrix
and kernel columns) pinned by svmlib.timing; OpenMP threads pinned with
threadpoolctl (libsvm-official is compiled with OpenMP, which computes
LIBSVM's kernel columns in parallel); ThunderSVM's n_jobs (OpenMP too).
scikit-learn's copies of LIBSVM and LIBLINEAR use neither: they run on one
thread at every count. LIBSVM's problem (svm_problem) is built once,
outside the timing: only svm_train is timed.

Printed per contender: the dtype of its kernel values (svmlib float32; the
LIBSVMs compute in double and cache float, Qfloat; ThunderSVM float32), its
cache, median fit time and ratio to svmlib, whether it converged and what
was checked (svmlib.SVC: converged_ and no ConvergenceWarning; the
LinearSVCs: n_iter_ < max_iter; scikit-learn's SVC: fit_status_ == 0, no
ConvergenceWarning, max_iter=-1 is no cap; LIBSVM exposes neither a status
nor an iteration count and stops at -e unless it meets its cap of
max(10^7, 100 n) steps, reported only on stdout, silenced by -q, so it
counts as converged when the KKT violation below is <= tol; ThunderSVM: its
train-succeeded flag, with no iteration cap); then, from each model's dual
coefficients on one float64 Gram matrix, the final KKT violation m(alpha) -
M(alpha) (svmlib.duality.max_violation; the solvers stop when it is <= tol,
each on its own kernel values) and the dual objective's relative difference
to svmlib.SVC's; the number of support vectors, test accuracy and
test-prediction agreement with svmlib. The LinearSVCs have no dual
coefficients of this problem (their bias is regularised and there is no
equality constraint): for them the primal objective of benchmarks/linear.py
is compared instead.

ThunderSVM (thundersvm-cpu 0.3.3) has no kernel cache parameter (its
cache_size is accepted and ignored); max_mem_size caps its whole working
memory, and is left unlimited in both configurations. Optional peers that
are not installed are reported and skipped (a row "not installed" in the
CSV).

With --out DIR the run is stored: DIR/peers.txt holds everything printed,
under comment lines that record when (UTC), on what machine, at which
commit (and which files of svmlib/ and benchmarks/ had uncommitted
changes), with which versions of every peer, which command and which
thread counts it ran, and the load average before and after (the machine
may be shared); DIR/peers.csv holds one row per contender, configuration
and thread count, under the same comment lines. The chapter *Scaling up*
reads benchmarks/results/peers.csv.

Run:  SVMLIB_DATA_DIR=../shared/data python benchmarks/peers.py \
          --out benchmarks/results
      (options: --repeats N (default 3), --configs dense cached linear,
      --threads-list 1 2 (default: 1 and all cores), --n N (first N
      training images only))
"""

import argparse
import contextlib
import csv
import datetime
import importlib.metadata
import math
import os
import platform
import subprocess
import sys
import warnings
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np
from _common import full_alpha, mnist_3_vs_8, plus_minus
from linear import _primal
from linear import contenders as linear_contenders
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC as SklearnSVC
from threadpoolctl import threadpool_limits

from svmlib import SVC
from svmlib.duality import dual_objective, error_cache, max_violation
from svmlib.kernels import rbf_kernel
from svmlib.timing import compare

try:
    from libsvm import svmutil
except ImportError:  # optional peer
    svmutil = None
try:
    import thundersvm
except ImportError:  # optional peer
    thundersvm = None

GAMMA, C_RBF, C_LINEAR, TOL = 0.02, 10.0, 0.01, 1e-3
DEFAULT_CACHE = 1024  # MiB: svmlib.SVC's default
CONFIGS = ("dense", "cached", "linear")
#: LIBSVM computes kernel values in double, caches them as float (Qfloat)
LIBSVM_DTYPE = "float64 kernel, float32 cache"
MISSING = "not installed (pip install -r benchmarks/requirements.txt)"
FIELDS = (
    "config", "threads", "contender", "status", "kernel_dtype", "cache",
    "median_s", "runs_s", "ratio_to_baseline", "baseline", "converged",
    "checked", "kkt_violation", "n_sv", "test_accuracy",
    "agreement_with_baseline", "objective_rel_diff",
)  # fmt: skip


@dataclass
class Entry:
    """One contender: how to fit it and how to read the fitted model."""

    fit: object
    kind: str  # svmlib, sklearn, libsvm, thunder, linear
    dtype: str
    cache: str
    C: float


def _recorded(fit):
    """Call fit(); return the model and whether it warned of convergence."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        model = fit()
    warned = any(issubclass(w.category, ConvergenceWarning) for w in caught)
    return model, warned


def _fit(estimator, X, y):
    return estimator.fit(X, y)


def _libsvm_options(C, cache, kernel):
    kernel_options = "-t 0" if kernel == "linear" else f"-t 2 -g {GAMMA:g}"
    return f"-s 0 {kernel_options} -c {C:g} -m {cache:g} -e {TOL:g} -h 1 -q"


def kernel_entries(X, y, C, cache, threads, kernel="rbf"):
    """svmlib.SVC, scikit-learn's SVC, LIBSVM and ThunderSVM, one kernel."""
    params = {"C": C, "kernel": kernel, "tol": TOL, "cache_size": cache}
    if kernel != "linear":
        params["gamma"] = GAMMA
    entries = {
        name: Entry(
            partial(_fit, estimator(**params), X, y),
            kind,
            dtype,
            f"cache_size={cache:g} MiB",
            C,
        )
        for name, estimator, kind, dtype in (
            ("svmlib.SVC", SVC, "svmlib", "float32"),
            ("sklearn SVC (LIBSVM)", SklearnSVC, "sklearn", LIBSVM_DTYPE),
        )
    }
    if svmutil is not None:
        problem = svmutil.svm_problem(y, X)
        options = _libsvm_options(C, cache, kernel)
        entries["LIBSVM 3.37 (libsvm-official)"] = Entry(
            lambda: svmutil.svm_train(problem, svmutil.svm_parameter(options)),
            "libsvm",
            LIBSVM_DTYPE,
            f"-m {cache:g} MiB",
            C,
        )
    if thundersvm is not None and kernel == "rbf":
        entries["ThunderSVM CPU"] = Entry(
            lambda: thundersvm.SVC(
                C=C, gamma=GAMMA, tol=TOL, n_jobs=threads
            ).fit(X, y),
            "thunder",
            "float32",
            f"no cache parameter; n_jobs={threads}",
            C,
        )
    return entries


def linear_entries(X, y, threads):
    """The LinearSVCs of benchmarks/linear.py and the kernel SMOs."""
    fits = linear_contenders(X, y, "hinge")
    entries = {
        name: Entry(fits[name], "linear", "float64", "no kernel", C_LINEAR)
        for name in ("svmlib.LinearSVC", "LIBLINEAR (sklearn LinearSVC)")
    }
    kernel = kernel_entries(X, y, C_LINEAR, DEFAULT_CACHE, threads, "linear")
    return {**entries, **kernel}


def _alpha(entry, model, n):
    """The full-length alpha of a fitted kernel model (None if it has none)."""
    if entry.kind == "svmlib":
        return model.alpha_
    if entry.kind in ("sklearn", "thunder"):
        return full_alpha(model.support_, model.dual_coef_, n)
    if entry.kind == "libsvm":
        support = np.asarray(model.get_sv_indices()) - 1  # 1-based
        coef = [row[0] for row in model.get_sv_coef()]
        return full_alpha(support, coef, n)
    return None


def _predict(entry, model, X):
    if entry.kind == "libsvm":
        labels, _, _ = svmutil.svm_predict(np.zeros(len(X)), X, model, "-q")
        return np.asarray(labels)
    return model.predict(X)


def _converged(entry, model, warned):
    """'yes'/'NO' and what was checked."""
    if entry.kind == "svmlib":
        ok = model.converged_ and not warned
        return ok, "converged_, no ConvergenceWarning"
    if entry.kind == "sklearn":
        ok = model.fit_status_ == 0 and not warned
        return ok, f"fit_status_={model.fit_status_}, no max_iter"
    if entry.kind == "libsvm":
        return None, "no status exposed: KKT violation <= tol"
    if entry.kind == "thunder":
        ok = model._train_succeed[0] != -1
        return ok, "train-succeeded flag, no iteration cap"
    ok = int(np.max(model.n_iter_)) < model.max_iter and not warned
    return ok, f"{int(np.max(model.n_iter_))} passes < {model.max_iter}"


def report(result, entries, K, X, y, X_test, y_test, warned):
    """Print one line block per contender, svmlib.SVC's dual as reference.

    Returns the contenders' rows for the CSV (see FIELDS; the caller adds
    the configuration and the thread count).
    """
    n = len(y)
    rows, W_reference, predictions = [], None, {}
    for name, timing in result.timings.items():
        entry, model = entries[name], timing.result
        alpha = _alpha(entry, model, n)
        predictions[name] = _predict(entry, model, X_test)
        W = gap = primal = None
        if alpha is not None:
            W = dual_objective(alpha, K, y)
            E = error_cache(alpha, K, y)
            gap = max_violation(alpha, y, entry.C, E)
            if entry.kind == "svmlib" and W_reference is None:
                W_reference = W
        elif entry.kind == "linear":
            primal = _primal(model, X, y, "hinge")
        rows.append((name, entry, model, alpha, W, gap, primal))
    svmlib_name = result.baseline
    primal_reference = None
    table = []
    for name, entry, model, alpha, W, gap, primal in rows:
        ok, checked = _converged(entry, model, warned[name])
        if ok is None:  # LIBSVM: judged by the violation it stops on
            ok = gap <= TOL * (1 + 1e-6)
        verdict = "yes" if ok else "NO"
        accuracy = np.mean(predictions[name] == y_test)
        agreement = np.mean(predictions[name] == predictions[svmlib_name])
        print(
            f"  {name}: {entry.dtype}, {entry.cache}, fit "
            f"{result.timings[name]}, x{result.ratio(name):.2f} svmlib"
        )
        timing = result.timings[name]
        table.append(
            {
                "contender": name, "status": "timed",
                "kernel_dtype": entry.dtype, "cache": entry.cache,
                "median_s": f"{timing.median:.4f}",
                "runs_s": " ".join(f"{t:.4f}" for t in timing.seconds),
                "ratio_to_baseline": f"{result.ratio(name):.4f}",
                "baseline": svmlib_name, "converged": verdict,
                "checked": checked,
                "kkt_violation": "" if gap is None else f"{gap:.3e}",
                "n_sv": "" if alpha is None else np.count_nonzero(alpha),
                "test_accuracy": f"{accuracy:.6f}",
                "agreement_with_baseline": f"{agreement:.6f}",
            }
        )  # fmt: skip
        line = f"    converged: {verdict} ({checked})"
        if gap is not None:
            line += f"; KKT violation m - M = {gap:.2e} (tol {TOL:g})"
        print(line)
        line = (
            f"    test accuracy {accuracy:.4%}, agreement with "
            f"{svmlib_name} {agreement:.4%}"
        )
        if alpha is not None:
            line = f"    {np.count_nonzero(alpha)} SVs, " + line.lstrip()
        print(line)
        if W is not None and W_reference is not None:
            relative = (W - W_reference) / abs(W_reference)
            print(
                f"    dual objective {W:.6f} ({relative:+.2e} vs svmlib.SVC)"
            )
            table[-1]["objective_rel_diff"] = f"{relative:+.3e}"
        if primal is not None:
            primal_reference = primal_reference or primal
            relative = (primal - primal_reference) / primal_reference
            print(
                f"    primal objective {primal:.6f} ({relative:+.2e} vs "
                f"{rows[0][0]}); no dual coefficients of the SVC problem"
            )
            table[-1]["objective_rel_diff"] = f"{relative:+.3e}"
    return table


def run_config(config, data, K, threads, repeats):
    """Time one configuration at one thread count and report it.

    Returns the rows for the CSV, one per contender, a peer that is not
    installed included (status "not installed", nothing timed).
    """
    X, y, X_test, y_test = data
    if config == "linear":
        entries = linear_entries(X, y, threads)
        baseline = "svmlib.LinearSVC"
        what = f"linear kernel, C={C_LINEAR:g}"
    else:
        cache = DEFAULT_CACHE
        if config == "cached":
            cache = math.ceil(len(y) ** 2 / 2**20)  # n^2 float32 / 4
        entries = kernel_entries(X, y, C_RBF, cache, threads)
        baseline = "svmlib.SVC"
        what = f"RBF C={C_RBF:g} gamma={GAMMA:g}, cache {cache} MiB"
    print(f"\n=== {config}: {what}; {threads} BLAS thread(s)")
    missing = []
    if svmutil is None:
        print(f"  LIBSVM (libsvm-official): {MISSING}")
        missing.append("LIBSVM 3.37 (libsvm-official)")
    else:
        print(
            f"  LIBSVM: {threads} OpenMP thread(s) (libsvm-official is "
            "built with OpenMP: kernel columns in parallel)"
        )
    if thundersvm is None and config != "linear":
        print(f"  ThunderSVM (thundersvm-cpu): {MISSING}")
        missing.append("ThunderSVM CPU")
    warned = {}

    def recording(name, fit):
        def call():
            model, warned[name] = _recorded(fit)
            return model

        return call

    # OpenMP: LIBSVM's kernel columns; ThunderSVM sets it from n_jobs
    with threadpool_limits(limits=threads, user_api="openmp"):
        result = compare(
            {name: recording(name, e.fit) for name, e in entries.items()},
            baseline=baseline,
            repeats=repeats,
            threads=threads,
        )
    rows = report(result, entries, K, X, y, X_test, y_test, warned)
    rows += [
        {"contender": name, "status": "not installed"} for name in missing
    ]
    for row in rows:
        row.update(config=config, threads=threads)
    return rows


def _version(distribution):
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def _git(*arguments):
    return subprocess.run(
        ["git", *arguments], capture_output=True, text=True,
        cwd=Path(__file__).parent,
    ).stdout.strip()  # fmt: skip


def provenance(threads_list, repeats):
    """Comment lines: when, where, at which commit, with what, and how."""
    root = _git("rev-parse", "--show-toplevel")
    changed = _git(
        "diff", "--name-only", "HEAD", "--", f"{root}/svmlib",
        f"{root}/benchmarks",
    ).split()  # fmt: skip
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    )
    versions = ", ".join(
        f"{name} {_version(name)}"
        for name in (
            "numpy", "scikit-learn", "svmlib", "libsvm-official",
            "thundersvm-cpu",
        )
    )  # fmt: skip
    return [
        f"date: {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC",
        f"machine: {cpu}, {os.cpu_count()} cores, {platform.machine()}, "
        f"{platform.system()}",
        f"python {platform.python_version()}, {versions}",
        f"commit: {_git('rev-parse', '--short', 'HEAD')}",
        "uncommitted changes in svmlib/ or benchmarks/: "
        + (", ".join(changed) if changed else "none"),
        f"command: python {' '.join(sys.argv)}",
        f"threads: {' and '.join(map(str, threads_list))} (BLAS and OpenMP "
        "alike, per configuration)",
        f"timing: svmlib.timing.compare, a warm-up round, then {repeats} "
        "timed rounds, median",
        "load average (1, 5, 15 min) at start: "
        + ", ".join(f"{x:.2f}" for x in os.getloadavg()),
    ]


class _Tee:
    """Write to several streams at once (the terminal and the log file)."""

    def __init__(self, *streams):
        self.streams = streams

    def write(self, text):
        for stream in self.streams:
            stream.write(text)

    def flush(self):
        for stream in self.streams:
            stream.flush()


def main(repeats=3, configs=CONFIGS, threads_list=None, n=None, out=None):
    """Every configuration at every thread count; n: first n images only.

    out: a folder to store peers.txt (the output) and peers.csv (the rows)
    in, each under the provenance lines; None stores nothing.
    """
    threads_list = threads_list or sorted({1, os.cpu_count() or 1})
    if out is None:
        return _run(repeats, configs, threads_list, n)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    header = [f"# {line}\n" for line in provenance(threads_list, repeats)]
    with open(out / "peers.txt", "w") as log:
        log.writelines(header)
        with contextlib.redirect_stdout(_Tee(sys.stdout, log)):
            rows = _run(repeats, configs, threads_list, n)
        end = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"# load average at end: {end}", file=log)
    with open(out / "peers.csv", "w", newline="") as table:
        table.writelines(header)
        table.write(f"# load average at end: {end}\n")
        writer = csv.DictWriter(table, FIELDS, restval="")
        writer.writeheader()
        writer.writerows(rows)
    return rows


def _run(repeats, configs, threads_list, n):
    """Run and print every configuration; return the CSV rows."""
    X, digits, X_test, digits_test = mnist_3_vs_8()
    X, digits = X[:n], digits[:n]
    y, y_test = plus_minus(digits), plus_minus(digits_test)
    print(
        f"MNIST 3 vs 8: {len(y)} training images, {X.shape[1]} features, "
        f"{X.dtype}; tol {TOL:g}; BLAS threads {threads_list}"
    )
    X64 = X.astype(np.float64)
    rows = []
    for config in configs:
        # one float64 Gram matrix for every model's KKT violation and W
        K = X64 @ X64.T if config == "linear" else rbf_kernel(X64, gamma=GAMMA)
        for threads in threads_list:
            data = (X, y, X_test, y_test)
            rows += run_config(config, data, K, threads, repeats)
        del K
    return rows


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--configs", nargs="+", choices=CONFIGS, default=list(CONFIGS)
    )
    parser.add_argument(
        "--threads-list",
        type=int,
        nargs="+",
        default=None,
        help="BLAS thread counts (default: 1 and all cores)",
    )
    parser.add_argument(
        "--n", type=int, default=None, help="first N training images only"
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="store peers.txt and peers.csv in this folder",
    )
    arguments = parser.parse_args()
    main(
        arguments.repeats,
        arguments.configs,
        arguments.threads_list,
        arguments.n,
        arguments.out,
    )
