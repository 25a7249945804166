"""Differential test: svmlib.SVC against LIBSVM, LinearSVC against LIBLINEAR.

scikit-learn's ``SVC`` is LIBSVM and its ``LinearSVC`` is LIBLINEAR. Each
case fits svmlib and scikit-learn with the same parameters (C, kernel,
tol, max_iter, shrinking, sample weights) on random problems that cross
the regimes users meet: the kernel (linear, polynomial of degree 1 to 30,
RBF, sigmoid, precomputed), the scale of the features (1e-150 to 1e150), C
(1e-13 to 1e13), gamma, duplicated points with the same and with the
opposite label, class balance, 2 to 6 classes, sample weights (some zero).
Issue 24's reproducers are explicit examples. Hypothesis runs
derandomized, without an example database: CI sees the same cases every
time.

Neither library is trusted: each model is judged by a certificate
computed here from its fitted attributes and our own Gram matrix (see
``differential_cases``): a feasible alpha, its dual objective D and
primal objective P, both models' [D, P] intervals containing the optimum,
the duality gap within what ``tol`` guarantees, the same support set
where the solution is unique, the same predictions except where the
decision value is within what the gaps allow, and a fit time bounded by
scikit-learn's (50 times, plus 1 s).
"""

import time
import warnings

import numpy as np
import pytest
from differential_cases import (
    Kernel,
    Problem,
    certificate,
    lambda_min,
    linear_primal,
    machines,
)
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from sklearn import svm as sk_svm
from sklearn.exceptions import ConvergenceWarning
from threadpoolctl import threadpool_limits

import svmlib

#: (d) time. The developers' rule: speed is measured in benchmarks, never
#: asserted in timed tests (a shared CI machine makes wall-clock bounds
#: flaky: 14441 steps took 7.6 s here under load). What is asserted is the
#: work: svmlib's SMO steps at most STEP_FACTOR times LIBSVM's, plus
#: STEP_CONSTANT per machine, so no fit spins; each step costs 40-150 us of
#: NumPy calls against LIBSVM's 0.2 us (benchmarks/, and issue 27).
STEP_FACTOR, STEP_CONSTANT = 5.0, 100

#: The same step budget for both libraries (max_iter), on every machine.
MAX_ITER = 3000

#: Where LIBSVM converged in at most this fraction of MAX_ITER steps,
#: svmlib (the same working-set selection and shrinking) must converge.
CONVERGED_FRACTION = 0.25


def log_uniform(low, high):
    """10^e, e uniform in [log10 low, log10 high]."""
    return st.floats(np.log10(low), np.log10(high)).map(lambda e: 10.0**e)


problems = st.builds(
    Problem,
    n=st.integers(6, 40),
    d=st.integers(1, 6),
    n_classes=st.sampled_from([2, 2, 2, 3, 4, 6]),
    seed=st.integers(0, 2**16),
    separation=st.floats(0.0, 4.0),
    imbalance=st.floats(0.2, 1.0),
    same_duplicates=st.integers(0, 4),
    opposite_duplicates=st.integers(0, 3),
    weights=st.sampled_from(["none", "random", "zeros", "integers"]),
    scale=st.one_of(st.just(1.0), log_uniform(1e-150, 1e150)),
)

kernels = st.builds(
    Kernel,
    name=st.sampled_from(["linear", "poly", "rbf", "sigmoid", "precomputed"]),
    gamma_value=log_uniform(1e-3, 1e3),
    gamma_mode=st.sampled_from(["relative", "absolute"]),
    degree=st.one_of(st.integers(1, 12), st.sampled_from([15, 20, 30])),
    coef0=st.sampled_from([0.0, 1.0, -1.0]),
)

svc_settings = st.fixed_dictionaries(
    {
        "C": log_uniform(1e-13, 1e13),
        "tol": st.sampled_from([1e-3, 1e-5]),
        "shrinking": st.booleans(),
    }
)


