"""The playground's JavaScript SMO against svmlib.solvers.smo.

The SVM playground of the chapters *Tuning C and sigma* and *Platt's SMO
and working sets* trains in the reader's browser with
``_static/playground/smo.js``, which mirrors
``svmlib/solvers/sequential_minimal.py`` (``selection="wss2"``, no
shrinking). Here ``node`` runs it on fixed data sets
(``tests/playground_harness.js``) and its alpha, b and dual objective are
compared with svmlib's:

* on the Gram matrix that smo.js computed, with ``smo(shrinking=False)``:
  the same steps, so the same number of iterations and the same alpha up to
  rounding;
* on svmlib's own Gram matrix (``linear_kernel``, ``rbf_kernel`` with
  ``sigma``), with ``smo`` unshrunk and with its default (shrinking): dual
  objectives within 1e-6 relative, the same support vectors where the
  solution is unique, b and the margins f(x) within 10 tol.

The regression mode (epsilon-SVR) runs the same solver on LIBSVM's
general dual (2n variables, linear term p = [epsilon - z; epsilon + z]);
it is compared with scikit-learn's ``SVR``, which is LIBSVM: dual
objectives within 1e-6 relative at a tight tol, the same support vectors,
the same predictions up to the rounding of LIBSVM's single-precision Q,
and the KKT conditions of the tube checked on smo.js's own solution (and
with ``svmlib.SVR`` too, once svmlib has it).

Skips when ``node`` is missing.
"""

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from sklearn.svm import SVR

import svmlib
from svmlib.kernels import linear_kernel, rbf_gamma, rbf_kernel
from svmlib.solvers import smo

ROOT = Path(__file__).resolve().parents[1]
HARNESS = ROOT / "tests" / "playground_harness.js"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def separable(seed=0):
    rng = np.random.default_rng(seed)
    X = np.vstack(
        [
            rng.normal([1.5, 1.0], 0.5, size=(30, 2)),
            rng.normal([-1.5, -1.0], 0.5, size=(30, 2)),
        ]
    )
    return X, np.repeat([1.0, -1.0], 30)


def overlapping(seed=1):
    rng = np.random.default_rng(seed)
    X = np.vstack(
        [
            rng.normal([0.5, 0.3], 1.0, size=(50, 2)),
            rng.normal([-0.5, -0.3], 1.0, size=(50, 2)),
        ]
    )
    return X, np.repeat([1.0, -1.0], 50)


def rings(seed=2):
    rng = np.random.default_rng(seed)
    angle = rng.uniform(0, 2 * np.pi, 80)
    radius = np.concatenate(
        [rng.normal(0.8, 0.15, 40), rng.normal(2.0, 0.2, 40)]
    )
    X = np.column_stack([radius * np.cos(angle), radius * np.sin(angle)])
    return X, np.repeat([1.0, -1.0], 40)


def duplicates(seed=3):
    # repeated points of one class, and one point with both labels
    X, y = overlapping(seed)
    X, y = X[:40], y[:40].copy()
    X = np.vstack([X, X[:10], X[20:22]])
    y = np.concatenate([y, y[:10], -y[20:22]])
    return X, y


#: (name, data, kernel, C, sigma, tol)
PROBLEMS = [
    ("separable-linear", separable, "linear", 10.0, None, 1e-3),
    ("separable-rbf", separable, "rbf", 10.0, 1.0, 1e-3),
    ("overlapping-linear", overlapping, "linear", 1.0, None, 1e-3),
    ("overlapping-rbf", overlapping, "rbf", 3.0, 0.7, 1e-3),
    ("rings-rbf", rings, "rbf", 10.0, 0.5, 1e-3),
    ("rings-rbf-tight", rings, "rbf", 100.0, 0.3, 1e-6),
    ("duplicates-linear", duplicates, "linear", 1.0, None, 1e-3),
    ("duplicates-rbf", duplicates, "rbf", 10.0, 0.5, 1e-3),
]


def run_node(tmp_path, X, y, kernel, C, sigma, tol, gram=None):
    problem = {
        "points": X.tolist(),
        "y": y.tolist(),
        "C": C,
        "kernel": kernel,
        "sigma": sigma,
        "tol": tol,
    }
    if gram is not None:
        problem["gram"] = gram.tolist()
    return run_harness(tmp_path, problem)


