"""n_jobs of SVC and NuSVC: parallel one-vs-one machines and predictions.

The machines are independent: with n_jobs != 1 they run as joblib tasks
(threads by default, processes or a Dask cluster's workers when a joblib
context says so) and the fitted model must be the one of n_jobs=1, bit for
bit, whatever order the tasks run in (issue 27).
"""

import threading

import joblib
import numpy as np
import pytest
from sklearn.datasets import load_digits, load_iris, make_blobs
from sklearn.model_selection import GridSearchCV

import svmlib.multiclass as multiclass
from svmlib import SVC, NuSVC
from svmlib.kernels import RBF
from svmlib.multiclass import TrainingKernel, fit_one_vs_one
from svmlib.solvers import smo

FITTED = ("support_", "dual_coef_", "intercept_", "n_support_", "alpha_")


def iris():
    return load_iris(return_X_y=True)


def digits_subset():
    X, y = load_digits(return_X_y=True)
    return X[:400] / 16.0, y[:400]


def many_classes():
    # 15 classes of unequal sizes: 105 machines, of different lengths
    sizes = np.arange(8, 23)
    return make_blobs(
        n_samples=sizes, n_features=4, cluster_std=2.5, random_state=0
    )


def fit_with_jobs(model, n_jobs, X, y, **fit_params):
    """SVC(n_jobs=...); NuSVC, without the parameter, in a joblib context.

    (NuSVC's signature is scikit-learn's, checked by test_nu_svc; it
    takes its jobs from ``joblib.parallel_config``.)
    """
    if "n_jobs" in model.get_params():
        return model.set_params(n_jobs=n_jobs).fit(X, y, **fit_params)
    with joblib.parallel_config(backend="threading", n_jobs=n_jobs):
        return model.fit(X, y, **fit_params)


def assert_same_model(a, b):
    for name in FITTED:
        np.testing.assert_array_equal(
            getattr(a, name), getattr(b, name), err_msg=name
        )
    np.testing.assert_array_equal(a.n_iter_, b.n_iter_)


@pytest.mark.parametrize(
    "make, data",
    [
        (lambda: SVC(C=10.0), iris),
        (lambda: SVC(C=10.0, gamma=0.05), digits_subset),
        (lambda: SVC(C=3.0), many_classes),
        (lambda: SVC(C=1.0, kernel="linear"), iris),
        (lambda: NuSVC(nu=0.2), iris),
        (lambda: NuSVC(nu=0.1, gamma=0.05), digits_subset),
    ],
    ids=["svc-iris", "svc-digits", "svc-15-classes", "linear-iris",
         "nusvc-iris", "nusvc-digits"],
)  # fmt: skip
def test_two_jobs_fit_the_model_of_one(make, data):
    X, y = data()
    one = fit_with_jobs(make(), 1, X, y)
    two = fit_with_jobs(make(), 2, X, y)
    assert_same_model(one, two)
    if hasattr(one, "C_"):
        np.testing.assert_array_equal(one.C_, two.C_)
    # predictions: the same labels, decision values to rounding (blocks of
    # points split the kernel's matrix product differently)
    with joblib.parallel_config(backend="threading", n_jobs=2):
        predicted, decision = two.predict(X), two.decision_function(X)
    np.testing.assert_array_equal(one.predict(X), predicted)
    np.testing.assert_allclose(
        one.decision_function(X), decision, rtol=1e-6, atol=1e-9
    )


def test_sample_weights_and_class_weights():
    X, y = digits_subset()
    weight = np.random.default_rng(0).uniform(0.0, 2.0, size=y.size)
    weight[::7] = 0.0  # points left out
    kwargs = dict(C=5.0, gamma=0.05, class_weight="balanced")
    one = SVC(**kwargs).fit(X, y, sample_weight=weight)
    two = SVC(n_jobs=2, **kwargs).fit(X, y, sample_weight=weight)
    assert_same_model(one, two)
    nu_one = NuSVC(nu=0.1, gamma=0.05).fit(X, y, sample_weight=weight)
    nu_two = fit_with_jobs(
        NuSVC(nu=0.1, gamma=0.05), -1, X, y, sample_weight=weight
    )
    assert_same_model(nu_one, nu_two)


def test_float32_and_precomputed():
    X, y = digits_subset()
    X32 = X.astype(np.float32)
    assert_same_model(
        SVC(C=10.0, gamma=0.05).fit(X32, y),
        SVC(C=10.0, gamma=0.05, n_jobs=2).fit(X32, y),
    )
    K = RBF(gamma=0.05)(X, X)
    one = SVC(C=10.0, kernel="precomputed").fit(K, y)
    two = SVC(C=10.0, kernel="precomputed", n_jobs=2).fit(K, y)
    assert_same_model(one, two)
    np.testing.assert_array_equal(one.predict(K), two.predict(K))


def test_model_does_not_depend_on_the_order_of_the_tasks(monkeypatch):
    """Machines dispatched in reverse order: the same model."""
    X, y = many_classes()
    one = SVC(C=3.0).fit(X, y)
    sort = sorted
    monkeypatch.setattr(
        multiclass, "sorted", lambda *a, **k: sort(*a, **k)[::-1],
        raising=False,
    )  # fmt: skip
    assert_same_model(one, SVC(C=3.0, n_jobs=2).fit(X, y))