def fit_timed(model, X, y, sample_weight):
    """Fit; return (seconds, ConvergenceWarnings, error or None)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        start = time.perf_counter()
        try:
            model.fit(X, y, sample_weight=sample_weight)
            error = None
        except ValueError as raised:
            error = raised
        seconds = time.perf_counter() - start
    flagged = [
        str(w.message)
        for w in caught
        if issubclass(w.category, ConvergenceWarning)
    ]
    others = [
        str(w.message)
        for w in caught
        if not issubclass(w.category, ConvergenceWarning)
    ]
    return seconds, flagged, others, error


def representable(K, X, kernel):
    """Whether the kernel values (and squared norms) are well inside float64.

    Returns "yes", "edge" (finite but within a factor 1e8 of overflow: a
    library may overflow where we did not) or "no" (inf or nan here).
    """
    with np.errstate(over="ignore", invalid="ignore"):
        norms = np.einsum("ij,ij->i", X, X)
    if not np.all(np.isfinite(K)) or (
        kernel.name != "precomputed" and not np.all(np.isfinite(norms))
    ):
        return "no"
    largest = max(np.abs(K).max(), np.abs(norms).max())
    return "edge" if largest > 1e300 else "yes"


def point_C(C, y, sample_weight):
    weight = np.ones(y.size) if sample_weight is None else sample_weight
    return C * weight


def ovo_decision(model, X, n_classes):
    """The models' own pairwise decision values, shape (n, n_machines)."""
    f = model.decision_function(X)
    return f[:, None] if n_classes == 2 else f


def vote(f, n_classes):
    """Class indices predicted from the machines' decision values.

    Two classes: class 1 where f > 0 (scikit-learn's sign). More: one vote
    per machine (i, j), for i where f > 0, else j; ties to the first class
    (LIBSVM's rule).
    """
    if n_classes == 2:
        return (f[:, 0] > 0).astype(int)
    votes = np.zeros((f.shape[0], n_classes), dtype=int)
    pairs = [(a, b) for a in range(n_classes) for b in range(a + 1, n_classes)]
    for p, (i, j) in enumerate(pairs):
        votes[:, i] += f[:, p] > 0
        votes[:, j] += f[:, p] <= 0
    return np.argmax(votes, axis=1)


