"""Hidden checks of 06_em_gmm.ipynb, judged outside the student's kernel.

Each check calls the student's functions in the sandbox on the inputs
below (plain data) and judges the returned numbers here, in the grader's
process, against svmlib's and SciPy's references (svmbook_classroom.checks;
instructors.md, "Writing a hidden check").
"""

import numpy as np
from scipy.stats import multivariate_normal
from sklearn.metrics import adjusted_rand_score

from svmbook_classroom.checks import Check, Probe
from svmlib.mixture import GaussianMixtureEM, gaussian_e_step, gaussian_m_step

# The notebook's data, made the same way as in its setup cell.
RANDOM_STATE = 0
rng = np.random.default_rng(RANDOM_STATE)
TRUE_MEANS = np.array([[0.0, 0.0], [4.0, 1.0], [1.0, 4.0]])
TRUE_COVARIANCES = np.array(
    [
        [[1.0, 0.5], [0.5, 1.0]],
        [[0.6, 0.0], [0.0, 1.5]],
        [[1.2, -0.6], [-0.6, 0.8]],
    ]
)
COUNTS = [250, 200, 150]
X = np.vstack(
    [
        rng.multivariate_normal(m, S, size=k)
        for m, S, k in zip(TRUE_MEANS, TRUE_COVARIANCES, COUNTS, strict=True)
    ]
)
Z_TRUE = np.repeat(np.arange(3), COUNTS)
N, D = X.shape
WEIGHTS = np.array(COUNTS) / N
SOFT = np.random.default_rng(603).dirichlet(np.ones(3), size=N)
FAR = np.array([[60.0, -60.0]])

# Reference versions of the earlier questions, run in the kernel for the
# probes that grade a question alone (a mistake in an earlier answer costs
# no points in a later one).
STAND_INS = """
import numpy as np
from svmlib.mixture import (
    gaussian_e_step, gaussian_log_densities, gaussian_m_step,
)


def log_gaussian(X, mean, cov):
    return gaussian_log_densities(X, mean[None], np.asarray(cov)[None])[:, 0]


def e_step(X, weights, means, covariances):
    log_resp, log_px = gaussian_e_step(X, weights, means, covariances)
    return np.exp(log_resp), float(np.mean(log_px))


def m_step(X, resp, reg_covar=1e-6):
    return gaussian_m_step(X, resp, reg_covar)
"""
ONLY_LOG_GAUSSIAN = STAND_INS.split("\n\n\ndef e_step")[0] + "\n"


def _reference_fit():
    model = GaussianMixtureEM(
        n_components=3,
        tol=1e-8,
        max_iter=500,
        n_init=5,
        init_params="random",
        random_state=RANDOM_STATE,
    )
    return model.fit(X)


_FIT = []


def reference_fit():
    """svmlib's EM on X (fitted once, on first use)."""
    if not _FIT:
        _FIT.append(_reference_fit())
    return _FIT[0]


def judge_log_gaussian(r):
    for k in range(3):
        expected = multivariate_normal(
            TRUE_MEANS[k], TRUE_COVARIANCES[k]
        ).logpdf(X)
        got = np.asarray(r[f"component{k}"], dtype=float)
        assert got.shape == (N,) and np.allclose(got, expected)
    far = np.asarray(r["far"], dtype=float)
    assert far.shape == (1,) and np.all(np.isfinite(far))
    assert far[0] < -1e5  # the exact value is about -1e8


def _reference_e_step(points):
    log_resp, log_px = gaussian_e_step(
        points, WEIGHTS, TRUE_MEANS, TRUE_COVARIANCES
    )
    return np.exp(log_resp), float(np.mean(log_px))


def judge_e_step(r):
    resp, mean_ll = r["true_parameters"]
    expected_resp, expected_ll = _reference_e_step(X)
    resp = np.asarray(resp, dtype=float)
    assert resp.shape == (N, 3) and np.allclose(resp, expected_resp)
    assert np.isclose(float(np.asarray(mean_ll)), expected_ll)
    far, _ = r["far_point"]
    far = np.asarray(far, dtype=float)
    assert far.shape == (1, 3) and np.all(np.isfinite(far))
    assert np.isclose(far.sum(), 1.0)
    assert np.allclose(far, _reference_e_step(FAR)[0], atol=1e-8)


def judge_m_step(r):
    got = r["soft"]
    assert len(got) == 3
    for expected, value in zip(
        gaussian_m_step(X, SOFT, 1e-3), got, strict=True
    ):
        value = np.asarray(value, dtype=float)
        assert value.shape == expected.shape and np.allclose(value, expected)


