"""Sliders for a running notebook: SMO step by step, and the SVR tube.

The book's pages carry a live playground (an SVM trained in the browser,
``_ext/playground.py``) in *Platt's SMO and working sets* and in
*Regression*; a notebook in JupyterLab or Notebook 7 has a kernel instead.
The two functions here are that playground's stand-ins there (the
project's Jupyter view, ``jupyter/svmbook_jupyter.py``, puts a cell that
calls them where the page shows the playground):

* :func:`explore_smo` steps through :func:`svmlib.solvers.smo` (WSS 2,
  without shrinking, as the playground) on a two-dimensional problem: a
  step slider (and a Play button) shows the decision regions, the
  boundary, the margins and the support vectors after each step, with the
  pair the step changed circled, and sliders for C and sigma solve again.
* :func:`explore_svr` fits :class:`svmlib.SVR` on points (x, z) and draws
  the function and its epsilon-tube, with sliders for C, epsilon and
  sigma.

A third, :func:`explore_grid`, gives any figure of a few parameters one
slider each over a grid of values (the chapter *Tuning C and sigma* moves
C and sigma over its grid of fitted models with it).

All three need ipywidgets and a live kernel for their sliders. When
``SVMBOOK_HEADLESS`` is set (the book's build and the tests execute the
chapters with it) no one can move a slider and no kernel answers it, so
they draw one still figure instead and return None. The computations
behind the figures, :func:`smo_steps` and the drawing functions, need
only matplotlib.
"""

import os
import warnings
from collections import namedtuple

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from svmlib.kernels import linear_kernel, rbf_kernel
from svmlib.solvers import smo
from svmlib.svr import SVR

__all__ = [
    "SMOStep",
    "draw_smo_step",
    "draw_svr_tube",
    "explore_smo",
    "explore_grid",
    "explore_svr",
    "smo_steps",
]

KERNELS = ("rbf", "linear")
# the values the sliders offer: half decades, as the tuning chapter's grid
C_VALUES = tuple(np.round(10.0 ** np.arange(-2, 3.01, 0.5), 4))
SIGMA_VALUES = (0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0)
EPSILON_VALUES = tuple(np.round(np.arange(0.0, 1.01, 0.1), 2))
FIGSIZE = (6.4, 4.0)

SMOStep = namedtuple(
    "SMOStep", "step alpha b pair kkt_violation dual_objective"
)
SMOStep.__doc__ = """The state of SMO after one step (see :func:`smo_steps`).

Attributes
----------
step : int
    The number of steps taken, from 1.
alpha : ndarray of shape (n,)
    The multipliers after the step.
b : float
    The intercept after the step (the decision value is
    sum_i alpha_i y_i K(x_i, x) + b).
pair : tuple of int
    The indices (i, j) of the two multipliers the step changed, in
    increasing order.
kkt_violation : float
    The maximal KKT violation m(alpha) - M(alpha) after the step; SMO
    stops when it is at most ``tol``.
dual_objective : float
    The dual objective W(alpha) after the step.
"""


def _headless():
    return bool(os.environ.get("SVMBOOK_HEADLESS"))


def _kernel(kernel, sigma):
    if kernel not in KERNELS:
        raise ValueError(f"kernel must be one of {KERNELS}, got {kernel!r}.")
    if kernel == "linear":
        return linear_kernel
    if not (np.isfinite(sigma) and sigma > 0):
        raise ValueError(f"sigma must be a positive number, got {sigma!r}.")
    return lambda A, B: rbf_kernel(A, B, sigma=sigma)


def _points(X, name="X"):
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != 2 or not np.all(np.isfinite(X)):
        raise ValueError(
            f"{name} must be a finite array of shape (n, 2), the points of "
            f"the plane; got shape {X.shape}."
        )
    return X


