"""svmlib.explore: SMO step by step and the SVR tube, with sliders.

The steps are SMO's own (the last is the solution smo returns, the dual
objective never falls, each step changes exactly its pair); the sliders
solve again with the values they show; headless, one still figure and no
slider. The point sets are the playground's (_static/playground).
"""

import json
import os
from pathlib import Path
from unittest import mock

import matplotlib
import numpy as np
import pytest
from sklearn.svm import SVR as SklearnSVR

from svmlib import explore
from svmlib.kernels import rbf_kernel
from svmlib.solvers import smo

matplotlib.use("Agg")
ROOT = Path(__file__).resolve().parents[1]
POINTS = json.loads(
    (ROOT / "_static" / "playground" / "datasets.json").read_text()
)


def _blobs():
    points = np.array(POINTS["datasets"]["blobs"]["points"])
    return points[:, :2], points[:, 2]


def _sine():
    points = np.array(POINTS["regression"]["datasets"]["sine"]["points"])
    return points[:, 0], points[:, 1]


@pytest.fixture
def shown(monkeypatch):
    """The titles of the figures the explorers display."""
    titles = []

    def show(fig):
        titles.append(fig.axes[0].get_title())
        matplotlib.pyplot.close(fig)

    monkeypatch.setattr(explore, "_show", show)
    return titles


def test_steps_are_smos_and_end_at_its_solution():
    X, y = _blobs()
    steps = explore.smo_steps(X, y, C=1.0, sigma=1.0)
    full = smo(rbf_kernel(X, sigma=1.0), y, 1.0, shrinking=False)
    assert len(steps) == full.n_iter > 5
    np.testing.assert_array_equal(steps[-1].alpha, full.alpha)
    assert steps[-1].b == full.b and steps[-1].kkt_violation <= 1e-3
    assert [s.step for s in steps] == list(range(1, len(steps) + 1))
    objective = [s.dual_objective for s in steps]
    assert np.all(np.diff(objective) >= -1e-12)  # SMO never lowers W
    previous = np.zeros(len(y))
    for state in steps:
        assert len(state.pair) == 2
        assert set(np.flatnonzero(state.alpha != previous)) == set(state.pair)
        assert abs(state.alpha @ y) < 1e-12  # the equality constraint
        previous = state.alpha


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"X": np.zeros((4, 3))}, "X must be a finite array of shape"),
        ({"kernel": "poly"}, "kernel must be one of"),
        ({"sigma": 0.0}, "sigma must be a positive number"),
        ({"C": -1.0}, "C"),
    ],
)
def test_bad_input_is_named(kwargs, message):
    X, y = _blobs()
    arguments = {"X": X[:4], "y": [1, -1, 1, -1], **kwargs}
    with pytest.raises(ValueError, match=message):
        explore.smo_steps(**arguments)


def test_smo_sliders_solve_again(shown):
    X, y = _blobs()
    with mock.patch.dict(os.environ, {"SVMBOOK_HEADLESS": ""}):
        view = explore.explore_smo(X, y, C=1.0, sigma=1.0)
    play, step = view.children[0].children
    C, sigma = view.children[1].children
    n = len(explore.smo_steps(X, y, C=1.0, sigma=1.0))
    assert step.max == play.max == n and shown[-1].startswith(
        f"step 1 of {n}: pair"
    )
    step.value = n
    assert shown[-1].startswith(f"step {n} of {n}:")
    C.value = 100.0
    m = len(explore.smo_steps(X, y, C=100.0, sigma=1.0))
    assert m != n and step.max == m and step.value == 1
    assert shown[-1].startswith(f"step 1 of {m}:")
    sigma.value = 0.3
    k = len(explore.smo_steps(X, y, C=100.0, sigma=0.3))
    assert shown[-1].startswith(f"step 1 of {k}:")


def test_headless_draws_one_still_and_no_slider(shown):
    X, y = _blobs()
    x, z = _sine()
    with mock.patch.dict(os.environ, {"SVMBOOK_HEADLESS": "1"}):
        assert explore.explore_smo(X, y, C=1.0) is None
        assert explore.explore_svr(x, z) is None
    n = len(explore.smo_steps(X, y, C=1.0))
    assert len(shown) == 2 and shown[0].startswith(f"step {n} of {n}:")


def _counts(title):
    words = title.split(": ")[-1].split()
    return int(words[0]), int(words[3])