def run_harness(tmp_path, problem):
    path = tmp_path / "problem.json"
    path.write_text(json.dumps(problem), encoding="utf-8")
    out = subprocess.run(
        [NODE, str(HARNESS), str(path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    result = json.loads(out.stdout)
    for key in ("alpha", "gram", "beta"):
        if key in result:
            result[key] = np.array(result[key])
    return result


def svmlib_gram(X, kernel, sigma):
    if kernel == "linear":
        return linear_kernel(X)
    return rbf_kernel(X, sigma=sigma)


@pytest.mark.parametrize(
    "name, data, kernel, C, sigma, tol", PROBLEMS, ids=[p[0] for p in PROBLEMS]
)
def test_same_steps_on_the_same_gram_matrix(
    tmp_path, name, data, kernel, C, sigma, tol
):
    X, y = data()
    js = run_node(tmp_path, X, y, kernel, C, sigma, tol)
    np.testing.assert_allclose(
        js["gram"], svmlib_gram(X, kernel, sigma), rtol=0, atol=1e-12
    )
    py = smo(js["gram"], y, C, tol=tol, shrinking=False)
    assert js["converged"] and py.converged
    assert js["nIter"] == py.n_iter
    scale = max(C, 1.0)
    np.testing.assert_allclose(
        js["alpha"], py.alpha, rtol=0, atol=1e-9 * scale
    )
    assert js["b"] == pytest.approx(py.b, rel=1e-9, abs=1e-9)
    assert js["dualObjective"] == pytest.approx(py.dual_objective, rel=1e-12)
    assert js["kktViolation"] == pytest.approx(
        py.kkt_violation, rel=1e-6, abs=1e-12
    )


@pytest.mark.parametrize(
    "name, data, kernel, C, sigma, tol", PROBLEMS, ids=[p[0] for p in PROBLEMS]
)
def test_agrees_with_svmlib_smo(tmp_path, name, data, kernel, C, sigma, tol):
    X, y = data()
    js = run_node(tmp_path, X, y, kernel, C, sigma, tol)
    K = svmlib_gram(X, kernel, sigma)
    same = smo(K, y, C, tol=tol, shrinking=False)
    default = smo(K, y, C, tol=tol)
    gaps = [
        abs(js["dualObjective"] - py.dual_objective) / abs(py.dual_objective)
        for py in (same, default)
    ]
    print(
        f"{name}: n = {len(y)}, {np.count_nonzero(js['alpha'] > 0)} support "
        f"vectors, steps JS {js['nIter']} / svmlib {same.n_iter} (unshrunk) "
        f"/ {default.n_iter} (shrinking); dual objective "
        f"{js['dualObjective']:.12g}, relative gap {gaps[0]:.1e} "
        f"(unshrunk), {gaps[1]:.1e} (shrinking); b {js['b']:.9g} / "
        f"{same.b:.9g} / {default.b:.9g}"
    )
    assert max(gaps) <= 1e-6
    # svmlib's Gram matrix differs from smo.js's in the last bits (a BLAS
    # product, numpy's exp), enough to break a near-tie of the selection
    # differently and end at another point within tol of optimal: the same
    # margins f(x) up to about tol, and the same support vectors where the
    # solution is unique (K nonsingular; with a linear kernel in 2-D or
    # duplicate points alpha is not unique, nor is the support set).
    unique = np.linalg.matrix_rank(K) == len(y)
    for py in (same, default):
        f_js = K @ (js["alpha"] * y) + js["b"]
        f_py = K @ (py.alpha * y) + py.b
        np.testing.assert_allclose(f_js, f_py, rtol=0, atol=10 * tol)
        assert js["b"] == pytest.approx(py.b, abs=10 * tol)
        if unique:
            assert set(np.flatnonzero(js["alpha"] > 0)) == set(
                np.flatnonzero(py.alpha > 0)
            )


def test_hard_margin_unbounded_raises_in_both(tmp_path):
    # the same point with both labels and C = inf: both refuse
    X = np.array([[0.0, 0.0], [0.0, 0.0], [1.0, 1.0]])
    y = np.array([1.0, -1.0, -1.0])
    with pytest.raises(ValueError, match="unbounded"):
        smo(linear_kernel(X) + 0.0, y, np.inf)
    harness = (
        "const S = require(process.argv[1]);"
        "const K = S.gramMatrix([[0,0],[0,0],[1,1]], 'linear');"
        "try { S.smo(K, 3, [1,-1,-1], Infinity); console.log('no error'); }"
        "catch (e) { console.log(e.message); }"
    )
    out = subprocess.run(
        [NODE, "-e", harness, str(ROOT / "_static/playground/smo.js")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "unbounded" in out.stdout


# ---------------------------------------------------------------------------
# The regression mode: epsilon-SVR on the same solver, against LIBSVM
# ---------------------------------------------------------------------------


def sine(n=40, noise=0.15, seed=4):
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(-2.8, 2.8, n))
    return x[:, None], np.sin(1.3 * x) + rng.normal(0, noise, n)


def kinked(n=30, seed=5):
    # a piecewise linear target with outliers, and a repeated x
    rng = np.random.default_rng(seed)
    x = rng.uniform(-2.5, 2.5, n)
    x[-1] = x[0]
    z = np.where(x < 0, -0.5 * x, 0.8 * x) + rng.normal(0, 0.1, n)
    z[[3, 11]] += [1.2, -1.0]
    return x[:, None], z


def line(n=25, seed=6):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-2.5, 2.5, n)
    return x[:, None], 0.4 * x - 0.3 + rng.normal(0, 0.3, n)


#: (name, data, kernel, C, epsilon, sigma)
REGRESSIONS = [
    ("sine-rbf", sine, "rbf", 10.0, 0.1, 0.7),
    ("sine-rbf-small-C", sine, "rbf", 0.1, 0.05, 0.7),
    ("sine-rbf-wide-tube", sine, "rbf", 100.0, 0.5, 0.4),
    ("sine-rbf-narrow-kernel", sine, "rbf", 3.0, 0.2, 0.15),
    ("kinked-rbf", kinked, "rbf", 30.0, 0.15, 1.0),
    ("kinked-rbf-large-C", kinked, "rbf", 1000.0, 0.05, 0.5),
    ("line-linear", line, "linear", 1.0, 0.2, None),
    ("line-linear-small-C", line, "linear", 0.05, 0.1, None),
]
TIGHT = 1e-9
TOL_PAGE = 1e-3  # the playground's (svmlib's default)


def run_svr(tmp_path, X, z, kernel, C, epsilon, sigma, tol, repeat=1):
    return run_harness(
        tmp_path,
        {
            "mode": "regression",
            "points": X.tolist(),
            "z": z.tolist(),
            "C": C,
            "epsilon": epsilon,
            "kernel": kernel,
            "sigma": sigma,
            "tol": tol,
            "repeat": repeat,
        },
    )


def libsvm_svr(X, z, kernel, C, epsilon, sigma, tol, shrinking=True):
    gamma = rbf_gamma(sigma) if kernel == "rbf" else "scale"
    return SVR(
        kernel=kernel,
        C=C,
        epsilon=epsilon,
        gamma=gamma,
        tol=tol,
        shrinking=shrinking,
    ).fit(X, z)


def svr_objective(K, z, epsilon, beta):
    """The epsilon-SVR dual as a minimum, from beta = alpha - alpha*.

    1/2 beta^T K beta + epsilon sum |beta_i| - z^T beta: with
    alpha_i alpha*_i = 0, as at every optimum with epsilon > 0, this is
    1/2 a^T Q a + p^T a of the 2n variables.
    """
    return 0.5 * beta @ K @ beta + epsilon * np.abs(beta).sum() - z @ beta


def full_beta(model, n):
    beta = np.zeros(n)
    beta[model.support_] = model.dual_coef_[0]
    return beta


@pytest.mark.parametrize(
    "name, data, kernel, C, epsilon, sigma",
    REGRESSIONS,
    ids=[p[0] for p in REGRESSIONS],
)
def test_regression_agrees_with_libsvm(
    tmp_path, name, data, kernel, C, epsilon, sigma
):
    X, z = data()
    n = len(z)
    js = run_svr(tmp_path, X, z, kernel, C, epsilon, sigma, TIGHT)
    assert js["converged"] and js["kktViolation"] <= TIGHT
    K = svmlib_gram(X, kernel, sigma)
    np.testing.assert_allclose(js["gram"], K, rtol=0, atol=1e-12)
    alpha, alpha_star = js["alpha"][:n], js["alpha"][n:]
    # feasible: the box and sum alpha = sum alpha*, and beta = alpha - alpha*
    assert np.all((js["alpha"] >= 0) & (js["alpha"] <= C))
    assert alpha.sum() == pytest.approx(alpha_star.sum(), abs=1e-12 * C * n)
    np.testing.assert_array_equal(js["beta"], alpha - alpha_star)
    # alpha_i alpha*_i = 0: a point is above or below the tube, not both
    assert np.all(np.minimum(alpha, alpha_star) == 0)
    # W from the error cache is -(the objective from beta)
    own = svr_objective(K, z, epsilon, js["beta"])
    assert -js["dualObjective"] == pytest.approx(own, rel=1e-9, abs=1e-12)

    # the KKT conditions of the tube on smo.js's own solution: inside the
    # tube beta = 0, outside |beta| = C, a free multiplier on the edge
    f = K @ js["beta"] + js["b"]
    r = z - f
    scale = 10 * TIGHT
    inside = np.abs(r) < epsilon - scale
    outside = np.abs(r) > epsilon + scale
    assert np.all(js["beta"][inside] == 0)
    np.testing.assert_array_equal(np.abs(js["beta"][outside]), C)
    np.testing.assert_array_equal(
        np.sign(js["beta"][outside]), np.sign(r[outside])
    )
    free = (js["beta"] != 0) & (np.abs(js["beta"]) < C)
    np.testing.assert_allclose(np.abs(r[free]), epsilon, rtol=0, atol=scale)

    for shrinking in (True, False):
        model = libsvm_svr(X, z, kernel, C, epsilon, sigma, TIGHT, shrinking)
        beta = full_beta(model, n)
        theirs = svr_objective(K, z, epsilon, beta)
        gap = abs(own - theirs) / abs(theirs)
        print(
            f"{name} (LIBSVM shrinking={shrinking}): n = {n}, "
            f"{np.count_nonzero(js['beta'])} support vectors (LIBSVM "
            f"{len(model.support_)}), {js['nIter']} SMO steps, objective "
            f"{own:.12g} / {theirs:.12g}, relative gap {gap:.1e}, "
            f"b {js['b']:.9g} / {model.intercept_[0]:.9g}"
        )
        assert gap <= 1e-6
        assert set(np.flatnonzero(js["beta"])) == set(model.support_)
        # LIBSVM keeps Q in single precision (svm.cpp: typedef float
        # Qfloat), so its f carries about 1e-7 of sum_i |beta_i| K_i. of
        # rounding: predictions and b agree to that, not to TIGHT (and
        # beta itself, where the Gaussian K is ill-conditioned, only as
        # far as f pins it down)
        rounding = 1e-6 * (1 + np.abs(beta).sum())
        assert js["b"] == pytest.approx(model.intercept_[0], abs=rounding)
        grid = np.linspace(-3, 3, 61)[:, None]
        K_grid = svmlib_gram_between(grid, X, kernel, sigma)
        np.testing.assert_allclose(
            K_grid @ js["beta"] + js["b"], model.predict(grid), atol=rounding
        )
        np.testing.assert_allclose(
            K @ js["beta"] + js["b"], model.predict(X), atol=rounding
        )


def svmlib_gram_between(A, B, kernel, sigma):
    if kernel == "linear":
        return linear_kernel(A, B)
    return rbf_kernel(A, B, sigma=sigma)


@pytest.mark.parametrize(
    "name, data, kernel, C, epsilon, sigma",
    REGRESSIONS[:4] + REGRESSIONS[6:7],
    ids=[p[0] for p in REGRESSIONS[:4] + REGRESSIONS[6:7]],
)
def test_regression_at_the_playground_tol(
    tmp_path, name, data, kernel, C, epsilon, sigma
):
    # the page's tol (1e-3): LIBSVM's stopping rule, so both stop within
    # tol of optimal: predictions within a few tol, objectives close
    X, z = data()
    js = run_svr(tmp_path, X, z, kernel, C, epsilon, sigma, TOL_PAGE)
    assert js["converged"] and js["kktViolation"] <= TOL_PAGE
    model = libsvm_svr(X, z, kernel, C, epsilon, sigma, TOL_PAGE)
    K = svmlib_gram(X, kernel, sigma)
    np.testing.assert_allclose(
        K @ js["beta"] + js["b"], model.predict(X), atol=10 * TOL_PAGE
    )
    ours = svr_objective(K, z, epsilon, js["beta"])
    theirs = svr_objective(K, z, epsilon, full_beta(model, len(z)))
    assert ours == pytest.approx(theirs, rel=1e-3, abs=TOL_PAGE)


def test_regression_one_point_and_zero_epsilon(tmp_path):
    # one point: 2 variables, alpha = alpha*, f = z_0 within epsilon
    X, z = np.array([[0.3]]), np.array([0.7])
    js = run_svr(tmp_path, X, z, "rbf", 1.0, 0.1, 0.5, TIGHT)
    assert js["converged"]
    np.testing.assert_array_equal(js["beta"], [0.0])
    assert abs(js["b"] - 0.7) <= 0.1 + 1e-12
    # epsilon = 0: every point that f misses is a support vector; beta,
    # f and the objective as LIBSVM's (alpha, alpha* need not be unique)
    X, z = sine(20)
    js = run_svr(tmp_path, X, z, "rbf", 5.0, 0.0, 0.7, TIGHT)
    model = libsvm_svr(X, z, "rbf", 5.0, 0.0, 0.7, TIGHT)
    K = svmlib_gram(X, "rbf", 0.7)
    ours = svr_objective(K, z, 0.0, js["beta"])
    theirs = svr_objective(K, z, 0.0, full_beta(model, 20))
    assert ours == pytest.approx(theirs, rel=1e-6)
    np.testing.assert_allclose(
        K @ js["beta"] + js["b"], model.predict(X), atol=1e-6
    )


def test_classifier_is_the_case_p_minus_one(tmp_path):
    # the general solver with p = -1 given explicitly, as an array, takes
    # the classifier's steps exactly (bit for bit)
    harness = (
        "const S = require(process.argv[1]);"
        "const pts = [[0,0],[1,0.2],[0.3,1],[-1,-0.5],[0.5,-1],[-0.2,0.8]];"
        "const y = [1,1,1,-1,-1,-1];"
        "const K = S.gramMatrix(pts, 'rbf', 0.6);"
        "const a = S.smo(K, 6, y, 2.0, {tol: 1e-9});"
        "const b = S.smo(K, 6, y, 2.0, {tol: 1e-9, p: [-1,-1,-1,-1,-1,-1]});"
        "console.log(JSON.stringify([a, b]));"
    )
    out = subprocess.run(
        [NODE, "-e", harness, str(ROOT / "_static/playground/smo.js")],
        capture_output=True,
        text=True,
        check=True,
    )
    default, explicit = json.loads(out.stdout)
    assert default == explicit
    assert default["nIter"] > 0 and default["converged"]


def test_regression_retrain_time_for_100_points(tmp_path):
    X, z = sine(100, seed=8)
    js = run_svr(tmp_path, X, z, "rbf", 10.0, 0.1, 0.5, TOL_PAGE, repeat=15)
    model = libsvm_svr(X, z, "rbf", 10.0, 0.1, 0.5, TOL_PAGE)
    print(
        f"\nregression, 100 points, RBF sigma 0.5, C 10, epsilon 0.1, tol "
        f"1e-3 under node: median {js['ms']:.2f} ms (Gram matrix, 200 x 200"
        f" expansion and SMO; {js['nIter']} steps, "
        f"{np.count_nonzero(js['beta'])} support vectors, LIBSVM "
        f"{len(model.support_)})"
    )
    assert js["converged"]


@pytest.mark.skipif(not hasattr(svmlib, "SVR"), reason="svmlib has no SVR yet")
@pytest.mark.parametrize(
    "name, data, kernel, C, epsilon, sigma",
    REGRESSIONS,
    ids=[p[0] for p in REGRESSIONS],
)
def test_regression_agrees_with_svmlib_svr(
    tmp_path, name, data, kernel, C, epsilon, sigma
):
    X, z = data()
    js = run_svr(tmp_path, X, z, kernel, C, epsilon, sigma, TIGHT)
    params = {"kernel": kernel, "C": C, "epsilon": epsilon, "tol": TIGHT}
    if kernel == "rbf":
        params["gamma"] = rbf_gamma(sigma)
    model = svmlib.SVR(**params).fit(X, z)
    K = svmlib_gram(X, kernel, sigma)
    beta = full_beta(model, len(z))
    ours = svr_objective(K, z, epsilon, js["beta"])
    theirs = svr_objective(K, z, epsilon, beta)
    assert ours == pytest.approx(theirs, rel=1e-6)
    assert set(np.flatnonzero(js["beta"])) == set(model.support_)
    np.testing.assert_allclose(
        K @ js["beta"] + js["b"], model.predict(X), atol=1e-6
    )
