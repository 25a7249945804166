"""The PDF edition: ``jupyter-book build . --builder pdflatex``.

jupyter-book's LaTeX writer (sphinx-jupyterbook-latex) turns the table of
contents' parts into LaTeX parts and the notebooks into chapters; this
extension sets what it leaves to the book:

* the document class, ``_latex/svmbook.cls`` (Sphinx's manual class, A4,
  with the environments of code-cell inputs and outputs) instead of
  sphinx-jupyterbook-latex's ``jupyterBook.cls``, which needs a TeX package
  (``bbm``) that Debian ships only in its 1.4 GB ``texlive-fonts-extra``;
* the book's TeX macros (``\\R``...): those of MathJax's configuration in
  ``_config.yml``, defined for LaTeX too, so they are written once;
* a reference to an exercise of another chapter, which
  sphinx-exercise leaves unresolved in LaTeX ("Exercise ??": it handles
  references within a chapter only), is made the same-chapter kind it
  resolves;
* a solution's title keeps the space before its link ("Solution to
  Exercise 1": LaTeX drops the one that sphinx-exercise puts inside the
  link, and printed "Solution toExercise 1");
* the parts' captions lose their numeral ("I. From margins to the dual"
  is part I already in LaTeX);
* XeLaTeX stops at the first LaTeX error instead of asking what to do
  (``LATEXOPTS``, read by the Makefile that jupyter-book runs, unless the
  environment sets it), so that a broken PDF fails the build;
* the title page says "Version" (the book's version: ``_ext/version.py``).
"""

import os
import re

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx_exercise.nodes import solution_node

CLASS_FILE = "_latex/svmbook.cls"
PART_NUMERAL = re.compile(r"^[IVXLC]+\.\s+")


def configure(app, config):
    # after sphinx-jupyterbook-latex's own config-inited handler (priority
    # 500), which sets latex_theme to its jupyterBook class
    config.latex_theme = "svmbook"  # not a theme folder: the class svmbook
    config.latex_additional_files = [
        *config.latex_additional_files,
        CLASS_FILE,
    ]
    config.latex_elements["releasename"] = "Version"
    preamble = config.latex_elements.get("preamble", "")
    config.latex_elements["preamble"] = preamble + latex_macros(
        config.mathjax3_config
    )


def latex_macros(mathjax3_config):
    r"""``\newcommand`` lines for MathJax's macros.

    A macro is ``name: body`` or, with arguments, ``name: [body, n]``.
    """
    macros = (mathjax3_config or {}).get("tex", {}).get("macros", {})
    lines = []
    for name, definition in macros.items():
        body, n_args = (
            definition if isinstance(definition, list) else (definition, 0)
        )
        arguments = f"[{n_args}]" if n_args else ""
        lines.append(f"\\newcommand{{\\{name}}}{arguments}{{{body}}}\n")
    return "".join(lines)


class ExerciseReferences(SphinxPostTransform):
    """References to exercises of other chapters, as sphinx-exercise's own.

    In one LaTeX document every chapter is the same output, so the reference
    needs no target file, only the exercise's label (``refid``), which
    sphinx-exercise's reference transform (priority 22) then resolves.
    """

    builders = ("latex",)
    default_priority = 21

    def run(self):
        registry = getattr(self.env, "sphinx_exercise_registry", {})
        for node in self.document.findall(nodes.reference):
            uri = node.get("refuri", "")
            label = uri.partition("#")[2]
            if uri.startswith("%") and label in registry:
                del node["refuri"]
                node["refid"] = label


class SolutionTitles(SphinxPostTransform):
    """A space between "Solution to" and the link to the exercise."""

    builders = ("latex",)
    default_priority = 30  # after sphinx-exercise's titles (priority 20-22)

    def run(self):
        for node in self.document.findall(solution_node):
            title = node.children[0]
            for k, child in enumerate(title.children[:-1]):
                followed_by_link = isinstance(
                    title.children[k + 1], nodes.reference
                )
                if isinstance(child, nodes.Text) and followed_by_link:
                    text = child.astext()
                    if not text.endswith(" "):
                        title.replace(child, nodes.Text(text + " "))


class PartCaptions(SphinxPostTransform):
    """Part captions without the numeral that LaTeX's ``\\part`` prints.

    The table of contents names the parts "I. ...", "II. ..." for the HTML
    sidebar; sphinx-jupyterbook-latex makes each caption a ``\\part``
    (priority 700), and LaTeX numbers parts itself.
    """

    builders = ("latex",)
    default_priority = 650

    def run(self):
        for node in self.document.findall(nodes.compound):
            caption = node.get("caption")
            if "toctree-wrapper" in node["classes"] and caption:
                node["caption"] = PART_NUMERAL.sub("", caption)


def stop_on_errors(app):
    if app.builder.format == "latex":
        os.environ.setdefault(
            "LATEXOPTS", "-interaction=nonstopmode -halt-on-error"
        )


def setup(app):
    app.connect("config-inited", configure, priority=900)
    app.connect("builder-inited", stop_on_errors)
    app.add_post_transform(ExerciseReferences)
    app.add_post_transform(SolutionTitles)
    app.add_post_transform(PartCaptions)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
