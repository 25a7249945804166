"""Hidden checks of 07_multiclass.ipynb, judged outside the student's kernel.

Each check calls the student's functions in the sandbox on the inputs
below (plain data) and judges the returned numbers here, in the grader's
process, against svmlib's references (svmbook_classroom.checks;
instructors.md, "Writing a hidden check").
"""

import numpy as np
from sklearn.datasets import make_blobs
from sklearn.model_selection import train_test_split

from svmbook_classroom.checks import Check, Probe
from svmlib import SVC
from svmlib.multiclass import OneVsRest

# The notebook's data, made the same way as in its setup cell.
RANDOM_STATE = 0
C, SIGMA = 1.0, 1.0
CENTERS = [[-2.0, -1.0], [2.0, -1.0], [0.0, 2.2], [0.0, -0.2]]
X, y = make_blobs(
    400, centers=CENTERS, cluster_std=0.9, random_state=RANDOM_STATE
)
X_train, X_test, y_train, y_test = train_test_split(
    X, y, test_size=0.25, stratify=y, random_state=RANDOM_STATE
)
CLASSES = np.unique(y_train)

PAIRS3 = [(0, 1), (0, 2), (1, 2)]
PAIRS4 = [(a, b) for a in range(4) for b in range(a + 1, 4)]
DECISIONS4 = np.random.default_rng(1).normal(size=(50, len(PAIRS4)))

# svmlib's votes, run in the kernel in place of the student's `votes` when
# ovo_predict is graded (a mistake in `votes` costs no points there).
STAND_INS = """
import numpy as np
from svmlib.multiclass import class_pairs, ovo_votes


def votes(decisions, pairs, n_classes):
    pairs = [tuple(int(c) for c in pair) for pair in pairs]
    order = [pairs.index(tuple(pair)) for pair in class_pairs(n_classes)]
    decisions = np.asarray(decisions)[:, order]
    return ovo_votes(decisions, n_classes).astype(int)
"""


def expected_votes(decisions, pairs, n_classes):
    """Votes counted one decision at a time (a decision of 0 goes to b)."""
    counts = np.zeros((len(decisions), n_classes), dtype=int)
    for i, row in enumerate(np.asarray(decisions)):
        for column, (a, b) in enumerate(pairs):
            counts[i, a if row[column] > 0 else b] += 1
    return counts


def _labels(r, name):
    pred = np.asarray(r[name])
    assert pred.shape == (len(X_test),) and pred.dtype.kind in "iuf"
    return pred


def judge_ovr_predict(r):
    pred = _labels(r, "predict")
    assert set(np.unique(pred)) <= set(CLASSES)
    assert np.mean(pred == y_test) > 0.8
    reference = OneVsRest(SVC(C=C, sigma=SIGMA)).fit(X_train, y_train)
    assert np.mean(pred == reference.predict(X_test)) >= 0.98
    assert np.array_equal(_labels(r, "shifted"), pred + 10)


def judge_votes(r):
    cases = {
        "three_classes": (np.array([[1.0, 1.0, -1.0], [-1.0] * 3]), PAIRS3, 3),
        "four_classes": (DECISIONS4, PAIRS4, 4),
        "zero_decision": (np.zeros((1, 1)), [(0, 1)], 2),
    }
    for name, case in cases.items():
        got = np.asarray(r[name])
        expected = expected_votes(*case)
        assert got.shape == expected.shape and got.dtype.kind in "iuf"
        assert np.array_equal(got, expected)


def judge_ovo_predict(r):
    pred = _labels(r, "predict")
    assert np.mean(pred == y_test) > 0.8
    reference = SVC(C=C, sigma=SIGMA).fit(X_train, y_train)  # one-vs-one
    assert np.mean(pred == reference.predict(X_test)) >= 0.97
    assert np.array_equal(_labels(r, "shifted"), pred + 10)


COUNT_CASES = [(4, 400), (2, 100), (10, 60000), (26, 2600)]


def judge_machine_counts(r):
    for k, n in COUNT_CASES:
        got = r[f"k{k}_n{n}"]
        expected = {
            "ovr_machines": k,
            "ovr_points": n,
            "ovo_machines": k * (k - 1) // 2,
            "ovo_points": 2 * n // k,
        }
        assert isinstance(got, dict) and set(got) == set(expected)
        for key, value in expected.items():
            number = np.asarray(got[key])
            assert number.shape == () and number == value


CHECKS = [
    Check(
        "test_ovr_predict",
        (
            Probe("predict", "ovr_predict", (X_train, y_train, X_test)),
            Probe("shifted", "ovr_predict", (X_train, y_train + 10, X_test)),
        ),
        judge_ovr_predict,
        "one machine per class (that class +1, the rest -1), each new "
        "point to the class whose machine gives the largest decision "
        "value; return the labels of y_fit, whatever they are",
    ),
    Check(
        "test_votes",
        (
            Probe(
                "three_classes",
                "votes",
                (np.array([[1.0, 1.0, -1.0], [-1.0] * 3]), PAIRS3, 3),
            ),
            Probe("four_classes", "votes", (DECISIONS4, PAIRS4, 4)),
            Probe("zero_decision", "votes", (np.zeros((1, 1)), [(0, 1)], 2)),
        ),
        judge_votes,
        "column c of the decisions is the machine of pairs[c] = (a, b): a "
        "positive value is a vote for a, anything else (0 included) a "
        "vote for b; return integer counts, one row per point",
    ),
    Check(
        "test_ovo_predict",
        (
            Probe(
                "predict",
                "ovo_predict",
                (X_train, y_train, X_test),
                stand_ins=STAND_INS,
            ),
            Probe(
                "shifted",
                "ovo_predict",
                (X_train, y_train + 10, X_test),
                stand_ins=STAND_INS,
            ),
        ),
        judge_ovo_predict,
        "one machine per pair of classes, trained on the points of those "
        "two classes only; the class with the most votes wins; return the "
        "labels of y_fit, whatever they are",
    ),
    Check(
        "test_machine_counts",
        tuple(
            Probe(f"k{k}_n{n}", "machine_counts", (k, n))
            for k, n in COUNT_CASES
        ),
        judge_machine_counts,
        "one-vs-rest trains K machines on all n points; one-vs-one trains "
        "K (K - 1) / 2 machines, each on the points of two classes "
        "(2 n / K of them when the classes have n / K points each)",
    ),
]
