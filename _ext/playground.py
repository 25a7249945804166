"""The SVM playground: a live SVM in the static pages, and its directive.

In a chapter's markdown::

    ```{svm-playground}
    :mode: sweep
    :kernel: rbf
    :C: 10
    :sigma: 0.5
    :points: rings
    ```

places a playground in the HTML page: a canvas on which the reader adds,
drags and removes points of two classes, sliders for C and sigma (log
scales) and a choice of kernel, with the decision regions, the margins
f = +-1, the support vectors, the training accuracy and the number of
support vectors drawn live. ``:mode: step`` adds SMO's step mode: one click,
one step of the solver, with the pair (i, j) it chose, the gain of the step
and the maximal KKT violation.

``:mode: regression`` is epsilon-SVR on points (x, z) with one input::

    ```{svm-playground}
    :mode: regression
    :kernel: rbf
    :C: 10
    :epsilon: 0.2
    :sigma: 0.7
    :points: sine
    ```

The reader adds, drags and removes points (x, z); sliders set C, epsilon
and sigma; the page draws the regression curve f(x), the epsilon-tube
f(x) +- epsilon and the support vectors (the points on or outside the
tube), trained by the same solver on the 2n variables [alpha; alpha*] of
LIBSVM's form (Chang and Lin 2011, section 2.3).

The SVM is trained in the reader's browser by ``_static/playground/smo.js``,
which mirrors ``svmlib/solvers/sequential_minimal.py`` (WSS 2, no
shrinking; the same tol, stopping rule and b) and is tested against it by
``tests/test_playground_solver.py``; ``_static/playground/playground.js``
draws the page. Both are plain JavaScript files served from the book's
``_static`` folder, so the playground works from ``file://`` and from any
static host, offline. They are added only to the pages that carry a
playground (jupyter-book would otherwise add every ``.js`` and ``.css``
file under ``_static`` to every page).

The initial points come from ``_static/playground/datasets.json`` (one
source for this extension and the page; the regression mode's sets under
its key ``"regression"``): the directive writes the chosen set into the
page as a ``data-`` attribute, since a page read from disk cannot
``fetch()`` a local file.

Without JavaScript the page shows a still image instead (``<noscript>``),
drawn at build time with matplotlib from the same points and parameters,
solved by svmlib's own ``smo`` (the regression mode: by ``svmlib.SVR``
when svmlib has it, else by scikit-learn's ``SVR``, which is LIBSVM, both
with the page's tol): the picture is the playground's initial state (in
step mode, the state that "Run to the end" reaches). LaTeX output gets
that image and a sentence saying that the online version is interactive;
other formats the sentence alone.
"""

import hashlib
import html
import json
import posixpath
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.errors import ConfigError
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective

#: The playground's files, relative to the book's ``_static`` folder.
STATIC = Path(__file__).resolve().parents[1] / "_static"
DATASETS = STATIC / "playground" / "datasets.json"
JS_FILES = ("playground/smo.js", "playground/playground.js")
CSS_FILES = ("playground/playground.css",)
#: Where the still images are written, under the HTML output's _static.
STILLS = "playground/stills"
#: svmlib's default tolerance, as smo.js and the playground use.
TOL = 1e-3
ONLINE_SENTENCE = (
    "The online (HTML) version of this book has an interactive SVM "
    "playground here: place points, move C and sigma, and watch SMO solve."
)
ONLINE_SENTENCE_REGRESSION = (
    "The online (HTML) version of this book has an interactive SVR "
    "playground here: place points, move C, epsilon and sigma, and watch "
    "SMO fit the epsilon-tube."
)
#: The default point set of each kind of playground.
DEFAULT_POINTS = {"classification": "blobs", "regression": "sine"}


def load_datasets():
    """The initial point sets of the playground.

    Returns
    -------
    box : list of 4 floats
        The drawing area [x1 min, x1 max, x2 min, x2 max].
    datasets : dict
        Name -> ``{"description": str, "points": [[x1, x2, label], ...]}``,
        labels in {-1, +1}.
    """
    data = json.loads(DATASETS.read_text(encoding="utf-8"))
    return data["box"], data["datasets"]


def load_regression_datasets():
    """The initial point sets of the regression mode.

    Returns
    -------
    box : list of 4 floats
        The drawing area [x min, x max, z min, z max].
    datasets : dict
        Name -> ``{"description": str, "points": [[x, z], ...]}``.
    """
    data = json.loads(DATASETS.read_text(encoding="utf-8"))["regression"]
    return data["box"], data["datasets"]


