"""The chapters as JupyterLab and Notebook 7 show them: the book's page.

The book's markdown uses three things that only the Sphinx build resolves:
``{glue:text}`` roles (numbers computed by the chapter's cells),
``literalinclude`` directives (svmlib's code) and the ``svm-playground``
directive (a live SVM in the page). jupyterlab-myst renders the rest of
MyST (admonitions, exercises, math, citations) but not these. This module
resolves them when Jupyter opens a notebook, and undoes it when Jupyter
saves it, so the ``.ipynb`` file stays the one source the book is built
from:

* ``{glue:text}`key:fmt` `` becomes the value the book prints: the
  ``text/plain`` of the notebook's own glue output, formatted by myst-nb's
  ``format_plain_text`` (the function the book uses); ``{glue:figure}``
  becomes the glued image.
* ``literalinclude`` of a Python file becomes a highlighted ``python`` code
  block read from the file when the notebook is opened (``:pyobject:``,
  ``:start-at:``, ``:end-at:``, ``:start-after:``, ``:end-before:``,
  ``:lines:`` as Sphinx reads them).
* ``svm-playground`` becomes a note that names the notebook's working
  alternative. For the modes ``step`` (*Platt's SMO and working sets*) and
  ``regression`` (*Regression*) that alternative is a code cell added
  right after the markdown cell: it calls ``svmlib.explore.explore_smo``
  (SMO step by step, with sliders for the step, C and sigma) or
  ``explore_svr`` (the epsilon-tube, with sliders for C, epsilon and
  sigma) on the playground's own point set
  (``_static/playground/datasets.json``) and its initial options. The
  ``sweep`` mode's alternative is the chapter's own sliders. The added
  cell is marked in its metadata and left out when the notebook is saved.

A markdown cell that changed keeps its file text in the cell metadata
(``svmbook_view``); on save the file text comes back unless the student
edited the cell. On save, widget outputs (ipywidgets, tqdm bars) are
replaced by one line that says how to bring them back, and the
notebook's ``metadata.widgets`` state is dropped (a reopened notebook
would otherwise read "Error displaying widget: model not found").

Used by ``jupyter/jupyter_server_config.py`` (``export
JUPYTER_CONFIG_PATH=$PWD/jupyter``, README "Run one chapter"), or on the
command line to write the view of a chapter as a new notebook (for a
Jupyter without this configuration, e.g. Colab)::

    python jupyter/svmbook_jupyter.py chapters/smo/platt_and_wss.ipynb \
        platt_view.ipynb
"""

import ast
import json
import re
import sys
from ast import literal_eval
from pathlib import Path

KEY = "svmbook_view"
GLUE_MIME = "application/papermill.record/"
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
WIDGET_LINE = (
    "Widgets are not saved with the notebook: run this cell "
    "(Shift+Enter, or Run > Run All Cells) to bring them back."
)
GLUE_TEXT = re.compile(r"\{glue(?::text)?\}`([^`]+)`")
DIRECTIVE = re.compile(
    r"^(?P<fence>`{3,}|:{3,})\{(?P<name>literalinclude|svm-playground"
    r"|glue:figure)\}[ \t]*(?P<arg>[^\n]*)\n(?P<body>.*?)^(?P=fence)[ \t]*$",
    re.M | re.S,
)
OPTION = re.compile(r"^:([\w-]+):[ \t]*(.*)$")
PLAYGROUND = {
    "sweep": (
        "run the cell with the two sliders (*Turn the knobs yourself*): "
        "they refit svmlib's `SVC` for any $C$ and $\\sigma$ of the grid "
        "and redraw the regions, margins and support vectors"
    ),
    "step": (
        "run the cell below (Jupyter adds it; it is not saved with the "
        "notebook): it steps svmlib's `smo`, the solver the playground "
        "copies, through the same problem, with a step slider, Play, and "
        "sliders for $C$ and $\\sigma$"
    ),
    "regression": (
        "run the cell below (Jupyter adds it; it is not saved with the "
        "notebook): it fits svmlib's `SVR`, the model the playground "
        "trains, on the same points, with sliders for $C$, $\\varepsilon$ "
        "and $\\sigma$"
    ),
}
ROOT = Path(__file__).resolve().parents[1]
POINT_SETS = ROOT / "_static" / "playground" / "datasets.json"
EXPLORE = {  # mode: (function, where its point sets are, default, options)
    "step": ("explore_smo", (), "blobs", ("C", "sigma")),
    "regression": (
        "explore_svr",
        ("regression",),
        "sine",
        ("C", "epsilon", "sigma"),
    ),
}


def _text(source):
    return "".join(source) if isinstance(source, list) else source


