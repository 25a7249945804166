"""Hidden checks of 04_kernels_sweep.ipynb, judged outside the student's
kernel.

Each check calls the student's functions in the sandbox on the inputs
below (plain data) and judges the returned numbers here, in the grader's
process, against scikit-learn's kernels and SVC, closed forms and the
eigenvalues of the matrices (svmbook_classroom.checks; instructors.md,
"Writing a hidden check").
"""

import numpy as np
from scipy.spatial.distance import cdist, pdist
from sklearn.metrics.pairwise import polynomial_kernel, rbf_kernel
from sklearn.model_selection import train_test_split
from sklearn.svm import SVC

from svmbook_classroom.checks import Check, Probe
from svmlib.datasets.toy import make_sine_separated
from svmlib.kernels import sigmoid_kernel

# The notebook's data, made the same way as in its setup cell.
RANDOM_STATE = 0
X, y = make_sine_separated(300, noise=0.35, random_state=RANDOM_STATE)
X_train, X_val, y_train, y_val = train_test_split(
    X, y, test_size=1 / 3, stratify=y, random_state=RANDOM_STATE
)
CS = [0.01, 0.1, 1.0, 10.0, 100.0]
SIGMAS = [0.1, 0.3, 1.0, 3.0, 10.0]

GAUSSIAN_SIGMAS = [0.1, 0.7, 4.0]
POLYNOMIALS = [(1, 0.0), (2, 1.0), (3, 0.5)]


def gaussian(A, B, sigma):
    """exp(-||a - b||^2 / (2 sigma^2)), from scikit-learn."""
    return rbf_kernel(A, B, gamma=1.0 / (2.0 * sigma**2))


# Matrices whose answer is known: Gram matrices, their sums, (Schur)
# products and exponential (kernels); distances, tanh on these data,
# an indefinite, a non-symmetric and a non-square matrix (not kernels).
_K1 = gaussian(X_train, X_train, 1.0)
_K2 = polynomial_kernel(X_train, degree=2, gamma=1.0, coef0=1.0)
MATRICES = {
    "gaussian": (_K1, True),
    "polynomial": (_K2, True),
    "sum": (_K1 + _K2, True),
    "product": (_K1 * _K2, True),
    "exponential": (np.exp(_K2 / _K2.max()), True),
    "distances": (cdist(X_train, X_train), False),
    "tanh": (sigmoid_kernel(X_train, gamma=1.0, coef0=1.0), False),
    "indefinite": (np.array([[1.0, 2.0], [2.0, 1.0]]), False),
    "not_symmetric": (np.array([[1.0, 0.5], [0.0, 1.0]]), False),
    "not_square": (np.ones((2, 3)), False),
}

HEURISTIC_CASES = {
    "train": X_train,
    "two_points": np.array([[0.0, 0.0], [3.0, 4.0]]),
    "three_points": np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]]),
}

# Reference versions of the kernels, run in the kernel for the probes that
# grade a question alone (a mistake in an earlier answer costs no points).
STAND_INS = """
from svmlib.kernels import polynomial_kernel, rbf_kernel


def gaussian_gram(X, Z, sigma):
    return rbf_kernel(X, Z, sigma=sigma)


def polynomial_gram(X, Z, degree, coef0=1.0):
    return polynomial_kernel(X, Z, degree=degree, gamma=1.0, coef0=coef0)
"""


def _matrix(value, shape):
    value = np.asarray(value, dtype=float)
    assert value.shape == shape and np.all(np.isfinite(value))
    return value


def judge_gaussian_gram(r):
    for k, sigma in enumerate(GAUSSIAN_SIGMAS):
        got = _matrix(r[f"sigma{k}"], (len(X_val), len(X_train)))
        assert np.allclose(got, gaussian(X_val, X_train, sigma))
    got = _matrix(r["train"], (len(X_train), len(X_train)))
    assert np.allclose(got, gaussian(X_train, X_train, 0.5))
    assert np.all(got <= 1.0 + 1e-12)


def judge_polynomial_gram(r):
    for degree, coef0 in POLYNOMIALS:
        got = _matrix(r[f"degree{degree}"], (len(X_val), len(X_train)))
        expected = polynomial_kernel(
            X_val, X_train, degree=degree, gamma=1.0, coef0=coef0
        )
        assert np.allclose(got, expected)
    got = _matrix(r["default_coef0"], (len(X_val), len(X_train)))
    expected = polynomial_kernel(
        X_val, X_train, degree=2, gamma=1.0, coef0=1.0
    )
    assert np.allclose(got, expected)