def online_sentence(node):
    """The sentence that stands for the playground outside HTML."""
    if node["mode"] == "regression":
        return ONLINE_SENTENCE_REGRESSION
    return ONLINE_SENTENCE


def _positive(argument):
    value = directives.unchanged_required(argument)
    try:
        number = float(value)
    except ValueError:
        raise ValueError(
            f"expected a positive number, got {value!r}"
        ) from None
    if not number > 0 or number == float("inf"):
        raise ValueError(f"expected a positive number, got {value!r}")
    return number


def _non_negative(argument):
    value = directives.unchanged_required(argument)
    try:
        number = float(value)
    except ValueError:
        raise ValueError(
            f"expected a non-negative number, got {value!r}"
        ) from None
    if not number >= 0 or number == float("inf"):
        raise ValueError(f"expected a non-negative number, got {value!r}")
    return number


class svm_playground(nodes.General, nodes.Element):
    """A playground: its settings and points are the node's attributes."""


class SvmPlaygroundDirective(SphinxDirective):
    """The ``svm-playground`` directive.

    Options
    -------
    mode : {"sweep", "step", "regression"}, default "sweep"
        Retrain to the end after every change, or step through SMO; or
        epsilon-SVR on points (x, z), retrained after every change.
    kernel : {"rbf", "linear"}, default "rbf"
        The initial kernel (the reader can switch).
    C : float > 0, default 10
        The initial box constraint.
    sigma : float > 0, default 0.5
        The initial width of the Gaussian kernel,
        K(x, z) = exp(-||x - z||^2 / (2 sigma^2)).
    epsilon : float >= 0, default 0.2
        The initial half-width of the tube (regression mode only).
    points : str, default "blobs" (regression mode: "sine")
        The name of an initial point set of ``datasets.json`` (regression
        mode: of its ``"regression"`` sets).
    """

    has_content = False
    option_spec = {
        "mode": lambda a: directives.choice(
            a, ("sweep", "step", "regression")
        ),
        "kernel": lambda a: directives.choice(a, ("rbf", "linear")),
        # docutils lowercases option names, MyST keeps them: both spellings
        "C": _positive,
        "c": _positive,
        "sigma": _positive,
        "epsilon": _non_negative,
        "points": directives.unchanged_required,
    }

    def run(self):
        self.env.note_dependency(str(DATASETS))
        try:
            node = make_node(self.options)
        except ValueError as error:
            raise self.error(f"svm-playground: {error}") from None
        self.set_source_info(node)
        return [node]


def make_node(options):
    """The playground node for the directive's (checked) options.

    Parameters
    ----------
    options : dict
        The directive's options (``C`` or ``c``); those left out take
        their defaults.

    Returns
    -------
    svm_playground

    Raises
    ------
    ValueError
        If the point set is not one of ``datasets.json``'s for the mode, or
        ``epsilon`` is given outside the regression mode.
    """
    mode = options.get("mode", "sweep")
    regression = mode == "regression"
    if regression:
        box, datasets = load_regression_datasets()
    else:
        box, datasets = load_datasets()
        if "epsilon" in options:
            raise ValueError(
                "epsilon is an option of the regression mode only "
                f"(:mode: regression), not of mode {mode!r}"
            )
    kind = "regression" if regression else "classification"
    name = options.get("points", DEFAULT_POINTS[kind])
    if name not in datasets:
        raise ValueError(
            f"unknown point set {name!r} for mode {mode!r}; "
            f"{DATASETS.name} has {sorted(datasets)} for it"
        )
    node = svm_playground()
    node["mode"] = mode
    node["kernel"] = options.get("kernel", "rbf")
    node["C"] = float(options.get("C", options.get("c", 10.0)))
    node["sigma"] = float(options.get("sigma", 0.7 if regression else 0.5))
    if regression:
        node["epsilon"] = float(options.get("epsilon", 0.2))
    node["points_name"] = name
    node["points"] = datasets[name]["points"]
    node["box"] = box
    return node


# ---------------------------------------------------------------------------
# The still image
# ---------------------------------------------------------------------------


