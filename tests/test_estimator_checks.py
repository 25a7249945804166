"""scikit-learn's estimator checks on svmlib's estimators.

Checks that cannot apply are skipped by scikit-learn itself, with the reason
in the test report (the array-API checks need SCIPY_ARRAY_API=1, and svmlib
computes with NumPy only).
"""

from sklearn.utils.estimator_checks import parametrize_with_checks

from svmlib import SVC
from svmlib.mixture import GaussianMixtureEM


@parametrize_with_checks(
    [
        SVC(),
        SVC(kernel="linear", C=0.5),
        SVC(solver="platt", random_state=0),
        SVC(kernel="poly", degree=2, coef0=1.0),
        GaussianMixtureEM(n_components=2, random_state=0),
    ]
)
def test_sklearn_compatible(estimator, check):
    check(estimator)