def _format_plain_text(text, spec):
    try:  # the book's own formatting (myst-nb), when installed
        from myst_nb.core.variables import format_plain_text
    except ImportError:  # pragma: no cover - myst-nb is in requirements
        value = literal_eval(text)
        return format(value, spec) if spec else str(value)
    return format_plain_text(text, spec)


def glued(notebook):
    """The glue records of a notebook's outputs: {key: mime bundle}."""
    records = {}
    for cell in notebook.get("cells", []):
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            scrap = output.get("metadata", {}).get("scrapbook", {})
            name = scrap.get("name")
            if name and any(m.startswith(GLUE_MIME) for m in data):
                records[name] = {
                    m[len(GLUE_MIME) :]: v
                    for m, v in data.items()
                    if m.startswith(GLUE_MIME)
                }
    return records


def _glue_text(match, records):
    key, _, spec = match.group(1).rpartition(":")
    if not key:  # no format spec: myst-nb formats with "s"
        key, spec = spec, "s"
    record = records.get(key)
    if record is None or "text/plain" not in record:
        return match.group(0)  # glued in another chapter: left as it is
    try:
        return _format_plain_text(_text(record["text/plain"]), spec)
    except (TypeError, ValueError):
        return match.group(0)


def _options(body):
    options, lines = {}, body.splitlines()
    while lines and (found := OPTION.match(lines[0])):
        value = found.group(2).strip()
        if len(value) > 1 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]  # MyST reads the options as YAML
        options[found.group(1)] = value
        lines.pop(0)
    return options, "\n".join(lines)


def _pyobject(source, name):
    """Lines (1-based, inclusive) of a function or class, as Sphinx finds."""
    body = ast.parse(source).body
    node = None
    for part in name.split("."):
        node = next(
            (
                n
                for n in body
                if isinstance(
                    n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
                )
                and n.name == part
            ),
            None,
        )
        if node is None:
            raise LookupError(f"no {name!r}")
        body = node.body
    return node.lineno, node.end_lineno


def _include(path, options):
    lines = path.read_text(encoding="utf-8").splitlines()
    if "pyobject" in options:
        start, end = _pyobject("\n".join(lines), options["pyobject"])
        lines = lines[start - 1 : end]
    if "lines" in options:
        keep = []
        for part in options["lines"].split(","):
            first, _, last = part.strip().partition("-")
            first = int(first) if first else 1
            last = (int(last) if last else len(lines)) if _ else first
            keep.extend(lines[first - 1 : last])
        lines = keep
    for option, after in (("start-at", False), ("start-after", True)):
        if option in options:
            at = next(i for i, s in enumerate(lines) if options[option] in s)
            lines = lines[at + after :]
    for option, before in (("end-at", False), ("end-before", True)):
        if option in options:
            at = next(i for i, s in enumerate(lines) if options[option] in s)
            lines = lines[: at + 1 - before]
    return "\n".join(lines)


def _directive(match, folder, records):
    name, arg = match.group("name"), match.group("arg").strip()
    options, _ = _options(match.group("body"))
    if name == "literalinclude":
        path = (folder / arg).resolve()
        try:
            code = _include(path, options)
        except (OSError, LookupError, StopIteration, ValueError, SyntaxError):
            return match.group(0)
        language = options.get("language", "python")
        where = options.get("pyobject", "")
        title = f"`{where}` in `{arg.lstrip('./')}`" if where else f"`{arg}`"
        return f"From {title}:\n\n````{language}\n{code}\n````"
    if name == "glue:figure":
        record = records.get(arg, {})
        if "image/png" not in record:
            return match.group(0)
        data = _text(record["image/png"]).replace("\n", "")
        return f"![{arg}](data:image/png;base64,{data})"
    mode = options.get("mode", "sweep")
    alternative = PLAYGROUND.get(mode, PLAYGROUND["sweep"])
    return (
        "```{note}\nThe book's page shows a live playground here: an SVM "
        "trained in the browser on points you place. In Jupyter, "
        f"{alternative}.\n```"
    )


def _rows(items, indent="    ", width=79):
    """Tuples of numbers, several to a line, within ``width`` columns."""
    lines, line = [], indent
    for item in items:
        text = "(" + ", ".join(f"{v:g}" for v in item) + "),"
        if len(line) + len(text) + 1 > width and line.strip():
            lines.append(line.rstrip())
            line = indent
        line += text + " "
    lines.append(line.rstrip())
    return "\n".join(lines)


