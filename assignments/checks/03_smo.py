"""Hidden checks of 03_smo.ipynb, judged outside the student's kernel.

Each check calls the student's functions in the sandbox on the inputs
below (plain data) and judges the returned numbers here, in the grader's
process, against svmlib's SMO steps, its simplified SMO and its full SMO
run to a tight tolerance (svmbook_classroom.checks; instructors.md,
"Writing a hidden check").
"""

import numpy as np

from svmbook_classroom.checks import Check, Probe
from svmlib.datasets.toy import make_sine_separated
from svmlib.duality import dual_objective, error_cache, max_violation
from svmlib.kernels import rbf_kernel
from svmlib.solvers import smo, step_bounds, two_variable_step
from svmlib.solvers.simplified import _threshold, simplified_smo

# The notebook's data, made the same way as in its setup cell.
RANDOM_STATE = 0
X, y = make_sine_separated(120, noise=0.3, random_state=RANDOM_STATE)
N = len(y)
C, SIGMA = 1.0, 1.0
K = rbf_kernel(X, sigma=SIGMA)

# bounds: random multipliers (some at 0), labels and C; equal and opposite
# labels at the box's corners
_rng = np.random.default_rng(301)
BOUNDS_CASES = []
for _ in range(40):
    _C = float(_rng.uniform(0.1, 10))
    _ai, _aj = _rng.uniform(0, _C, size=2) * (_rng.uniform(size=2) > 0.3)
    _yi, _yj = _rng.choice([-1.0, 1.0], size=2)
    BOUNDS_CASES.append((float(_ai), float(_aj), float(_yi), float(_yj), _C))
BOUNDS_CASES += [
    (0.2, 0.5, 1.0, -1.0, 1.0),
    (0.2, 0.5, 1.0, 1.0, 1.0),
    (1.0, 1.0, -1.0, -1.0, 1.0),
    (0.0, 0.0, 1.0, -1.0, 2.0),
]

# pair_step: random pairs of the notebook's points, multipliers and errors;
# the notebook's first step from alpha = 0 (ends inside the box at C = 10);
# eta = 0 (a duplicated point: no step)
_rng = np.random.default_rng(302)
STEP_CASES = []
for _ in range(40):
    _i, _j = _rng.choice(N, size=2, replace=False)
    _C = float(_rng.choice([0.5, 1.0, 10.0]))
    _ai, _aj = _rng.uniform(0, _C, size=2) * (_rng.uniform(size=2) > 0.3)
    _Ei, _Ej = _rng.normal(size=2)
    STEP_CASES.append(
        tuple(
            float(v)
            for v in (_ai, _aj, y[_i], y[_j], _Ei, _Ej)
            + (K[_i, _i], K[_j, _j], K[_i, _j], _C)
        )
    )
_i = 0
_j = int(np.flatnonzero((y != y[_i]) & (K[_i] < 0.5))[0])
_E0 = error_cache(np.zeros(N), K, y)
STEP_CASES.append(
    tuple(
        float(v)
        for v in (0.0, 0.0, y[_i], y[_j], _E0[_i], _E0[_j])
        + (K[_i, _i], K[_j, _j], K[_i, _j], 10.0)
    )
)
STEP_CASES.append((0.3, 0.2, 1.0, -1.0, 0.5, -0.5, 1.0, 1.0, 1.0, 1.0))

# new_threshold: random errors, steps, labels, kernel values, and new
# multipliers at 0, inside and at C = 1 (every rule of the handout)
_rng = np.random.default_rng(303)
THRESHOLD_CASES = []
for _ in range(40):
    _args = (
        list(_rng.normal(size=5))
        + list(_rng.choice([-1.0, 1.0], size=2))
        + list(_rng.uniform(0, 2, size=3))
        + list(_rng.choice([0.0, 0.4, 1.0], size=2))
        + [1.0]
    )
    THRESHOLD_CASES.append(tuple(float(v) for v in _args))
THRESHOLD_CASES.append(
    (0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0)
)

SMO_RUNS = [(C, 0), (0.1, 1), (0.1, 2), (0.1, 3), (1.0, 1), (1.0, 2)]
SMO_RUNS += [(1.0, 3), (10.0, 1), (10.0, 2), (10.0, 3)]