def _history_ok(history, n_iter=200):
    history = np.asarray(history, dtype=float)
    assert history.ndim == 1 and 2 <= len(history) <= n_iter + 1
    assert np.all(np.isfinite(history))
    assert np.all(np.diff(history) >= -1e-10)
    return history


def judge_fit_gmm(r):
    weights, means, covariances, history = r["seed0"]
    weights = np.asarray(weights, dtype=float)
    means = np.asarray(means, dtype=float)
    covariances = np.asarray(covariances, dtype=float)
    history = _history_ok(history)
    assert weights.shape == (3,) and np.isclose(weights.sum(), 1.0)
    assert means.shape == (3, D) and covariances.shape == (3, D, D)
    assert history[-1] >= reference_fit().score(X) - 1e-3
    order = np.argsort(means[:, 0])
    true_order = np.argsort(TRUE_MEANS[:, 0])
    assert np.allclose(means[order], TRUE_MEANS[true_order], atol=0.3)
    # the history ends at the returned parameters
    _, log_px = gaussian_e_step(X, weights, means, covariances)
    assert np.isclose(np.mean(log_px), history[-1])
    for seed in (1, 2, 3):
        _history_ok(r[f"seed{seed}"][3])
    assert len(np.asarray(r["two_iterations"][3])) == 3


def judge_assign(r):
    clusters = np.asarray(r["svmlib_parameters"])
    assert clusters.shape == (N,) and clusters.dtype.kind in "iu"
    assert set(np.unique(clusters)) <= {0, 1, 2}
    assert adjusted_rand_score(Z_TRUE, clusters) > 0.8
    expected = reference_fit().predict(X)
    assert (
        np.array_equal(clusters, expected)
        or adjusted_rand_score(expected, clusters) > 0.99
    )


def _fit_probe(name, **kwargs):
    return Probe(name, "fit_gmm", (X, 3), kwargs, STAND_INS)


def _assign_probe():
    model = reference_fit()
    return Probe(
        "svmlib_parameters",
        "assign",
        (X, model.weights_, model.means_, model.covariances_),
        stand_ins=STAND_INS,
    )


CHECKS = [
    Check(
        "test_log_gaussian",
        tuple(
            Probe(
                f"component{k}",
                "log_gaussian",
                (X, TRUE_MEANS[k], TRUE_COVARIANCES[k]),
            )
            for k in range(3)
        )
        + (
            Probe(
                "far",
                "log_gaussian",
                (np.array([[1e3, 1e3]]), np.zeros(D), 0.01 * np.eye(D)),
            ),
        ),
        judge_log_gaussian,
        "log N(x; mean, cov) must agree with the Gaussian log-density for "
        "every row, and stay finite (a large negative number) far from the "
        "mean: work with the Cholesky factor and logs, never exp then log",
    ),  # fmt: skip
    Check(
        "test_e_step",
        (
            Probe(
                "true_parameters",
                "e_step",
                (X, WEIGHTS, TRUE_MEANS, TRUE_COVARIANCES),
                stand_ins=ONLY_LOG_GAUSSIAN,
            ),
            Probe(
                "far_point",
                "e_step",
                (FAR, WEIGHTS, TRUE_MEANS, TRUE_COVARIANCES),
                stand_ins=ONLY_LOG_GAUSSIAN,
            ),
        ),
        judge_e_step,
        "the responsibilities are w_k N(x; m_k, S_k) normalised over k, "
        "and the second value is the mean of log p(x_i); normalise in log "
        "space (log-sum-exp) so that a point far from every component "
        "still gets finite responsibilities that sum to 1",
    ),  # fmt: skip
    Check(
        "test_m_step",
        (Probe("soft", "m_step", (X, SOFT), {"reg_covar": 1e-3}),),
        judge_m_step,
        "with soft responsibilities: weights N_k / n, means the "
        "responsibility-weighted averages, covariances the weighted "
        "scatter about the new means divided by N_k, plus reg_covar times "
        "the identity",
    ),  # fmt: skip
    Check(
        "test_fit_gmm",
        (
            _fit_probe("seed0"),
            _fit_probe("seed1", random_state=1),
            _fit_probe("seed2", random_state=2),
            _fit_probe("seed3", random_state=3),
            _fit_probe("two_iterations", n_iter=2),
        ),
        judge_fit_gmm,
        "EM alternates E and M steps; the mean log-likelihood must never "
        "decrease, the history must end at the parameters returned (one "
        "entry per E step, n_iter bounds the iterations), and the fit must "
        "reach svmlib's likelihood",
    ),  # fmt: skip
    Check(
        "test_assign",
        (_assign_probe(),),
        judge_assign,
        "each point goes to the component with the largest responsibility "
        "under the parameters given",
    ),
]