def test_machines_whose_gram_matrix_is_assembled_from_blocks():
    """The full Gram matrix over the budget: each task builds its pair's."""
    X, y = digits_subset()
    X = X[:300]
    y = y[:300]
    training = TrainingKernel(X, RBF(gamma=0.05), cache_size=0.2)
    assert training.K is None  # 300 x 300 float64 is 0.69 MiB
    members, gram = training.pair_gram(
        [np.flatnonzero(y == c) for c in range(10)], 0, 1, reuse=False
    )
    np.testing.assert_allclose(
        gram.K, RBF(gamma=0.05)(X[members], X[members]), rtol=1e-12
    )
    assert training.kept_classes() == set()  # nothing kept for reuse=False

    def solve(gram, y, members):
        return smo(gram, y, 10.0)

    one = fit_one_vs_one(training, y, 10, solve)
    two = fit_one_vs_one(
        TrainingKernel(X, RBF(gamma=0.05), cache_size=0.2),
        y,
        10,
        solve,
        n_jobs=2,
    )
    np.testing.assert_array_equal(one.support, two.support)
    # the blocks are computed with one BLAS thread per job: equal to
    # rounding (bit for bit where BLAS's result does not depend on its
    # thread count)
    np.testing.assert_allclose(one.dual_coef, two.dual_coef, atol=1e-6)
    np.testing.assert_allclose(one.intercept, two.intercept, atol=1e-6)


@pytest.mark.parametrize("n_jobs", [0, -0.5, 1.5, "2"])
def test_bad_n_jobs_is_an_error_before_fitting(n_jobs):
    X, y = iris()
    model = SVC(n_jobs=n_jobs)
    with pytest.raises(ValueError, match="n_jobs"):
        model.fit(X, y)
    assert not hasattr(model, "classes_")


def record_threads(monkeypatch):
    """Make multiclass._solve_pair record the thread of every task."""
    seen = []
    solve_pair = multiclass._solve_pair

    def recording(*args):
        seen.append(threading.get_ident())
        return solve_pair(*args)

    monkeypatch.setattr(multiclass, "_solve_pair", recording)
    return seen


def test_joblib_context_is_respected(monkeypatch):
    X, y = iris()
    seen = record_threads(monkeypatch)
    reference = SVC(C=10.0).fit(X, y)  # n_jobs=None, no context: one job
    assert seen == []
    with joblib.parallel_config(backend="threading", n_jobs=2):
        in_context = SVC(C=10.0).fit(X, y)  # None: the context's 2 jobs
    assert len(seen) == 3
    assert threading.get_ident() not in seen  # ran in joblib's threads
    assert_same_model(reference, in_context)
    seen.clear()
    with joblib.parallel_config(backend="threading", n_jobs=2):
        SVC(C=10.0, n_jobs=1).fit(X, y)  # an explicit n_jobs wins
    assert seen == []


def test_processes_backend_fits_the_same_model():
    X, y = iris()
    one = SVC(C=10.0).fit(X, y)
    with joblib.parallel_config(backend="loky", n_jobs=2):
        two = SVC(C=10.0).fit(X, y)
    assert_same_model(one, two)


def test_progress_bar_counts_the_machines(capsys):
    X, y = iris()
    SVC(verbose=True, n_jobs=2).fit(X, y)
    err = capsys.readouterr().err
    assert "one-vs-one machines" in err and "3/3" in err


def test_dask_runs_the_machines_and_grid_search_folds_on_its_workers():
    distributed = pytest.importorskip("distributed")
    X, y = iris()
    local = SVC(C=10.0).fit(X, y)
    with (
        distributed.LocalCluster(
            n_workers=2,
            processes=True,
            threads_per_worker=1,
            dashboard_address=None,
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        workers = set(client.scheduler_info()["workers"])
        with (
            distributed.get_task_stream(client) as stream,
            joblib.parallel_config(backend="dask"),
        ):
            remote = SVC(C=10.0).fit(X, y)
        assert_same_model(local, remote)
        on = {t["worker"] for t in stream.data if "_solve_pair" in t["key"]}
        assert on and on <= workers

        grid = {"C": [1.0, 10.0]}
        with (
            distributed.get_task_stream(client) as stream,
            joblib.parallel_config(backend="dask"),
        ):
            search = GridSearchCV(SVC(), grid, cv=3).fit(X, y)
        folds = [t for t in stream.data if "fit_and_score" in t["key"]]
        assert folds and {t["worker"] for t in folds} <= workers
    reference = GridSearchCV(SVC(), grid, cv=3).fit(X, y)
    assert search.best_params_ == reference.best_params_
    np.testing.assert_array_equal(
        search.cv_results_["mean_test_score"],
        reference.cv_results_["mean_test_score"],
    )


def test_the_training_kernel_is_scattered_to_dask_workers_once():
    # joblib's Dask backend scatters an argument to the workers once when
    # dask's sizeof finds it larger than 1 kB, and otherwise sends it with
    # every task; counted without its arrays, the training kernel (Gram
    # matrix and all) went with each of the one-vs-one machines
    sizeof = pytest.importorskip("dask.sizeof").sizeof
    X, _ = iris()
    training = TrainingKernel(X, RBF(gamma=0.5), cache_size=64)
    assert sizeof(training) >= training.K.nbytes + X.nbytes
    precomputed = TrainingKernel.precomputed(training.K)
    assert sizeof(precomputed) >= training.K.nbytes


def test_threads_use_the_dispatchers_blas_limit(monkeypatch):
    # The dispatching thread holds one BLAS thread for the whole run; the
    # solvers in joblib's threads must not scan the memory map and set
    # and restore the count again, each machine (a race between threads,
    # and a scan of /proc/self/maps per machine).
    import svmlib.gram as gram

    calls = []
    limits = gram.threadpool_limits

    def counting(*args, **kwargs):
        calls.append(threading.get_ident())
        return limits(*args, **kwargs)

    monkeypatch.setattr(gram, "threadpool_limits", counting)
    X, y = iris()
    SVC(C=10.0).fit(X, y)  # one job: the scan is once per fit
    assert calls == []
    SVC(C=10.0, n_jobs=2).fit(X, y)
    assert calls == []
