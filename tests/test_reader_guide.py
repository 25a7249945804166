"""The editions said plainly, and the book's numbers (_ext/reader_guide.py).

A tiny book (a front page, two chapters, one assignment in nbgrader's
markup) with the book's own ``parse:`` and ``html:`` settings and the
extensions ``edition`` and ``reader_guide`` is built with jupyter-book's
command, in this process: the full edition's assignment page carries the
"Instructor edition: contains solutions" banner and no chapter does; the
front page's counts come from the table of contents; the last chapter has
no Next link. The student edition is checked on the hook alone (building
it needs the assignment release of nbgrader).
"""

import html
import importlib.util
import re
import shutil
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest
import yaml
from click.testing import CliRunner
from jupyter_book.cli.main import main as jupyter_book
from sphinx.errors import ConfigError

ROOT = Path(__file__).resolve().parents[1]


def load(name):
    """An extension of _ext/ as a module (it lives outside a package)."""
    spec = importlib.util.spec_from_file_location(
        name, ROOT / "_ext" / f"{name}.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


reader_guide = load("reader_guide")
STUDENT_URL = "https://example.org/svmbook-student/"
KERNEL = {"name": "python3", "display_name": "Python 3", "language": "python"}


def notebook(title, nbgrader=False):
    metadata = (
        {"nbgrader": {"grade": False, "solution": True, "locked": False}}
        if nbgrader
        else {}
    )
    cells = [nbformat.v4.new_markdown_cell(f"# {title}\n\nText.")]
    if nbgrader:
        cells.append(
            nbformat.v4.new_code_cell(
                "x = 1\n### BEGIN SOLUTION\nx = 2\n### END SOLUTION",
                metadata={
                    "nbgrader": {
                        **metadata["nbgrader"],
                        "grade_id": "answer",
                        "schema_version": 3,
                    }
                },
            )
        )
    return nbformat.v4.new_notebook(
        cells=cells, metadata={"kernelspec": KERNEL}
    )


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """Build the tiny full edition; {docname: the page's HTML}."""
    folder = tmp_path_factory.mktemp("reader_guide_book")
    real = yaml.safe_load((ROOT / "_config.yml").read_text())
    config = {
        "title": "Tiny",
        "only_build_toc_files": True,
        "execute": {"execute_notebooks": "off"},
        **{key: real[key] for key in ("parse", "html")},
        "sphinx": {
            "local_extensions": {"edition": "_ext", "reader_guide": "_ext"},
            "config": {"svmbook_student_edition_url": STUDENT_URL},
        },
    }
    (folder / "_config.yml").write_text(yaml.safe_dump(config))
    (folder / "_toc.yml").write_text(
        "format: jb-book\nroot: index\nparts:\n"
        "  - caption: I. Chapters\n    numbered: true\n    chapters:\n"
        "      - file: chapters/one\n      - file: chapters/two\n"
        "  - caption: II. Assignments\n    chapters:\n"
        "      - file: assignments/a1\n"
    )
    (folder / "index.md").write_text(
        "# Tiny\n\n{{ n_chapters }} chapters in {{ n_parts }} part, "
        "{{ n_assignments }} assignment. Students: {{ student_edition }}.\n"
    )
    for name, title, graded in (
        ("chapters/one", "One", False),
        ("chapters/two", "Two", False),
        ("assignments/a1", "Assignment 1", True),
    ):
        (folder / name).parent.mkdir(exist_ok=True)
        nbformat.write(notebook(title, graded), folder / f"{name}.ipynb")
    (folder / "_ext").mkdir()
    for name in ("edition", "reader_guide"):
        shutil.copy(ROOT / "_ext" / f"{name}.py", folder / "_ext")
    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.delenv("SVMBOOK_EDITION", raising=False)
    monkeypatch.delenv(reader_guide.VARIABLE, raising=False)
    monkeypatch.chdir(folder)  # local_extensions paths are relative
    try:
        result = CliRunner().invoke(
            jupyter_book, ["build", ".", "-W", "-n", "--keep-going", "-q"]
        )
    finally:
        monkeypatch.undo()
    assert result.exit_code == 0, result.output
    built = folder / "_build" / "html"
    return {
        str(page.relative_to(built).with_suffix("")): page.read_text(
            encoding="utf-8"
        )
        for page in built.rglob("*.html")
        if "_static" not in page.parts
    }


def text(page):
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_assignment_pages_carry_the_instructor_banner(pages):
    page = pages["assignments/a1"]
    assert page.count(reader_guide.BANNER_CLASS) == 1
    assert "Instructor edition: contains solutions" in text(page)
    assert f'href="{STUDENT_URL}"' in page
    # under the page's title, before the solution's code
    assert (
        page.index("</h1>")
        < page.index(reader_guide.BANNER_CLASS)
        < page.index("BEGIN SOLUTION")
    )
    for chapter in ("chapters/one", "chapters/two", "intro", "index"):
        if chapter in pages:
            assert reader_guide.BANNER_CLASS not in pages[chapter], chapter


def test_front_page_counts_and_links_the_student_edition(pages):
    front = text(pages["index"])
    assert "two chapters in one part, one assignment." in front
    assert f'href="{STUDENT_URL}"' in pages["index"]


def test_the_reading_path_ends_at_the_last_chapter(pages):
    assert 'class="right-next"' in pages["chapters/one"]
    assert "two.html" in pages["chapters/one"]
    assert 'class="right-next"' not in pages["chapters/two"]
    assert 'class="left-prev"' in pages["chapters/two"]


def hook(edition, pagename, source, url=""):
    app = SimpleNamespace(
        config=SimpleNamespace(
            svmbook_edition=edition, svmbook_student_edition_url=url
        ),
        env=SimpleNamespace(doc2path=lambda name: source),
        srcdir=ROOT,
    )
    context = {"body": "<section><h1>T</h1><p>x</p></section>", "next": 1}
    reader_guide.page_context(app, pagename, "page.html", context, object())
    return context


def test_the_student_edition_has_no_banner(tmp_path):
    graded = tmp_path / "a1.ipynb"
    nbformat.write(notebook("A", nbgrader=True), graded)
    plain = tmp_path / "c.ipynb"
    nbformat.write(notebook("C"), plain)
    banner = reader_guide.BANNER_CLASS
    assert banner in hook("full", "a", graded)["body"]
    assert banner not in hook("full", "c", plain)["body"]
    assert banner not in hook("student", "a", graded)["body"]
    assert reader_guide.student_edition_text("student", STUDENT_URL) == (
        "this edition, the student edition"
    )


def test_the_book_own_counts_and_last_chapter():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = reader_guide.toc_files(toc)
    counts = reader_guide.toc_counts(toc)
    assert counts["n_assignments"] == len(
        list((ROOT / "assignments").glob("*.ipynb"))
    )
    assert counts["n_chapters"] == len(list(ROOT.glob("chapters/*/*.ipynb")))
    assert counts["n_parts"] == 6  # I to VI; assignments are not numbered
    last = reader_guide.last_chapter(toc)
    assert files[files.index(last) + 1].startswith("assignments/")
    # the hook drops Next on that page only
    source = ROOT / f"{last}.ipynb"
    assert hook("full", last, source)["next"] is None
    assert hook("full", files[1], ROOT / f"{files[1]}.ipynb")["next"] == 1


@pytest.mark.parametrize(
    "n, words", [(0, "zero"), (9, "nine"), (22, "twenty-two"), (100, "100")]
)
def test_in_words(n, words):
    assert reader_guide.in_words(n) == words


def test_a_bad_student_edition_address_is_refused(monkeypatch):
    monkeypatch.setenv(reader_guide.VARIABLE, "svmbook-student")
    with pytest.raises(ConfigError, match=reader_guide.VARIABLE):
        reader_guide.student_edition_url("")
    monkeypatch.setenv(reader_guide.VARIABLE, "")
    assert reader_guide.student_edition_url(STUDENT_URL) == STUDENT_URL