def solve(node):
    """svmlib's solution for the node's points and parameters.

    Parameters
    ----------
    node : svm_playground

    Returns
    -------
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,)
    result : svmlib.solvers.SolverResult
        From ``smo(K, y, C, tol=1e-3, shrinking=False)``, the run that
        smo.js mirrors step for step.
    decision : callable
        f(Z) for an (m, 2) array of points.
    """
    import numpy as np

    from svmlib.kernels import linear_kernel, rbf_kernel
    from svmlib.solvers import smo

    points = np.asarray(node["points"], dtype=np.float64)
    X, y = points[:, :2], points[:, 2]

    def kernel(A, B):
        if node["kernel"] == "linear":
            return linear_kernel(A, B)
        return rbf_kernel(A, B, sigma=node["sigma"])

    result = smo(kernel(X, X), y, node["C"], tol=TOL, shrinking=False)
    coef = result.alpha * y

    def decision(Z):
        return kernel(Z, X) @ coef + result.b

    return X, y, result, decision


def solve_regression(node):
    """epsilon-SVR on the node's points, as the still image shows it.

    Parameters
    ----------
    node : svm_playground
        A regression node (``node["mode"] == "regression"``).

    Returns
    -------
    x : ndarray of shape (n,)
    z : ndarray of shape (n,)
    beta : ndarray of shape (n,)
        alpha_i - alpha*_i, 0 for the points that are not support vectors.
    predict : callable
        f(x) for an array of inputs x.

    Notes
    -----
    Solved by ``svmlib.SVR`` when svmlib has it, else by scikit-learn's
    ``SVR`` (LIBSVM), with gamma = 1 / (2 sigma^2) and the page's tol.
    """
    import numpy as np

    import svmlib

    points = np.asarray(node["points"], dtype=np.float64)
    x, z = points[:, 0], points[:, 1]
    estimator = getattr(svmlib, "SVR", None)
    if estimator is None:
        from sklearn.svm import SVR as estimator
    params = {
        "kernel": node["kernel"],
        "C": node["C"],
        "epsilon": node["epsilon"],
        "tol": TOL,
    }
    if node["kernel"] == "rbf":
        params["gamma"] = 1.0 / (2.0 * node["sigma"] ** 2)
    model = estimator(**params).fit(x[:, None], z)
    beta = np.zeros(len(z))
    beta[model.support_] = np.ravel(model.dual_coef_)

    def predict(inputs):
        return model.predict(np.asarray(inputs, dtype=np.float64)[:, None])

    return x, z, beta, predict


def still_name(node):
    """The still image's file name: a hash of what it shows."""
    key = json.dumps(
        [
            # this file's text: a change of the drawing renames the stills
            hashlib.sha1(Path(__file__).read_bytes()).hexdigest(),
            node["mode"],
            node["kernel"],
            node["C"],
            node["sigma"],
            node.get("epsilon"),
            node["points"],
            node["box"],
        ]
    )
    return f"svm-playground-{hashlib.sha1(key.encode()).hexdigest()[:12]}.png"


def describe(node, y, result):
    """One sentence on the still: parameters, support vectors, accuracy."""
    import numpy as np

    n_sv = int(np.count_nonzero(result.alpha > 0))
    kernel = (
        f"Gaussian kernel, \u03c3 = {node['sigma']:g}"
        if node["kernel"] == "rbf"
        else "linear kernel"
    )
    return (
        f"{len(y)} points, {kernel}, C = {node['C']:g}: {n_sv} support vectors"
    )


