"""pytest settings for the whole book: notebooks run headless, and once.

Two things happen here.

1. The chapter notebooks are executed by nbval with ``SVMBOOK_HEADLESS=1``
   in the environment, the variable that the book build sets
   (``_ext/headless.py``), so that the tests execute exactly what the build
   does.
2. A notebook whose every code cell passed under nbval is written, with the
   outputs nbval recorded, into the book's execution cache
   (``_build/.jupyter_cache``, jupyter-cache's format, keyed by the hash of
   the code cells). ``jupyter-book build`` then finds it there and does not
   execute it a second time: ``pytest`` followed by the build runs every
   chapter once. A notebook that failed, or was only partly run (``-k``,
   ``-x``), is not cached, and the build executes it itself. Nor is any
   notebook run under the second numerical configuration
   (``SVMBOOK_SECOND_CONFIG=1``, see ``_ext/headless.py``): that run only
   checks that the checked outputs hold there too; the book shows the
   first configuration's.

   Outputs are stored as Jupyter shows them: a cell whose last line ends in
   ``;`` keeps no ``execute_result``. IPython drops that result itself when
   it knows the cell's source, but nbval runs cells with
   ``store_history=False``, so the kernel checks the semicolon of the wrong
   input and returns the result (a figure shown twice, an object's repr
   printed); ``_shown_outputs`` removes it with IPython's own rule.

   Figures are stored sharp for high-density screens: the kernels that nbval
   starts for the chapters run ``RETINA_STARTUP`` (``PYTHONSTARTUP``, which
   ipykernel executes before the first cell), which turns the PNG that a
   chapter asks for (``set_matplotlib_formats("png", "pdf")``) into IPython's
   "retina" PNG: twice the pixels, with ``width`` and ``height`` metadata
   that myst-nb writes on the ``<img>``, so a figure shows at the same size,
   sharper (``tests/test_built_book.py`` checks the pixels of the built
   pages). The notebooks saved in git are executed without it
   (CONTRIBUTING, ``jupyter nbconvert --execute``) and keep their 1x PNGs;
   the PDF edition takes the vector PDF output either way.
"""

import atexit
import os
import sys
import tempfile
import time
import tokenize
from pathlib import Path

import nbformat
import pytest

BOOK_ROOT = Path(__file__).parent
sys.path.insert(0, str(BOOK_ROOT / "_ext"))
from headless import kernel_environment, second_configuration  # noqa: E402

# nbval's kernels inherit this environment, as the build's kernels do (see
# _ext/headless.py): SVMBOOK_HEADLESS=1, no MPLBACKEND (figures drawn), the
# same OpenBLAS kernels on every x86-64 machine (the same last digits)
kernel_environment()
EXECUTION_CACHE = BOOK_ROOT / "_build" / ".jupyter_cache"


class _NotebookRun:
    """The cells of one notebook run under nbval, and whether all passed."""

    def __init__(self):
        self.cells = {}  # cell index among code cells -> item
        self.passed = True
        self.start = time.perf_counter()


_runs = {}


def _is_nbval_cell(item):
    return type(item).__name__ == "IPyNbCell" and hasattr(item, "cell_num")


#: Run by each chapter kernel before its first cell (see the docstring): the
#: Figure printer of the PNG formatter, once a chapter has set it to
#: IPython's ``print_figure(fmt="png")``, is replaced by ``retina_figure``
#: with the same arguments, before every cell and before the inline backend
#: shows the figures left at the end of a cell (``post_execute``, where this
#: hook was registered first). Names are kept out of the chapter's namespace.
RETINA_STARTUP = """\
def _svmbook_retina(shell):
    import sys
    from functools import partial

    def retina(*_):
        figure = sys.modules.get("matplotlib.figure")
        if figure is None:
            return
        png = shell.display_formatter.formatters["image/png"]
        printer = png.type_printers.get(figure.Figure)
        if (
            isinstance(printer, partial)
            and getattr(printer.func, "__name__", "") == "print_figure"
            and printer.keywords.get("fmt") == "png"
        ):
            from IPython.core.pylabtools import retina_figure

            kwargs = dict(printer.keywords)
            kwargs.pop("fmt")
            kwargs["base64"] = True
            png.for_type(figure.Figure, partial(retina_figure, **kwargs))

    shell.events.register("pre_run_cell", retina)
    shell.events.register("post_execute", retina)


_svmbook_retina(get_ipython())
del _svmbook_retina
"""
_retina_startup_file = None


