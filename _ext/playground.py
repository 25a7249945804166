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

The SVM is trained in the reader's browser by ``_static/playground/smo.js``,
which mirrors ``svmlib/solvers/smo.py`` (WSS 2, no shrinking; the same
tol, stopping rule and b) and is tested against it by
``tests/test_playground_solver.py``; ``_static/playground/playground.js``
draws the page. Both are plain JavaScript files served from the book's
``_static`` folder, so the playground works from ``file://`` and from any
static host, offline. They are added only to the pages that carry a
playground (jupyter-book would otherwise add every ``.js`` and ``.css``
file under ``_static`` to every page).

The initial points come from ``_static/playground/datasets.json`` (one
source for this extension and the page): the directive writes the chosen
set into the page as a ``data-`` attribute, since a page read from disk
cannot ``fetch()`` a local file.

Without JavaScript the page shows a still image instead (``<noscript>``),
drawn at build time with matplotlib from the same points and parameters,
solved by svmlib's own ``smo``: the picture is the playground's initial
state (in step mode, the state that "Run to the end" reaches). LaTeX
output gets that image and a sentence saying that the online version is
interactive; other formats the sentence alone.
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


class svm_playground(nodes.General, nodes.Element):
    """A playground: its settings and points are the node's attributes."""


class SvmPlaygroundDirective(SphinxDirective):
    """The ``svm-playground`` directive.

    Options
    -------
    mode : {"sweep", "step"}, default "sweep"
        Retrain to the end after every change, or step through SMO.
    kernel : {"rbf", "linear"}, default "rbf"
        The initial kernel (the reader can switch).
    C : float > 0, default 10
        The initial box constraint.
    sigma : float > 0, default 0.5
        The initial width of the Gaussian kernel,
        K(x, z) = exp(-||x - z||^2 / (2 sigma^2)).
    points : str, default "blobs"
        The name of an initial point set of ``datasets.json``.
    """

    has_content = False
    option_spec = {
        "mode": lambda a: directives.choice(a, ("sweep", "step")),
        "kernel": lambda a: directives.choice(a, ("rbf", "linear")),
        # docutils lowercases option names, MyST keeps them: both spellings
        "C": _positive,
        "c": _positive,
        "sigma": _positive,
        "points": directives.unchanged_required,
    }

    def run(self):
        box, datasets = load_datasets()
        self.env.note_dependency(str(DATASETS))
        name = self.options.get("points", "blobs")
        if name not in datasets:
            raise self.error(
                f"svm-playground: unknown point set {name!r}; "
                f"{DATASETS.name} has {sorted(datasets)}"
            )
        node = svm_playground()
        node["mode"] = self.options.get("mode", "sweep")
        node["kernel"] = self.options.get("kernel", "rbf")
        node["C"] = float(self.options.get("C", self.options.get("c", 10.0)))
        node["sigma"] = float(self.options.get("sigma", 0.5))
        node["points_name"] = name
        node["points"] = datasets[name]["points"]
        node["box"] = box
        self.set_source_info(node)
        return [node]


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


# ---------------------------------------------------------------------------
# Writers
# ---------------------------------------------------------------------------


def visit_html(self, node):
    """The container div with its data, and the still in <noscript>."""
    builder = self.builder
    name = still_name(node)
    alt = render_still(node, Path(builder.outdir) / "_static" / STILLS / name)
    page = builder.get_target_uri(builder.current_docname)
    src = posixpath.relpath(
        posixpath.join("_static", STILLS, name), posixpath.dirname(page) or "."
    )
    data = {
        "mode": node["mode"],
        "kernel": node["kernel"],
        "c": repr(node["C"]),
        "sigma": repr(node["sigma"]),
        "points-name": node["points_name"],
        "points": json.dumps(node["points"], separators=(",", ":")),
        "box": json.dumps(node["box"]),
    }
    shows = (
        "the solution that SMO reaches from these points"
        if node["mode"] == "step"
        else "its initial state"
    )
    attributes = " ".join(
        f'data-{key}="{html.escape(value, quote=True)}"'
        for key, value in data.items()
    )
    self.body.append(
        f'<div class="svm-playground" {attributes}>'
        f'<noscript><img class="svmpg-still" src="{html.escape(src)}" '
        f'alt="{html.escape("SVM playground (still): " + alt)}"/>'
        "<p>The live playground needs JavaScript; this still image shows "
        f"{shows}.</p></noscript>"
    )


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
        f"{ONLINE_SENTENCE}\n\n"
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
            node.replace_self(nodes.paragraph(text=ONLINE_SENTENCE))


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
    "load_datasets",
    "render_still",
    "setup",
    "svm_playground",
    "ONLINE_SENTENCE",
]
