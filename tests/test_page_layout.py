"""The built book as a reader sees it: each output once, everything fits.

Two kinds of check on _build/html (issue 29):

* each output once, read from the written pages: no cell output shows the
  same image twice, and no page prints an object's repr (``<... at
  0x7f...>``), the marks of a stored execution that kept the result of a
  cell ending in ``;`` (see conftest.py);
* everything fits the column, measured in headless Chromium at 1280 and 390
  pixels on every page: no page is wider than the window, no element sticks
  out of the text column, and at 1280 px no display equation, table or
  output needs a horizontal scroll bar (_static/page-fit.css makes what is
  still too wide scroll inside its own box instead of being cut off).

Like tests/test_browser.py, this skips before the book is built; with
SVMBOOK_CHECK_BUILD=1 (after the build in `.ci/run`) a skip is a failure.
"""

import re
from html import unescape
from html.parser import HTMLParser

import pytest
from test_browser import (  # noqa: F401  (browser: a fixture)
    BUILT_HTML,
    PAGES,
    _unavailable,
    browser,
    open_page,
)

WIDTHS = (1280, 390)

#: Display equations still wider than the column at 1280 px, by page (the
#: notebook's cell, the equation's width measured in the 688 px column, with
#: sphinx-book-theme 1.3.0; some fit by a few pixels with 1.1.4's fonts):
#: each scrolls inside its own box until its chapter splits it (aligned,
#: split). The test fails on any other. An entry is the start of the
#: equation's TeX, whitespace collapsed; remove it once the equation is
#: split.
EQUATIONS_TO_SPLIT = {
    "assignments/09_svr.html": (
        r"\min_{\alpha, \alpha^*}\; \tfrac12 (\alp",  # cell 10: 862 px in 688
        r"\begin{split} \min_a \tfrac12 a^\top Q a",  # cell 10: 717 px in 688
    ),
    "chapters/beyond/novelty.html": (
        r"\frac{\partial \mathcal L}{\partial w} =",  # cell 2: 779 px in 688
        r"\frac{\partial \mathcal L}{\partial R} =",  # cell 2: 780 px in 688
    ),
    "chapters/beyond/regression.html": (
        r"\frac{\partial \mathcal L}{\partial w} =",  # cell 4: 865 px in 688
        r"\max_{\alpha, \alpha^*} \ -\tfrac12 \sum",  # cell 4: 767 px in 688
        r"\min_{w, b, \varepsilon, \xi, \xi^*}",  # cell 24: 824 px in 688
    ),
    "chapters/case_studies/gisette.html": (
        r"\max_{\alpha}\; W(\alpha) = \sum_i",  # cell 11: 729 px in 688
        r"W'(\alpha') = \sum_i \frac{\alpha_i}{s^2",  # cell 11: 713 px in 688
    ),
    "chapters/dual/lagrange_duality.html": (
        r"g(\alpha) = \frac{\alpha}{1 + \alpha}",  # cell 5: 732 px in 688
        r"\mathcal L = \tfrac12 \lVert w \rVert^2",  # cell 12: 746 px in 688
        r"f_0(w^\star) = g(\alpha^\star) = \inf_{w",  # cell 24: 711 px in 688
    ),
    "chapters/dual/soft_margin.html": (
        r"\min_{w, b, \xi, \rho} \ \tfrac12",  # cell 23: 733 px in 688
        r"\frac{\partial \mathcal L}{\partial w} =",  # cell 2: 746 px in 688
        r"\min_\alpha \ \tfrac12 \sum_{i,j} \alpha",  # cell 23: 700 px in 688
    ),
    "chapters/kernels/kernels.html": (
        r"\max_{\alpha}\; \sum_{i=1}^{n} \alpha_i",  # cell 0: 807 px in 688
    ),
    "chapters/kernels/multiclass.html": (
        r"\min_{w, b, \xi}\; \frac12 \sum_{k=1}^{K",  # cell 9: 760 px in 688
        r"\min_{w, \xi}\; \frac12 \sum_{k} \lVert",  # cell 9: 707 px in 688
    ),
    "chapters/side_topics/em_algorithm.html": (
        r"\ell(\theta) = \sum_{i=1}^n \bigl[h_i \l",  # cell 3: 740 px in 688
    ),
    "chapters/side_topics/gaussian_mixtures.html": (
        r"Q(\theta) = \sum_{i=1}^n \sum_{k=1}^K",  # cell 12: 713 px in 688
        r"p(x) = \sum_{k=1}^K \pi_k\, \mathcal{N}(",  # cell 3: 783 px in 688
        r"\frac{\partial Q}{\partial \Lambda_k} =",  # cell 12: 821 px in 688
    ),
    "chapters/smo/scaling_up.html": (
        r"\min_{\alpha}\; D(\alpha) = \tfrac12",  # cell 24: 727 px in 688
    ),
    "chapters/smo/platt_and_wss.html": (
        r"I_{\text{up}} = \{t : \alpha_t < C, y_t",  # cell 5: 860 px in 688
    ),
}