def playground_cell(text):
    """The code cell that stands in for a markdown cell's playground.

    None when the text has no ``svm-playground`` of mode ``step`` or
    ``regression``, or the point sets cannot be read.
    """
    for match in DIRECTIVE.finditer(text):
        if match.group("name") != "svm-playground":
            continue
        options, _ = _options(match.group("body"))
        mode = options.get("mode", "sweep")
        if mode not in EXPLORE:
            continue
        function, section, default, names = EXPLORE[mode]
        name = options.get("points", default)
        try:
            sets = json.loads(POINT_SETS.read_text(encoding="utf-8"))
            for key in section:
                sets = sets[key]
            points = sets["datasets"][name]["points"]
            keywords = [f'kernel="{options.get("kernel", "rbf")}"']
            keywords += [
                f"{option}={float(options[option]):g}"
                for option in names
                if option in options
            ]
        except (OSError, KeyError, ValueError):
            return None
        if mode == "step":
            head = (
                "# SMO (WSS 2, no shrinking) step by step, as in the book's "
                "playground"
            )
            columns, unpack = "(x1, x2, label)", "X = [p[:2] for p in points]"
            unpack += "\ny = [p[2] for p in points]"
            call = f"{function}(X, y, {', '.join(keywords)})"
        else:
            head = "# epsilon-SVR and its tube, as in the book's playground"
            columns, unpack = "(x, z)", "x = [p[0] for p in points]"
            unpack += "\nz = [p[1] for p in points]"
            call = f"{function}(x, z, {', '.join(keywords)})"
        return (
            f"{head}\n"
            "# (added by jupyter/svmbook_jupyter.py when the notebook opens; "
            "not saved)\n"
            f"from svmlib.explore import {function}\n\n"
            f'points = [  # {columns}: the playground\'s "{name}"\n'
            f"{_rows(points)}\n]\n{unpack}\n{call}"
        )
    return None


def view_markdown(text, folder, records):
    """One markdown cell's text as Jupyter shows it."""
    text = DIRECTIVE.sub(lambda m: _directive(m, folder, records), text)
    return GLUE_TEXT.sub(lambda m: _glue_text(m, records), text)


def _clean_widgets(notebook):
    notebook.get("metadata", {}).pop("widgets", None)
    for cell in notebook.get("cells", []):
        for output in cell.get("outputs", []):
            if WIDGET_MIME in output.get("data", {}):
                output["data"] = {"text/plain": WIDGET_LINE}


def to_view(notebook, path):
    """Resolve glue, literalinclude and svm-playground in place."""
    folder = Path(path).parent
    records = glued(notebook)
    cells = []
    for cell in notebook.get("cells", []):
        cells.append(cell)
        if cell.get("cell_type") != "markdown":
            continue
        text = _text(cell["source"])
        shown = view_markdown(text, folder, records)
        if shown != text:
            cell["source"] = shown
            cell.setdefault("metadata", {})[KEY] = {
                "source": text,
                "shown": shown,
            }
        code = playground_cell(text)
        if code is not None:
            added = {
                "cell_type": "code",
                "execution_count": None,
                "metadata": {KEY: {"added": True}},
                "outputs": [],
                "source": code,
            }
            if "id" in cell:  # nbformat 4.5
                added["id"] = f"svmbook-playground-{len(cells)}"
            cells.append(added)
    if "cells" in notebook:
        notebook["cells"] = cells
    _clean_widgets(notebook)
    return notebook


def from_view(notebook):
    """Undo ``to_view`` in place; the student's own edits are kept.

    The cells ``to_view`` added (the playgrounds' stand-ins) are left out.
    """
    if "cells" in notebook:
        notebook["cells"] = [
            cell
            for cell in notebook["cells"]
            if not cell.get("metadata", {}).get(KEY, {}).get("added")
        ]
    for cell in notebook.get("cells", []):
        saved = cell.get("metadata", {}).pop(KEY, None)
        if saved and _text(cell["source"]) == saved["shown"]:
            cell["source"] = saved["source"]
    _clean_widgets(notebook)
    return notebook


try:
    from jupyter_server.services.contents.largefilemanager import (
        AsyncLargeFileManager,
    )
except ImportError:  # pragma: no cover - the command line needs no server
    AsyncLargeFileManager = object


class BookViewContentsManager(AsyncLargeFileManager):
    """Jupyter's file manager, with notebooks shown as the book shows them."""

    async def get(self, path, content=True, type=None, format=None, **kw):
        model = await super().get(
            path, content=content, type=type, format=format, **kw
        )
        if model.get("type") == "notebook" and model.get("content"):
            to_view(model["content"], self._get_os_path(path))
        return model

    async def save(self, model, path=""):
        if model.get("type") == "notebook" and model.get("content"):
            from_view(model["content"])
        return await super().save(model, path)


def main(argv=None):
    """Write the Jupyter view of a notebook: ``source.ipynb out.ipynb``."""
    source, target = (argv or sys.argv[1:])[:2]
    notebook = json.loads(Path(source).read_text(encoding="utf-8"))
    to_view(notebook, Path(source).resolve())
    for cell in notebook["cells"]:
        cell.get("metadata", {}).pop(KEY, None)
    Path(target).write_text(
        json.dumps(notebook, indent=1, ensure_ascii=False) + "\n",
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()
