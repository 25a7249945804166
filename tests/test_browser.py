"""The built book in a real browser: headless Chromium driven by Playwright.

Every page of _build/html is opened from disk, with no network, and must
show no JavaScript error, no untypeset TeX, no broken image and no broken
internal link; every frame player must change its frame when its slider
moves; the navigation works on a phone (the menu opens and its links lead
on, "On this page" opens) and on a desktop (the menu button hides the
sidebar). A full-page screenshot of every page is written to
_build/screenshots/.

Like tests/test_built_book.py, this skips before the book is built (and when
Chromium or Playwright is missing); `.ci/run` installs Chromium and runs it
after the build with SVMBOOK_CHECK_BUILD=1, where a skip becomes a failure.
SVMBOOK_BUILT_HTML=<folder> checks a build written elsewhere (jupyter-book
build . --path-output <dir>: the folder is <dir>/_build/html);
tests/test_page_layout.py reads the same folder.
"""

import os
import re
import shutil
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: the built book: _build/html, or the folder SVMBOOK_BUILT_HTML names (a
#: build written elsewhere with --path-output); screenshots go beside it
BUILT_HTML = Path(
    os.environ.get("SVMBOOK_BUILT_HTML") or ROOT / "_build" / "html"
).resolve()
SCREENSHOTS = BUILT_HTML.parent / "screenshots"
REQUIRED = os.environ.get("SVMBOOK_CHECK_BUILD") == "1"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PAGES = sorted(
    str(p.relative_to(BUILT_HTML))
    for p in BUILT_HTML.rglob("*.html")
    if not {"_static", "_sources"} & set(p.parts)
    and 'http-equiv="Refresh"'
    not in p.read_text(
        encoding="utf-8"
    )  # index.html only redirects to the intro
)


def _unavailable(reason):
    if REQUIRED:
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser():
    if not PAGES:
        _unavailable("the book is not built (_build/html has no pages)")
    if CHROMIUM is None:
        _unavailable(
            "Chromium is not installed (Debian: apt-get install chromium)"
        )
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable(
            "Playwright is not installed (pip install -r requirements.txt)"
        )
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


def open_page(browser, relative, width=1280):
    """Open a built page; return (page, errors) after MathJax has finished."""
    page = browser.new_page(viewport={"width": width, "height": 900})
    errors = []
    page.on(
        "console",
        lambda message: (
            errors.append(message.text) if message.type == "error" else None
        ),
    )
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.route(
        re.compile(r"^https?://"), lambda route: route.abort()
    )  # no network, as offline readers
    # a large page on a loaded machine takes more than the default 30 s
    page.goto(
        (BUILT_HTML / relative).as_uri(), wait_until="load", timeout=120_000
    )
    page.evaluate(
        "() => (window.MathJax && MathJax.startup)"
        " ? MathJax.startup.promise : null"
    )
    return page, errors


TYPESET_PROBLEMS = """() => {
    const untypeset = Array.from(document.querySelectorAll('.math'))
        .filter(el => !el.querySelector('mjx-container'))
        .map(el => el.textContent.slice(0, 60));
    const tex_errors = Array.from(document.querySelectorAll('mjx-merror'))
        .map(el => el.textContent);
    return untypeset.concat(tex_errors);
}"""

BROKEN_IMAGES = """async () => {
    const images = Array.from(document.images);
    images.forEach(img => { img.loading = 'eager'; });
    await Promise.all(images.map(img => img.complete ? null
        : new Promise(r => { img.onload = img.onerror = r; })));
    return images.filter(img => img.naturalWidth === 0)
        .map(img => img.src.slice(0, 120));
}"""


#: Code (cells and included svmlib source) wider than the text column: the
#: longest line of each block that needs a horizontal scroll bar.
CODE_THAT_SCROLLS = """() => Array.from(document.querySelectorAll(
        'div.cell_input div.highlight pre, div.highlight-python pre'))
    .filter(pre => pre.scrollWidth > pre.clientWidth + 1)
    .map(pre => pre.textContent.split('\\n')
        .reduce((a, b) => (a.length >= b.length ? a : b)))
"""


@pytest.mark.parametrize("relative", PAGES or ["(not built)"])
def test_page_in_chromium(browser, relative):
    page, errors = open_page(browser, relative)
    try:
        problems = page.evaluate(TYPESET_PROBLEMS)
        broken = page.evaluate(BROKEN_IMAGES)
        too_wide = page.evaluate(CODE_THAT_SCROLLS)
        links = page.evaluate(
            "() => Array.from(document.querySelectorAll('a[href]'))"
            ".map(a => a.href)"
        )
        screenshot = SCREENSHOTS / Path(relative).with_suffix(".png")
        screenshot.parent.mkdir(parents=True, exist_ok=True)
        # the API page is over 200 000 px tall: its screenshot took 70 s
        # on a busy machine (both themes), more than Playwright's 30 s
        page.screenshot(path=str(screenshot), full_page=True, timeout=300_000)
    finally:
        page.close()
    assert not errors, f"JavaScript errors: {errors}"
    assert not problems, f"formulas MathJax did not typeset: {problems[:5]}"
    assert not broken, f"images that did not load: {broken}"
    assert not too_wide, f"code wider than the text column: {too_wide[:3]}"
    assert not broken_links(links), (
        f"broken internal links: {broken_links(links)[:5]}"
    )


def broken_links(links):
    """Links to files of the book that do not exist, or to missing anchors."""
    broken = []
    for link in links:
        url = urlparse(link)
        if url.scheme != "file":
            continue
        target = Path(unquote(url.path))
        if not target.exists():
            broken.append(link)
        elif url.fragment and target.suffix == ".html":
            html = target.read_text(encoding="utf-8")
            if (
                f'id="{url.fragment}"' not in html
                and f'name="{url.fragment}"' not in html
            ):
                broken.append(link)
    return broken


def test_font_preloads_are_dropped_and_other_links_kept(monkeypatch):
    """The rewrite of _ext/offline_assets.py, on the theme's own lines.

    A font preload is a CORS request, which Chromium refuses for file://:
    one console error per font on every page read from disk.
    """
    monkeypatch.syspath_prepend(str(ROOT / "_ext"))
    from offline_assets import drop_font_preloads

    fonts = "_static/vendor/fontawesome/6.5.2/webfonts/"
    kept = (
        '  <link href="_static/vendor/fontawesome/6.5.2/css/all.min.css"'
        ' rel="stylesheet" />\n'
        '<link rel="preload" as="script" href="_static/scripts/bootstrap.js"'
        " />\n"
        '<link rel="stylesheet" href="_static/page-fit.css" />\n'
    )
    preloads = "".join(
        f'<link rel="preload" as="font" type="font/woff2" crossorigin'
        f' href="{fonts}{name}.woff2" />\n'
        for name in ("fa-solid-900", "fa-brands-400", "fa-regular-400")
    )
    html = f"<head>\n{kept[:-1]}\n  {preloads}</head>"
    assert drop_font_preloads(html) == f"<head>\n{kept}</head>"
    assert drop_font_preloads(kept) == kept


def test_no_page_preloads_a_font():
    if not PAGES:
        _unavailable("the book is not built")
    preloading = [
        relative
        for relative in PAGES
        if re.search(
            r"<link\b[^>]*\bas=.?font\b",
            (BUILT_HTML / relative).read_text(encoding="utf-8"),
        )
    ]
    assert not preloading, (
        f"pages that preload a font (an error from file://): {preloading}"
    )


PLAYER_PAGES = [
    p
    for p in PAGES
    if "new Animation(" in (BUILT_HTML / p).read_text(encoding="utf-8")
]


def test_some_pages_have_frame_players():
    if not PAGES:
        _unavailable("the book is not built")
    assert "chapters/kernels/tuning_c_and_sigma.html" in PLAYER_PAGES


@pytest.mark.parametrize("relative", PLAYER_PAGES or ["(not built)"])
def test_frame_players_follow_their_sliders(browser, relative):
    page, errors = open_page(browser, relative)
    try:
        changes = page.evaluate(
            """() => Array.from(document.querySelectorAll(
                    'input[type=range][id^="_anim_slider"]')).map(slider => {
                const img = document.getElementById(
                    slider.id.replace('_anim_slider', '_anim_img'));
                const before = img.src;
                slider.value = slider.max;
                slider.dispatchEvent(new Event('input'));
                slider.dispatchEvent(new Event('change'));
                return [Number(slider.max), before !== img.src];
            })"""
        )
    finally:
        page.close()
    assert changes, "no player slider found"
    for frames, changed in changes:
        assert frames >= 1 and changed, (
            f"a player with {frames + 1} frames did not change its image"
        )
    assert not errors, f"JavaScript errors: {errors}"


# ---------------------------------------------------------------------------
# Navigation (issue 29): sphinx-book-theme 1.3.0 on pydata-sphinx-theme
# 0.17.1 rendered two sets of sidebar buttons and bound the hidden ones
# (pydata-sphinx-theme issue 2451): on a phone the menu and "On this page"
# did nothing, on a desktop the menu did not hide the sidebar.
# requirements.txt pins sphinx-book-theme 1.1.4 with the pydata-sphinx-theme
# it was released for, 0.15.4, whose scripts bind the buttons a reader sees.
# ---------------------------------------------------------------------------

NAVIGATION_PAGE = "chapters/smo/two_variable_step.html"

#: whether the element is on screen: displayed, visible, and mostly inside
#: the window
SHOWN = """selector => {
    const el = document.querySelector(selector);
    if (!el) return false;
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return style.display !== 'none' && style.visibility !== 'hidden'
        && r.width > 50 && r.right > 10 && r.left < window.innerWidth - 10;
}"""


def _press(page, selector):
    """Click the one visible button matching selector."""
    buttons = page.locator(selector).filter(visible=True)
    assert buttons.count() == 1, (
        f"{buttons.count()} visible buttons match {selector}"
    )
    buttons.first.click()
    page.wait_for_timeout(500)  # the sidebars slide in


def test_phone_menu_opens_and_its_links_lead_on(browser):
    if not PAGES:
        _unavailable("the book is not built")
    page, errors = open_page(browser, NAVIGATION_PAGE, width=390)
    try:
        assert not page.evaluate(SHOWN, ".bd-sidebar-primary")
        _press(page, ".primary-toggle")
        assert page.evaluate(SHOWN, ".bd-sidebar-primary"), (
            "the menu button did not open the navigation at 390 px"
        )
        link = page.locator(".bd-sidebar-primary a.reference").filter(
            has_text="Kernels"
        )
        link.first.click(timeout=5000)
        page.wait_for_load_state()
        assert page.url.endswith("chapters/kernels/kernels.html"), page.url
    finally:
        page.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_phone_on_this_page_opens_and_its_links_lead_on(browser):
    if not PAGES:
        _unavailable("the book is not built")
    page, errors = open_page(browser, NAVIGATION_PAGE, width=390)
    try:
        assert not page.evaluate(SHOWN, ".bd-sidebar-secondary")
        _press(page, ".secondary-toggle")
        assert page.evaluate(SHOWN, ".bd-sidebar-secondary"), (
            '"On this page" did not open the contents at 390 px'
        )
        entry = page.locator(".bd-sidebar-secondary a.nav-link").nth(1)
        target = entry.get_attribute("href")
        entry.click(timeout=5000)
        page.wait_for_timeout(300)
        assert target.startswith("#") and page.url.endswith(target), (
            page.url,
            target,
        )
    finally:
        page.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_desktop_menu_button_hides_and_shows_the_sidebar(browser):
    if not PAGES:
        _unavailable("the book is not built")
    page, errors = open_page(browser, NAVIGATION_PAGE, width=1280)
    try:
        assert page.evaluate(SHOWN, ".bd-sidebar-primary")
        _press(page, ".primary-toggle")
        assert not page.evaluate(SHOWN, ".bd-sidebar-primary"), (
            "the menu button did not hide the sidebar at 1280 px"
        )
        _press(page, ".primary-toggle")
        assert page.evaluate(SHOWN, ".bd-sidebar-primary")
    finally:
        page.close()
    assert not errors, f"JavaScript errors: {errors}"
