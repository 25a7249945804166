"""Kernel objects, composition rules, the exponential kernel, random features.

Also checks that nbval does not compare the tuning notebook's widget cells (the
built page's frame players are checked in tests/test_built_book.py).
"""

import inspect
import json
import pickle
import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import make_moons
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.metrics import pairwise
from sklearn.model_selection import GridSearchCV
from sklearn.preprocessing import normalize
from sklearn.svm import SVC as SklearnSVC

from svmlib import SVC
from svmlib.kernels import (
    RBF,
    Constant,
    Exp,
    Exponential,
    ExponentialRandomFeatures,
    Kernel,
    Linear,
    Polynomial,
    Product,
    Scaled,
    Sigmoid,
    Sum,
    exponential_kernel,
)
from svmlib.solvers import smo

ROOT = Path(__file__).resolve().parents[1]
rng = np.random.default_rng(0)
X = rng.normal(size=(30, 4))
Z = rng.normal(size=(20, 4))
RTOL = 1e-10


def _close(actual, expected):
    np.testing.assert_allclose(actual, expected, rtol=RTOL, atol=0)


# --- each kernel object equals its scikit-learn counterpart ------------------


def _kernel_id(value):
    """The kernel's repr; the reference function is named, not its address.

    Test ids must be the same in every process (pytest-xdist's workers
    compare their collections).
    """
    return "sklearn" if inspect.isfunction(value) else repr(value)


@pytest.mark.parametrize(
    "kernel, reference",
    [
        (Linear(), lambda A, B: pairwise.linear_kernel(A, B)),
        (
            Polynomial(degree=3, gamma=0.5, coef0=2.0),
            lambda A, B: pairwise.polynomial_kernel(A, B, 3, 0.5, 2.0),
        ),
        (
            Polynomial(degree=2),
            lambda A, B: pairwise.polynomial_kernel(
                A, B, degree=2, gamma=1.0, coef0=1.0
            ),
        ),
        (RBF(gamma=0.3), lambda A, B: pairwise.rbf_kernel(A, B, gamma=0.3)),
        (
            RBF(sigma=1.5),
            lambda A, B: pairwise.rbf_kernel(A, B, gamma=1 / (2 * 1.5**2)),
        ),
        (
            Sigmoid(gamma=0.2, coef0=-0.5),
            lambda A, B: pairwise.sigmoid_kernel(A, B, gamma=0.2, coef0=-0.5),
        ),
        # exp(s x.z) = exp(s|x|^2/2) exp(s|z|^2/2) exp(-s|x-z|^2/2): an RBF
        # kernel with gamma = s/2 between envelopes
        (
            Exponential(scale=0.4),
            lambda A, B: (
                np.exp(0.2 * (A**2).sum(1))[:, None]
                * pairwise.rbf_kernel(A, B, gamma=0.2)
                * np.exp(0.2 * (B**2).sum(1))[None, :]
            ),
        ),
    ],
    ids=_kernel_id,
)
def test_kernel_objects_equal_sklearn_pairwise(kernel, reference):
    _close(kernel(X, Z), reference(X, Z))
    _close(kernel(X), reference(X, X))


def test_exponential_kernel_function():
    _close(exponential_kernel(X, Z, scale=0.7), np.exp(0.7 * X @ Z.T))
    _close(exponential_kernel(X), np.exp(X @ X.T))
    # on unit vectors it is e^s times a Gaussian kernel
    U, V = normalize(X), normalize(Z)
    _close(
        exponential_kernel(U, V, scale=2.0),
        np.exp(2.0) * pairwise.rbf_kernel(U, V, gamma=1.0),
    )
    assert exponential_kernel(X.astype(np.float32)).dtype == np.float32


# --- composition rules: values and positive semi-definiteness ----------------