def check_svc(problem, kernel, C, tol, shrinking):
    """Fit both SVCs and return the list of what svmlib got wrong."""
    X, y, sample_weight = problem.build()
    d = X.shape[1]
    # Left out (a known limit, issue 24's closing note): the Gaussian kernel
    # where the rounding of ||x||^2 + ||z||^2 - 2 x.z, about
    # gamma eps max ||x||^2 in the exponent, exceeds 1e-6. LIBSVM's
    # training kernel gets K(x, x) = 1 exactly (its x.x and ||x||^2 are the
    # same sum); svmlib's BLAS product and norms round differently, and at
    # ||x|| = 1e7, gamma = 1 its diagonal is exp(-0.1).
    if kernel.name == "rbf":
        largest = float(np.max(np.einsum("ij,ij->i", X, X)))
        gamma = kernel.gamma(d, problem.scale)
        assume(gamma * np.finfo(np.float64).eps * largest <= 1e-6)
    K = kernel.gram(X, d, problem.scale)
    params = dict(
        kernel.params(d, problem.scale),
        C=C,
        tol=tol,
        shrinking=shrinking,
        max_iter=MAX_ITER,
        decision_function_shape="ovo",
    )
    X_fit = K if kernel.name == "precomputed" else X
    classes, y_index = np.unique(y, return_inverse=True)
    n_classes = classes.size
    found = []

    ours = svmlib.SVC(**params)
    status = representable(K, X, kernel)
    if status == "no":
        # Kernel values overflow float64: no answer is right; svmlib must
        # say so with a ValueError (LIBSVM would train on inf and nan).
        _, _, _, error = fit_timed(ours, X_fit, y, sample_weight)
        if error is None:
            found.append(
                "kernel values overflow float64, but svmlib.SVC fitted "
                "without raising a ValueError"
            )
        return found

    theirs = sk_svm.SVC(**params)
    t_sk, flagged_sk, _, error_sk = fit_timed(theirs, X_fit, y, sample_weight)
    t_sv, flagged_sv, _, error = fit_timed(ours, X_fit, y, sample_weight)
    if error is not None:
        if status != "edge" and error_sk is None:
            found.append(f"svmlib.SVC raised ValueError: {error}")
        return found
    if error_sk is not None:
        # LIBSVM's solution is not finite ("The dual coefficients or
        # intercepts are not finite"): no reference; svmlib's model is
        # judged by its own certificate (compared with itself below)
        theirs, flagged_sk = ours, flagged_sv

    C_point = point_C(C, y, sample_weight)
    kept = np.flatnonzero(C_point > 0)
    # scikit-learn's support_ indexes the rows of positive weight
    sk_support = ours.support_ if theirs is ours else kept[theirs.support_]
    mach_sk = machines(
        sk_support, theirs.dual_coef_, theirs.intercept_, y_index,
        n_classes, C_point,
    )  # fmt: skip
    mach_sv = machines(
        ours.support_, ours.dual_coef_, ours.intercept_, y_index,
        n_classes, C_point,
    )  # fmt: skip
    # LIBSVM's decision values from its attributes: scikit-learn's own
    # decision_function reads the columns support_ of a precomputed
    # kernel, which index the kept rows, not the training set
    f_sk = np.column_stack([K[:, m.members] @ m.v + m.b for m in mach_sk])
    f_sv = ovo_decision(ours, X_fit, n_classes)

    converged_sk = not flagged_sk
    converged_sv = not flagged_sv
    steps_sk = np.atleast_1d(theirs.n_iter_)
    steps_sv = np.atleast_1d(ours.n_iter_)
    if converged_sk and steps_sv.sum() > STEP_FACTOR * steps_sk.sum() + (
        STEP_CONSTANT * steps_sv.size
    ):
        found.append(
            f"svmlib took {steps_sv.tolist()} steps where LIBSVM took "
            f"{steps_sk.tolist()} (bound {STEP_FACTOR:g} x + "
            f"{STEP_CONSTANT} a machine)"
        )
    if (
        converged_sk
        and steps_sk.max() <= CONVERGED_FRACTION * MAX_ITER
        and not converged_sv
    ):
        found.append(
            f"svmlib did not converge (steps {steps_sv.tolist()}: "
            f"{flagged_sv[0][:160]}) where LIBSVM converged in "
            f"{steps_sk.tolist()} steps"
        )

    certified = []
    for p, (m_sk, m_sv) in enumerate(zip(mach_sk, mach_sv, strict=True)):
        c_sk, c_sv = certificate(m_sk, K), certificate(m_sv, K)
        certified.append((c_sk, c_sv))
        name = f"machine {p}" if n_classes > 2 else "the machine"
        if steps_sv[p] == 0 or c_sv.n_positive == 0 or c_sv.n_negative == 0:
            # alpha = 0 is never optimal (a step on any pair of opposite
            # labels gains), and neither is an alpha on one class only
            found.append(
                f"{name}: {steps_sv[p]} steps, support vectors "
                f"{c_sv.n_positive} (+1) and {c_sv.n_negative} (-1); "
                f"LIBSVM: {steps_sk[p]} steps, {c_sk.n_positive} and "
                f"{c_sk.n_negative}"
            )
        if not c_sv.feasible:
            found.append(f"{name}: infeasible alpha: {c_sv.infeasibility}")
        # decision_function agrees with the fitted attributes
        members = m_sv.members
        with np.errstate(over="ignore", invalid="ignore"):
            mine = K[:, members] @ m_sv.v + m_sv.b
            size = np.abs(K[:, members]) @ np.abs(m_sv.v) + abs(m_sv.b)
        # the Gaussian kernel by ||x||^2 + ||z||^2 - 2 x.z (svmlib's, and
        # LIBSVM's for training) carries an absolute error of about
        # gamma eps (||x||^2 + ||z||^2) in the exponent: far from the
        # origin, K(x, x) is 1 - 2e-6 at ||x|| = 1e5, gamma = 1
        exponent_error = 0.0
        if kernel.name == "rbf":
            largest = float(np.max(np.einsum("ij,ij->i", X, X)))
            exponent_error = (
                8
                * np.finfo(np.float64).eps
                * (kernel.gamma(d, problem.scale) * 2 * largest)
            )
        tolerance = (1e-7 + exponent_error) * size + 1e-300
        if np.any(np.abs(f_sv[:, p] - mine) > tolerance):
            found.append(
                f"{name}: decision_function differs from sum dual_coef_ K "
                "+ intercept_"
            )
        total_C = float(m_sv.C.sum())
        if converged_sv:
            # the violation computed here carries the rounding of f: the
            # sum of |alpha_j K_ij| terms, which cancel where rows repeat
            # (duplicates with opposite labels: 1e14-sized terms gave a
            # violation of 2^-6 from rounding alone)
            rounding = 64 * np.finfo(np.float64).eps * float(np.max(size))
            allowed = tol + 1e-7 * (np.abs(c_sv.f).max() + 1.0) + rounding
            if c_sv.violation > allowed:
                found.append(
                    f"{name}: svmlib reports convergence, but its KKT "
                    f"violation is {c_sv.violation:.3g} > tol={tol:g}"
                )
            if kernel.psd and c_sv.gap > tol * total_C + c_sv.slack:
                found.append(
                    f"{name}: svmlib reports convergence, but its duality "
                    f"gap is {c_sv.gap:.6g} > tol * sum C_i = "
                    f"{tol * total_C:.3g}"
                )
        if not (kernel.psd and c_sv.feasible and c_sk.feasible):
            continue
        # (a) both [D, P] intervals hold the optimum: they must meet
        slack = c_sk.slack + c_sv.slack
        if c_sv.dual > c_sk.primal_best_b + slack or (
            c_sk.dual > c_sv.primal_best_b + slack
        ):
            found.append(
                f"{name}: the optimum cannot lie in both [D, P]: svmlib "
                f"[{c_sv.dual:.10g}, {c_sv.primal_best_b:.10g}], LIBSVM "
                f"[{c_sk.dual:.10g}, {c_sk.primal_best_b:.10g}]"
            )
        elif converged_sk and converged_sv:
            if abs(c_sv.dual - c_sk.dual) > tol * total_C + slack:
                found.append(
                    f"{name}: dual objectives {c_sv.dual:.10g} (svmlib) and "
                    f"{c_sk.dual:.10g} (LIBSVM) differ by more than "
                    f"tol * sum C_i = {tol * total_C:.3g}"
                )
        # (b) the support set, where the dual is strictly concave
        low, high = lambda_min(K, members)
        if low > 1e-10 * high and low > 0:
            radius = sum(
                np.sqrt(2 * max(c.gap, 0.0) + 2 * c.slack) / np.sqrt(low)
                for c in (c_sk, c_sv)
            )
            a_sk, a_sv = m_sk.v * m_sk.y, m_sv.v * m_sv.y
            for a, other, label in ((a_sk, a_sv, "LIBSVM"), (a_sv, a_sk, "")):
                must_positive = (a > radius) & (other <= 0)
                must_below = (a < m_sv.C - radius) & (
                    other >= m_sv.C * (1 - 1e-12)
                )
                if must_positive.any() or must_below.any():
                    k = members[np.flatnonzero(must_positive | must_below)]
                    found.append(
                        f"{name}: support sets differ where alpha is unique "
                        f"(|alpha - alpha*| <= {radius:.3g}): points "
                        f"{k[:8].tolist()}, LIBSVM alpha "
                        f"{a_sk[np.isin(members, k)][:4]}, svmlib "
                        f"{a_sv[np.isin(members, k)][:4]}"
                        + (" (seen from LIBSVM's side)" if label else "")
                    )
                    break
    # (c) predictions, where no model within the gaps could flip them
    if kernel.psd and all(
        c_sk.feasible and c_sv.feasible for c_sk, c_sv in certified
    ):
        diagonal = np.sqrt(np.maximum(np.diag(K), 0.0))
        certain = np.ones(y.size, dtype=bool)
        for p, (c_sk, c_sv) in enumerate(certified):
            spread = sum(
                np.sqrt(2 * max(c.gap, 0.0) + 2 * c.slack)
                for c in (c_sk, c_sv)
            )
            delta = spread * diagonal + abs(mach_sk[p].b - mach_sv[p].b)
            certain &= (
                np.minimum(np.abs(f_sk[:, p]), np.abs(f_sv[:, p])) > delta
            )
        reference = classes[vote(f_sk, n_classes)]
        differ = certain & (ours.predict(X_fit) != reference)
        if differ.any():
            found.append(
                f"predictions differ on {differ.sum()} of {certain.sum()} "
                f"training points where both decision values are clear of "
                f"the gaps (points {np.flatnonzero(differ)[:8].tolist()})"
            )
    return found


