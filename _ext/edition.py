"""Build the full book or the student edition, as an environment variable says.

    SVMBOOK_EDITION=student jupyter-book build . -W -n --keep-going \\
        --path-output _build/student

builds the **student edition**:

* every sphinx-exercise ``{solution}`` directive is left out of the pages
  (sphinx-exercise's own ``hide_solutions`` option; the exercises stay);
* every gated solution (``{solution-start}`` ... ``{solution-end}``, whose
  code cells run at build) is cut out of the chapter notebook as Sphinx
  reads it, code cells included: ``hide_solutions`` alone would drop only
  the opening directive and leave the solution's cells on the page;
* every notebook written in nbgrader's markup (the assignments) is replaced,
  as Sphinx reads it, by its student version: solution code replaced by
  ``raise NotImplementedError()`` stubs, written answers by
  ``YOUR ANSWER HERE``, hidden tests removed, outputs cleared (the same
  ``svmbook_classroom.release_notebook`` that ``python -m
  svmbook_classroom release`` uses; the classroom package is separate from
  svmlib, so the edition's library needs no stripping). Such a page is not
  executed: its stubs would raise;
* the source files are not copied into the HTML (``html_copy_source``) and
  the theme's download button is switched off: both would hand out the
  solution notebooks.

Unset, empty or ``full``, the variable gives the full edition, with the
solutions. Any other value is a configuration error, so that a typo cannot
publish the solutions by accident. A change of edition changes the Sphinx
configuration, so every page is read again; build the two editions into
different folders (``--path-output``, inside ``_build`` so that the book's
``exclude_patterns`` keep the other edition's files out of the sources).
"""

import os
import re

import nbformat
from sphinx.errors import ConfigError, ExtensionError
from sphinx.util import logging

VARIABLE = "SVMBOOK_EDITION"
EDITIONS = ("full", "student")

logger = logging.getLogger(__name__)


def edition():
    """The edition that ``SVMBOOK_EDITION`` asks for.

    ``"full"`` (the default) or ``"student"``.

    Raises
    ------
    sphinx.errors.ConfigError
        For any other value.
    """
    value = os.environ.get(VARIABLE, "").strip().lower() or "full"
    if value not in EDITIONS:
        raise ConfigError(
            f"{VARIABLE} must be 'full' or 'student' (or unset), "
            f"got {value!r}."
        )
    return value


def configure(app, config):
    """Record the edition; in the student one, hide the solutions.

    sphinx-exercise's ``hide_solutions`` leaves the solutions out.
    """
    config.svmbook_edition = edition()
    if config.svmbook_edition == "student":
        config.hide_solutions = True
        # the copies of the sources under _sources/, offered by the theme's
        # download button, would hand out the solutions
        config.html_copy_source = False
        config.html_theme_options = {
            **(config.html_theme_options or {}),
            "use_download_button": False,
        }
        logger.info("svmbook: building the student edition (no solutions)")


def _has_nbgrader_cells(nb):
    return any("nbgrader" in cell.get("metadata", {}) for cell in nb.cells)


_FENCE = re.compile(r"^(`{3,}|:{3,})\{(solution-start|solution-end)\}")


def _strip_markdown(text, inside):
    """Cut gated-solution lines from one markdown cell's text.

    ``inside`` says whether the cell starts inside a gated solution; the
    kept text and whether it ends inside one are returned.
    """
    kept, block = [], None  # block: (fence, name) of an open directive
    for line in text.splitlines(keepends=True):
        if block is not None:
            if line.strip() == block[0]:  # the directive closes
                inside = block[1] == "solution-start"
                block = None
            continue
        match = _FENCE.match(line.strip())
        if match:
            block, inside = (match.group(1), match.group(2)), True
        elif not inside:
            kept.append(line)
    return "".join(kept), inside


def strip_gated_solutions(nb, name="notebook"):
    """The notebook without its gated solutions (start to end, inclusive).

    Raises
    ------
    sphinx.errors.ExtensionError
        If a ``solution-start`` has no ``solution-end`` after it.
    """
    cells, inside = [], False
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            text, ends_inside = _strip_markdown(cell.source, inside)
            if text.strip():
                cells.append(nbformat.from_dict({**cell, "source": text}))
            inside = ends_inside
        elif not inside:
            cells.append(cell)
    if inside:
        raise ExtensionError(f"{name}: a solution-start has no solution-end")
    nb.cells = cells
    return nb


def strip_assignment(app, docname, source):
    """``source-read``: in the student edition, give the student version.

    Assignments (nbgrader markup) become their released student version;
    other notebooks lose their gated solutions.
    """
    if app.config.svmbook_edition != "student" or not str(
        app.env.doc2path(docname)
    ).endswith(".ipynb"):
        return
    nb = nbformat.reads(source[0], as_version=4)
    if not _has_nbgrader_cells(nb):
        if "{solution-start}" in source[0]:
            source[0] = nbformat.writes(strip_gated_solutions(nb, docname))
        return
    # the classroom package (classroom/), needed by this path only
    from svmbook_classroom import release_notebook

    student = release_notebook(nb)
    student.metadata["mystnb"] = {
        "execution_mode": "off"
    }  # the stubs would raise
    source[0] = nbformat.writes(student)


def setup(app):
    app.add_config_value("svmbook_edition", "full", "env")
    app.connect("config-inited", configure)
    app.connect("source-read", strip_assignment)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
