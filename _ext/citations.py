"""Distinct citation labels for one author's works of one year.

The book cites author-year (``bibtex_reference_style: author_year``), so
the text of a citation is the author and the ``year`` field. Works of the
same authors in the same year carry a letter in ``references.bib``
(``year = {2019a}``, ``{2019b}``, ...), and the text reads "Gu, 2019a",
"Gu, 2019b": three blog posts no longer all read "Gu, 2019".

The bibliography's labels come from pybtex's ``alpha`` style, which takes
the last two characters of the year ("9a" of "2019a"). The style
``svmbook`` registered here (``bibtex_default_style: svmbook``) is
``alpha`` with labels that keep the two digits and the letter: "Gu19a".
"""

import re

from pybtex.plugin import register_plugin
from pybtex.style.formatting.alpha import Style as AlphaStyle
from pybtex.style.labels.alpha import LabelStyle as AlphaLabelStyle

#: a year with an optional letter: 2019, 2019a
YEAR = re.compile(r"^\s*\d{2}(\d{2})([a-z]?)\s*$")


class LabelStyle(AlphaLabelStyle):
    """``alpha`` labels; a lettered year keeps its letter (Gu19a)."""

    def format_label(self, entry):
        """Label of one entry: alpha's, with a year "2019a" as "19a"."""
        year = YEAR.match(entry.fields.get("year", ""))
        if year is None:
            return super().format_label(entry)
        fields = dict(entry.fields)
        entry.fields["year"] = "0000"  # alpha appends year[-2:]: "00"
        try:
            label = super().format_label(entry)
        finally:
            entry.fields.clear()
            entry.fields.update(fields)
        return label[:-2] + year.group(1) + year.group(2)


class Style(AlphaStyle):
    """pybtex's ``alpha`` formatting with :class:`LabelStyle`."""

    default_label_style = "svmbook"


def setup(app):
    register_plugin("pybtex.style.labels", "svmbook", LabelStyle)
    register_plugin("pybtex.style.formatting", "svmbook", Style)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