BASES = {
    "linear": Linear(),
    "poly": Polynomial(degree=2, gamma=0.5, coef0=1.0),
    "rbf": RBF(sigma=2.0),
    "exp": Exponential(scale=0.3),
}
COMPOSED = {
    "c K": lambda a, b: 3.5 * a,
    "K c": lambda a, b: a * 0.25,
    "K1 + K2": lambda a, b: a + b,
    "K1 K2": lambda a, b: a * b,
    "exp(K)": lambda a, b: (0.1 * a).exp(),
    "K + c": lambda a, b: a + 2.0,
    "sum([...])": lambda a, b: sum([a, b, a]),
    "mixed": lambda a, b: (a + 0.5 * b) * b + (a * b).exp() * 0.01,
}
EXPECTED = {
    "c K": lambda A, B: 3.5 * A,
    "K c": lambda A, B: 0.25 * A,
    "K1 + K2": lambda A, B: A + B,
    "K1 K2": lambda A, B: A * B,
    "exp(K)": lambda A, B: np.exp(0.1 * A),
    "K + c": lambda A, B: A + 2.0,
    "sum([...])": lambda A, B: 2 * A + B,
    "mixed": lambda A, B: (A + 0.5 * B) * B + 0.01 * np.exp(A * B),
}


@pytest.mark.parametrize("rule", sorted(COMPOSED))
@pytest.mark.parametrize(
    "pair", [("linear", "rbf"), ("poly", "exp"), ("rbf", "poly")]
)
def test_composition_values_and_psd(rule, pair):
    a, b = (BASES[name] for name in pair)
    kernel = COMPOSED[rule](a, b)
    assert isinstance(kernel, Kernel)
    points = normalize(np.random.default_rng(1).normal(size=(60, 3)))
    _close(
        kernel(points, Z[:, :3]),
        EXPECTED[rule](a(points, Z[:, :3]), b(points, Z[:, :3])),
    )
    K = kernel(points)
    np.testing.assert_allclose(K, K.T, rtol=1e-12)
    eigenvalues = np.linalg.eigvalsh(K)
    assert eigenvalues.min() >= -1e-9 * eigenvalues.max(), (
        rule,
        eigenvalues.min(),
    )


def test_composed_classes_and_repr():
    k = 0.5 * Linear() + RBF(sigma=2.0) * (RBF(gamma=1.0) + 1.0)
    assert (
        isinstance(k, Sum)
        and isinstance(k.first, Scaled)
        and isinstance(k.second, Product)
    )
    assert isinstance(k.second.second.second, Constant)
    assert repr(k) == "0.5 * Linear() + RBF(sigma=2) * (RBF(gamma=1) + 1)"
    assert repr(Linear().exp()) == "exp(Linear())" and isinstance(
        Linear().exp(), Exp
    )
    # sum() starts from 0, and 0 + k is k itself
    k = RBF(gamma=2)
    assert sum([k]) is k
    assert repr(sum([Linear(), k])) == "Linear() + RBF(gamma=2)"


def test_rbf_sets_no_fitted_looking_attribute():
    # scikit-learn's check_is_fitted takes trailing-underscore attributes for
    # fitted state; a kernel object is not an estimator and has none
    for kernel in (RBF(sigma=2.0), RBF(gamma=0.125)):
        assert [name for name in vars(kernel) if name.endswith("_")] == []
        _close(kernel(X, Z), pairwise.rbf_kernel(X, Z, gamma=0.125))


def test_float32_stays_float32():
    k = (0.5 * Linear() + RBF(gamma=0.1) * Polynomial(degree=2) + 1.0).exp()
    X32 = (X / 10).astype(np.float32)
    assert k(X32).dtype == np.float32
    np.testing.assert_allclose(k(X32), k(X / 10), rtol=1e-5)


@pytest.mark.parametrize(
    "call, error, message",
    [
        (
            lambda: -1.0 * Linear(),
            ValueError,
            r"PSD only for c > 0\), got -1.0",
        ),
        (lambda: Linear() * 0, ValueError, "scaled by a positive number"),
        (lambda: Linear() + (-1.0), ValueError, "non-negative"),
        (lambda: Linear() * "a", TypeError, None),
        (lambda: Linear() + np.eye(2), TypeError, None),
        (lambda: Sum(Linear(), lambda A, B: A @ B.T), ValueError, "Kernel"),
        (
            lambda: Exponential(scale=0.0),
            ValueError,
            "scale must be a positive",
        ),
        (
            lambda: exponential_kernel(X, scale=-1.0),
            ValueError,
            "scale must be a positive",
        ),
        (lambda: RBF(), ValueError, "needs sigma or gamma"),
        (lambda: RBF(sigma=1.0, gamma=1.0), ValueError, "not both"),
        (
            lambda: Polynomial(degree=0),
            ValueError,
            "degree must be an integer",
        ),
        (lambda: Sigmoid(gamma=-1.0), ValueError, "gamma must be a positive"),
        (lambda: Linear()(X, Z[:, :2]), ValueError, "same number of features"),
        (lambda: RBF(gamma=1.0)(np.full((2, 2), np.nan)), ValueError, "NaN"),
    ],
)
def test_bad_input(call, error, message):
    with pytest.raises(error, match=message):
        call()


