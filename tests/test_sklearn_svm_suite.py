"""scikit-learn's own sklearn.svm tests, run against svmlib (issues 12, 26).

The test modules ``sklearn/svm/tests/test_svm.py`` and ``test_sparse.py`` of
the installed scikit-learn are read from the package, and their imports of
``sklearn.svm`` are rewritten (one line for one line, so that tracebacks
and ``inspect`` still point at the right lines) to a module that holds every
name of ``sklearn.svm`` but with the seven estimators (``SVC``, ``NuSVC``,
``SVR``, ``NuSVR``, ``OneClassSVM``, ``LinearSVC``, ``LinearSVR``) replaced
by svmlib's. No test code is copied. Every test function of the two modules
is collected here by pytest, with all its parametrizations.

A class that svmlib does not have (yet) is replaced by a stand-in that
fails when used: its cases are marked xfail ("svmlib has no ..."), and
count as failures. The cases in ``EXCLUDED`` (scikit-learn's private
bindings, private attributes and deprecation warnings) are skipped; the
cases in ``EXPECTED_FAILURES`` are marked xfail with the reason (strict: a
case that starts to pass must be moved out of the list).

Run this file as a script for the yardstick of issue 26, the number of
cases passed per estimator (the estimators that a case touches: those of its
parameters, else those its test function names)::

    python tests/test_sklearn_svm_suite.py [pytest options]
"""

import importlib
import importlib.resources
import inspect
import io
import re
import sys
import tokenize
import types
import warnings
from collections import Counter

import pytest
import sklearn.svm

import svmlib

# scikit-learn's own test settings: a ConvergenceWarning is not an error
# there (this repository's pyproject.toml makes it one).
pytestmark = pytest.mark.filterwarnings(
    "ignore::sklearn.exceptions.ConvergenceWarning"
)

#: The estimators of sklearn.svm, and the svmlib module of each.
ESTIMATORS = {
    "SVC": "svmlib.svc",
    "NuSVC": "svmlib.svc",
    "SVR": "svmlib.svr",
    "NuSVR": "svmlib.svr",
    "OneClassSVM": "svmlib.one_class",
    "LinearSVC": "svmlib.linear_svc",
    "LinearSVR": "svmlib.linear_svr",
}

#: The modules of scikit-learn's tests that are run.
MODULES = ("test_svm", "test_sparse")

#: Cases left out, with the reason (prefixes of 'module.test[params]').
EXCLUDED = {
    "test_svm.test_tweak_params": "sets the private _dual_coef_",
    "test_svm.test_svc_raises_error_internal_representation": (
        "alters the private _n_support"
    ),
    "test_svm.test_probability_raises_futurewarning": (
        "scikit-learn's deprecation of probability=True"
    ),
    "test_svm.test_svc_nusvc_probA_probB_deprecated": (
        "scikit-learn's deprecation of probA_ and probB_"
    ),
    "test_svm.test_dual_auto": (
        "calls scikit-learn's private _validate_dual_parameter"
    ),
}

_L1 = "svmlib.LinearSVC has penalty='l2' only (no L1-regularised solver)"
_PRIMAL = (
    "svmlib.LinearSVC solves the dual only (dual=False is refused, and so "
    "are the combinations that need it)"
)