def _retina_startup():
    """The path of a file holding RETINA_STARTUP (written once a process)."""
    global _retina_startup_file
    if _retina_startup_file is None:
        handle, path = tempfile.mkstemp(prefix="svmbook-retina-", suffix=".py")
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(RETINA_STARTUP)
        atexit.register(os.remove, path)
        _retina_startup_file = path
    return _retina_startup_file


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    """Start a chapter's kernel (nbval, first cell) with RETINA_STARTUP.

    Not under the second numerical configuration (not stored for the book),
    nor when ``PYTHONSTARTUP`` is already set.
    """
    if (
        not _is_nbval_cell(item)
        or second_configuration()
        or "PYTHONSTARTUP" in os.environ
    ):
        yield
        return
    os.environ["PYTHONSTARTUP"] = _retina_startup()
    try:
        yield
    finally:
        del os.environ["PYTHONSTARTUP"]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    if not _is_nbval_cell(item):
        return
    report = outcome.get_result()
    run = _runs.setdefault(item.parent, _NotebookRun())
    if report.when == "call":
        run.cells[item.cell_num] = item
    if report.failed or report.skipped:
        run.passed = False


def pytest_runtest_teardown(item, nextitem):
    if not _is_nbval_cell(item):
        return
    if nextitem is not None and nextitem.parent is item.parent:
        return
    run = _runs.pop(item.parent, None)
    if run is not None and run.passed and not second_configuration():
        _cache_executed(item.parent, run)


def _executed_notebook(notebook_file, run):
    """The notebook as nbval read it, with the outputs of this run."""
    nb = nbformat.from_dict(notebook_file.nb)
    code_cells = [cell for cell in nb.cells if cell.cell_type == "code"]
    if set(run.cells) != set(range(len(code_cells))):
        return None  # not every code cell ran (-k, -x, deselection)
    for count, cell in enumerate(code_cells, start=1):
        cell.execution_count = count
        cell.outputs = [
            _with_count(output, count)
            for output in _shown_outputs(
                cell.source, run.cells[count - 1].test_outputs
            )
        ]
    return nb


def _shown_outputs(source, outputs):
    """The outputs Jupyter shows: no execute_result after a final ``;``."""
    from IPython.core.displayhook import DisplayHook
    from IPython.core.inputtransformer2 import TransformerManager

    try:
        quiet = DisplayHook.semicolon_at_end_of_expression(
            TransformerManager().transform_cell(source)
        )
    except (SyntaxError, ValueError, tokenize.TokenError):
        quiet = False  # IPython could not tokenize it either: not quiet
    if not quiet:
        return list(outputs)
    return [
        output
        for output in outputs
        if output.get("output_type") != "execute_result"
    ]


def _with_count(output, count):
    output = nbformat.from_dict(output)
    if output.output_type == "execute_result":
        output.execution_count = count
    return output


def _cache_executed(notebook_file, run):
    """Add the executed notebook to the build's jupyter-cache."""
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    nb = _executed_notebook(notebook_file, run)
    if nb is None:
        return
    nbformat.validate(nb)
    cache = get_cache(str(EXECUTION_CACHE))
    seconds = time.perf_counter() - run.start
    cache.cache_notebook_bundle(
        CacheBundleIn(
            nb, str(notebook_file.path), data={"execution_seconds": seconds}
        ),
        check_validity=True,
        overwrite=True,
    )
