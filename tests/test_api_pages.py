"""The API reference, one page per group of modules (issue 29).

``api.md`` holds every entry (tests/test_docstrings.py checks that it
names every public object) and is not a page itself; each page
``api/NAME.md`` includes the sections of ``api.md`` between the comments
``<!-- api:NAME -->`` and ``<!-- /api:NAME -->``; the last group
(``classroom``) has no end mark and runs to the end of the file, so that
an entry added at the end lands in it. So that an entry of
``api.md`` cannot fall out of the book: every ``eval-rst`` block lies in a
marked group, every group is included by exactly one page, and every page
is in the table of contents.
"""

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
SOURCE = (ROOT / "api.md").read_text(encoding="utf-8")
PAGES = sorted((ROOT / "api").glob("*.md"))
INCLUDE = re.compile(
    r"```\{include\} \.\./api\.md\n:start-after: <!-- api:(\w+) -->\n"
    r"(?::end-before: <!-- /api:(\w+) -->\n)?```"
)
#: the group that runs to the end of api.md
LAST = "classroom"


def groups(text):
    """{name: text} of the marked groups of api.md."""
    found = {}
    last = text.find(f"<!-- api:{LAST} -->")
    assert last >= 0 and f"<!-- /api:{LAST} -->" not in text
    text, found[LAST] = text[:last], text[last:]
    for match in re.finditer(
        r"<!-- api:(\w+) -->(.*?)<!-- /api:(\w+) -->", text, re.S
    ):
        assert match.group(1) == match.group(3), match.group(0)[:80]
        assert match.group(1) not in found, f"group {match.group(1)} twice"
        found[match.group(1)] = match.group(2)
    return found


def unmarked(text):
    """api.md without its marked groups (the last runs to the end)."""
    text = text[: text.find(f"<!-- api:{LAST} -->")]
    group = r"<!-- api:(\w+) -->.*?<!-- /api:\1 -->"
    return re.sub(group, "", text, flags=re.S)


def test_every_entry_is_in_a_group():
    assert "{eval-rst}" not in unmarked(SOURCE)
    assert sum(g.count("{eval-rst}") for g in groups(SOURCE).values()) == (
        SOURCE.count("{eval-rst}")
    )


def test_every_group_has_one_page_and_every_page_is_in_the_toc():
    included = {}
    for page in PAGES:
        for start, end in INCLUDE.findall(page.read_text(encoding="utf-8")):
            assert start == end or (start == LAST and not end), page
            included.setdefault(start, []).append(page.stem)
    assert set(included) == set(groups(SOURCE)), included
    assert all(len(pages) == 1 for pages in included.values()), included
    toc = yaml.safe_dump(yaml.safe_load((ROOT / "_toc.yml").read_text()))
    for page in PAGES:
        assert f"file: api/{page.stem}\n" in toc, page.stem


def test_the_check_can_fail():
    text = (
        "<!-- api:a -->\n```{eval-rst}\n```\n<!-- /api:a -->\n```{eval-rst}"
        f"```\n<!-- api:{LAST} -->\n```{{eval-rst}}\n```\n"
    )
    assert "{eval-rst}" in unmarked(text)
    assert set(groups(text)) == {"a", LAST}
