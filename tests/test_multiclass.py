"""More than two classes: one-vs-one against scikit-learn; one-vs-rest."""

import pickle

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_digits, load_iris, make_blobs
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import GridSearchCV, train_test_split
from sklearn.multiclass import OneVsRestClassifier
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC as SklearnSVC
from sklearn.utils.multiclass import _ovr_decision_function

from svmlib import SVC
from svmlib.kernels import RBF, rbf_kernel
from svmlib.multiclass import (
    OneVsRest,
    PairSchedule,
    TrainingKernel,
    class_pairs,
    fit_one_vs_one,
    next_pair,
    ovo_coef,
    ovo_decision,
    ovo_votes,
    ovr_from_ovo,
)
from svmlib.solvers import smo

digits = load_digits()
X_digits = digits.data / 16.0
X_train, X_test, y_train, y_test = train_test_split(
    X_digits,
    digits.target,
    train_size=600,
    test_size=600,
    stratify=digits.target,
    random_state=0,
)
X_iris, y_iris = load_iris(return_X_y=True)
SPECIES = np.array(["setosa", "versicolor", "virginica"])[y_iris]


@pytest.mark.parametrize(
    "params",
    [
        dict(kernel="rbf", C=10.0, gamma=0.05),
        dict(kernel="poly", C=1.0, degree=2, gamma=0.1, coef0=1.0),
        dict(kernel="linear", C=0.1),
    ],
)
def test_ten_digits_agree_with_sklearn_on_held_out_data(params):
    ours = SVC(**params).fit(X_train, y_train)
    reference = SklearnSVC(**params).fit(X_train, y_train)
    agreement = np.mean(ours.predict(X_test) == reference.predict(X_test))
    assert agreement >= 0.99, agreement
    assert ours.score(X_test, y_test) > 0.9
    np.testing.assert_array_equal(ours.classes_, np.arange(10))


@pytest.mark.parametrize("shape", ["ovr", "ovo"])
def test_attributes_follow_sklearn_layout(shape):
    params = dict(C=10.0, gamma=0.5, tol=1e-7, decision_function_shape=shape)
    ours = SVC(**params).fit(X_iris, SPECIES)
    reference = SklearnSVC(**params).fit(X_iris, SPECIES)
    np.testing.assert_array_equal(ours.classes_, reference.classes_)
    np.testing.assert_array_equal(ours.support_, reference.support_)
    np.testing.assert_array_equal(ours.n_support_, reference.n_support_)
    np.testing.assert_allclose(
        ours.support_vectors_, reference.support_vectors_
    )
    assert (
        ours.dual_coef_.shape
        == reference.dual_coef_.shape
        == (2, ours.support_.size)
    )
    np.testing.assert_allclose(
        ours.dual_coef_, reference.dual_coef_, atol=1e-4
    )
    assert ours.intercept_.shape == reference.intercept_.shape == (3,)
    np.testing.assert_allclose(
        ours.intercept_, reference.intercept_, atol=1e-4
    )
    assert ours.decision_function(X_iris).shape == (150, 3)
    np.testing.assert_allclose(
        ours.decision_function(X_iris),
        reference.decision_function(X_iris),
        atol=1e-4,
    )
    np.testing.assert_array_equal(
        ours.predict(X_iris), reference.predict(X_iris)
    )
    assert (
        ours.converged_
        and ours.n_iter_.shape == (3,)
        and ours.dual_objective_.shape == (3,)
    )


def test_each_pairwise_machine_is_the_binary_svm_of_its_two_classes():
    X, y = make_blobs(160, centers=4, cluster_std=1.5, random_state=1)
    model = SVC(C=2.0, gamma=0.3, tol=1e-8, decision_function_shape="ovo").fit(
        X, y
    )
    assert model.alpha_.shape == (6, 160)
    decision = model.decision_function(X)
    for p, (i, j) in enumerate(class_pairs(4)):
        members = (y == i) | (y == j)
        y_pm = np.where(y[members] == i, 1.0, -1.0)
        alone = smo(rbf_kernel(X[members], gamma=0.3), y_pm, 2.0, tol=1e-8)
        np.testing.assert_allclose(
            model.alpha_[p, members], alone.alpha, atol=1e-8
        )
        np.testing.assert_array_equal(model.alpha_[p, ~members], 0.0)
        assert (
            abs(model.alpha_[p] @ np.where(y == i, 1.0, -1.0)) < 1e-8
        )  # sum alpha y = 0 (others have alpha 0)
        f = (
            rbf_kernel(X, X[members], gamma=0.3) @ (alone.alpha * y_pm)
            + alone.b
        )
        np.testing.assert_allclose(decision[:, p], f, atol=1e-8)


