"""The book's version, written in one place: ``pyproject.toml``.

As a Sphinx extension it gives the version to the pages: Sphinx's
``release`` (the PDF's title page) and the MyST substitution
``{{ version }}`` (the front page).

As a script it writes the version where other files need it and the
README's "How to cite" section from ``CITATION.cff``::

    python _ext/version.py --write   # after changing the version
    python _ext/version.py --check   # exit 1 if a file is out of date

(``tests/test_citation.py`` runs the check.)
"""

import re
import sys
from pathlib import Path

import yaml

BOOK_ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = BOOK_ROOT / "pyproject.toml"
CITATION = BOOK_ROOT / "CITATION.cff"
README = BOOK_ROOT / "README.md"
CITE_START = (
    "<!-- how to cite: written by `python _ext/version.py --write` -->"
)
CITE_END = "<!-- end of how to cite -->"


def book_version():
    """The version of the book and svmlib: ``pyproject.toml``'s ``version``."""
    text = PYPROJECT.read_text(encoding="utf-8")
    # the [project] table's 'version = "..."' (tomllib needs Python 3.11;
    # the book builds on 3.10)
    return re.search(r'^version = "([^"]+)"$', text, re.MULTILINE).group(1)


def citation_file(version):
    """``CITATION.cff``'s text with its version lines set to ``version``."""
    text = CITATION.read_text(encoding="utf-8")
    return re.sub(
        r'^(\s*version: )"[^"]*"$', rf'\g<1>"{version}"', text, flags=re.M
    )


def how_to_cite(citation):
    """The README's "How to cite" section, from CITATION.cff's contents."""
    book = citation["preferred-citation"]
    authors = " and ".join(a["name"] for a in book["authors"])
    return f"""{CITE_START}
{" ".join(citation["message"].split())}

> {authors} ({book["year"]}). *{book["title"]}.* Version {book["version"]}.

```bibtex
@book{{svmbook,
  author = {{{{{authors}}}}},
  title = {{{book["title"]}}},
  year = {{{book["year"]}}},
  edition = {{Version {book["version"]}}},
}}
```
{CITE_END}"""


def readme_file(citation):
    """README.md's text with its "How to cite" section rewritten."""
    text = README.read_text(encoding="utf-8")
    pattern = re.compile(
        re.escape(CITE_START) + ".*?" + re.escape(CITE_END), re.S
    )
    if not pattern.search(text):
        raise SystemExit(f"README.md has no line {CITE_START!r}")
    return pattern.sub(lambda _: how_to_cite(citation), text)


def expected_files():
    """Each generated file and the text it should have."""
    cff = citation_file(book_version())
    return {CITATION: cff, README: readme_file(yaml.safe_load(cff))}


def main(argv):
    if argv not in (["--write"], ["--check"]):
        raise SystemExit("usage: python _ext/version.py --write | --check")
    stale = [
        path
        for path, text in expected_files().items()
        if path.read_text(encoding="utf-8") != text
    ]
    if argv == ["--check"]:
        for path in stale:
            print(
                f"{path.name} is out of date: python _ext/version.py --write"
            )
        return 1 if stale else 0
    for path, text in expected_files().items():
        path.write_text(text, encoding="utf-8")
    return 0


def configure(app, config):
    config.release = config.version = book_version()
    config.myst_substitutions = {
        **(config.myst_substitutions or {}),
        "version": config.release,
    }


def setup(app):
    app.connect("config-inited", configure)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
