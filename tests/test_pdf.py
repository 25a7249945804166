"""Checks on the PDF edition: _build/latex/svmbook.pdf.

The README's test command runs before any build, so these tests skip when
the PDF is not built; `.ci/run` runs them after the HTML and PDF builds
with SVMBOOK_CHECK_BUILD=1, where a missing PDF is a failure. The student
edition's PDF (the README's fourth command) is checked when it exists; CI
does not build it (its chapters, cut of their solutions, would run again).
"""

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from pypdf import PdfReader
from pypdf.generic import IndirectObject

ROOT = Path(__file__).resolve().parents[1]
LATEX = ROOT / "_build" / "latex"
PDF = LATEX / "svmbook.pdf"
HTML = ROOT / "_build" / "html"
STUDENT_PDF = ROOT / "_build" / "student" / "_build" / "latex" / "svmbook.pdf"
REQUIRED = os.environ.get("SVMBOOK_CHECK_BUILD") == "1"
PART_NUMERAL = re.compile(r"^[IVXLC]+\.\s+")
#: LaTeX's own indices, listed after the last part's chapters
INDICES = ["Python Module Index", "Index"]


def _need(path, what):
    if not path.is_file():
        message = f"{path.relative_to(ROOT)} is missing: {what}"
        if REQUIRED:
            pytest.fail(message)
        pytest.skip(message)
    return path


