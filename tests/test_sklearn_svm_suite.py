"""scikit-learn's own SVC tests, run against svmlib.SVC (GitHub issue 12).

The test modules ``sklearn/svm/tests/test_svm.py`` and ``test_sparse.py`` of
the installed scikit-learn are read from the package, their one import of
``sklearn.svm`` is rewritten so that ``svm.SVC`` is ``svmlib.SVC`` (every
other name of ``sklearn.svm`` is untouched), and the resulting test
functions are collected here by pytest. No test code is copied.

Only the cases that exercise SVC count (``SVC_TESTS``); the other
parametrizations of those functions (NuSVC, SVR, ...) are skipped, and so
are the five cases in ``EXCLUDED`` that test scikit-learn's private
attributes or its deprecation warnings. The cases in ``EXPECTED_FAILURES``
are marked xfail with the reason (strict: a case that starts to pass must
be moved out of the list).
"""

import importlib.resources
import re
import sys
import types
import warnings

import pytest
import sklearn.svm
from sklearn.base import BaseEstimator

import svmlib

# scikit-learn's own test settings: a ConvergenceWarning is not an error
# there (this repository's pyproject.toml makes it one).
pytestmark = pytest.mark.filterwarnings(
    "ignore::sklearn.exceptions.ConvergenceWarning"
)

#: The test functions of each module that exercise SVC.
SVC_TESTS = {
    "test_svm": [
        "test_libsvm_parameters",
        "test_libsvm_iris",
        "test_precomputed",
        "test_tweak_params",
        "test_probability",
        "test_decision_function",
        "test_decision_function_shape",
        "test_weight",
        "test_svm_classifier_sided_sample_weight",
        "test_svm_equivalence_sample_weight_C",
        "test_negative_sample_weights_mask_all_samples",
        "test_negative_weights_svc_leave_just_one_label",
        "test_negative_weights_svc_leave_two_labels",
        "test_negative_weight_equal_coeffs",
        "test_auto_weight",
        "test_bad_input",
        "test_svc_nonfinite_params",
        "test_sparse_precomputed",
        "test_immutable_coef_property",
        "test_svc_clone_with_callable_kernel",
        "test_svc_bad_kernel",
        "test_libsvm_convergence_warnings",
        "test_unfitted",
        "test_consistent_decision_function",
        "test_hasattr_predict_proba",
        "test_decision_function_shape_two_class",
        "test_ovr_decision_function",
        "test_svc_invalid_break_ties_param",
        "test_svc_ovr_tie_breaking",
        "test_gamma_scale",
        "test_custom_kernel_not_array_input",
        "test_n_iter_libsvm",
        "test_svm_with_infinite_C",
        "test_probability_raises_futurewarning",
        "test_svc_nusvc_probA_probB_deprecated",
        "test_svc_raises_error_internal_representation",
    ],
    "test_sparse": [
        "test_svc",
        "test_unsorted_indices",
        "test_svc_with_custom_kernel",
        "test_svc_iris",
        "test_sparse_decision_function",
        "test_error",
        "test_weight",
        "test_sample_weights",
        "test_sparse_realdata",
        "test_sparse_svc_clone_with_callable_kernel",
        "test_timeout",
        "test_consistent_decision_function",
    ],
}

#: SVC cases left out, with the reason.
EXCLUDED = {
    "test_svm.test_tweak_params": "sets the private _dual_coef_",
    "test_svm.test_svc_raises_error_internal_representation": (
        "alters the private _n_support"
    ),
    "test_svm.test_probability_raises_futurewarning[True-SVC": (
        "scikit-learn's deprecation of probability=True"
    ),
    "test_svm.test_probability_raises_futurewarning[False-SVC": (
        "scikit-learn's deprecation of probability=True"
    ),
    "test_svm.test_svc_nusvc_probA_probB_deprecated[SVC": (
        "scikit-learn's deprecation of probA_ and probB_"
    ),
}

#: SVC cases that fail, with the reason.
EXPECTED_FAILURES = {
    "test_svm.test_svc_nonfinite_params": (
        "the message: svmlib raises ValueError before training, saying that "
        "X.var() overflows for gamma='scale' (the cause), where scikit-learn "
        "trains with gamma = 0 and then finds dual coefficients or "
        "intercepts that are not finite"
    ),
    "test_svm.test_custom_kernel_not_array_input": (
        "after fit, svmlib calls a callable kernel with the support vectors "
        "(kernel(X, support_vectors_)), scikit-learn with all the training "
        "points; the test's string kernel fills only the upper triangle, "
        "and is right only when its two arguments are the same list"
    ),
}


def _svm_with_svmlib_svc():
    """A module with every name of sklearn.svm, but SVC from svmlib."""
    shim = types.ModuleType("sklearn_svm_with_svmlib_svc")
    shim.__dict__.update(
        {k: v for k, v in vars(sklearn.svm).items() if not k.startswith("__")}
    )
    shim.SVC = svmlib.SVC
    return shim


def _load(name):
    """sklearn.svm.tests.<name>, with svm.SVC and SVC meaning svmlib.SVC."""
    source_file = importlib.resources.files("sklearn.svm.tests") / f"{name}.py"
    source = source_file.read_text()
    import_svm = re.compile(r"^(from sklearn import .*), svm$", re.MULTILINE)
    source, count = import_svm.subn(
        r"\1; from sklearn_svm_with_svmlib_svc import svm", source
    )
    if count != 1:
        raise RuntimeError(f"{name}: the import of sklearn.svm has changed.")
    module = types.ModuleType(f"sklearn_svm_suite.{name}")
    module.__file__ = str(source_file)
    with warnings.catch_warnings():
        # marks of scikit-learn's own plugins (thread_unsafe)
        warnings.simplefilter("ignore", pytest.PytestUnknownMarkWarning)
        exec(compile(source, str(source_file), "exec"), module.__dict__)
    return module


sys.modules["sklearn_svm_with_svmlib_svc"] = types.ModuleType(
    "sklearn_svm_with_svmlib_svc"
)
sys.modules["sklearn_svm_with_svmlib_svc"].svm = _svm_with_svmlib_svc()

for _module_name, _tests in SVC_TESTS.items():
    _module = _load(_module_name)
    for _test in _tests:
        globals()[f"{_module_name}__{_test}"] = getattr(_module, _test)


@pytest.fixture
def global_random_seed():
    """scikit-learn's default seed (its conftest is not loaded here)."""
    return 42


def _case(request):
    """'test_svm.test_precomputed[...]' from this module's test name."""
    module_name, _, test = request.node.name.partition("__")
    return f"{module_name}.{test}"


def _other_estimator(value):
    """Whether a parameter value is an estimator (class) other than SVC."""
    cls = value if isinstance(value, type) else type(value)
    return issubclass(cls, BaseEstimator) and cls is not svmlib.SVC


@pytest.fixture(autouse=True)
def _select_and_mark(request):
    case = _case(request)
    callspec = getattr(request.node, "callspec", None)
    params = callspec.params.values() if callspec else ()
    if any(_other_estimator(value) for value in params):
        pytest.skip("not an SVC case")
    for prefix, reason in EXCLUDED.items():
        if case.startswith(prefix):
            pytest.skip(f"excluded: {reason}")
    for prefix, reason in EXPECTED_FAILURES.items():
        if case.startswith(prefix):
            request.applymarker(pytest.mark.xfail(reason=reason, strict=True))