def test_svr_sliders_refit_as_scikit_learn(shown):
    x, z = _sine()
    with mock.patch.dict(os.environ, {"SVMBOOK_HEADLESS": ""}):
        view = explore.explore_svr(x, z, C=10.0, epsilon=0.2, sigma=0.7)
    C, epsilon, sigma = view.children[:3]
    for slider, value in ((epsilon, 0.5), (C, 0.1), (sigma, 0.3)):
        slider.value = value
        parameters = (C.value, epsilon.value, sigma.value)
        assert shown[-1].startswith(
            f"C = {C.value:g}, epsilon = {epsilon.value:g}, "
            f"sigma = {sigma.value:g}: "
        )
        reference = SklearnSVR(
            C=parameters[0],
            epsilon=parameters[1],
            gamma=1 / (2 * parameters[2] ** 2),
            tol=1e-8,
        ).fit(x[:, None], z)
        outside = np.abs(z - reference.predict(x[:, None])) > (
            parameters[1] + 1e-3
        )
        assert _counts(shown[-1]) == (
            len(reference.support_),
            int(outside.sum()),
        ), parameters
    assert len(shown) == 4


def test_svr_bad_input_is_named():
    with pytest.raises(ValueError, match="x and z must be"):
        explore.explore_svr([0.0, 1.0], [0.0])


def test_both_views_label_their_axes():
    import matplotlib.pyplot as plt

    import svmlib

    X, y = _blobs()
    x, z = _sine()
    states = explore.smo_steps(X, y, C=1.0)
    fig, (left, right) = plt.subplots(1, 2)
    try:
        explore.draw_smo_step(left, X, y, states[-1], n_steps=len(states))
        model = svmlib.SVR(C=10.0, epsilon=0.2, gamma=1.0).fit(x[:, None], z)
        explore.draw_svr_tube(right, x, z, model, 0.2)
        labels = [(a.get_xlabel(), a.get_ylabel()) for a in (left, right)]
    finally:
        plt.close(fig)
    assert labels == [("$x_1$", "$x_2$"), ("$x$", "$z$")]


def _grid_figure(calls):
    import matplotlib.pyplot as plt

    def figure(C, sigma):
        calls.append((C, sigma))
        fig, ax = plt.subplots()
        ax.set_title(f"C = {C:g}, sigma = {sigma:g}")
        return fig

    return figure


def test_grid_sliders_redraw_with_every_slider_value(shown):
    calls = []
    C_values, sigma_values = [0.01, 0.1, 1.0], [0.0457, 0.5, 2.92]
    with mock.patch.dict(os.environ, {"SVMBOOK_HEADLESS": ""}):
        view = explore.explore_grid(
            _grid_figure(calls), C=(C_values, 10.0), sigma=(sigma_values, 0.5)
        )
    C, sigma = view.children[:2]
    # the initial value joins the grid; labels to three digits, in order
    assert [label for label, _ in C.options] == ["0.01", "0.1", "1", "10"]
    assert [label for label, _ in sigma.options] == ["0.0457", "0.5", "2.92"]
    assert calls == [(10.0, 0.5)] and shown == ["C = 10, sigma = 0.5"]
    C.value = 0.1
    sigma.value = 2.92
    assert calls[1:] == [(0.1, 0.5), (0.1, 2.92)]
    assert shown[-1] == "C = 0.1, sigma = 2.92"


def test_grid_headless_draws_the_initial_still(shown):
    calls = []
    with mock.patch.dict(os.environ, {"SVMBOOK_HEADLESS": "1"}):
        result = explore.explore_grid(
            _grid_figure(calls), C=([1.0, 10.0], 10.0), sigma=([0.5], 0.5)
        )
    assert result is None and calls == [(10.0, 0.5)]
    assert shown == ["C = 10, sigma = 0.5"]


@pytest.mark.parametrize(
    ("grid", "message"),
    [
        ({}, "at least one parameter"),
        ({"C": [1.0, 10.0]}, "C must be a pair"),
        ({"C": ([1.0], "ten")}, "C must be a pair"),
        ({"sigma": ([0.5, np.nan], 0.5)}, "sigma must be a pair"),
        ({"sigma": ([[0.5]], 0.5)}, "sigma must be a pair"),
    ],
)
def test_grid_bad_input_is_named(grid, message):
    with pytest.raises(ValueError, match=message):
        explore.explore_grid(_grid_figure([]), **grid)