def test_class_pairs_order_is_libsvm():
    assert class_pairs(4).tolist() == [
        [0, 1],
        [0, 2],
        [0, 3],
        [1, 2],
        [1, 3],
        [2, 3],
    ]
    assert class_pairs(2).tolist() == [[0, 1]]


def test_votes_and_ovr_scores_match_sklearn_formula():
    # 5 classes, 10 pairs; some decision values exactly 0
    decision = np.random.default_rng(0).normal(size=(50, 10))
    decision[::4, 3] = 0.0
    votes = ovo_votes(decision, 5)
    np.testing.assert_array_equal(votes.sum(axis=1), 10)
    # scikit-learn's helper takes (predictions: 1 means the second class,
    # confidences of the second class), as scikit-learn's SVC calls it
    np.testing.assert_allclose(
        ovr_from_ovo(decision, 5),
        _ovr_decision_function(decision < 0, -decision, 5),
    )
    scores = ovr_from_ovo(decision, 5)
    nonzero = np.all(decision != 0, axis=1)
    np.testing.assert_array_equal(
        np.floor(scores[nonzero] + 1 / 3), votes[nonzero]
    )


def test_predict_is_the_vote_and_ties_go_to_the_first_class():
    model = SVC(C=1.0, gamma=0.05, decision_function_shape="ovo").fit(
        X_train, y_train
    )
    votes = ovo_votes(model.decision_function(X_test), 10)
    np.testing.assert_array_equal(
        model.predict(X_test), np.argmax(votes, axis=1)
    )
    # a three-way tie (each class wins one duel) goes to class 0
    assert np.argmax(ovo_votes(np.array([[1.0, -1.0, 1.0]]), 3)) == 0


def test_cached_and_dense_paths_agree():
    X, y = make_blobs(120, centers=3, random_state=2)
    dense = SVC(C=1.0, gamma=0.5, tol=1e-9).fit(X, y)
    cached = SVC(C=1.0, gamma=0.5, tol=1e-9, cache_size=1e-3).fit(X, y)
    np.testing.assert_array_equal(cached.support_, dense.support_)
    np.testing.assert_allclose(cached.dual_coef_, dense.dual_coef_, atol=1e-7)
    np.testing.assert_allclose(
        cached.decision_function(X), dense.decision_function(X), atol=1e-7
    )


@pytest.mark.parametrize("cache_size", [1024, 1e-2])
def test_fit_one_vs_one_directly_and_float32(cache_size):
    X32 = X_train[:200].astype(np.float32)
    y = y_train[:200]
    training = TrainingKernel(
        X32, lambda A, B: rbf_kernel(A, B, gamma=0.05), cache_size
    )
    assert (training.K is None) == (cache_size < 1)
    fit = fit_one_vs_one(
        training, y, 10, lambda gram, t, members: smo(gram, t, 10.0)
    )
    assert fit.dual_coef.shape == (9, fit.support.size)
    assert fit.intercept.shape == (45,)
    assert fit.n_support.sum() == fit.support.size and np.all(fit.converged)
    # grouped by class
    np.testing.assert_array_equal(np.diff(y[fit.support]) >= 0, True)
    K = rbf_kernel(X32, X32[fit.support], gamma=0.05)
    decision = ovo_decision(K, fit.dual_coef, fit.intercept, fit.n_support)
    assert np.mean(np.argmax(ovo_votes(decision, 10), axis=1) == y) > 0.97