#: Cases that fail, with the reason.
EXPECTED_FAILURES = {
    "test_svm.test_svr_errors": (
        "svmlib checks a callable kernel's Gram matrix in fit and raises "
        "there (the test's kernel returns shape (1, 1) for 2 points); "
        "scikit-learn trains on it and raises only in predict"
    ),
    "test_svm.test_linearsvc_parameters[True-l1": _L1,
    "test_svm.test_linearsvc_parameters[False-l1": _L1,
    "test_svm.test_linearsvc_parameters[False-l2": _PRIMAL,
    "test_svm.test_linearsvc": (
        f"{_L1}; {_PRIMAL}; no multi_class='crammer_singer'"
    ),
    "test_svm.test_linearsvc_crammer_singer": (
        "svmlib.LinearSVC has no multi_class='crammer_singer'"
    ),
    "test_svm.test_crammer_singer_binary": (
        "svmlib.LinearSVC has no multi_class='crammer_singer'"
    ),
    "test_svm.test_dense_liblinear_intercept_handling": _L1,
    "test_sparse.test_sparse_liblinear_intercept_handling": _L1,
    "test_svm.test_linear_svm_convergence_warnings": (
        "the message: svmlib's LinearSVC warns 'LinearSVC failed to converge "
        "within max_iter=2 passes; ...', not LIBLINEAR's 'Liblinear failed "
        "to converge, increase the number of iterations.'"
    ),
    "test_svm.test_linearsvm_liblinear_sample_weight[LinearSVC-params0]": _L1,
    "test_svm.test_linearsvm_liblinear_sample_weight[LinearSVC-params2]": (
        _PRIMAL
    ),
    "test_svm.test_svc_nonfinite_params": (
        "the message: svmlib raises ValueError before training, saying that "
        "X.var() overflows for gamma='scale' (the cause), where scikit-learn "
        "trains with gamma = 0 and then finds dual coefficients or "
        "intercepts that are not finite"
    ),
    "test_svm.test_custom_kernel_not_array_input[SVC]": (
        "after fit, svmlib calls a callable kernel with the support vectors "
        "(kernel(X, support_vectors_)), scikit-learn with all the training "
        "points; the test's string kernel fills only the upper triangle, "
        "and is right only when its two arguments are the same list"
    ),
}

SHIM = "sklearn_svm_with_svmlib"


def _missing(name):
    """A stand-in for an estimator that svmlib lacks: fails when used."""

    def __init__(self, *args, **kwargs):
        pass

    def __getattr__(self, attribute):
        raise NotImplementedError(f"svmlib has no {name}.")

    return type(
        name,
        (),
        {"__init__": __init__, "__getattr__": __getattr__, "missing": True},
    )


def svmlib_estimator(name):
    """svmlib's class for the sklearn.svm estimator ``name``, or a stand-in.

    Looked up in ``svmlib`` (the exported classes), then in the module
    that holds it (``ESTIMATORS``).
    """
    cls = getattr(svmlib, name, None)
    if cls is None:
        try:
            cls = getattr(importlib.import_module(ESTIMATORS[name]), name)
        except (ImportError, AttributeError):
            cls = _missing(name)
    return cls


def _svm_with_svmlib():
    """A module with every name of sklearn.svm, the estimators svmlib's."""
    shim = types.ModuleType(SHIM)
    shim.__dict__.update(
        {k: v for k, v in vars(sklearn.svm).items() if not k.startswith("__")}
    )
    for name in ESTIMATORS:
        setattr(shim, name, svmlib_estimator(name))
    return shim


def _load(name):
    """sklearn.svm.tests.<name>, with the estimators of sklearn.svm svmlib's.

    Raises
    ------
    RuntimeError
        If the imports of sklearn.svm in the test module have changed.
    """
    source_file = importlib.resources.files("sklearn.svm.tests") / f"{name}.py"
    source = source_file.read_text()
    import_svm = re.compile(r"^(from sklearn import .*), svm$", re.MULTILINE)
    source, count = import_svm.subn(rf"\1; import {SHIM} as svm", source)
    source, count_names = re.subn(
        r"^from sklearn\.svm import \($",
        f"from {SHIM} import (",
        source,
        flags=re.MULTILINE,
    )
    if count != 1 or count_names != (name == "test_svm"):
        raise RuntimeError(f"{name}: the imports of sklearn.svm have changed.")
    module = types.ModuleType(f"sklearn_svm_suite.{name}")
    module.__file__ = str(source_file)
    with warnings.catch_warnings():
        # marks of scikit-learn's own plugins (thread_unsafe)
        warnings.simplefilter("ignore", pytest.PytestUnknownMarkWarning)
        exec(compile(source, str(source_file), "exec"), module.__dict__)
    return module


def _names_in_source(function):
    """The estimator names that a test function's code uses (not comments)."""
    try:
        source = inspect.getsource(function)
    except (OSError, TypeError):
        return set()
    names = set()
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    for token in tokens:
        if token.type == tokenize.NAME and token.string in ESTIMATORS:
            names.add(token.string)
    return names


sys.modules[SHIM] = _svm_with_svmlib()

#: The estimators named by each collected test function.
_SOURCE_NAMES = {}

for _module_name in MODULES:
    _module = _load(_module_name)
    for _test, _function in vars(_module).items():
        if _test.startswith("test_") and callable(_function):
            globals()[f"{_module_name}__{_test}"] = _function
            _SOURCE_NAMES[f"{_module_name}__{_test}"] = _names_in_source(
                _function
            )