def render_still(node, path):
    """Draw the playground's solved state into a PNG with matplotlib.

    The same picture as the page's canvas: the decision regions, the
    boundary f = 0 (solid), the margins f = +-1 (dashed), class +1 as
    triangles and class -1 as circles, support vectors filled.

    Parameters
    ----------
    node : svm_playground
    path : pathlib.Path
        Where to write the PNG (skipped if it exists: the name is a hash of
        the content).

    Returns
    -------
    alt : str
        A description of the picture, for its ``alt`` text.
    """
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.colors import ListedColormap
    from matplotlib.figure import Figure

    if node["mode"] == "regression":
        return render_regression_still(node, path)
    X, y, result, decision = solve(node)
    alt = describe(node, y, result)
    if path.exists():
        return alt
    x_min, x_max, z_min, z_max = node["box"]
    g1, g2 = np.meshgrid(
        np.linspace(x_min, x_max, 241), np.linspace(z_min, z_max, 161)
    )
    F = decision(np.column_stack([g1.ravel(), g2.ravel()])).reshape(g1.shape)
    fig = Figure(figsize=(6.4, 4.6), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_axes([0.02, 0.1, 0.96, 0.88])
    shades = ListedColormap(["#9ec5e8", "#d3e6f5", "#fee3c8", "#fdc08a"])
    low, high = min(F.min(), -1.0) - 1.0, max(F.max(), 1.0) + 1.0
    ax.contourf(g1, g2, F, levels=[low, -1, 0, 1, high], cmap=shades)
    ax.contour(
        g1, g2, F, levels=[-1, 0, 1], colors="#222222",
        linestyles=["--", "-", "--"], linewidths=[1.2, 2.0, 1.2],
    )  # fmt: skip
    support = result.alpha > 0
    for label, marker, color in ((1, "^", "#d95f02"), (-1, "o", "#1f6fb4")):
        for sv, face, edge in ((False, "white", color), (True, color, "k")):
            mask = (y == label) & (support == sv)
            ax.scatter(
                *X[mask].T, marker=marker, s=55, facecolors=face,
                edgecolors=edge, linewidths=1.4, zorder=3,
            )  # fmt: skip
    ax.set_xlim(x_min, x_max)
    ax.set_ylim(z_min, z_max)
    ax.set_xticks([])
    ax.set_yticks([])
    fig.text(
        0.5, 0.055, alt + ".\nA still image: the live playground needs "
        "JavaScript.", ha="center", va="center", fontsize=9,
    )  # fmt: skip
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    return alt


def render_regression_still(node, path):
    """Draw the regression mode's solved state into a PNG.

    The same picture as the page's canvas: the regression curve f(x)
    (solid), the epsilon-tube f(x) +- epsilon (shaded, dashed edges) and
    the points, support vectors filled; axes x and z.

    Parameters
    ----------
    node : svm_playground
    path : pathlib.Path
        Where to write the PNG (skipped if it exists).

    Returns
    -------
    alt : str
        A description of the picture, for its ``alt`` text.
    """
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    x, z, beta, predict = solve_regression(node)
    support = beta != 0
    kernel = (
        f"Gaussian kernel, \u03c3 = {node['sigma']:g}"
        if node["kernel"] == "rbf"
        else "linear kernel"
    )
    alt = (
        f"{len(z)} points, epsilon-SVR, {kernel}, C = {node['C']:g}, "
        f"\u03b5 = {node['epsilon']:g}: {np.count_nonzero(support)} support "
        "vectors"
    )
    if path.exists():
        return alt
    x_min, x_max, z_min, z_max = node["box"]
    grid = np.linspace(x_min, x_max, 601)
    f = predict(grid)
    eps = node["epsilon"]
    fig = Figure(figsize=(6.4, 4.6), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_axes([0.1, 0.22, 0.87, 0.75])
    ax.fill_between(
        grid, f - eps, f + eps, color="#d95f02", alpha=0.16, linewidth=0,
        label="f(x) \u00b1 \u03b5",
    )  # fmt: skip
    for sign in (1, -1):
        ax.plot(grid, f + sign * eps, "--", color="#b35806", linewidth=1.3)
    ax.plot(grid, f, "-", color="#222222", linewidth=2.0, label="f(x)")
    for sv, face, edge, label in (
        (True, "#1f6fb4", "k", "support vector"),
        (False, "white", "#1f6fb4", "other point"),
    ):
        ax.scatter(
            x[support == sv], z[support == sv], marker="o", s=40,
            facecolors=face, edgecolors=edge, linewidths=1.4, zorder=3,
            label=label,
        )  # fmt: skip
    ax.set_xlim(x_min, x_max)
    ax.set_ylim(z_min, z_max)
    ax.set_xlabel("x", fontstyle="italic")
    ax.set_ylabel("z", fontstyle="italic")
    ax.grid(color="#e3e3e3")
    ax.legend(loc="upper left", fontsize=8, framealpha=0.9)
    fig.text(
        0.5, 0.05, alt + ".\nA still image: the live playground needs "
        "JavaScript.", ha="center", va="center", fontsize=9,
    )  # fmt: skip
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    return alt


# ---------------------------------------------------------------------------
# Writers
# ---------------------------------------------------------------------------


def container_html(node, src, alt):
    """The opening ``<div>`` with the node's data and its ``<noscript>``.

    Parameters
    ----------
    node : svm_playground
    src : str
        The still image's URL, relative to the page.
    alt : str
        The still's description (from :func:`render_still`).

    Returns
    -------
    str
        HTML up to the container's closing tag (``depart_html`` adds it).
    """
    data = {
        "mode": node["mode"],
        "kernel": node["kernel"],
        "c": repr(node["C"]),
        "sigma": repr(node["sigma"]),
    }
    if node["mode"] == "regression":
        data["epsilon"] = repr(node["epsilon"])
    data.update(
        {
            "points-name": node["points_name"],
            "points": json.dumps(node["points"], separators=(",", ":")),
            "box": json.dumps(node["box"]),
        }
    )
    shows = (
        "the solution that SMO reaches from these points"
        if node["mode"] == "step"
        else "its initial state"
    )
    label = "SVR" if node["mode"] == "regression" else "SVM"
    attributes = " ".join(
        f'data-{key}="{html.escape(value, quote=True)}"'
        for key, value in data.items()
    )
    return (
        f'<div class="svm-playground" {attributes}>'
        f'<noscript><img class="svmpg-still" src="{html.escape(src)}" '
        f'alt="{html.escape(f"{label} playground (still): " + alt)}"/>'
        "<p>The live playground needs JavaScript; this still image shows "
        f"{shows}.</p></noscript>"
    )


def visit_html(self, node):
    """The container div with its data, and the still in <noscript>."""
    builder = self.builder
    name = still_name(node)
    alt = render_still(node, Path(builder.outdir) / "_static" / STILLS / name)
    page = builder.get_target_uri(builder.current_docname)
    src = posixpath.relpath(
        posixpath.join("_static", STILLS, name), posixpath.dirname(page) or "."
    )
    self.body.append(container_html(node, src, alt))


def depart_html(self, node):
    self.body.append("</div>\n")


def visit_latex(self, node):
    """The still image and a sentence: the online version is interactive."""
    name = still_name(node)
    render_still(node, Path(self.builder.outdir) / name)
    self.body.append(
        "\n\\begin{center}\n"
        f"\\includegraphics[width=0.8\\linewidth]{{{name}}}\n"
        "\\end{center}\n"
        f"{online_sentence(node)}\n\n"
    )
    raise nodes.SkipNode


def depart_latex(self, node):
    pass


class PlaygroundFallback(SphinxPostTransform):
    """For formats other than HTML and LaTeX: the sentence alone."""

    default_priority = 200

    def run(self, **kwargs):
        if self.app.builder.format in ("html", "latex"):
            return
        for node in list(self.document.findall(svm_playground)):
            node.replace_self(nodes.paragraph(text=online_sentence(node)))


# ---------------------------------------------------------------------------
# The JavaScript and CSS, on the playground's pages only
# ---------------------------------------------------------------------------


def _is_playground_file(entry):
    filename = entry[0] if isinstance(entry, (tuple, list)) else entry
    return str(filename).startswith("playground/")


def configure(app, config):
    """Keep the playground's files off the pages without a playground.

    jupyter-book adds every ``.js`` and ``.css`` file found under
    ``_static`` to ``html_js_files`` and ``html_css_files``, which puts
    them on every page; :func:`add_assets` adds them where they are used.
    """
    for option in ("html_js_files", "html_css_files"):
        values = getattr(config, option, None) or []
        setattr(
            config,
            option,
            [entry for entry in values if not _is_playground_file(entry)],
        )


def add_assets(app, pagename, templatename, context, doctree):
    """Add smo.js, playground.js and the CSS to a page with a playground."""
    if doctree is None or doctree.next_node(svm_playground) is None:
        return
    for filename in JS_FILES:
        app.add_js_file(filename)
    for filename in CSS_FILES:
        app.add_css_file(filename)


def check_files(app):
    """Fail early when a playground file is missing from ``_static``."""
    for relative in (*JS_FILES, *CSS_FILES, "playground/datasets.json"):
        if not (STATIC / relative).is_file():
            raise ConfigError(f"{STATIC / relative} is missing")


def setup(app):
    """Register the directive, its node, the writers and the assets."""
    app.add_node(
        svm_playground,
        html=(visit_html, depart_html),
        latex=(visit_latex, depart_latex),
    )
    app.add_directive("svm-playground", SvmPlaygroundDirective)
    app.add_post_transform(PlaygroundFallback)
    app.connect("config-inited", configure)
    app.connect("builder-inited", check_files)
    app.connect("html-page-context", add_assets)
    return {
        "version": "1.0",
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }


__all__ = [
    "SvmPlaygroundDirective",
    "container_html",
    "load_datasets",
    "load_regression_datasets",
    "make_node",
    "render_still",
    "setup",
    "svm_playground",
    "ONLINE_SENTENCE",
    "ONLINE_SENTENCE_REGRESSION",
]