def judge_is_kernel_matrix(r):
    for name, (_, expected) in MATRICES.items():
        got = r[name]
        if not isinstance(got, bool):
            got = np.asarray(got)
            assert got.shape == () and got.dtype.kind in "biu"
            got = bool(got)
        assert got is expected, name


def judge_sigma_heuristic(r):
    for name, points in HEURISTIC_CASES.items():
        got = np.asarray(r[name], dtype=float)
        assert got.shape == ()
        assert np.isclose(float(got), 0.5 * np.mean(pdist(points)))


def accuracy_grid(X_fit, y_fit, X_score, y_score, Cs, sigmas):
    """scikit-learn's validation accuracy for every (sigma, C)."""
    return np.array(
        [
            [
                SVC(C=C, gamma=1 / (2 * sigma**2), tol=1e-3)
                .fit(X_fit, y_fit)
                .score(X_score, y_score)
                for C in Cs
            ]
            for sigma in sigmas
        ]
    )


def judge_validation_grid(r):
    got = _matrix(r["grid"], (len(SIGMAS), len(CS)))
    expected = accuracy_grid(X_train, y_train, X_val, y_val, CS, SIGMAS)
    assert np.all(np.abs(got - expected) <= 0.02)
    # the points scored are the ones given: the training points are fitted
    leak = _matrix(r["training_points"], (1, 1))
    assert leak[0, 0] > 0.99 > got[0, -1]


CHECKS = [
    Check(
        "test_gaussian_gram",
        tuple(
            Probe(f"sigma{k}", "gaussian_gram", (X_val, X_train, sigma))
            for k, sigma in enumerate(GAUSSIAN_SIGMAS)
        )
        + (Probe("train", "gaussian_gram", (X_train, X_train, 0.5)),),
        judge_gaussian_gram,
        "K_ij = exp(-||x_i - z_j||^2 / (2 sigma^2)) between every row of X "
        "and every row of Z (two different sets, not only X with itself); "
        "rounding must not push a squared distance below 0 (a value above 1)",
    ),
    Check(
        "test_polynomial_gram",
        tuple(
            Probe(
                f"degree{degree}",
                "polynomial_gram",
                (X_val, X_train, degree, coef0),
            )
            for degree, coef0 in POLYNOMIALS
        )
        + (Probe("default_coef0", "polynomial_gram", (X_val, X_train, 2)),),
        judge_polynomial_gram,
        "K_ij = (x_i . z_j + coef0) ** degree, with the coef0 and degree "
        "given (coef0 = 1 by default)",
    ),
    Check(
        "test_is_kernel_matrix",
        tuple(
            Probe(name, "is_kernel_matrix", (matrix,))
            for name, (matrix, _) in MATRICES.items()
        ),
        judge_is_kernel_matrix,
        "True exactly for a square, symmetric matrix whose smallest "
        "eigenvalue is not below -tol (relative to the largest in absolute "
        "value); distance matrices and tanh are not kernels, sums, products "
        "and exponentials of kernels are",
    ),
    Check(
        "test_sigma_heuristic",
        tuple(
            Probe(name, "sigma_heuristic", (points,))
            for name, points in HEURISTIC_CASES.items()
        ),
        judge_sigma_heuristic,
        "half the mean Euclidean distance over the pairs of distinct rows "
        "of X (each pair once, no zero distance of a row to itself)",
    ),
    Check(
        "test_validation_grid",
        (
            Probe(
                "grid",
                "validation_grid",
                (X_train, y_train, X_val, y_val, CS, SIGMAS),
                stand_ins=STAND_INS,
            ),
            Probe(
                "training_points",
                "validation_grid",
                (X_train, y_train, X_train, y_train, [100.0], [0.1]),
                stand_ins=STAND_INS,
            ),
        ),
        judge_validation_grid,
        "row a, column c holds the accuracy on (X_val, y_val) of the SVM "
        "trained on (X_train, y_train) with sigmas[a] and Cs[c]: rows are "
        "the sigmas, columns the Cs; score the points given, not the "
        "training points",
    ),
]