def smo_steps(
    X, y, *, C=1.0, kernel="rbf", sigma=1.0, tol=1e-3, max_steps=1000
):
    """Run SMO (WSS 2, no shrinking) and return its state after each step.

    Step k's state is what :func:`svmlib.solvers.smo` returns when stopped
    after k steps (``max_iter=k``): the solver is deterministic, so these
    are the states of one run. The pair of step k is the two multipliers
    that differ between steps k - 1 and k.

    Parameters
    ----------
    X : array-like of shape (n, 2)
        Points of the plane.
    y : array-like of shape (n,)
        Labels in {-1, +1}, both present.
    C : float, default=1.0
        The box constraint, > 0.
    kernel : {"rbf", "linear"}, default="rbf"
        The kernel, as in the playground.
    sigma : float, default=1.0
        The Gaussian kernel's width (``kernel="rbf"``), > 0.
    tol : float, default=1e-3
        SMO's stopping tolerance on the maximal KKT violation.
    max_steps : int, default=1000
        At most this many steps.

    Returns
    -------
    list of SMOStep
        One per step, the last one the solution (or step ``max_steps``).

    Raises
    ------
    ValueError
        If X is not of shape (n, 2) and finite, the kernel is unknown,
        sigma is not positive, or y, C, tol or max_steps is invalid
        (:func:`svmlib.solvers.smo`'s checks).

    References
    ----------
    Fan, Chen & Lin (2005), "Working set selection using second order
    information for training SVM"; chapter *Platt's SMO and working sets*.

    Examples
    --------
    >>> X = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [2.0, 2.0]]
    >>> steps = smo_steps(X, [-1, -1, -1, 1], C=10.0, kernel="linear")

    Three points of class -1 and one of class +1; (1, 0) and (0, 1) are
    both on the margin at the solution, and SMO zigzags between them:

    >>> len(steps), [state.pair for state in steps[:3]]
    (7, [(1, 3), (1, 2), (1, 3)])
    >>> bool(steps[-1].kkt_violation <= 1e-3)
    True
    """
    X = _points(X)
    K = _kernel(kernel, sigma)(X, X)
    states = []
    previous = np.zeros(len(X))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for k in range(1, int(max_steps) + 1):
            result = smo(K, y, C, tol=tol, max_iter=k, shrinking=False)
            if result.n_iter < k:  # converged in fewer steps
                break
            pair = tuple(
                int(i) for i in np.flatnonzero(result.alpha != previous)
            )
            states.append(
                SMOStep(
                    k,
                    result.alpha.copy(),
                    float(result.b),
                    pair,
                    float(result.kkt_violation),
                    float(result.dual_objective),
                )
            )
            previous = result.alpha.copy()
            if result.converged:
                break
    return states