# Reference versions of the earlier questions, run in the kernel for the
# probes that grade a question alone (a mistake in an earlier answer costs
# no points in a later one).
STAND_INS = """
from svmlib.solvers import step_bounds, two_variable_step
from svmlib.solvers.simplified import _threshold
from svmlib.solvers.simplified import simplified_smo as _library_smo


def bounds(alpha_i, alpha_j, y_i, y_j, C):
    return step_bounds(alpha_i, alpha_j, y_i, y_j, C)


def pair_step(alpha_i, alpha_j, y_i, y_j, E_i, E_j, K_ii, K_jj, K_ij, C):
    return two_variable_step(
        alpha_i, alpha_j, y_i, y_j, E_i, E_j, K_ii, K_jj, K_ij, C
    )


def new_threshold(*args):
    return _threshold(*args)


def simplified_smo(
    K, y, C, tol=1e-3, max_passes=10, max_sweeps=1000, random_state=0
):
    result = _library_smo(
        K, y, C, tol=tol, max_passes=max_passes, random_state=random_state
    )
    return result.alpha, result.b
"""
ONLY_BOUNDS = STAND_INS.split("\n\n\ndef pair_step")[0] + "\n"
UP_TO_THRESHOLD = STAND_INS.split("\n\n\ndef simplified_smo")[0] + "\n"
# the snapping: the optimum with its bound multipliers 1e-10 off the bounds
NEARLY_OPTIMAL = """
import numpy as np
from svmlib.solvers import smo


def simplified_smo(K, y, C, random_state=0, **options):
    a = smo(K, y, C, tol=1e-6).alpha
    return np.where(a == 0, 1e-10, np.where(a == C, C - 1e-10, a)), 0.0
"""


def _number(value):
    value = np.asarray(value, dtype=float)
    assert value.shape == () and np.isfinite(value)
    return float(value)


def _pair(value):
    assert isinstance(value, list) and len(value) == 2
    return _number(value[0]), _number(value[1])


def judge_bounds(r):
    for k, case in enumerate(BOUNDS_CASES):
        assert np.allclose(_pair(r[f"case{k}"]), step_bounds(*case))


def judge_pair_step(r):
    # svmlib's step handles eta = 0 as Platt does (the better end of the
    # segment); the handout's rule is no step, judged below
    for k, case in enumerate(STEP_CASES[:-1]):
        a_i, a_j = _pair(r[f"case{k}"])
        assert np.allclose((a_i, a_j), two_variable_step(*case), atol=1e-9)
        # the step stays on the constraint line
        alpha_i, alpha_j, y_i, y_j = case[:4]
        assert np.isclose(a_i * y_i + a_j * y_j, alpha_i * y_i + alpha_j * y_j)
    # eta = 0: no step at all
    assert _pair(r[f"case{len(STEP_CASES) - 1}"]) == (0.3, 0.2)


def judge_new_threshold(r):
    for k, case in enumerate(THRESHOLD_CASES):
        assert np.isclose(_number(r[f"case{k}"]), _threshold(*case))


_OPTIMA = {}


def optimum(C_box):
    """svmlib's SMO at a tight tolerance (computed once per C)."""
    if C_box not in _OPTIMA:
        _OPTIMA[C_box] = smo(K, y, C_box, tol=1e-6)
    return _OPTIMA[C_box]


def _solution(value, C_box):
    alpha, b = value
    alpha = np.asarray(alpha, dtype=float)
    assert alpha.shape == (N,) and np.all(np.isfinite(alpha))
    assert np.all(alpha >= -1e-9) and np.all(alpha <= C_box + 1e-9)
    assert abs(alpha @ y) < 1e-8  # the equality constraint
    return alpha, _number(b)


def judge_simplified_smo(r):
    # seeded: the same run twice
    alpha, b = _solution(r["again"], C)
    alpha0, b0 = _solution(r["run0"], C)
    assert np.array_equal(alpha, alpha0) and b == b0
    best = optimum(C)
    assert dual_objective(alpha0, K, y) >= best.dual_objective * (1 - 1e-3)
    f_best = K @ (best.alpha * y) + best.b
    f = K @ (alpha0 * y) + b0
    assert np.mean(np.sign(f) == np.sign(f_best)) >= 0.98
    # any seed, any C: the dual objective within 1% of the optimum (and
    # not above it), a training accuracy at most 0.05 below the optimum's,
    # and for C >= 1 the optimum's sign at 98% of the points
    for k, (C_box, _) in enumerate(SMO_RUNS):
        alpha, b = _solution(r[f"run{k}"], C_box)
        best = optimum(C_box)
        W = dual_objective(alpha, K, y)
        assert (
            best.dual_objective * (1 - 1e-2)
            <= W
            <= best.dual_objective * (1 + 1e-9)
        )
        f_best = K @ (best.alpha * y) + best.b
        f = K @ (alpha * y) + b
        assert np.mean(np.sign(f) == y) >= np.mean(np.sign(f_best) == y) - 0.05
        if C_box >= 1:
            assert np.mean(np.sign(f) == np.sign(f_best)) >= 0.98
    # max_sweeps bounds the work: one sweep is far from the optimum
    alpha, _ = _solution(r["one_sweep"], C)
    assert dual_objective(alpha, K, y) < optimum(C).dual_objective * 0.99


