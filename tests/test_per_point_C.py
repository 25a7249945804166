"""SMO with one bound C_i per point: sample and class weights.

LIBSVM solves the weighted C-SVC with the box 0 <= alpha_i <= C_i,
C_i = C * weight_i (its ``get_C(i)``); scikit-learn's SVC passes
``sample_weight`` and ``class_weight`` down that way. The tests compare
svmlib's SMO with scikit-learn's, check the KKT conditions with per-point
bounds, and check the two-variable step against its closed form.
"""

import numpy as np
import pytest
from sklearn.svm import SVC as SklearnSVC

from svmlib.duality import kkt_violations
from svmlib.kernels import linear_kernel, rbf_kernel
from svmlib.solvers import smo, step_bounds, two_variable_step

SELECTIONS = ["wss2", "platt"]


def weights_for(y, seed):
    """Sample weights in [0.2, 3], different for every point."""
    return np.random.default_rng(seed).uniform(0.2, 3.0, size=y.shape)


@pytest.mark.parametrize("selection", SELECTIONS)
@pytest.mark.parametrize("C", [0.3, 5.0])
def test_weighted_smo_matches_sklearn_sample_weight(problem, C, selection):
    _, X, y = problem
    weight = weights_for(y, seed=len(y))
    K = rbf_kernel(X, gamma=0.5)
    result = smo(
        K, y, C * weight, tol=1e-6, selection=selection, random_state=0
    )
    reference = SklearnSVC(C=C, kernel="rbf", gamma=0.5, tol=1e-8).fit(
        X, y, sample_weight=weight
    )
    assert result.converged
    f = K @ (result.alpha * y) + result.b
    expected = reference.decision_function(X)
    np.testing.assert_allclose(f, expected, atol=1e-3 * np.abs(expected).max())
    np.testing.assert_array_equal(
        np.flatnonzero(result.alpha), np.sort(reference.support_)
    )


@pytest.mark.parametrize("selection", SELECTIONS)
def test_class_weights_match_sklearn(problem, selection):
    _, X, y = problem
    class_weight = {-1.0: 3.0, 1.0: 0.5}
    C_i = 2.0 * np.where(y > 0, class_weight[1.0], class_weight[-1.0])
    K = linear_kernel(X)
    result = smo(K, y, C_i, tol=1e-5, selection=selection, random_state=0)
    reference = SklearnSVC(
        C=2.0, kernel="linear", class_weight=class_weight, tol=1e-8
    ).fit(X, y)
    w = (result.alpha * y) @ X
    np.testing.assert_allclose(w, reference.coef_[0], rtol=1e-3, atol=1e-4)
    assert result.b == pytest.approx(reference.intercept_[0], abs=1e-3)


@pytest.mark.parametrize("selection", SELECTIONS)
def test_kkt_conditions_with_per_point_C(problem, selection):
    _, X, y = problem
    C_i = 0.5 * weights_for(y, seed=7)
    K = rbf_kernel(X, gamma=1.0)
    tol = 1e-4
    result = smo(K, y, C_i, tol=tol, selection=selection, random_state=1)
    alpha = result.alpha
    assert np.all((alpha >= 0) & (alpha <= C_i))
    assert abs(np.dot(alpha, y)) < 1e-10 * max(1.0, alpha.sum())
    # some multipliers sit on their own, different, upper bounds
    at_bound = alpha == C_i
    assert at_bound.any() and np.unique(C_i[at_bound]).size > 1
    residuals = kkt_violations(alpha, K, y, result.b, C_i)
    assert residuals.max() <= tol


def test_one_C_for_all_equals_the_scalar_C(problem):
    _, X, y = problem
    K = rbf_kernel(X, gamma=0.5)
    scalar = smo(K, y, 1.5)
    per_point = smo(K, y, np.full(len(y), 1.5))
    np.testing.assert_array_equal(per_point.alpha, scalar.alpha)
    assert per_point.b == scalar.b and per_point.n_iter == scalar.n_iter


@pytest.mark.parametrize("selection", SELECTIONS)
def test_inf_for_every_point_is_the_hard_margin(selection):
    """C_i = inf everywhere (SVC(C=np.inf) with weights) is C = np.inf."""
    rng = np.random.default_rng(4)
    X = np.vstack([rng.normal(-2, 0.5, (15, 2)), rng.normal(2, 0.5, (15, 2))])
    y = np.repeat([-1.0, 1.0], 15)
    K = linear_kernel(X)
    scalar = smo(K, y, np.inf, selection=selection, random_state=0)
    per_point = smo(
        K, y, np.full(len(y), np.inf), selection=selection, random_state=0
    )
    assert scalar.converged
    np.testing.assert_array_equal(per_point.alpha, scalar.alpha)
    assert per_point.b == scalar.b and per_point.n_iter == scalar.n_iter


def test_inf_among_finite_bounds_is_refused():
    y = np.array([1.0, -1.0, 1.0])
    with pytest.raises(ValueError, match="np.inf for every point"):
        smo(np.eye(3), y, np.array([1.0, np.inf, 2.0]))


