"""Benchmark: virtual support vectors on all of MNIST (svmlib.SVC).

Schoelkopf, Burges and Vapnik (1996) and DeCoste and Schoelkopf (2002):
fit an SVM, keep its support vectors, make "virtual" support vectors by
translating each of them by one pixel (4 directions, or 8 with the
diagonals; the emptied row or column is filled with background, 0), and
fit again on the support vectors and their translates. The second fit sees
the invariance to small shifts that the first could only learn from
examples, and it trains on far fewer points than all the virtual examples
of the whole training set would make.

The setting: the 60000 official training images and the 10000 test images
(pixels in [0, 1]), deskewed by their second moments
(``svmlib.datasets.deskew``, as LeCun et al.'s and DeCoste and
Schoelkopf's best SVMs; ``--no-deskew`` for the raw images), RBF kernel
with C=10 and gamma=0.02 (those of benchmarks/mnist_all.py, a point of the
flat region of the all-of-MNIST chapter's validation grid), tol=1e-3,
one-vs-one (45 machines) run in parallel (``n_jobs=-1``). Both fits are
timed once (``svmlib.timing.time_once``: a fit takes minutes on two shared
cores, so a single run, not a median; the load average is printed before
each fit).
Printed: both test errors, the number of training points of each fit,
both fit times, CPUs, joblib jobs and BLAS threads.

Run:  SVMLIB_DATA_DIR=../shared/data python benchmarks/mnist_virtual_sv.py
      (options: --directions 4|8 (default 4), --no-deskew, --C, --gamma,
      --n N for a stratified sample of N training images (a quick check),
      --save to write the output and a JSON summary to
      benchmarks/results/mnist_virtual_sv[_8][_n<N>].{txt,json}
      with the commit it ran at and the date)
Target: test error <= 0.8% (LeCun et al.'s table: virtual SVMs 0.8%,
0.68% and 0.56% with a polynomial kernel of degree 9).
"""

import argparse
import datetime
import json
import os
import subprocess
import sys
from pathlib import Path

import joblib
import numpy as np
from sklearn.model_selection import train_test_split

from svmlib import SVC
from svmlib.datasets import deskew, load_mnist
from svmlib.timing import blas_threads, time_once

TOL, SIDE = 1e-3, 28
RESULTS = Path(__file__).resolve().parent / "results"
#: (rows down, columns right) of the one-pixel translations
SHIFTS = {
    4: [(-1, 0), (1, 0), (0, -1), (0, 1)],
    8: [
        (dr, dc)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr, dc) != (0, 0)
    ],
}


def translate(X, rows, columns):
    """Images (one per row of X, 28 x 28) moved by whole pixels, 0-filled."""
    images = X.reshape(-1, SIDE, SIDE)
    moved = np.zeros_like(images)
    src_r = slice(max(-rows, 0), SIDE - max(rows, 0))
    dst_r = slice(max(rows, 0), SIDE - max(-rows, 0))
    src_c = slice(max(-columns, 0), SIDE - max(columns, 0))
    dst_c = slice(max(columns, 0), SIDE - max(-columns, 0))
    moved[:, dst_r, dst_c] = images[:, src_r, src_c]
    return moved.reshape(len(X), -1)


def virtual_examples(X, y, directions):
    """X and y with each image's one-pixel translates appended."""
    shifts = SHIFTS[directions]
    X_virtual = np.concatenate(
        [X] + [translate(X, r, c) for r, c in shifts], axis=0
    )
    return X_virtual, np.tile(y, len(shifts) + 1)


def commit():
    """The commit the run starts at, and whether this script differs."""
    root = Path(__file__).resolve().parent.parent

    def git(*args):
        return subprocess.run(
            ["git", *args], cwd=root, capture_output=True, text=True
        ).stdout.strip()

    changed = bool(git("status", "--porcelain", "--", __file__))
    return git("rev-parse", "HEAD"), changed