# ---------------------------------------------------------------------------
# Each output once (the written HTML, no browser)
# ---------------------------------------------------------------------------


#: elements without an end tag
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link"}
VOID |= {"meta", "source", "track", "wbr"}


class _CellOutputs(HTMLParser):
    """The images of each cell output and the visible text of a page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.outputs = []  # one list of image sources per cell output
        self.text = []
        self._stack = []  # (tag, starts a cell output)
        self._in_output = 0
        self._hidden = 0  # inside <script> or <style>

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("script", "style"):
            self._hidden += 1
        if tag == "img" and self._in_output:
            self.outputs[-1].append(attrs.get("src", ""))
        if tag in VOID:
            return  # no end tag
        starts = (
            tag == "div"
            and "cell_output" in (attrs.get("class") or "").split()
        )
        if starts:
            self._in_output += 1
            self.outputs.append([])
        self._stack.append((tag, starts))

    def handle_endtag(self, tag):
        if tag in VOID:
            return  # as <img/>, or a stray </br>
        if tag in ("script", "style"):
            self._hidden = max(0, self._hidden - 1)
        while self._stack:
            open_tag, starts = self._stack.pop()
            if starts:
                self._in_output -= 1
            if open_tag == tag:
                break

    def handle_data(self, data):
        if not self._hidden:
            self.text.append(data)


def read_page(relative):
    parser = _CellOutputs()
    parser.feed((BUILT_HTML / relative).read_text(encoding="utf-8"))
    parser.close()
    return parser


#: a Python object's default repr: <module.Class object at 0x7f554a6cc6d0>
OBJECT_REPR = re.compile(r"<?[\w.]+(?: object)? at 0x[0-9a-fA-F]{6,}>?")


def test_the_parser_finds_repeated_images_and_reprs():
    parser = _CellOutputs()
    parser.feed(
        '<div class="cell docutils container"><div class="cell_output'
        ' docutils container"><img src="a.png"/><div><img src="a.png">'
        "</div><pre>&lt;matplotlib.colorbar.Colorbar at 0x7f554a6cc6d0"
        '&gt;</pre></div></div><img src="a.png"><script>x at 0x1234567'
        "</script>"
    )
    assert parser.outputs == [["a.png", "a.png"]]
    text = unescape("".join(parser.text))
    assert OBJECT_REPR.findall(text) == [
        "<matplotlib.colorbar.Colorbar at 0x7f554a6cc6d0>"
    ]


@pytest.mark.parametrize("relative", PAGES or ["(not built)"])
def test_each_output_once(relative):
    if not PAGES:
        _unavailable("the book is not built (_build/html has no pages)")
    page = read_page(relative)
    twice = [
        src
        for images in page.outputs
        for src in sorted(set(images))
        if images.count(src) > 1
    ]
    assert not twice, f"one cell output shows an image twice: {twice}"
    reprs = OBJECT_REPR.findall(unescape("".join(page.text)))
    assert not reprs, f"object reprs printed on the page: {reprs[:5]}"


# ---------------------------------------------------------------------------
# Everything fits the column (Chromium at two widths)
# ---------------------------------------------------------------------------

#: What sticks out: the page wider than the window; elements of the article
#: whose box passes the text column's edges (not counting what is inside a
#: box that scrolls or clips); display equations, cell outputs, their printed
#: lines and tables whose content is wider than their box (a scroll bar).
OVERFLOW = """() => {
    const clips = el => ['auto', 'scroll', 'hidden', 'clip']
        .includes(getComputedStyle(el).overflowX);
    const source = el => {  // an equation's TeX, else the element's text
        const items = el.tagName === 'MJX-CONTAINER' && window.MathJax
            ? MathJax.startup.document.getMathItemsWithin(el) : [];
        return items.length ? items[0].math
            : el.textContent || el.getAttribute('src') || '';
    };
    const describe = el => [
        el.tagName.toLowerCase(),
        Math.round(el.getBoundingClientRect().width), el.scrollWidth,
        source(el).replace(/\\s+/g, ' ').trim().slice(0, 60)];
    const doc = document.documentElement;
    const result = {
        page: doc.scrollWidth > window.innerWidth + 1
            ? [doc.scrollWidth, window.innerWidth] : null,
        wider: [], scrolls: []};
    const article = document.querySelector('article.bd-article');
    if (!article) return result;
    const box = article.getBoundingClientRect();
    const style = getComputedStyle(article);
    const left = box.left + parseFloat(style.paddingLeft);
    const right = box.right - parseFloat(style.paddingRight);
    const reported = [];
    for (const el of article.querySelectorAll('*')) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || (r.right <= right + 1 && r.left >= left - 1))
            continue;
        let inside = false;
        for (let a = el.parentElement; a && a !== article; a = a.parentElement)
            if (clips(a) || reported.includes(a)) { inside = true; break; }
        if (inside) continue;
        reported.push(el);
        result.wider.push(describe(el));
    }
    for (const el of article.querySelectorAll(
            'mjx-container[display="true"], div.cell_output div.output, ' +
            'div.cell_output pre, table'))
        if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1)
            result.scrolls.push(describe(el));
    return result;
}"""


@pytest.fixture(scope="module")
def measured(browser):  # noqa: F811  (the fixture imported above)
    """Measure every page once per width: {(width, page): result}."""
    results = {}

    def measure(width, relative):
        if (width, relative) not in results:
            page, _ = open_page(browser, relative, width=width)
            try:
                results[width, relative] = page.evaluate(OVERFLOW)
            finally:
                page.close()
        return results[width, relative]

    return measure


#: (page, width): what still sticks out, each an expected failure until fixed
#: (not strict: with sphinx-book-theme 1.1.4 some fit by a few pixels)
KNOWN_TOO_WIDE = {
    ("api.html", 390): "the parameter lists of nested classes and methods "
    "make the page 494 px wide (their indentation)",
    ("chapters/beyond/regression.html", 390): "the SVR playground's "
    "epsilon slider row is 353 px wide, wider than the column "
    "(_static/playground)",
}
#: pages whose tables or outputs scroll at 1280 px, expected until fixed
KNOWN_SCROLLING = {
    "genindex.html": "Sphinx's index lists long qualified names in "
    "two columns",
    "chapters/case_studies/mnist_4_vs_9.html": "a DataFrame 712 px wide "
    "in the 688 px column (with sphinx-book-theme 1.3.0's fonts)",
}


def _params(items, known):
    return [
        pytest.param(
            *item,
            marks=pytest.mark.xfail(reason=known[item], strict=False)
            if item in known
            else (),
        )
        for item in items
    ]


@pytest.mark.parametrize(
    "relative, width",
    _params(
        [(p, w) for w in WIDTHS for p in PAGES] or [("(not built)", 1280)],
        KNOWN_TOO_WIDE,
    ),
)
def test_page_fits_the_window(measured, relative, width):
    result = measured(width, relative)
    assert result["page"] is None, (
        f"the page is {result['page'][0]} px wide in a {width} px window"
    )
    assert not result["wider"], (
        f"wider than the text column at {width} px: {result['wider'][:5]}"
    )


@pytest.mark.parametrize(
    "relative",
    [
        pytest.param(
            p,
            marks=pytest.mark.xfail(reason=KNOWN_SCROLLING[p], strict=False)
            if p in KNOWN_SCROLLING
            else (),
        )
        for p in PAGES
    ]
    or ["(not built)"],
)
def test_nothing_scrolls_sideways_at_1280(measured, relative):
    """Equations, tables and outputs fit at 1280 px without a scroll bar."""
    scrolls = measured(1280, relative)["scrolls"]
    known = EQUATIONS_TO_SPLIT.get(relative, ())
    unknown = [
        item
        for item in scrolls
        if not (
            item[0] == "mjx-container"
            and any(item[3].startswith(start) for start in known)
        )
    ]
    assert not unknown, f"wider than the column, scrolling: {unknown[:5]}"


def test_printed_output_wraps_at_390(measured):
    """On a phone, printed lines wrap instead of scrolling (page-fit.css)."""
    if not PAGES:
        _unavailable("the book is not built")
    relative = "chapters/smo/scaling_up.html"
    scrolls = measured(390, relative)["scrolls"]
    assert not [item for item in scrolls if item[0] == "pre"], scrolls