@pytest.mark.parametrize(
    "y_index",
    [np.minimum(y_train[:200], 8), y_train[:200] - 1, y_train[:200] + 0.5],
)
def test_fit_one_vs_one_needs_exactly_the_class_indices(y_index):
    training = TrainingKernel(X_train[:200], RBF(gamma=0.05), 1024)
    with pytest.raises(ValueError, match="every class index"):
        fit_one_vs_one(training, y_index, 10, None)


def test_training_kernel_blocks_are_the_gram_matrix():
    kernel = RBF(sigma=2.0)
    members = np.array([5, 1, 7])
    others = np.array([0, 3])
    full = kernel(X_iris)
    for training in (
        TrainingKernel(X_iris, kernel, 1024),
        TrainingKernel(X_iris, kernel, 1e-3),  # too small: no full matrix
        TrainingKernel.precomputed(full),
    ):
        np.testing.assert_allclose(
            training.block(members, others), full[np.ix_(members, others)]
        )
        gram = training.gram(members)
        np.testing.assert_allclose(
            np.column_stack([gram.column(k) for k in range(3)]),
            full[np.ix_(members, members)],
        )


def test_ovo_coef_is_the_weight_vector_of_each_machine():
    model = SVC(kernel="linear", decision_function_shape="ovo").fit(
        X_iris, y_iris
    )
    coef = ovo_coef(model.dual_coef_, model.n_support_, model.support_vectors_)
    np.testing.assert_allclose(
        X_iris @ coef.T + model.intercept_, model.decision_function(X_iris)
    )


def test_no_progress_bar_when_not_on_a_terminal(capsys):
    SVC(C=10.0, gamma=0.05).fit(X_train[:300], y_train[:300])  # 45 machines
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


def test_kernel_object_string_labels_pickle_and_grid_search():
    model = SVC(kernel=RBF(sigma=1.0), C=10.0).fit(X_iris, SPECIES)
    assert (
        set(model.predict(X_iris)) <= set(SPECIES)
        and model.score(X_iris, SPECIES) > 0.95
    )
    clone = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(clone.predict(X_iris), model.predict(X_iris))
    search = GridSearchCV(
        SVC(), {"C": [1.0, 10.0], "sigma": [0.5, 2.0]}, cv=3
    ).fit(X_iris, SPECIES)
    assert search.best_score_ > 0.9


def test_binary_case_is_unchanged_by_decision_function_shape():
    X, y = X_iris[y_iris > 0], y_iris[y_iris > 0]
    ovr = SVC(C=1.0, decision_function_shape="ovr").fit(X, y)
    ovo = SVC(C=1.0, decision_function_shape="ovo").fit(X, y)
    assert (
        ovr.decision_function(X).shape == (100,)
        and ovr.dual_coef_.shape[0] == 1
    )
    np.testing.assert_array_equal(
        ovr.decision_function(X), ovo.decision_function(X)
    )


def test_one_vs_rest_agrees_with_sklearn_one_vs_rest():
    ours = OneVsRest(SVC(C=10.0, gamma=0.05)).fit(X_train, y_train)
    reference = OneVsRestClassifier(SklearnSVC(C=10.0, gamma=0.05)).fit(
        X_train, y_train
    )
    assert len(ours.estimators_) == 10 and ours.decision_function(
        X_test
    ).shape == (600, 10)
    np.testing.assert_allclose(
        ours.decision_function(X_test),
        reference.decision_function(X_test),
        atol=5e-3,
    )
    assert np.mean(ours.predict(X_test) == reference.predict(X_test)) >= 0.99
    # every machine was trained on all the points
    assert all(e.alpha_.shape == (600,) for e in ours.estimators_)


def test_one_vs_rest_bad_input_leaves_it_unfitted():
    model = OneVsRest(SVC())
    with pytest.raises(ValueError, match="at least two classes"):
        model.fit(X_iris[:10], y_iris[:10])
    assert not [name for name in vars(model) if name.endswith("_")]
    with pytest.raises(NotFittedError):
        model.predict(X_iris)


@pytest.mark.parametrize(
    "estimator, message",
    [
        (SVC(C=-1.0), "'C' parameter of SVC"),
        (StandardScaler(), "'estimator' parameter of OneVsRest"),
    ],
)
def test_one_vs_rest_invalid_estimator(estimator, message):
    model = OneVsRest(estimator)
    with pytest.raises(ValueError, match=message):
        model.fit(X_iris, y_iris)
    with pytest.raises(NotFittedError):
        model.predict(X_iris)