def main(C, gamma, directions, use_deskew, n, save):
    lines = []

    def say(text=""):
        print(text, flush=True)
        lines.append(text)

    head, script_changed = commit()
    started = datetime.datetime.now(datetime.UTC)
    say(
        f"commit {head}{' (this script modified)' if script_changed else ''}"
        f"; started {started:%Y-%m-%d %H:%M} UTC"
    )
    X_train, y_train = load_mnist(subset="train")
    X_test, y_test = load_mnist(subset="test")
    if n is not None and n < len(y_train):
        X_train, _, y_train, _ = train_test_split(
            X_train, y_train, train_size=n, stratify=y_train, random_state=0
        )
    if use_deskew:
        X_train, X_test = deskew(X_train), deskew(X_test)
    images = "deskewed" if use_deskew else "raw"
    say(
        f"MNIST, ten digits: {len(y_train)} training and {len(y_test)} test "
        f"images ({images}), {X_train.shape[1]} features, {X_train.dtype}; "
        f"RBF C={C:g} gamma={gamma:g} tol={TOL:g}; one-vs-one, n_jobs=-1"
    )
    say(
        f"CPUs {os.cpu_count()}, joblib jobs for n_jobs=-1: "
        f"{joblib.cpu_count()}, BLAS threads in this process: "
        f"{blas_threads()}; load average {os.getloadavg()[0]:.2f} "
        "(other processes share the machine)"
    )

    first = SVC(C=C, gamma=gamma, tol=TOL, n_jobs=-1)
    first_fit = time_once(lambda: first.fit(X_train, y_train))
    first_error = 100 * float(np.mean(first.predict(X_test) != y_test))
    support = first.support_
    say(
        f"first fit, {len(y_train)} images: {first_fit}; "
        f"{len(support)} support vectors; converged {first.converged_}; "
        f"test error {first_error:.2f}%"
    )

    X_second, y_second = virtual_examples(
        X_train[support], y_train[support], directions
    )
    say(
        f"virtual support vectors: each support vector translated by one "
        f"pixel in {directions} directions: {len(y_second)} training points "
        f"({len(support)} support vectors + "
        f"{len(y_second) - len(support)} virtual)"
    )
    say(f"load average {os.getloadavg()[0]:.2f}")
    second = SVC(C=C, gamma=gamma, tol=TOL, n_jobs=-1)
    second_fit = time_once(lambda: second.fit(X_second, y_second))
    predicted = second.predict(X_test)
    second_errors = int(np.sum(predicted != y_test))
    second_error = 100 * second_errors / len(y_test)
    say(
        f"second fit, {len(y_second)} points: {second_fit}; "
        f"{len(second.support_)} support vectors; converged "
        f"{second.converged_}; test error {second_error:.2f}% "
        f"({second_errors} of {len(y_test)} images)"
    )
    say(
        f"test error: first fit {first_error:.2f}%, with virtual support "
        f"vectors {second_error:.2f}%   (target <= 0.8%)"
    )
    finished = datetime.datetime.now(datetime.UTC)
    say(f"finished {finished:%Y-%m-%d %H:%M} UTC")
    if not save:
        return
    summary = {
        "commit": head,
        "script_modified": script_changed,
        "started_utc": started.isoformat(timespec="seconds"),
        "finished_utc": finished.isoformat(timespec="seconds"),
        "command": " ".join(sys.argv),
        "images": images,
        "kernel": "rbf",
        "C": C,
        "gamma": gamma,
        "tol": TOL,
        "directions": directions,
        "n_train": len(y_train),
        "n_test": len(y_test),
        "cpus": os.cpu_count(),
        "joblib_jobs": joblib.cpu_count(),
        "first_fit_s": first_fit.median,
        "first_n_support": len(support),
        "first_test_error_pct": first_error,
        "second_n_train": len(y_second),
        "second_fit_s": second_fit.median,
        "second_n_support": len(second.support_),
        "second_test_errors": second_errors,
        "second_test_error_pct": second_error,
    }
    stem = "mnist_virtual_sv" + ("" if directions == 4 else "_8")
    stem += "" if n is None else f"_n{n}"
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{stem}.txt").write_text("\n".join(lines) + "\n")
    (RESULTS / f"{stem}.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(f"saved {RESULTS / stem}.txt and .json")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--C", type=float, default=10.0)
    parser.add_argument("--gamma", type=float, default=0.02)
    parser.add_argument("--directions", type=int, choices=(4, 8), default=4)
    parser.add_argument(
        "--no-deskew", action="store_true", help="raw images, not deskewed"
    )
    parser.add_argument(
        "--n", type=int, default=None, help="a sample of N training images"
    )
    parser.add_argument(
        "--save", action="store_true", help="write benchmarks/results/..."
    )
    arguments = parser.parse_args()
    main(
        arguments.C,
        arguments.gamma,
        arguments.directions,
        not arguments.no_deskew,
        arguments.n,
        arguments.save,
    )