@pytest.fixture
def global_random_seed():
    """scikit-learn's default seed (its conftest is not loaded here)."""
    return 42


def _case(node_name):
    """'test_svm.test_precomputed[...]' from this module's test name."""
    module_name, _, test = node_name.partition("__")
    return f"{module_name}.{test}"


def _estimator_name(value):
    """The sklearn.svm estimator that a parameter value is, or None."""
    cls = value if isinstance(value, type) else type(value)
    name = getattr(cls, "__name__", None)
    if name in ESTIMATORS and cls in (
        getattr(sklearn.svm, name),
        getattr(sys.modules[SHIM], name),
    ):
        return name
    return None


def touched_estimators(item):
    """The estimators a case exercises: its parameters', else its code's.

    Parameters
    ----------
    item : pytest.Item
        A collected case of this module.

    Returns
    -------
    set of str
    """
    callspec = getattr(item, "callspec", None)
    params = callspec.params.values() if callspec else ()
    named = {_estimator_name(value) for value in params} - {None}
    if named:
        return named
    return set(_SOURCE_NAMES.get(item.name.partition("[")[0], ()))


@pytest.fixture(autouse=True)
def _select_and_mark(request):
    case = _case(request.node.name)
    touched = touched_estimators(request.node)
    request.node.user_properties.append(("estimators", sorted(touched)))
    for prefix, reason in EXCLUDED.items():
        if case.startswith(prefix):
            pytest.skip(f"excluded: {reason}")
    missing = sorted(
        name
        for name in touched
        if getattr(sys.modules[SHIM], name).__dict__.get("missing")
    )
    if missing:
        request.applymarker(
            pytest.mark.xfail(
                reason=f"svmlib has no {', '.join(missing)}",
                strict=True,
            )
        )
        return
    for key, reason in EXPECTED_FAILURES.items():
        if _matches(case, key):
            request.applymarker(pytest.mark.xfail(reason=reason, strict=True))


def _matches(case, key):
    """Whether a key of EXPECTED_FAILURES names the case.

    A key is a test (all its parametrizations) or the start of one
    parametrization ('test_svm.test_weight[' ...).
    """
    if "[" in key:
        return case.startswith(key)
    return case == key or case.startswith(key + "[")


class _Tally:
    """pytest plugin: cases passed, and cases, per estimator.

    A case passes if its test passed (or passed although marked xfail);
    an xfail, an error or a failure counts against it; a skipped case
    (excluded) does not count.
    """

    def __init__(self):
        self.passed, self.total = Counter(), Counter()
        self.state = {}

    def pytest_runtest_logreport(self, report):
        """Record the outcome of each phase of a case of this module."""
        estimators = dict(report.user_properties).get("estimators")
        if estimators is None:
            return
        state = self.state.setdefault(report.nodeid, "pending")
        xpassed = report.failed and "XPASS" in str(report.longrepr)
        if report.skipped and not hasattr(report, "wasxfail"):
            self.state[report.nodeid] = "excluded"
        elif hasattr(report, "wasxfail") or (report.failed and not xpassed):
            if state != "excluded":
                self.state[report.nodeid] = "failed"
        elif report.when == "call" and state == "pending":
            self.state[report.nodeid] = "passed"
        if report.when == "teardown":
            state = self.state.pop(report.nodeid)
            if state == "excluded":
                return
            for name in [*(estimators or ["(none)"]), "all cases"]:
                self.total[name] += 1
                self.passed[name] += state == "passed"

    def summary(self):
        """Lines 'name: passed/total (percent)', one per estimator."""
        order = [*ESTIMATORS, "(none)", "all cases"]
        return [
            f"{name:>12}: {self.passed[name]:4d}/{self.total[name]:4d} "
            f"({100 * self.passed[name] / self.total[name]:.0f}%)"
            for name in order
            if self.total[name]
        ]


if __name__ == "__main__":
    tally = _Tally()
    options = ["-q", "-p", "no:cacheprovider", *sys.argv[1:]]
    code = pytest.main([__file__, *options], plugins=[tally])
    print("\nscikit-learn's sklearn.svm tests on svmlib, cases passed:")
    print("\n".join(tally.summary()))
    sys.exit(code)