def draw_smo_step(ax, X, y, state, *, kernel="rbf", sigma=1.0, n_steps=None):
    """Draw SMO's state after a step: regions, boundary, margins, pair.

    Class +1 is blue and class -1 red; the support vectors (alpha_i > 0)
    are filled, the other points hollow; the two points of the step's pair
    are circled in black; the boundary f(x) = 0 is solid and the margins
    f(x) = +-1 are dashed.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw.
    X : array-like of shape (n, 2)
        The points.
    y : array-like of shape (n,)
        Their labels in {-1, +1}.
    state : SMOStep
        The step to draw (from :func:`smo_steps`).
    kernel : {"rbf", "linear"}, default="rbf"
        The kernel the steps were taken with.
    sigma : float, default=1.0
        Its width (``kernel="rbf"``).
    n_steps : int, optional
        The number of steps of the run, for the title.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``.

    Raises
    ------
    ValueError
        If X is not of shape (n, 2), or the kernel or sigma is invalid.

    References
    ----------
    Chapter *Platt's SMO and working sets*.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> X, y = [[0.0, 0.0], [2.0, 2.0]], [-1, 1]
    >>> fig, ax = plt.subplots()
    >>> state = smo_steps(X, y, kernel="linear")[-1]
    >>> draw_smo_step(ax, X, y, state, kernel="linear").get_title()
    'step 1: pair (0, 1), KKT violation 0, W = 0.25'
    >>> plt.close(fig)
    """
    X, y = _points(X), np.asarray(y, dtype=float)
    k = _kernel(kernel, sigma)
    pad = 0.5
    (x0, y0), (x1, y1) = X.min(axis=0) - pad, X.max(axis=0) + pad
    gx, gy = np.meshgrid(np.linspace(x0, x1, 120), np.linspace(y0, y1, 90))
    grid = np.column_stack([gx.ravel(), gy.ravel()])
    f = (k(grid, X) @ (state.alpha * y) + state.b).reshape(gx.shape)
    limit = max(1.0, float(np.abs(f).max()))
    ax.contourf(
        gx, gy, f, levels=20, cmap="RdBu", vmin=-limit, vmax=limit, alpha=0.5
    )
    ax.contour(
        gx,
        gy,
        f,
        levels=[-1, 0, 1],
        colors="k",
        linestyles=["--", "-", "--"],
        linewidths=[0.8, 1.4, 0.8],
    )
    support = state.alpha > 0
    for label, colour in ((1, "tab:blue"), (-1, "tab:red")):
        mine = y == label
        ax.scatter(
            *X[mine & support].T,
            c=colour,
            edgecolors="k",
            s=40,
            label=f"class {label:+d}, support vector",
        )
        ax.scatter(
            *X[mine & ~support].T,
            facecolors="white",
            edgecolors=colour,
            s=40,
            label=f"class {label:+d}",
        )
    ax.scatter(
        *X[list(state.pair)].T,
        s=220,
        facecolors="none",
        edgecolors="k",
        linewidths=1.6,
        label="the step's pair",
    )
    of = f" of {n_steps}" if n_steps else ""
    i, j = (state.pair + (None, None))[:2]
    ax.set_title(
        f"step {state.step}{of}: pair ({i}, {j}), KKT violation "
        f"{state.kkt_violation:.3g}, W = {state.dual_objective:.4g}",
        fontsize=9,
    )
    ax.set(
        xlim=(x0, x1), ylim=(y0, y1), aspect="equal",
        xlabel="$x_1$", ylabel="$x_2$",
    )  # fmt: skip
    return ax


def draw_svr_tube(ax, x, z, model, epsilon):
    """Draw an SVR's function, its epsilon-tube and the points.

    The points inside the tube are hollow, the support vectors (on its
    edge or outside) filled; the title counts the support vectors and the
    points outside the tube (by more than 1e-3, the solver's tolerance,
    past its edge); the function is solid, the tube's edges
    dashed and its inside shaded.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw.
    x : array-like of shape (n,)
        The inputs.
    z : array-like of shape (n,)
        The targets.
    model : svmlib.SVR
        A model fitted on ``x[:, None]`` and ``z``.
    epsilon : float
        The tube's half-width (the model's ``epsilon``).

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``.

    References
    ----------
    Smola & Schölkopf (2004), "A tutorial on support vector regression";
    chapter *Regression: the epsilon-insensitive tube*.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from svmlib import SVR
    >>> x, z = [0.0, 1.0, 2.0], [0.0, 1.0, 2.0]
    >>> model = SVR(kernel="linear", C=10.0, epsilon=0.1)
    >>> model = model.fit([[v] for v in x], z)
    >>> fig, ax = plt.subplots()
    >>> draw_svr_tube(ax, x, z, model, 0.1).get_title()
    '2 support vectors, 0 outside the tube'
    >>> plt.close(fig)
    """
    x, z = np.asarray(x, dtype=float), np.asarray(z, dtype=float)
    pad = 0.1 * (np.ptp(x) or 1.0)
    grid = np.linspace(x.min() - pad, x.max() + pad, 300)
    f = model.predict(grid[:, None])
    ax.fill_between(grid, f - epsilon, f + epsilon, color="0.88", lw=0)
    ax.plot(grid, f, "k-", lw=1.5, label="$f(x)$")
    ax.plot(grid, f - epsilon, "k--", lw=0.7)
    ax.plot(grid, f + epsilon, "k--", lw=0.7, label=r"$f(x) \pm \varepsilon$")
    support = np.zeros(len(x), dtype=bool)
    support[model.support_] = True
    # outside: farther than SMO's tolerance (1e-3) past the tube's edge; the
    # points on the edge sit there only up to that tolerance
    outside = np.abs(z - model.predict(x[:, None])) > epsilon + 1e-3
    ax.scatter(
        x[~support],
        z[~support],
        facecolors="white",
        edgecolors="tab:blue",
        s=30,
        label="inside the tube",
    )
    ax.scatter(
        x[support],
        z[support],
        c="tab:red",
        edgecolors="k",
        s=36,
        label="support vector",
    )
    ax.set_title(
        f"{int(support.sum())} support vectors, {int(outside.sum())} "
        "outside the tube",
        fontsize=9,
    )
    ax.set(xlabel="$x$", ylabel="$z$")
    return ax