@pytest.mark.parametrize("selection", ["wss2", "platt"])
def test_sigmoid_kernel_can_be_indefinite_and_smo_still_converges(selection):
    points = np.random.default_rng(2).normal(size=(80, 2))
    y = np.where(points[:, 0] * points[:, 1] > 0, 1.0, -1.0)
    K = Sigmoid(gamma=1.0, coef0=1.0)(points)
    assert np.linalg.eigvalsh(K).min() < -1e-3  # Mercer's condition fails
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        result = smo(
            K, y, C=1.0, selection=selection, record_history=True,
            random_state=0,
        )  # fmt: skip
    assert result.converged and result.kkt_violation <= 1e-3
    # every step is an ascent step, also where eta <= 0 (the better end of
    # the segment is taken)
    assert np.all(np.diff(result.history["dual_objective"]) > 0)
    assert np.all((result.alpha >= 0) & (result.alpha <= 1.0))
    assert abs(result.alpha @ y) < 1e-9


# --- kernel objects in svmlib.SVC --------------------------------------------

Xm, ym = make_moons(100, noise=0.2, random_state=0)


def test_svc_with_kernel_object_equals_string_kernel():
    by_object = SVC(kernel=RBF(gamma=0.7), C=3.0, tol=1e-6).fit(Xm, ym)
    by_name = SVC(kernel="rbf", gamma=0.7, C=3.0, tol=1e-6).fit(Xm, ym)
    np.testing.assert_allclose(
        by_object.decision_function(Xm),
        by_name.decision_function(Xm),
        atol=1e-10,
    )
    np.testing.assert_array_equal(by_object.support_, by_name.support_)


def test_svc_with_composed_kernel_matches_sklearn_precomputed():
    kernel = 0.5 * Linear() + RBF(sigma=0.8) * Polynomial(
        degree=2, gamma=0.5, coef0=1.0
    )
    ours = SVC(kernel=kernel, C=2.0, tol=1e-6).fit(Xm, ym)
    reference = SklearnSVC(kernel="precomputed", C=2.0, tol=1e-6).fit(
        kernel(Xm), ym
    )
    np.testing.assert_allclose(
        ours.decision_function(Xm),
        reference.decision_function(kernel(Xm)),
        atol=1e-3,
    )
    # the same support vectors, whatever order each estimator lists them in
    np.testing.assert_array_equal(
        np.sort(ours.support_), np.sort(reference.support_)
    )


def test_svc_with_kernel_object_clones_pickles_and_grid_searches():
    model = SVC(kernel=Exponential(scale=0.5) + RBF(gamma=1.0), C=1.0).fit(
        Xm, ym
    )
    again = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(again.predict(Xm), model.predict(Xm))
    copy = clone(model)
    assert repr(copy.kernel) == repr(model.kernel)
    grid = {
        "kernel": [RBF(sigma=s) for s in (0.3, 1.0)] + [Linear()],
        "C": [1.0, 10.0],
    }
    search = GridSearchCV(SVC(), grid, cv=3).fit(Xm, ym)
    assert isinstance(search.best_params_["kernel"], RBF)


# --- random features for the exponential kernel ------------------------------


def _gram_error(n_components, seed, scale=1.0):
    U = normalize(np.random.default_rng(3).normal(size=(40, 6)))
    features = ExponentialRandomFeatures(
        n_components, scale=scale, random_state=seed
    ).fit(U)
    Phi = features.transform(U)
    return np.sqrt(
        np.mean((Phi @ Phi.T - exponential_kernel(U, scale=scale)) ** 2)
    )