def test_svc_passes_its_per_point_bounds_to_smo(monkeypatch):
    """One float array C_i from the estimator to the solver, no round trip.

    SVC(C, class_weight) builds C_i = C weight_i once; the solver gets that
    array for each machine's points, the same values, also when they are
    all equal (and when C = inf, the hard margin).
    """
    import svmlib.svc

    seen = []
    original = svmlib.svc.smo

    def spy(gram, y, C, **kwargs):
        seen.append(C)
        return original(gram, y, C, **kwargs)

    monkeypatch.setattr(svmlib.svc, "smo", spy)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 2)) + np.repeat([[0, 0], [4, 0], [0, 4]], 10, 0)
    y = np.repeat([0, 1, 2], 10)
    svmlib.svc.SVC(C=2.0, class_weight={0: 0.5}).fit(X, y)
    svmlib.svc.SVC(C=np.inf, kernel="linear").fit(X, y)
    assert len(seen) == 6
    for C_i in seen:
        assert isinstance(C_i, np.ndarray) and C_i.dtype == np.float64
        assert C_i.shape == (20,)
    assert sorted(np.unique(np.concatenate(seen[:3]))) == [1.0, 2.0]
    assert all(np.all(C_i == np.inf) for C_i in seen[3:])


@pytest.mark.parametrize("selection", SELECTIONS)
def test_zero_weight_points_never_move_and_drop_out(problem, selection):
    """C_i = 0 gives the solution without those points (LIBSVM drops them)."""
    _, X, y = problem
    weight = weights_for(y, seed=3)
    zero = np.zeros(len(y), dtype=bool)
    zero[::4] = True
    weight[zero] = 0.0
    K = rbf_kernel(X, gamma=0.5)
    result = smo(
        K, y, 2.0 * weight, tol=1e-8, selection=selection, random_state=0
    )
    assert np.all(result.alpha[zero] == 0.0)
    keep = ~zero
    reduced = smo(K[np.ix_(keep, keep)], y[keep], 2.0 * weight[keep], tol=1e-8)
    np.testing.assert_allclose(result.alpha[keep], reduced.alpha, atol=1e-6)
    assert result.b == pytest.approx(reduced.b, abs=1e-6)
    reference = SklearnSVC(C=2.0, gamma=0.5, tol=1e-10).fit(
        X, y, sample_weight=weight
    )
    f = K @ (result.alpha * y) + result.b
    np.testing.assert_allclose(f, reference.decision_function(X), atol=1e-4)


@pytest.mark.parametrize(
    "alpha_i, alpha_j, y_i, y_j, C_i, C_j",
    [
        (0.2, 0.5, 1.0, -1.0, 1.0, 0.6),  # y_i != y_j, H cut by C_j
        (0.2, 0.5, 1.0, -1.0, 0.25, 3.0),  # y_i != y_j, H = C_i + gap
        (0.9, 0.5, 1.0, 1.0, 1.0, 0.6),  # y_i == y_j, both bounds active
        (0.1, 0.2, -1.0, -1.0, 2.0, 0.25),  # y_i == y_j, H = C_j
        (0.0, 0.3, 1.0, 1.0, 0.0, 1.0),  # C_i = 0: alpha_j cannot move
    ],
)
def test_step_bounds_with_two_bounds(alpha_i, alpha_j, y_i, y_j, C_i, C_j):
    L, H = step_bounds(alpha_i, alpha_j, y_i, y_j, C_i, C_j=C_j)
    # brute force: the alpha_j on the constraint line inside the box
    t = np.linspace(-5, 5, 1_000_001)
    a_j = alpha_j + t
    a_i = alpha_i - y_i * y_j * t
    inside = (a_i >= 0) & (a_i <= C_i) & (a_j >= 0) & (a_j <= C_j)
    assert L == pytest.approx(a_j[inside].min(), abs=1e-5)
    assert H == pytest.approx(a_j[inside].max(), abs=1e-5)


def test_two_variable_step_respects_each_bound():
    # the unclipped step would take alpha_j to 2; C_j = 0.4 stops it, and
    # alpha_i follows to 0.4 (opposite labels keep alpha_i - alpha_j fixed)
    new_i, new_j = two_variable_step(
        0.0, 0.0, 1.0, -1.0, -2.0, 2.0, 1.0, 1.0, 0.0, 1.0, C_j=0.4
    )
    assert (new_i, new_j) == (0.4, 0.4)
    # the same step with alpha_i bounded by 0.1 instead
    new_i, new_j = two_variable_step(
        0.0, 0.0, 1.0, -1.0, -2.0, 2.0, 1.0, 1.0, 0.0, 0.1, C_j=5.0
    )
    assert (new_i, new_j) == (0.1, 0.1)


@pytest.mark.parametrize(
    "C, message",
    [
        (np.ones(3), r"shape \(4,\)"),
        (np.array([1.0, -1.0, 1.0, 1.0]), "C_i >= 0"),
        (np.array([1.0, np.nan, 1.0, 1.0]), "NaN"),
        (np.array([1.0, np.inf, 1.0, 1.0]), "finite"),
        (np.array([1.0, 0.0, 1.0, 0.0]), "class -1"),
        (np.array(["a", "b", "c", "d"]), "numeric"),
    ],
)
def test_bad_per_point_C(C, message):
    y = np.array([1.0, -1.0, 1.0, -1.0])
    with pytest.raises(ValueError, match=message):
        smo(np.eye(4), y, C)