SVC_EXAMPLES = [
    # issue 24: poly degree 12: scikit-learn 777 steps, training accuracy
    # 1.0; svmlib 0 steps and no support vectors
    (Problem("issue_200x10"), Kernel("poly", 1.0, "absolute", 12), 1.0),
    # issue 24: degree 50 on 40 points: svmlib spun for minutes (MAX_ITER
    # caps it here)
    (Problem("issue_40x3"), Kernel("poly", 1.0, "absolute", 50), 1.0),
    # issue 24: C = 1e-13: every point at the bound in LIBSVM; svmlib 0 SVs
    (Problem("issue_200x10"), Kernel("rbf", 0.1, "absolute"), 1e-13),
    # issue 24: raw breast cancer, poly, gamma = 1: 0 steps
    (Problem("breast_cancer"), Kernel("poly", 1.0, "absolute", 3), 1.0),
    # duplicates with both labels, tiny features, huge C
    (
        Problem(n=20, opposite_duplicates=3, same_duplicates=3, scale=1e-150),
        Kernel("linear"),
        1e13,
    ),
    # six classes, zero weights, features at 1e150 with a relative gamma
    (
        Problem(n=30, n_classes=6, weights="zeros", scale=1e150, seed=3),
        Kernel("rbf", 1.0, "relative"),
        10.0,
    ),
    # precomputed linear Gram matrix, unbalanced classes
    (Problem(n=30, imbalance=0.3, seed=5), Kernel("precomputed"), 100.0),
    # sigmoid (not positive semidefinite): KKT only
    (Problem(n=25, seed=7), Kernel("sigmoid", 0.5, "relative", 3, -1.0), 1.0),
]