def test_one_vs_rest_sparse_input():
    dense = OneVsRest(SVC(kernel="linear")).fit(X_iris, y_iris)
    sparse = OneVsRest(SVC(kernel="linear")).fit(sp.csr_matrix(X_iris), y_iris)
    np.testing.assert_allclose(
        sparse.decision_function(sp.csr_matrix(X_iris)),
        dense.decision_function(X_iris),
    )


@pytest.mark.parametrize("verbose", [False, True])
def test_verbose_shows_a_progress_bar_over_the_machines(verbose, capsys):
    SVC(C=10, gamma=0.05, verbose=verbose).fit(X_train[:200], y_train[:200])
    err = capsys.readouterr().err
    if verbose:
        assert "one-vs-one machines" in err and "45/45" in err
    else:
        assert err == ""


X600 = X_train[:600].astype(np.float32)  # about 60 points per class
GROUPS = [np.flatnonzero(y_train[:600] == c) for c in range(10)]
PAIRS = [(0, 1), (0, 2), (1, 2), (3, 4)]
BLOCK = max(g.size for g in GROUPS) ** 2 * 4 / 2**20  # MiB, largest block
PAIR = max(GROUPS[i].size + GROUPS[j].size for i, j in PAIRS) ** 2 * 4 / 2**20


@pytest.mark.parametrize(
    "cache_size, kept",
    [
        (PAIR + 5.5 * BLOCK, 5),  # the blocks of classes 0 to 4
        (PAIR + 1.5 * BLOCK, 1),
        (PAIR + 0.5 * BLOCK, 0),
        (PAIR / 2, None),  # a pair does not fit: cached columns
    ],
    ids=["blocks kept", "one block kept", "none kept", "pair cached"],
)
def test_pair_gram_is_the_pairs_gram_matrix(cache_size, kept):
    """Blocks K(i, i) are reused across pairs; the result never changes."""
    kernel = RBF(gamma=0.05)
    training = TrainingKernel(X600, kernel, cache_size)
    assert training.K is None
    for i, j in PAIRS:
        members, gram = training.pair_gram(GROUPS, i, j)
        np.testing.assert_array_equal(
            members, np.concatenate([GROUPS[i], GROUPS[j]])
        )
        expected = kernel(X600[members])
        columns = np.stack([gram.column(k) for k in range(members.size)])
        np.testing.assert_allclose(columns.T, expected, rtol=1e-5, atol=1e-6)
    assert len(training._blocks) == (kept or 0)


def test_pairs_assembled_from_blocks_give_sklearns_model():
    """Blocks K(i, i) kept across pairs: the same model as scikit-learn."""
    X, y = X_train[:300], y_train[:300]
    ours = SVC(C=10, gamma=0.05, tol=1e-8, cache_size=0.5).fit(X, y)
    theirs = SklearnSVC(C=10, gamma=0.05, tol=1e-8).fit(X, y)
    np.testing.assert_array_equal(ours.support_, theirs.support_)
    np.testing.assert_allclose(
        ours.decision_function(X_test),
        theirs.decision_function(X_test),
        atol=1e-5,
    )
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, atol=1e-5)


def test_copy_transposed_in_bands():
    from svmlib.multiclass import _copy_transposed

    source = np.arange(7 * 5, dtype=np.float32).reshape(7, 5)
    target = np.empty((5, 7), dtype=np.float32)
    _copy_transposed(source, target, tile=3)  # bands of 3, 3 and 1 rows
    np.testing.assert_array_equal(target, source.T)


def test_next_pair_prefers_kept_blocks_then_libsvms_order():
    pairs = [tuple(pair) for pair in class_pairs(4).tolist()]
    assert next_pair(pairs, {}, set()) == (0, 1)
    assert next_pair(pairs, {(0, 1): None}, {0, 1}) == (0, 2)
    assert next_pair(pairs, {(0, 1): None, (0, 2): None}, {1, 2}) == (1, 2)
    assert next_pair(pairs, set(pairs[:-1]), {0}) == (2, 3)