def _show(fig):
    """Display a figure in the running notebook (if any), then close it."""
    import matplotlib.pyplot as plt

    if _shell():
        from IPython.display import display

        display(fig)
    plt.close(fig)


def _shell():
    """Whether this runs in IPython (a notebook's kernel), not a script."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - matplotlib-inline needs it
        return False
    return get_ipython() is not None


def _selection(name, values, value, label="{:g}"):
    from ipywidgets import SelectionSlider

    options = sorted({float(v) for v in values} | {float(value)})
    return SelectionSlider(
        options=[(label.format(v), v) for v in options],
        value=float(value),
        description=name,
        continuous_update=False,
    )


def explore_smo(X, y, *, C=1.0, kernel="rbf", sigma=1.0):
    """SMO step by step on points of the plane, with sliders.

    A step slider with a Play button shows :func:`draw_smo_step` after
    each step of :func:`smo_steps`; the C and sigma sliders (values of
    ``C_VALUES`` and ``SIGMA_VALUES``) solve again from alpha = 0. When
    ``SVMBOOK_HEADLESS`` is set, draws the last step and shows no slider.

    Parameters
    ----------
    X : array-like of shape (n, 2)
        Points of the plane.
    y : array-like of shape (n,)
        Labels in {-1, +1}, both present.
    C : float, default=1.0
        The initial box constraint, > 0.
    kernel : {"rbf", "linear"}, default="rbf"
        The kernel.
    sigma : float, default=1.0
        The initial width of the Gaussian kernel, > 0.

    Returns
    -------
    ipywidgets.VBox or None
        The sliders and the figure (the cell displays it), or None when
        headless (the still figure is displayed).

    Raises
    ------
    ValueError
        As :func:`smo_steps`.

    References
    ----------
    Fan, Chen & Lin (2005); chapter *Platt's SMO and working sets*.

    Examples
    --------
    >>> import os
    >>> from unittest import mock
    >>> X = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [2.0, 2.0]]
    >>> with mock.patch.dict(os.environ, {"SVMBOOK_HEADLESS": ""}):
    ...     view = explore_smo(X, [-1, -1, -1, 1], C=10.0)
    >>> [w.description for w in view.children[1].children]
    ['C', 'sigma']
    >>> view.children[0].children[1].max  # steps to the solution
    10
    >>> with mock.patch.dict(os.environ, {"SVMBOOK_HEADLESS": "1"}):
    ...     explore_smo(X, [-1, -1, -1, 1], C=10.0) is None  # a still
    True
    """
    import matplotlib.pyplot as plt

    X = _points(X)
    state = {"steps": smo_steps(X, y, C=C, kernel=kernel, sigma=sigma)}

    def figure(step, C, sigma):
        fig, ax = plt.subplots(figsize=FIGSIZE)
        steps = state["steps"]
        draw_smo_step(
            ax,
            X,
            y,
            steps[min(step, len(steps)) - 1],
            kernel=kernel,
            sigma=sigma,
            n_steps=len(steps),
        )
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1))
        fig.tight_layout()
        return fig

    if _headless():
        _show(figure(len(state["steps"]), C, sigma))
        return None
    from ipywidgets import HBox, IntSlider, Output, Play, VBox, jslink

    n = len(state["steps"])
    step = IntSlider(1, 1, n, description="step", continuous_update=False)
    play = Play(value=1, min=1, max=n, interval=500, description="Play")
    jslink((play, "value"), (step, "value"))
    C_slider = _selection("C", C_VALUES, C)
    sigma_slider = _selection("sigma", SIGMA_VALUES, sigma)
    sigma_slider.disabled = kernel == "linear"
    out = Output()

    def redraw(_=None):
        with out:
            if _shell():
                out.clear_output(wait=True)
            _show(figure(step.value, C_slider.value, sigma_slider.value))

    def solve(_=None):
        state["steps"] = smo_steps(
            X, y, C=C_slider.value, kernel=kernel, sigma=sigma_slider.value
        )
        n = len(state["steps"])
        with step.hold_trait_notifications():
            step.max = play.max = n
            step.value = 1
        redraw()

    step.observe(redraw, names="value")
    C_slider.observe(solve, names="value")
    sigma_slider.observe(solve, names="value")
    view = VBox([HBox([play, step]), HBox([C_slider, sigma_slider]), out])
    view.add_class("svmlib-explore")
    redraw()
    return view


def explore_svr(x, z, *, C=10.0, epsilon=0.2, kernel="rbf", sigma=0.7):
    """Epsilon-SVR on points (x, z), with sliders for C, epsilon, sigma.

    Each move fits :class:`svmlib.SVR` again and redraws
    :func:`draw_svr_tube` (values of ``C_VALUES``, ``EPSILON_VALUES`` and
    ``SIGMA_VALUES``, with the initial ones). When ``SVMBOOK_HEADLESS`` is
    set, draws the initial fit and shows no slider.

    Parameters
    ----------
    x : array-like of shape (n,)
        The inputs.
    z : array-like of shape (n,)
        The targets.
    C : float, default=10.0
        The initial box constraint, > 0.
    epsilon : float, default=0.2
        The initial half-width of the tube, >= 0.
    kernel : {"rbf", "linear"}, default="rbf"
        The kernel.
    sigma : float, default=0.7
        The initial width of the Gaussian kernel, > 0 (gamma = 1 / (2
        sigma^2)).

    Returns
    -------
    ipywidgets.VBox or None
        The sliders and the figure, or None when headless (the still
        figure is displayed).

    Raises
    ------
    ValueError
        If x and z are not finite arrays of one length, or the kernel or a
        parameter is invalid (:class:`svmlib.SVR`'s checks).

    References
    ----------
    Smola & Schölkopf (2004); chapter *Regression: the epsilon-insensitive
    tube*.

    Examples
    --------
    >>> import os
    >>> from unittest import mock
    >>> with mock.patch.dict(os.environ, {"SVMBOOK_HEADLESS": ""}):
    ...     view = explore_svr([0.0, 1.0, 2.0], [0.0, 1.0, 0.0])
    >>> [w.description for w in view.children[:3]]
    ['C', 'epsilon', 'sigma']
    """
    import matplotlib.pyplot as plt

    x, z = np.asarray(x, dtype=float), np.asarray(z, dtype=float)
    if x.ndim != 1 or x.shape != z.shape or not np.all(np.isfinite(x)):
        raise ValueError(
            "x and z must be finite arrays of shape (n,), one length; got "
            f"shapes {x.shape} and {z.shape}."
        )
    _kernel(kernel, sigma)

    def figure(C, epsilon, sigma):
        gamma = 1.0 / (2.0 * sigma**2) if kernel == "rbf" else "scale"
        model = SVR(kernel=kernel, C=C, epsilon=epsilon, gamma=gamma)
        model.fit(x[:, None], z)
        fig, ax = plt.subplots(figsize=FIGSIZE)
        draw_svr_tube(ax, x, z, model, epsilon)
        ax.set_title(
            f"C = {C:g}, epsilon = {epsilon:g}"
            + (f", sigma = {sigma:g}" if kernel == "rbf" else "")
            + ": "
            + ax.get_title(),
            fontsize=9,
        )
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1))
        fig.tight_layout()
        return fig

    if _headless():
        _show(figure(C, epsilon, sigma))
        return None
    from ipywidgets import Output, VBox

    sliders = [
        _selection("C", C_VALUES, C),
        _selection("epsilon", EPSILON_VALUES, epsilon),
        _selection("sigma", SIGMA_VALUES, sigma),
    ]
    sliders[2].disabled = kernel == "linear"
    out = Output()

    def redraw(_=None):
        with out:
            if _shell():
                out.clear_output(wait=True)
            _show(figure(*(s.value for s in sliders)))

    for slider in sliders:
        slider.observe(redraw, names="value")
    view = VBox([*sliders, out])
    view.add_class("svmlib-explore")
    redraw()
    return view


def explore_grid(figure, **grid):
    """Sliders over a grid of parameter values, one figure per choice.

    Each keyword names a parameter of ``figure`` and gives the values its
    slider offers and the initial one. Moving a slider calls ``figure``
    with the value of every slider and displays the figure it returns.
    When ``SVMBOOK_HEADLESS`` is set, displays the figure at the initial
    values and shows no slider.

    Parameters
    ----------
    figure : callable
        ``figure(**values)`` draws and returns a matplotlib figure for one
        value of each parameter; the explorer displays and closes it.
    **grid : tuple of (sequence of float, float)
        For each parameter, by name: the values of its slider (the initial
        value is added if it is not among them), and the initial value.
        The slider shows each value to three significant digits.

    Returns
    -------
    ipywidgets.VBox or None
        The sliders and the figure (the cell displays it), or None when
        headless (the still figure is displayed).

    Raises
    ------
    ValueError
        If no parameter is given, or a parameter is not a pair of values
        and an initial value, all finite numbers (the message names it).

    References
    ----------
    Hsu, Chang & Lin (2003), "A practical guide to support vector
    classification" (a grid of C and the kernel width); chapter *Tuning C
    and sigma*.

    Examples
    --------
    >>> import os
    >>> from unittest import mock
    >>> import matplotlib.pyplot as plt
    >>> def figure(C, sigma):
    ...     fig, ax = plt.subplots()
    ...     ax.set_title(f"C = {C:g}, sigma = {sigma:g}")
    ...     return fig
    >>> grid = {"C": ([0.1, 1.0, 10.0], 1.0), "sigma": ([0.5, 2.0], 0.5)}
    >>> with mock.patch.dict(os.environ, {"SVMBOOK_HEADLESS": ""}):
    ...     view = explore_grid(figure, **grid)
    >>> [(w.description, w.value) for w in view.children[:2]]
    [('C', 1.0), ('sigma', 0.5)]
    >>> view.children[0].options[0]
    ('0.1', 0.1)
    >>> with mock.patch.dict(os.environ, {"SVMBOOK_HEADLESS": "1"}):
    ...     explore_grid(figure, **grid) is None  # a still
    True
    """
    if not grid:
        raise ValueError("explore_grid needs at least one parameter.")
    initial = {}
    for name, choice in grid.items():
        try:
            values, value = choice
            values = np.asarray(list(values) + [value], dtype=float)
        except (TypeError, ValueError):
            raise ValueError(
                f"{name} must be a pair (values, initial value) of numbers; "
                f"got {choice!r}."
            ) from None
        if values.ndim != 1 or not np.all(np.isfinite(values)):
            raise ValueError(
                f"{name} must be a pair (values, initial value) of finite "
                f"numbers; got {choice!r}."
            )
        initial[name] = float(value)
    if _headless():
        _show(figure(**initial))
        return None
    from ipywidgets import Output, VBox

    sliders = {
        name: _selection(name, grid[name][0], value, label="{:.3g}")
        for name, value in initial.items()
    }
    out = Output()

    def redraw(_=None):
        with out:
            if _shell():
                out.clear_output(wait=True)
            _show(figure(**{n: s.value for n, s in sliders.items()}))

    for slider in sliders.values():
        slider.observe(redraw, names="value")
    view = VBox([*sliders.values(), out])
    view.add_class("svmlib-explore")
    redraw()
    return view
