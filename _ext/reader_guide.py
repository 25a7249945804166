"""What a reader is told about the book: editions, counts, the reading path.

* **The edition, said plainly.** In the full edition (``SVMBOOK_EDITION``
  unset or ``full``, see ``_ext/edition.py``) every assignment page (a
  notebook in nbgrader's markup) opens with a banner "Instructor edition:
  contains solutions", which points students to the student edition. The
  student edition has no banner: its assignment pages hold stubs.
* **Where the student edition is.** ``SVMBOOK_STUDENT_EDITION_URL`` (or
  ``svmbook_student_edition_url`` in ``_config.yml``'s ``sphinx: config:``;
  the variable wins) is the address at which the student edition is
  published. The MyST substitution ``{{ student_edition }}`` links it, or,
  unset, says how to build it; in the student edition it reads "this
  edition".
* **Numbers read from the table of contents**, never typed: the
  substitutions ``{{ n_chapters }}``, ``{{ n_assignments }}`` and
  ``{{ n_parts }}`` (parts whose chapters are numbered), as English
  words ("twenty-two").
* **The reading path ends at the last chapter**: its page has no "Next"
  link into the assignments or the instructors' page.
"""

import os
from pathlib import Path
from urllib.parse import urlsplit

import nbformat
import yaml
from sphinx.errors import ConfigError

VARIABLE = "SVMBOOK_STUDENT_EDITION_URL"
BANNER_CLASS = "svmbook-edition-banner"
BANNER_TITLE = "Instructor edition: contains solutions"
UNITS = (
    "zero one two three four five six seven eight nine ten eleven twelve "
    "thirteen fourteen fifteen sixteen seventeen eighteen nineteen"
).split()
TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()


def in_words(n):
    """``n`` in English words below a hundred ("twenty-two"), else digits."""
    if 0 <= n < 20:
        return UNITS[n]
    if 20 <= n < 100:
        tens, unit = divmod(n, 10)
        return TENS[tens - 2] + (f"-{UNITS[unit]}" if unit else "")
    return str(n)


def toc_files(toc):
    """The files of a jb-book table of contents, in reading order."""
    files = [toc["root"]]
    for part in toc.get("parts", []):
        files += [entry["file"] for entry in part.get("chapters", [])]
    return files


def toc_counts(toc):
    """Chapters, assignments and numbered parts of a table of contents."""
    files = toc_files(toc)
    return {
        "n_chapters": sum(f.startswith("chapters/") for f in files),
        "n_assignments": sum(f.startswith("assignments/") for f in files),
        "n_parts": sum(
            bool(part.get("numbered")) for part in toc.get("parts", [])
        ),
    }


def last_chapter(toc):
    """The docname of the last chapter (``chapters/...``) in reading order."""
    chapters = [f for f in toc_files(toc) if f.startswith("chapters/")]
    return chapters[-1] if chapters else None


def student_edition_url(configured=""):
    """``$SVMBOOK_STUDENT_EDITION_URL``, else ``configured``, else None.

    Raises
    ------
    sphinx.errors.ConfigError
        If the value is not an http(s) address.
    """
    value = os.environ.get(VARIABLE, "").strip() or (configured or "").strip()
    if not value:
        return None
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(
            f"{VARIABLE} (or svmbook_student_edition_url) must be the "
            f"http(s) address of the published student edition; got "
            f"{value!r}. Leave it empty when it is not published."
        )
    return value


def student_edition_text(edition, url):
    """The ``{{ student_edition }}`` substitution (Markdown)."""
    if edition == "student":
        return "this edition, the student edition"
    if url:
        return f"[the student edition]({url})"
    return (
        "the student edition (its address is set when it is published; "
        "it is built with `SVMBOOK_EDITION=student`, see the README)"
    )


def banner_html(url):
    """The full edition's banner for an assignment page."""
    where = (
        f'<a class="reference external" href="{url}">the student edition</a>'
        if url
        else "the student edition"
    )
    return (
        f'<div class="admonition warning {BANNER_CLASS}" role="note">\n'
        f'<p class="admonition-title">{BANNER_TITLE}</p>\n'
        "<p>This page shows the assignment with its solutions and hidden "
        "tests, for instructors. Students: work from "
        f"{where}, whose assignments have stubs in place of the "
        "solutions.</p>\n</div>\n"
    )


def with_banner(body, banner):
    """The page body with the banner under its title (first ``</h1>``)."""
    head, title_end, rest = body.partition("</h1>")
    if not title_end:
        return banner + body
    return head + title_end + "\n" + banner + rest


def is_assignment(path):
    """Whether a source file is a notebook in nbgrader's markup."""
    path = Path(path)
    if path.suffix != ".ipynb" or not path.is_file():
        return False
    nb = nbformat.read(path, as_version=4)
    return any("nbgrader" in cell.get("metadata", {}) for cell in nb.cells)


def _toc(app):
    path = Path(app.srcdir) / "_toc.yml"
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def configure(app, config):
    """``config-inited``: the substitutions, from the toc and the settings."""
    toc = yaml.safe_load(
        (Path(app.confdir) / "_toc.yml").read_text(encoding="utf-8")
    )
    url = student_edition_url(config.svmbook_student_edition_url)
    edition = getattr(config, "svmbook_edition", "full")
    config.myst_substitutions = {
        **(config.myst_substitutions or {}),
        **{key: in_words(n) for key, n in toc_counts(toc).items()},
        "student_edition": student_edition_text(edition, url),
    }


def page_context(app, pagename, templatename, context, doctree):
    """``html-page-context``: the banner; no Next after the last chapter."""
    if doctree is None:
        return
    if pagename == last_chapter(_toc(app)):
        context["next"] = None
    if app.config.svmbook_edition == "student" or "body" not in context:
        return
    if is_assignment(app.env.doc2path(pagename)):
        url = student_edition_url(app.config.svmbook_student_edition_url)
        context["body"] = with_banner(context["body"], banner_html(url))


def setup(app):
    app.add_config_value("svmbook_student_edition_url", "", "env")
    # after _ext/edition.py (priority 500), which records the edition
    app.connect("config-inited", configure, priority=650)
    app.connect("html-page-context", page_context)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