def test_one_vs_one_computes_fewer_class_blocks_than_libsvms_order():
    """Room for three blocks: 29 class blocks for 45 machines, not 51."""
    training = TrainingKernel(X600, RBF(gamma=0.05), PAIR + 3.5 * BLOCK)
    computed = []
    block = training.block

    def counting_block(rows, columns):
        computed.append(columns is rows)
        return block(rows, columns)

    training.block = counting_block
    fit = fit_one_vs_one(
        training, y_train[:600], 10, lambda gram, t, m: smo(gram, t, 10.0)
    )
    assert sum(computed) == 29 and len(computed) - sum(computed) == 45
    reference = SVC(C=10.0, gamma=0.05, cache_size=1024).fit(
        X600, y_train[:600]
    )
    np.testing.assert_allclose(
        fit.intercept, reference.intercept_, rtol=1e-4, atol=1e-5
    )


def _replay(n_classes, events, schedule_factory):
    """The pairs a schedule gives while classes are kept and dropped.

    ``events[t]`` lists the (class, kept) changes before the t-th pair.
    """

    class Log:
        kept_log = []

    log = Log()
    schedule = schedule_factory(n_classes, log)
    order = []
    for changes in events:
        log.kept_log = log.kept_log + changes
        pair = schedule.next_pair()
        schedule.solved(*pair)
        order.append(pair)
    return order


class _ReferenceSchedule:
    """next_pair itself, with the kept set replayed from the log."""

    def __init__(self, n_classes, log):
        self.pairs = [(int(i), int(j)) for i, j in class_pairs(n_classes)]
        self.log, self.done = log, set()

    def next_pair(self):
        kept = set()
        for c, is_kept in self.log.kept_log:
            (kept.add if is_kept else kept.discard)(c)
        return next_pair(self.pairs, self.done, kept)

    def solved(self, i, j):
        self.done.add((i, j))


@pytest.mark.parametrize("seed", range(6))
def test_pair_schedule_gives_next_pairs_order(seed):
    """Issue 24: the O(P) schedule picks exactly the pairs of next_pair."""
    rng = np.random.default_rng(seed)
    n_classes = int(rng.integers(2, 14))
    n_pairs = n_classes * (n_classes - 1) // 2
    events = [
        [
            (int(rng.integers(n_classes)), bool(rng.random() < 0.6))
            for _ in range(rng.poisson(1.5))
        ]
        for _ in range(n_pairs)
    ]
    order = _replay(n_classes, events, PairSchedule)
    assert order == _replay(n_classes, events, _ReferenceSchedule)
    assert sorted(order) == sorted(map(tuple, class_pairs(n_classes)))


def test_pair_schedule_of_a_real_fit_is_next_pairs(monkeypatch):
    """With blocks kept and dropped by TrainingKernel (a small cache)."""
    X, y = make_blobs(240, centers=8, random_state=3)
    solved_order = []

    def solve(gram, y_pm, members):
        solved_order.append(members)
        return smo(gram, y_pm, 1.0)

    training = TrainingKernel(X, RBF(gamma=0.5), cache_size=0.05)
    fit_one_vs_one(training, y, 8, solve)
    assert any(not kept for _, kept in training.kept_log)  # some dropped
    # again, each pair checked against next_pair on the kept classes
    training2 = TrainingKernel(X, RBF(gamma=0.5), cache_size=0.05)
    schedule = PairSchedule(8, training2)
    groups = [np.flatnonzero(y == c) for c in range(8)]
    reference_done, order = set(), []
    for _ in range(28):
        kept = set()
        for c, is_kept in training2.kept_log:
            (kept.add if is_kept else kept.discard)(c)
        expected = next_pair(schedule.pairs, reference_done, kept)
        pair = schedule.next_pair()
        assert pair == expected
        training2.pair_gram(groups, *pair)
        schedule.solved(*pair)
        reference_done.add(pair)
        order.append(pair)
    for members, (i, j) in zip(solved_order, order, strict=True):
        assert set(y[members]) == {i, j}