def _text(pdf):
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (Debian's poppler-utils) is not installed")
    return subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(pdf), "-"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


@pytest.fixture(scope="module")
def reader():
    return PdfReader(_need(PDF, "jupyter-book build . --builder pdflatex"))


@pytest.fixture(scope="module")
def text():
    return _text(_need(PDF, "jupyter-book build . --builder pdflatex"))


def _title(entry):
    """A _toc.yml chapter's title: its own, or its file's first heading."""
    if "title" in entry:
        return entry["title"]
    return _heading(entry)


def _heading(entry):
    """The first heading of a _toc.yml chapter's file."""
    path = ROOT / entry["file"]
    if path.with_suffix(".ipynb").is_file():
        notebook = json.loads(
            path.with_suffix(".ipynb").read_text(encoding="utf-8")
        )
        source = "".join(
            "".join(cell["source"]) + "\n"
            for cell in notebook["cells"]
            if cell["cell_type"] == "markdown"
        )
    else:
        source = path.with_suffix(".md").read_text(encoding="utf-8")
    return re.search(r"^# (.+)$", source, re.M).group(1).strip()


def _normal(title):
    # LaTeX's typographic quotes; inline code marks of markdown headings
    return title.replace("\u2019", "'").replace("`", "").strip()


def _outline(reader):
    """[(part title, [chapter titles])] from the PDF's bookmarks."""
    parts = []
    entries = reader.outline
    for k, entry in enumerate(entries):
        if isinstance(entry, list):
            continue
        children = (
            entries[k + 1]
            if k + 1 < len(entries) and isinstance(entries[k + 1], list)
            else []
        )
        chapters = [
            _normal(c.title) for c in children if not isinstance(c, list)
        ]
        # the bookmark of a part starts with LaTeX's part number
        title = re.sub(r"^[IVXLC]+\s+", "", _normal(entry.title))
        parts.append((title, chapters))
    last_title, last_chapters = parts[-1]
    while last_chapters and last_chapters[-1] in INDICES:
        last_chapters.pop()
    return parts


def test_one_part_per_toc_part_and_one_chapter_per_toc_entry(reader):
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    outline = _outline(reader)
    assert [title for title, _ in outline] == [
        PART_NUMERAL.sub("", part["caption"]) for part in toc["parts"]
    ]
    for (title, chapters), part in zip(outline, toc["parts"], strict=True):
        # a chapter with its own sidebar title (the Gisette chapter's) may
        # be printed under that title or under its page's heading
        expected = [
            {_normal(_title(chapter)), _normal(_heading(chapter))}
            for chapter in part["chapters"]
        ]
        assert len(chapters) == len(expected), (title, chapters)
        for printed, allowed in zip(chapters, expected, strict=True):
            assert printed in allowed, (title, printed, allowed)


def test_front_page_shows_the_version(text):
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    version = re.search(r'^version = "([^"]+)"$', pyproject, re.M).group(1)
    first_page = text.split("\f")[0]
    assert f"Version {version}" in first_page
    # the introduction (the book's root page) is in the PDF too
    assert "This book teaches support vector machines" in text


def test_no_unresolved_reference_or_citation(text):
    for mark in ("??", "[?]", "<IPython.core.display", "<FramePlayer"):
        assert mark not in text, (
            f"{mark!r} in the PDF: "
            + text[max(0, text.find(mark) - 200) : text.find(mark) + 50]
        )


def _bookmarks(reader):
    """{title: first page index} of every bookmark, parts and chapters."""
    found = {}

    def walk(entries):
        for entry in entries:
            if isinstance(entry, list):
                walk(entry)
            else:
                page = reader.get_destination_page_number(entry)
                found.setdefault(_normal(entry.title), page)

    walk(reader.outline)
    return found


def test_bibliography_is_at_the_end(reader, text):
    chapters = [c for _, cs in _outline(reader) for c in cs]
    assert chapters[-1] == "Bibliography"
    bookmarks = _bookmarks(reader)
    first = bookmarks["Bibliography"]
    last = min(bookmarks.get(name, len(reader.pages)) for name in INDICES)
    pages = text.split("\f")[first:last]
    listed = " ".join(" ".join(pages).replace("-\n", "").split()).lower()
    # every entry of references.bib is listed (":all:"): its title's start
    bib = (ROOT / "references.bib").read_text(encoding="utf-8")
    titles = re.findall(r"^\s*title\s*=\s*[{\"](.+?)[}\"],?\s*$", bib, re.M)
    assert len(titles) > 10
    # a title's math as the PDF prints it ($\nu$ is the letter nu)
    titles = [title.replace("$\\nu$", "\u03bd") for title in titles]
    starts = [
        " ".join(re.sub(r"[{}\\\"]", "", title).split()[:2]).lower()
        for title in titles
    ]
    missing = [start for start in starts if start not in listed]
    assert not missing, f"bibliography entries not in the PDF: {missing}"


def _html_figures():
    """Images of the HTML book: figures, frame players, playground stills."""
    if not (HTML / "index.html").is_file():
        message = "_build/html is missing: build the book first"
        if REQUIRED:
            pytest.fail(message)
        pytest.skip(message)
    count = 0
    for page in HTML.rglob("*.html"):
        if "_static" in page.parts:
            continue
        html = page.read_text(encoding="utf-8")
        count += len(re.findall(r"<img [^>]*src=\"[^\"]*_images/", html))
        count += html.count("new Animation(")  # a player: a still on paper
        count += html.count('class="svmpg-still"')  # a playground's still
    return count


def _pdf_images(reader):
    """Distinct images and included PDF figures placed on the pages."""
    seen = set()
    for page in reader.pages:
        resources = page.get("/Resources")
        xobjects = (
            resources.get_object().get("/XObject") if resources else None
        )
        for reference in (xobjects or {}).values():
            key = (
                reference.idnum
                if isinstance(reference, IndirectObject)
                else id(reference)
            )
            if reference.get_object().get("/Subtype") in ("/Image", "/Form"):
                seen.add(key)
    return len(seen)


def test_every_figure_of_the_html_is_in_the_pdf(reader):
    tex = (LATEX / "svmbook.tex").read_text(encoding="utf-8")
    # \sphinxincludegraphics[...]{{name}.png} or \includegraphics[...]{name}
    included = [
        name.replace("{", "").replace("}", "")
        for name in re.findall(
            r"\\(?:sphinx)?includegraphics(?:\[[^]]*\])?{({[^}]*}[^}]*|[^}]+)}",
            tex,
        )
    ]
    assert len(included) == _html_figures()
    for name in included:
        assert (LATEX / name).is_file(), name
    # each included file is an image or a form (vector figure) of the PDF
    assert _pdf_images(reader) >= len(set(included))


def _solution_lines():
    """Lines of the assignments' solutions, found nowhere else in them."""
    lines = []
    for path in sorted((ROOT / "assignments").glob("*.ipynb")):
        notebook = json.loads(path.read_text(encoding="utf-8"))
        inside, outside = [], []
        for cell in notebook["cells"]:
            region = outside
            for line in "".join(cell["source"]).splitlines():
                if "### BEGIN SOLUTION" in line:
                    region = inside
                elif "### END SOLUTION" in line:
                    region = outside
                else:
                    region.append(" ".join(line.split()))
        lines += [
            line[:30]
            for line in inside
            if len(line) >= 30 and not any(line[:30] in o for o in outside)
        ]
    return lines


def _assignment_pages(reader, text):
    """The text of the assignments' chapters, whitespace collapsed."""
    bookmarks = _bookmarks(reader)
    first = min(p for t, p in bookmarks.items() if t.startswith("Assignment"))
    pages = text.split("\f")[first : bookmarks["API reference"]]
    return " ".join(" ".join(pages).split())


def test_student_edition_has_no_solutions(reader, text):
    if not STUDENT_PDF.is_file():  # not built in CI: see the module
        pytest.skip(
            "the student PDF is not built: SVMBOOK_EDITION=student "
            "jupyter-book build . --builder pdflatex --path-output "
            "_build/student"
        )
    student_text = _text(STUDENT_PDF)
    student = _assignment_pages(PdfReader(STUDENT_PDF), student_text)
    full = _assignment_pages(reader, text)
    exercise_solution = re.compile(r"Solution to\s*Exercise")
    solutions = _solution_lines()
    # the full edition has both kinds of solution: the checks can fail
    assert exercise_solution.search(text)
    assert sum(line in full for line in solutions) > len(solutions) / 2
    assert not exercise_solution.search(student_text)
    leaked = [line for line in solutions if line in student]
    assert not leaked, f"assignment solutions in the student PDF: {leaked}"
    assert "YOUR ANSWER HERE" in student