def _svc_examples(test):
    """The explicit examples of SVC_EXAMPLES, tol=1e-3, shrinking."""
    for problem, kernel, C in reversed(SVC_EXAMPLES):
        fit = {"C": C, "tol": 1e-3, "shrinking": True}
        test = example(problem=problem, kernel=kernel, fit=fit)(test)
    return test


@pytest.fixture(scope="module", autouse=True)
def one_thread():
    """One BLAS thread: the timings compare the solvers, not the pools."""
    with threadpool_limits(limits=1):
        svmlib.LinearSVC().fit([[0.0], [1.0]], [0, 1])  # compile numba's loop
        yield


@_svc_examples
@settings(
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=200,
    print_blob=False,
)
@given(problem=problems, kernel=kernels, fit=svc_settings)
def test_svc_matches_libsvm(problem, kernel, fit):
    found = check_svc(problem, kernel, **fit)
    assert not found, "\n".join(
        [f"svmlib.SVC against LIBSVM on {problem!r}, {kernel!r}, {fit}:"]
        + found
    )


# ---------------------------------------------------------------------------
# LinearSVC against LIBLINEAR
# ---------------------------------------------------------------------------

linear_problems = st.builds(
    Problem,
    n=st.integers(8, 60),
    d=st.integers(1, 8),
    n_classes=st.sampled_from([2, 2, 3, 4]),
    seed=st.integers(0, 2**16),
    separation=st.floats(0.0, 4.0),
    imbalance=st.floats(0.2, 1.0),
    same_duplicates=st.integers(0, 4),
    opposite_duplicates=st.integers(0, 3),
    weights=st.sampled_from(["none", "random", "zeros", "integers"]),
    scale=st.one_of(st.just(1.0), log_uniform(1e-150, 1e150)),
)