def test_many_classes_are_scheduled_in_linear_time():
    """Issue 24: the bookkeeping per machine does not grow with their number.

    next_pair rescanned every unsolved pair, O(P) per machine and O(P^2)
    over the P machines. With a stub solver all the time is bookkeeping:
    per machine, 240 classes (28680 machines) must cost about what 60
    classes (1770) cost; with the rescan it cost about 16 times more.
    """
    import time

    from svmlib.solvers import SolverResult

    def solve(gram, y_pm, members):
        alpha = np.full(y_pm.size, 0.5)
        return SolverResult(alpha, 0.0, 1, True, 1.0, 0.0)

    def seconds_per_machine(n_classes):
        y_index = np.repeat(np.arange(n_classes), 2)
        training = TrainingKernel.precomputed(np.eye(y_index.size))
        start = time.perf_counter()
        fit = fit_one_vs_one(training, y_index, n_classes, solve)
        n_pairs = n_classes * (n_classes - 1) // 2
        assert fit.intercept.shape == (n_pairs,)
        return (time.perf_counter() - start) / n_pairs

    small = min(seconds_per_machine(60) for _ in range(2))
    large = seconds_per_machine(240)
    assert large < 4 * small, (large, small)


def test_one_scan_of_the_blas_libraries_per_fit(monkeypatch):
    """Issue 24: threadpoolctl scans /proc/self/maps once per fit.

    Before, every machine's smo entered threadpool_limits (about 1.7 ms
    each: 45 scans for ten classes, 44850 for 300).
    """
    import svmlib.gram as gram_module

    scans = []
    real_limits = gram_module.threadpool_limits
    real_controller = gram_module.ThreadpoolController

    def counted_limits(*args, **kwargs):
        scans.append("threadpool_limits")
        return real_limits(*args, **kwargs)

    def counted_controller(*args, **kwargs):
        scans.append("ThreadpoolController")
        return real_controller(*args, **kwargs)

    monkeypatch.setattr(gram_module, "threadpool_limits", counted_limits)
    monkeypatch.setattr(
        gram_module, "ThreadpoolController", counted_controller
    )
    X, y = make_blobs(120, centers=6, random_state=0)
    SVC(C=1.0).fit(X, y)
    assert scans == ["ThreadpoolController"], scans


def test_pairwise_model_too_large_for_memory_is_refused_before_work(
    monkeypatch,
):
    """Issue 24: alpha_ is (P, n) float64; checked before any kernel."""
    import svmlib.multiclass as multiclass

    monkeypatch.setattr(multiclass, "_available_memory", lambda: 10**6)
    calls = []

    def kernel(A, B):
        calls.append(1)
        return A @ B.T

    X, y = make_blobs(300, centers=12, random_state=0)
    # 66 machines x 300 points x 8 bytes = 158400 bytes: fits
    multiclass.check_model_memory(12, 300)
    X_big = np.repeat(X, 10, axis=0)  # 66 x 3000 x 8 = 1.58 MB: too large
    y_big = np.repeat(y, 10)
    with pytest.raises(MemoryError, match=r"\(66, 3000\) .*1.51 MiB.*0.954"):
        multiclass.check_model_memory(12, 3000)
    with pytest.raises(MemoryError, match=r"alpha of shape \(66, 3000\)"):
        SVC(kernel=kernel).fit(X_big, y_big)
    assert not calls  # refused before the first kernel value
    monkeypatch.setattr(multiclass, "_available_memory", lambda: None)
    assert multiclass.check_model_memory(12, 3000) == 66 * 3000 * 8


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("order", ["C", "F"])
def test_a_pairs_gram_matrix_is_the_full_ones_block_bit_for_bit(dtype, order):
    # TrainingKernel.gram copies a pair's block with a compiled loop; it
    # must give exactly NumPy's K[np.ix_(members, members)]
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 5)).astype(dtype)
    training = TrainingKernel(X, RBF(gamma=0.3), cache_size=64)
    training.K = np.asarray(training.K, order=order)
    for members in (
        np.sort(rng.choice(60, 25, replace=False)),
        np.array([7]),
        np.array([0, 59]),
    ):
        got = training.gram(members).K
        want = training.K[np.ix_(members, members)]
        assert got.dtype == want.dtype == dtype
        np.testing.assert_array_equal(got, want)