def expected_violations(solve, C_box, seeds):
    """The maximal KKT violation of a solver's solution, per seed."""
    violations = []
    for seed in seeds:
        a = solve(C_box, seed)
        a = np.where(a < 1e-8, 0.0, np.where(a > C_box - 1e-8, C_box, a))
        violations.append(max_violation(a, y, C_box, error_cache(a, K, y)))
    return violations


def _library(C_box, seed):
    return simplified_smo(K, y, C_box, tol=1e-3, random_state=seed).alpha


def _nearly_optimal(C_box, seed):
    a = optimum(C_box).alpha
    return np.where(a == 0, 1e-10, np.where(a == C_box, C_box - 1e-10, a))


def _violations(value, count):
    value = np.asarray(value, dtype=float)
    assert value.shape == (count,) and np.all(np.isfinite(value))
    return value


def judge_violations(r):
    got = _violations(r["five_seeds"], 5)
    assert np.allclose(got, expected_violations(_library, C, range(5)))
    got = _violations(r["C10"], 2)
    assert np.allclose(got, expected_violations(_library, 10.0, [7, 8]))
    # multipliers 1e-10 off the bounds count as on them
    got = _violations(r["snapped"], 1)
    assert got[0] < 1e-5
    assert np.isclose(got[0], expected_violations(_nearly_optimal, C, [0])[0])


def _smo_probe(name, C_box, **kwargs):
    return Probe(
        name, "simplified_smo", (K, y, C_box), kwargs, UP_TO_THRESHOLD
    )


CHECKS = [
    Check(
        "test_bounds",
        tuple(
            Probe(f"case{k}", "bounds", case)
            for k, case in enumerate(BOUNDS_CASES)
        ),
        judge_bounds,
        "with y_i != y_j, alpha_j - alpha_i is fixed: L = max(0, alpha_j - "
        "alpha_i), H = min(C, C + alpha_j - alpha_i); with y_i = y_j, "
        "alpha_i + alpha_j is fixed: L = max(0, alpha_i + alpha_j - C), "
        "H = min(C, alpha_i + alpha_j)",
    ),
    Check(
        "test_pair_step",
        tuple(
            Probe(f"case{k}", "pair_step", case, {}, ONLY_BOUNDS)
            for k, case in enumerate(STEP_CASES)
        ),
        judge_pair_step,
        "eta = K_ii + K_jj - 2 K_ij; alpha_j moves by y_j (E_i - E_j) / eta "
        "and is clipped to [L, H]; alpha_i moves by y_i y_j times alpha_j's "
        "change in the other direction; no step (the old values) when "
        "L >= H or eta <= 0",
    ),
    Check(
        "test_new_threshold",
        tuple(
            Probe(f"case{k}", "new_threshold", case)
            for k, case in enumerate(THRESHOLD_CASES)
        ),
        judge_new_threshold,
        "b1 = b - E_i - y_i delta_i K_ii - y_j delta_j K_ij, "
        "b2 = b - E_j - y_j delta_j K_jj - y_i delta_i K_ij; b1 if the new "
        "alpha_i is strictly inside (0, C), else b2 if the new alpha_j is, "
        "else their mean",
    ),
    Check(
        "test_simplified_smo",
        (
            _smo_probe("again", C),
            *(
                _smo_probe(f"run{k}", C_box, random_state=seed)
                for k, (C_box, seed) in enumerate(SMO_RUNS)
            ),
            _smo_probe("one_sweep", C, max_sweeps=1),
        ),
        judge_simplified_smo,
        "the CS229 simplified SMO: for each i that violates the KKT "
        "conditions by more than tol, a random partner j != i drawn from "
        "np.random.default_rng(random_state); stop after max_passes sweeps "
        "without a change, or after max_sweeps sweeps; it must come within "
        "1% of the optimum of W for any C and seed",
    ),
    Check(
        "test_violations",
        (
            Probe(
                "five_seeds",
                "violations_by_seed",
                (K, y, C, [0, 1, 2, 3, 4]),
                stand_ins=STAND_INS,
            ),
            Probe(
                "C10",
                "violations_by_seed",
                (K, y, 10.0, [7, 8]),
                stand_ins=STAND_INS,
            ),
            Probe(
                "snapped",
                "violations_by_seed",
                (K, y, C, [0]),
                stand_ins=NEARLY_OPTIMAL,
            ),
        ),
        judge_violations,
        "for each seed, run simplified_smo(K, y, C, random_state=seed) on "
        "the K, y and C given, put the multipliers within 1e-8 of 0 or C on "
        "the bound, and report max_violation(alpha, y, C, "
        "error_cache(alpha, K, y))",
    ),
]