linear_settings = st.fixed_dictionaries(
    {
        "C": log_uniform(1e-13, 1e13),
        "loss": st.sampled_from(["hinge", "squared_hinge"]),
        "tol": st.sampled_from([1e-4, 1e-6]),
        "fit_intercept": st.booleans(),
        "intercept_scaling": st.sampled_from([1.0, 10.0, 0.1]),
    }
)

#: LIBLINEAR's passes over the data (scikit-learn's default).
LINEAR_MAX_ITER = 1000


def _sane(X, B, fit_intercept):
    """Whether ||x_i||^2 + B^2 is well inside float64 for every point."""
    with np.errstate(over="ignore", under="ignore"):
        norms = np.einsum("ij,ij->i", X, X) + (B * B if fit_intercept else 0)
    return bool(np.all((norms > 1e-290) & (norms < 1e290)))


def check_linear(problem, C, loss, tol, fit_intercept, intercept_scaling):
    """Fit both LinearSVCs and return the list of what svmlib got wrong.

    LIBLINEAR stops when the projected gradients of a pass span at most
    tol; each point then adds at most C_i tol to the duality gap of the
    hinge loss, and alpha_i tol + C_i tol^2 to that of the squared hinge
    (sum alpha_i <= 2 P*). The primal is strongly convex in (w, b / B),
    so predictions can only differ where |f| is within
    (sqrt(2 g_1) + sqrt(2 g_2)) ||(x, B)||.
    """
    X, y, sample_weight = problem.build()
    classes, y_index = np.unique(y, return_inverse=True)
    params = dict(
        C=C,
        loss=loss,
        tol=tol,
        fit_intercept=fit_intercept,
        intercept_scaling=intercept_scaling,
        max_iter=LINEAR_MAX_ITER,
        random_state=0,
    )
    found = []
    theirs = sk_svm.LinearSVC(dual=True, **params)
    t_sk, flagged_sk, _, error_sk = fit_timed(theirs, X, y, sample_weight)
    ours = svmlib.LinearSVC(**params)
    t_sv, flagged_sv, others_sv, error = fit_timed(ours, X, y, sample_weight)
    sane = _sane(X, intercept_scaling, fit_intercept)
    if error is not None:
        if sane and error_sk is None:
            found.append(f"svmlib.LinearSVC raised ValueError: {error}")
        return found
    if error_sk is not None:  # no LIBLINEAR model: judge svmlib by itself
        theirs, flagged_sk = ours, flagged_sv
    C_point = point_C(C, y, sample_weight)
    B = intercept_scaling
    args = (y_index, C_point, loss, B, fit_intercept)
    P_sv = linear_primal(ours.coef_, ours.intercept_, X, *args)
    P_sk = linear_primal(theirs.coef_, theirs.intercept_, X, *args)
    references = [P_sk]
    if problem.scale != 1.0:
        # LIBLINEAR on the features at scale 1, mapped back: w = w' / s
        # and b = b' is a primal point of this problem, an upper bound on
        # its optimum (LIBLINEAR cannot train at 1e155: its ||x||^2
        # overflow)
        X1, _, _ = problem.rescaled().build()
        rescaled = sk_svm.LinearSVC(dual=True, **params)
        fit_timed(rescaled, X1, y, sample_weight)
        with np.errstate(over="ignore", under="ignore"):
            coef = rescaled.coef_ / problem.scale
        references.append(linear_primal(coef, rescaled.intercept_, X, *args))
    converged_sk = not flagged_sk
    converged_sv = not flagged_sv and not others_sv
    total_C = float(C_point.sum())
    bounds = []
    for k, (value, slack) in enumerate(P_sv):
        best = min(
            (r[k][0] for r in references if np.isfinite(r[k][0])),
            default=np.inf,
        )
        if loss == "hinge":
            bound = tol * total_C
        else:
            bound = 4 * tol * best + tol * tol * total_C
        bounds.append(bound)
        name = f"machine {k}" if classes.size > 2 else "the machine"
        if converged_sv and not value <= best + bound + 2 * slack:
            found.append(
                f"{name}: svmlib's primal objective {value:.10g} exceeds "
                f"the best reference {best:.10g} (LIBLINEAR "
                f"{P_sk[k][0]:.10g}) by more than tol allows ({bound:.3g})"
                + ("" if np.any(ours.coef_[k]) else "; svmlib's w is 0")
            )
    if (
        sane
        and converged_sk
        and theirs.n_iter_ <= CONVERGED_FRACTION * LINEAR_MAX_ITER
        and flagged_sv
    ):
        found.append(
            f"svmlib did not converge ({flagged_sv[0][:120]}) where "
            f"LIBLINEAR converged in {theirs.n_iter_} passes"
        )
    if sane and converged_sk and converged_sv and not found:
        # predictions, where no pair of models within the gaps differ
        f_sk = np.atleast_2d(theirs.decision_function(X).T).T
        f_sv = np.atleast_2d(ours.decision_function(X).T).T
        if classes.size == 2:
            f_sk, f_sv = f_sk.reshape(-1, 1), f_sv.reshape(-1, 1)
        norm = np.sqrt(np.einsum("ij,ij->i", X, X) + B * B)
        spread = 2 * np.sqrt(2 * np.array(bounds) + 1e-300)
        delta = norm[:, None] * spread[None, :]
        if classes.size == 2:
            certain = np.abs(f_sk[:, 0]) > delta[:, 0]
            certain &= np.abs(f_sv[:, 0]) > delta[:, 0]
        else:
            top = np.sort(f_sk, axis=1)
            certain = top[:, -1] - top[:, -2] > 2 * delta.max(axis=1)
        differ = certain & (ours.predict(X) != theirs.predict(X))
        if differ.any():
            found.append(
                f"predictions differ on {differ.sum()} of {certain.sum()} "
                "points where both decision values are clear of the gaps"
            )
    return found


LINEAR_EXAMPLES = [
    # issue 24: features about 1e155: svmlib and LIBLINEAR return w = 0
    (
        Problem("issue_200x10", scale=1e155),
        {"C": 1.0, "loss": "squared_hinge", "tol": 1e-4},
    ),
    (Problem(n=40, weights="zeros", seed=2), {"C": 1.0, "loss": "hinge"}),
    (Problem(n=40, n_classes=4, seed=4), {"C": 10.0, "loss": "hinge"}),
]


def _linear_examples(test):
    for problem, fit in reversed(LINEAR_EXAMPLES):
        fit = {
            "tol": 1e-4,
            "fit_intercept": True,
            "intercept_scaling": 1.0,
            **fit,
        }
        test = example(problem=problem, fit=fit)(test)
    return test


@_linear_examples
@settings(
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=100,
    print_blob=False,
)
@given(problem=linear_problems, fit=linear_settings)
def test_linear_svc_matches_liblinear(problem, fit):
    found = check_linear(problem, **fit)
    assert not found, "\n".join(
        [f"svmlib.LinearSVC against LIBLINEAR on {problem!r}, {fit}:"] + found
    )