def test_random_features_error_shrinks_with_more_features():
    sizes = [10, 100, 1000, 10000]
    errors = [
        np.mean([_gram_error(m, seed) for seed in range(5)]) for m in sizes
    ]
    assert all(a > b for a, b in zip(errors, errors[1:], strict=False)), errors
    # Monte Carlo rate 1/sqrt(m): a factor 100 in m is about a factor 10 in
    # error
    assert 4 < errors[0] / errors[2] < 25, errors
    assert errors[-1] < 0.05


def test_random_features_are_unbiased():
    # the mean of phi(x).phi(z) over many independent draws is exp(s x.z)
    U = normalize(np.random.default_rng(4).normal(size=(5, 3)))
    average = np.mean(
        [
            (
                P := ExponentialRandomFeatures(
                    50, scale=0.5, random_state=s
                ).fit_transform(U)
            )
            @ P.T
            for s in range(400)
        ],
        axis=0,
    )
    np.testing.assert_allclose(
        average, exponential_kernel(U, scale=0.5), atol=0.02
    )


def test_random_features_shapes_seed_and_unnormalised_inputs():
    features = ExponentialRandomFeatures(7, scale=0.2, random_state=0).fit(X)
    assert features.frequencies_.shape == (7, 4) and features.transform(
        Z
    ).shape == (20, 14)
    again = ExponentialRandomFeatures(7, scale=0.2, random_state=0).fit(X)
    np.testing.assert_array_equal(features.transform(Z), again.transform(Z))
    # the envelope exp(s|x|^2/2) makes the map right for inputs of any norm
    many = ExponentialRandomFeatures(20000, scale=0.2, random_state=1).fit(X)
    relative = (
        many.transform(X[:5]) @ many.transform(X[:5]).T
    ) / exponential_kernel(X[:5], scale=0.2)
    np.testing.assert_allclose(relative, 1.0, atol=0.05)


@pytest.mark.parametrize(
    "call, error, message",
    [
        (
            lambda: ExponentialRandomFeatures(0).fit(X),
            ValueError,
            "'n_components' parameter",
        ),
        (
            lambda: ExponentialRandomFeatures(5, scale=-1).fit(X),
            ValueError,
            "'scale' parameter",
        ),
        (
            lambda: ExponentialRandomFeatures(5).transform(X),
            NotFittedError,
            None,
        ),
        (
            lambda: ExponentialRandomFeatures(5).fit(X).transform(Z[:, :3]),
            ValueError,
            "features",
        ),
    ],
)
def test_random_features_bad_input(call, error, message):
    with pytest.raises(error, match=message):
        call()


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.SkipTestWarning")
# the checks' data are not normalised: the envelope exp(s ||x||^2 / 2)
# overflows on some rows, as the class docstring warns
@pytest.mark.filterwarnings("ignore:overflow encountered in exp")
def test_random_features_pass_sklearn_estimator_checks():
    from sklearn.utils.estimator_checks import check_estimator

    results = check_estimator(
        ExponentialRandomFeatures(20, random_state=0), on_fail=None
    )
    assert [r["check_name"] for r in results if r["status"] == "failed"] == []


TUNING_NOTEBOOK = ROOT / "chapters" / "kernels" / "tuning_c_and_sigma.ipynb"


def test_widget_cells_do_not_check_their_output():
    # nbval must not compare widget output (there is no widget state in the
    # saved file to compare): the suite runs nbval in lax mode, which
    # compares only the cells tagged nbval-check-output
    addopts = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert "--nbval-lax" in addopts
    if not TUNING_NOTEBOOK.is_file():
        pytest.skip("the tuning notebook does not exist")
    cells = json.loads(TUNING_NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    widget_cells = [
        c
        for c in cells
        if c["cell_type"] == "code" and "explore_grid(" in "".join(c["source"])
    ]
    assert widget_cells, "the chapter should offer interactive sliders"
    for cell in widget_cells:
        tags = cell.get("metadata", {}).get("tags", [])
        assert "nbval-check-output" not in tags
