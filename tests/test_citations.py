"""Citations read apart (_ext/citations.py, references.bib).

The text cites author-year ("Gu, 2019a"): no two entries of
references.bib may give the same text, and the bibliography's labels
(the style ``svmbook``) are distinct and keep a year's letter. Blog posts
and other web sources carry their address.
"""

import importlib.util
from collections import defaultdict
from pathlib import Path

from pybtex.database import parse_file
from pybtex.plugin import find_plugin

ROOT = Path(__file__).resolve().parents[1]
BIB = parse_file(ROOT / "references.bib")


def load_citations():
    spec = importlib.util.spec_from_file_location(
        "citations", ROOT / "_ext" / "citations.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.setup(None)
    return module


def author_year(entry):
    """The text of an author-year citation: surnames (et al.) and year."""
    people = entry.persons.get("author") or entry.persons.get("editor")
    if not people:
        return entry.fields.get("title", ""), entry.fields.get("year")
    names = [" ".join(p.last_names) for p in people]
    shown = names if len(names) <= 2 else [names[0], "et al."]
    return tuple(shown), entry.fields.get("year", "n.d.")


def test_no_two_entries_cite_as_the_same_author_and_year():
    texts = defaultdict(list)
    for key, entry in BIB.entries.items():
        texts[author_year(entry)].append(key)
    same = {text: keys for text, keys in texts.items() if len(keys) > 1}
    assert not same, f"entries that read alike in the text: {same}"


def test_bibliography_labels_are_distinct_and_keep_the_letter():
    load_citations()
    style = find_plugin("pybtex.style.formatting", "svmbook")()
    labels = {e.key: e.label for e in style.format_bibliography(BIB)}
    assert len(set(labels.values())) == len(labels)
    assert [labels[k] for k in ("gu2019svm", "gu2019em", "gu2019gmm")] == [
        "Gu19a",
        "Gu19b",
        "Gu19c",
    ]
    assert labels["platt1998"] == "Pla99a"
    assert labels["platt1999"] == "Pla99b"


def test_blog_posts_carry_their_address():
    posts = {
        key: entry
        for key, entry in BIB.entries.items()
        if "blog" in entry.fields.get("howpublished", "").lower()
    }
    assert len(posts) == 3
    for key, entry in posts.items():
        assert entry.fields.get("url", "").startswith("https://"), key
