"""The SVM playground of the built pages, in headless Chromium.

The chapters *Tuning C and sigma* (sweep mode) and *Platt's SMO and working
sets* (step mode) carry a playground (``_ext/playground.py``) that trains an
SVM in the page with ``_static/playground/smo.js``. Opened from disk with
no network, as tests/test_browser.py opens every page, each must: draw,
answer clicks, drags, slider moves and keys (the canvas and the displayed
numbers change), show the number of support vectors that svmlib finds on
the same points, step through SMO on the pairs that svmlib's WSS 2 picks,
show its still image when JavaScript is off, and log no console error.

The retraining time after a slider move, for 200 points, is measured in
the page (performance.now()) and printed, not asserted. Screenshots go to
_build/screenshots/playground-*.png.

The regression mode (``:mode: regression``, epsilon-SVR; on the page of
*Regression: the epsilon-insensitive tube*) is tested on a page of its own
so that it needs no built book: its tests build the page from the
directive's HTML (``_ext/playground.py``: ``make_node``, ``container_html``,
``render_still``), the playground's files and the book theme's style
sheets (pydata-sphinx-theme, sphinx-book-theme; light and dark), in a
temporary folder, so they need Chromium and Playwright but not the built
book. There: clicks, drags, shift-clicks and keys change the points, the
C, epsilon and sigma sliders retrain, the support vectors and f are
LIBSVM's (scikit-learn's SVR) at the page's tol, the still image shows
without JavaScript, no console error; the retraining time for 100 points
is printed, and screenshots go to _build/screenshots/playground-svr-*.png.

Like tests/test_browser.py, the tests of the chapters' playgrounds skip
before the book is built (and all skip when Chromium or Playwright is
missing); `.ci/run` runs them after the build with SVMBOOK_CHECK_BUILD=1,
where a skip becomes a failure.
"""

import json
import os
import re
import shutil
import statistics
import sys
from pathlib import Path

import numpy as np
import pytest
from sklearn.svm import SVR

from svmlib.duality import index_sets
from svmlib.gram import as_gram
from svmlib.kernels import linear_kernel, rbf_kernel
from svmlib.solvers import smo
from svmlib.solvers.sequential_minimal import _select_wss2, _SMOState

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "_ext"))
import playground  # noqa: E402  (_ext/playground.py, the directive)

BUILT_HTML = ROOT / "_build" / "html"
SCREENSHOTS = ROOT / "_build" / "screenshots"
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
TUNING = "chapters/kernels/tuning_c_and_sigma.html"
PLATT = "chapters/smo/platt_and_wss.html"
TOL = 1e-3  # the playground's, svmlib's default


def _unavailable(reason):
    if REQUIRED:
        pytest.fail(reason)
    pytest.skip(reason)


def _built(relative):
    if not (BUILT_HTML / "index.html").is_file():
        _unavailable("the book is not built (_build/html has no pages)")
    path = BUILT_HTML / relative
    assert path.is_file(), f"{relative} is missing from the built book"
    return path


@pytest.fixture(scope="module")
def chromium():
    """One Chromium for the module (one Playwright session at a time)."""
    yield from _launch()


@pytest.fixture(scope="module")
def browser(chromium):
    _built("index.html")
    return chromium


@pytest.fixture(scope="module")
def bare_browser(chromium):
    """Chromium without the built book (the regression mode's own page)."""
    return chromium


def _launch():
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


class Page:
    """A built page with its playground, console errors collected."""

    def __init__(self, browser, relative, javascript=True, url=None):
        self.context = browser.new_context(
            viewport={"width": 1280, "height": 900},
            java_script_enabled=javascript,
        )
        self.page = self.context.new_page()
        self.errors = []
        self.page.on(
            "console",
            lambda m: self.errors.append(m.text) if m.type == "error" else 0,
        )
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.route(re.compile(r"^https?://"), lambda r: r.abort())
        url = url or _built(relative).as_uri()
        self.page.goto(url, wait_until="load")
        if javascript:
            self.page.wait_for_function(
                "() => window.SvmPlayground"
                " && SvmPlayground.instances.length > 0"
            )
        self.root = self.page.locator("div.svm-playground").first

    def close(self):
        self.context.close()

    def js(self, body, arg=None):
        """Evaluate ``body`` with ``p``, the page's first playground."""
        return self.page.evaluate(
            f"(arg) => {{ const p = SvmPlayground.instances[0]; {body} }}",
            arg,
        )

    def state(self):
        return self.js(
            "return {points: p.points, y: p.y, C: p.C, sigma: p.sigma,"
            " kernel: p.kernel, nSv: Number(p.root.dataset.nSv),"
            " steps: Number(p.root.dataset.steps),"
            " status: p.status.textContent,"
            " stepStatus: p.stepStatus.textContent,"
            " pixels: p.canvas.toDataURL()};"
        )

    def canvas_box(self):
        """The canvas's box in the viewport, scrolled into view first."""
        canvas = self.page.locator("canvas.svmpg-canvas").first
        canvas.scroll_into_view_if_needed()
        return canvas.bounding_box()

    def click_world(self, x1, x2, shift=False):
        """Click the canvas at the point (x1, x2) of the plot."""
        box = self.canvas_box()
        px, py = self.js("return p.toPixel(arg[0], arg[1]);", [x1, x2])
        if shift:
            self.page.keyboard.down("Shift")
        self.page.mouse.click(box["x"] + px, box["y"] + py)
        if shift:
            self.page.keyboard.up("Shift")

    def svr_state(self):
        """The regression playground: points, settings, beta, b, f(x_i)."""
        return self.js(
            "const fit = p.points.length ? p.regressionFit() : null;"
            "return {points: p.points, C: p.C, sigma: p.sigma,"
            " epsilon: p.epsilon, kernel: p.kernel,"
            " nSv: Number(p.root.dataset.nSv),"
            " steps: Number(p.root.dataset.steps),"
            " status: p.status.textContent,"
            " beta: fit ? fit.beta : [], b: fit ? fit.b : null,"
            " f: fit ? p.points.map(q => fit.f(q[0])) : [],"
            " pixels: p.canvas.toDataURL()};"
        )

    def screenshot(self, name):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"playground-{name}.png"
        # the whole page laid out, clipped to the playground: the theme's
        # sticky header stays at the top of the page, off the playground
        self.page.evaluate(
            "() => { document.activeElement && document.activeElement.blur();"
            " window.scrollTo(0, 0); }"
        )
        box = self.page.evaluate(
            "() => { const r = document.querySelector('div.svm-playground')"
            ".getBoundingClientRect(); return {x: r.x + window.scrollX,"
            " y: r.y + window.scrollY, width: r.width, height: r.height}; }"
        )
        self.page.screenshot(path=str(path), full_page=True, clip=box)
        print(f"screenshot: {path.relative_to(ROOT)}")
        return path


def svmlib_solution(state):
    """smo on the playground's points and parameters, as svmlib solves."""
    X = np.array(state["points"], dtype=np.float64)
    y = np.array(state["y"], dtype=np.float64)
    if state["kernel"] == "linear":
        K = linear_kernel(X)
    else:
        K = rbf_kernel(X, sigma=state["sigma"])
    return K, y, smo(K, y, state["C"], tol=TOL)


def expected_support_vectors(state):
    return int(np.count_nonzero(svmlib_solution(state)[2].alpha > 0))


def test_both_chapters_carry_the_playground():
    for relative, mode in ((TUNING, "sweep"), (PLATT, "step")):
        html = _built(relative).read_text(encoding="utf-8")
        assert f'class="svm-playground" data-mode="{mode}"' in html
        for script in ("playground/smo.js", "playground/playground.js"):
            assert f'src="../../_static/{script}' in html, script
        assert "playground/playground.css" in html
        stills = re.findall(
            r'<noscript><img class="svmpg-still" src="([^"]+)"', html
        )
        assert len(stills) == 1
        assert (_built(relative).parent / stills[0]).resolve().is_file()
    # the other pages load none of it
    intro = _built("intro.html").read_text(encoding="utf-8")
    assert "svm-playground" not in intro
    assert not re.search(r"_static/playground/[a-z]+\.(js|css)", intro)


def test_sweep_playground_follows_clicks_sliders_and_keys(browser):
    page = Page(browser, TUNING)
    try:
        start = page.state()
        assert start["kernel"] == "rbf" and start["steps"] > 0
        # the configuration of the chapter: as many support vectors as
        # svmlib finds on the same points
        assert start["nSv"] == expected_support_vectors(start)
        page.screenshot("tuning")

        # click points of both classes onto the canvas
        page.root.get_by_label("class +1 (triangles)").check()
        page.click_world(-2.5, 1.5)
        page.click_world(2.4, -1.6)
        page.root.get_by_label("class \u22121 (circles)").check()
        page.click_world(0.0, 0.1)
        clicked = page.state()
        assert len(clicked["points"]) == len(start["points"]) + 3
        assert clicked["y"][-3:] == [1, 1, -1]
        assert clicked["pixels"] != start["pixels"]
        assert clicked["status"] != start["status"]
        assert clicked["nSv"] == expected_support_vectors(clicked)

        # drag the last point away
        box = page.canvas_box()
        x, y = page.js("return p.toPixel(0.0, 0.1);")
        page.page.mouse.move(box["x"] + x, box["y"] + y)
        page.page.mouse.down()
        page.page.mouse.move(box["x"] + x + 60, box["y"] + y + 30, steps=5)
        page.page.mouse.up()
        page.page.wait_for_timeout(100)  # the redraw after the last move
        dragged = page.state()
        assert len(dragged["points"]) == len(clicked["points"])
        assert dragged["points"][-1] != clicked["points"][-1]
        assert dragged["nSv"] == expected_support_vectors(dragged)

        # shift-click removes a point
        page.click_world(*dragged["points"][-1], shift=True)
        assert len(page.state()["points"]) == len(dragged["points"]) - 1

        # the C slider by keyboard, the sigma slider by value
        before = page.state()
        c_slider = page.page.locator("input.svmpg-C").first
        c_slider.focus()
        for _ in range(40):  # steps of 0.05 decade: two decades down
            c_slider.press("ArrowLeft")
        moved_c = page.state()
        assert moved_c["C"] == pytest.approx(before["C"] / 100, rel=0.02)
        assert moved_c["pixels"] != before["pixels"]
        shown = float(f"{moved_c['C']:.3g}")
        output = page.page.locator("output.svmpg-C-value").first
        assert output.inner_text() == f"C = {shown:g}"
        assert moved_c["nSv"] == expected_support_vectors(moved_c)
        page.page.locator("input.svmpg-sigma").first.fill("-1")
        moved_sigma = page.state()
        assert moved_sigma["sigma"] == pytest.approx(0.1)
        assert moved_sigma["pixels"] != moved_c["pixels"]
        assert moved_sigma["status"] != moved_c["status"]
        assert moved_sigma["nSv"] == expected_support_vectors(moved_sigma)
        page.screenshot("tuning-narrow-sigma")

        # keyboard placement: arrows move the cross, Enter adds a point
        canvas = page.page.locator("canvas.svmpg-canvas").first
        canvas.focus()
        for key in ("ArrowRight", "ArrowRight", "ArrowUp", "Enter"):
            canvas.press(key)
        typed = page.state()
        assert len(typed["points"]) == len(moved_sigma["points"]) + 1
        assert typed["points"][-1] == pytest.approx([0.2, 0.1])
        canvas.press("Delete")
        assert len(page.state()["points"]) == len(moved_sigma["points"])

        # the linear kernel switches sigma off
        page.root.get_by_label("linear", exact=True).check()
        linear = page.state()
        assert linear["kernel"] == "linear"
        assert page.page.locator("input.svmpg-sigma").first.is_disabled()
        assert linear["nSv"] == expected_support_vectors(linear)
    finally:
        page.close()
    assert not page.errors, f"JavaScript errors: {page.errors}"


def test_step_mode_takes_svmlib_steps(browser):
    page = Page(browser, PLATT)
    try:
        start = page.state()
        assert start["steps"] == 0
        assert "press Step" in start["stepStatus"]
        K, y, solution = svmlib_solution(start)
        state = _SMOState(as_gram(K), y, np.full(len(y), start["C"]), False)

        for k in range(1, 4):
            i, j, K_i, violation = _select_wss2(state, TOL)
            page.page.locator("button.svmpg-step").first.click()
            stepped = page.state()
            assert stepped["steps"] == k
            text = stepped["stepStatus"]
            assert f"(i, j) = ({i}, {j})" in text, text
            shown = float(f"{violation:.4g}")
            assert f"m \u2212 M = {shown:g}" in text
            assert "rose by" in text
            state.step(i, j, K_i)
            if k == 1:
                assert stepped["pixels"] != start["pixels"]
                page.screenshot("platt-step")

        page.page.locator("button.svmpg-run").first.click()
        done = page.state()
        assert "Done" in done["stepStatus"]
        assert page.page.locator("button.svmpg-step").first.is_disabled()
        assert done["nSv"] == np.count_nonzero(solution.alpha > 0)
        up, low = index_sets(solution.alpha, y, start["C"])
        assert up.any() and low.any()
        page.screenshot("platt-end")

        # a change of C starts again from alpha = 0
        page.page.locator("input.svmpg-C").first.fill("-1")
        again = page.state()
        assert again["steps"] == 0
        assert not page.page.locator("button.svmpg-step").first.is_disabled()
    finally:
        page.close()
    assert not page.errors, f"JavaScript errors: {page.errors}"


def test_retraining_time_for_200_points(browser):
    rng = np.random.default_rng(17)
    X = np.clip(
        np.vstack(
            [
                rng.normal([0.6, 0.4], 0.9, size=(100, 2)),
                rng.normal([-0.6, -0.4], 0.9, size=(100, 2)),
            ]
        ),
        [-2.9, -1.9],
        [2.9, 1.9],
    )
    points = [
        [a, b, label]
        for (a, b), label in zip(X, [1] * 100 + [-1] * 100, strict=True)
    ]
    page = Page(browser, TUNING)
    try:
        page.js("p.setPoints(arg);", points)
        timings = page.js(
            """
            const slider = p.root.querySelector('input.svmpg-sigma');
            const out = [];
            for (const v of [-0.5, -0.4, -0.3, -0.2, -0.1, 0.0, 0.1,
                             -0.6, -0.7, -0.25, -0.35]) {
                slider.value = String(v);
                const t0 = performance.now();
                slider.dispatchEvent(new Event('input'));
                const t1 = performance.now();
                out.push({total: t1 - t0, train: p.lastTiming.trainMs,
                          nSv: Number(p.root.dataset.nSv), sigma: p.sigma,
                          steps: Number(p.root.dataset.steps)});
            }
            return out;
            """
        )
        last = page.state()
        page.screenshot("tuning-200-points")
    finally:
        page.close()
    assert not page.errors, f"JavaScript errors: {page.errors}"
    assert len(last["points"]) == 200
    assert last["nSv"] == expected_support_vectors(last)
    train = statistics.median(t["train"] for t in timings)
    total = statistics.median(t["total"] for t in timings)
    print(
        f"\nretraining after a slider move, 200 points, RBF, C = "
        f"{last['C']:g}, {len(timings)} moves of sigma: median "
        f"{train:.1f} ms to train (Gram matrix and SMO; max "
        f"{max(t['train'] for t in timings):.1f} ms, "
        f"{statistics.median(t['steps'] for t in timings):.0f} SMO steps), "
        f"{total:.1f} ms with the redraw"
    )
    print(json.dumps(timings))


def test_still_image_without_javascript(browser):
    for relative, name in ((TUNING, "tuning"), (PLATT, "platt")):
        page = Page(browser, relative, javascript=False)
        try:
            loaded = page.page.evaluate(
                "async () => { const img = document.querySelector("
                "'div.svm-playground img.svmpg-still');"
                " if (!img) return null;"
                " if (!img.complete) await new Promise(r =>"
                " { img.onload = img.onerror = r; });"
                " return img.naturalWidth; }"
            )
            assert page.page.locator("canvas.svmpg-canvas").count() == 0
            shot = page.screenshot(f"{name}-nojs")
        finally:
            page.close()
        assert loaded, f"{relative}: the still image did not load"
        assert shot.is_file()


# ---------------------------------------------------------------------------
# The regression mode, on a page of its own
# ---------------------------------------------------------------------------

THEME_CSS = [
    "pydata_sphinx_theme/theme/pydata_sphinx_theme/static/styles/"
    "pydata-sphinx-theme.css",
    "sphinx_book_theme/theme/sphinx_book_theme/static/styles/"
    "sphinx-book-theme.css",
]
SVR_OPTIONS = {
    "mode": "regression",
    "kernel": "rbf",
    "C": 10.0,
    "epsilon": 0.2,
    "sigma": 0.7,
    "points": "sine",
}


def theme_styles():
    """The book theme's style sheets, from the installed packages."""
    import pydata_sphinx_theme

    site = Path(pydata_sphinx_theme.__file__).resolve().parents[1]
    return [site / relative for relative in THEME_CSS]


def regression_page(folder, theme="light", options=SVR_OPTIONS):
    """A page with one regression playground, as the directive writes it.

    The playground's files are copied to ``folder/_static/playground``
    and the still image rendered there; the theme's style sheets are
    linked where the packages installed them.
    """
    static = folder / "_static" / "playground"
    static.mkdir(parents=True, exist_ok=True)
    for name in ("smo.js", "playground.js", "playground.css"):
        shutil.copy(ROOT / "_static" / "playground" / name, static / name)
    node = playground.make_node(options)
    name = playground.still_name(node)
    alt = playground.render_still(node, static / "stills" / name)
    styles = "".join(
        f'<link rel="stylesheet" href="{path.as_uri()}">'
        for path in theme_styles()
        if path.is_file()
    )
    page = folder / f"regression-{theme}.html"
    page.write_text(
        f'<!DOCTYPE html><html lang="en" data-theme="{theme}"'
        f' data-mode="{theme}"><head><meta charset="utf-8">'
        f"<title>Regression playground</title>{styles}"
        '<link rel="stylesheet" href="_static/playground/playground.css">'
        '<script src="_static/playground/smo.js"></script>'
        '<script src="_static/playground/playground.js"></script>'
        '</head><body><div class="bd-container"><div class="bd-main">'
        '<div class="bd-content"><div class="bd-article-container">'
        '<article class="bd-article" style="max-width: 52rem">'
        "<h1>The epsilon-insensitive tube</h1><p>Drag the points.</p>"
        + playground.container_html(
            node, f"_static/playground/stills/{name}", alt
        )
        + "</div></article></div></div></div></div></body></html>",
        encoding="utf-8",
    )
    return page


def libsvm_fit(state):
    """scikit-learn's SVR (LIBSVM) on the page's points, at its tol."""
    points = np.array(state["points"], dtype=np.float64)
    params = {
        "kernel": state["kernel"],
        "C": state["C"],
        "epsilon": state["epsilon"],
        "tol": TOL,
    }
    if state["kernel"] == "rbf":
        params["gamma"] = 1.0 / (2.0 * state["sigma"] ** 2)
    return SVR(**params).fit(points[:, :1], points[:, 1])


def assert_as_libsvm(state):
    """The page's f and support vectors are LIBSVM's, up to the tol."""
    model = libsvm_fit(state)
    points = np.array(state["points"], dtype=np.float64)
    np.testing.assert_allclose(
        state["f"], model.predict(points[:, :1]), atol=10 * TOL
    )
    assert state["nSv"] == np.count_nonzero(state["beta"])
    # at tol 1e-3 a point within about tol of the tube's edge may be a
    # support vector for one solver and not the other: the two sets may
    # differ only in such points
    residual = np.abs(points[:, 1] - np.array(state["f"]))
    page = set(np.flatnonzero(state["beta"]))
    for k in page ^ set(model.support_):
        assert abs(residual[k] - state["epsilon"]) <= 10 * TOL, k


def test_regression_playground_follows_clicks_sliders_and_keys(
    bare_browser, tmp_path
):
    url = regression_page(tmp_path).as_uri()
    page = Page(bare_browser, None, url=url)
    try:
        start = page.svr_state()
        assert start["kernel"] == "rbf" and start["steps"] > 0
        assert len(start["points"]) == 25
        assert start["epsilon"] == 0.2
        assert_as_libsvm(start)
        assert "support vectors of 25 points" in start["status"]
        n_sv = start["nSv"]
        assert f"the other {25 - n_sv} lie in the tube" in start["status"]
        assert "KKT conditions hold" in start["status"]
        page.screenshot("svr")

        # a click adds the point (x, z) there
        page.click_world(-2.0, 1.5)
        clicked = page.svr_state()
        assert len(clicked["points"]) == 26
        assert clicked["points"][-1] == pytest.approx([-2.0, 1.5], abs=0.02)
        assert clicked["pixels"] != start["pixels"]
        assert clicked["status"] != start["status"]
        assert_as_libsvm(clicked)
        # far outside the tube: a support vector at the bound C
        assert clicked["beta"][-1] == pytest.approx(clicked["C"])

        # drag it down into the curve's neighbourhood
        box = page.canvas_box()
        x, y = page.js("return p.toPixel(-2.0, 1.5);")
        page.page.mouse.move(box["x"] + x, box["y"] + y)
        page.page.mouse.down()
        page.page.mouse.move(box["x"] + x, box["y"] + y + 120, steps=5)
        page.page.mouse.up()
        page.page.wait_for_timeout(100)
        dragged = page.svr_state()
        assert len(dragged["points"]) == 26
        assert dragged["points"][-1][1] < clicked["points"][-1][1] - 0.5
        assert_as_libsvm(dragged)

        # shift-click removes it
        page.click_world(*dragged["points"][-1], shift=True)
        removed = page.svr_state()
        assert len(removed["points"]) == 25

        # a wider tube: fewer support vectors; epsilon = 0: all of them
        page.page.locator("input.svmpg-epsilon").first.fill("0.5")
        wide = page.svr_state()
        assert wide["epsilon"] == pytest.approx(0.5)
        assert wide["nSv"] < removed["nSv"]
        assert wide["pixels"] != removed["pixels"]
        output = page.page.locator("output.svmpg-epsilon-value").first
        assert output.inner_text() == "\u03b5 = 0.5"
        assert_as_libsvm(wide)
        page.page.locator("input.svmpg-epsilon").first.fill("0")
        zero = page.svr_state()
        assert zero["epsilon"] == 0
        assert zero["nSv"] == 25
        page.page.locator("input.svmpg-epsilon").first.fill("0.2")

        # the C slider by keyboard: two decades down
        before = page.svr_state()
        c_slider = page.page.locator("input.svmpg-C").first
        c_slider.focus()
        for _ in range(40):
            c_slider.press("ArrowLeft")
        small_c = page.svr_state()
        assert small_c["C"] == pytest.approx(before["C"] / 100, rel=0.02)
        assert small_c["pixels"] != before["pixels"]
        assert np.abs(small_c["beta"]).max() <= small_c["C"]
        assert_as_libsvm(small_c)

        # a narrow kernel
        page.page.locator("input.svmpg-sigma").first.fill("-1")
        narrow = page.svr_state()
        assert narrow["sigma"] == pytest.approx(0.1)
        assert narrow["pixels"] != small_c["pixels"]
        assert_as_libsvm(narrow)

        # keyboard placement
        canvas = page.page.locator("canvas.svmpg-canvas").first
        canvas.focus()
        for key in ("ArrowRight", "ArrowUp", "ArrowUp", "Enter"):
            canvas.press(key)
        typed = page.svr_state()
        assert len(typed["points"]) == 26
        assert typed["points"][-1] == pytest.approx([0.1, 0.2])
        canvas.press("Delete")
        assert len(page.svr_state()["points"]) == 25

        # the linear kernel: f is a line; sigma is off
        page.root.get_by_label("linear", exact=True).check()
        linear = page.svr_state()
        assert page.page.locator("input.svmpg-sigma").first.is_disabled()
        assert_as_libsvm(linear)
        f = np.array(linear["f"])
        x = np.array(linear["points"])[:, 0]
        slope = np.polyfit(x, f, 1)
        np.testing.assert_allclose(np.polyval(slope, x), f, atol=1e-9)

        # reset, then clear
        page.page.locator("button.svmpg-reset").first.click()
        reset = page.svr_state()
        assert reset["points"] == start["points"]
        assert reset["nSv"] == start["nSv"]
        assert reset["C"] == start["C"] and reset["epsilon"] == 0.2
        page.page.locator("button.svmpg-clear").first.click()
        cleared = page.svr_state()
        assert cleared["points"] == [] and cleared["nSv"] == 0
        assert "No points" in cleared["status"]
        page.click_world(0.5, 0.5)  # one point: f is within epsilon of it
        one = page.svr_state()
        assert len(one["points"]) == 1 and one["nSv"] == 0
        assert abs(one["f"][0] - one["points"][0][1]) <= one["epsilon"]
        # counts of one are singular ("1 points" before)
        assert "0 support vectors of 1 point (" in one["status"]
        assert "the other 1 lies in the tube" in one["status"]
    finally:
        page.close()
    assert not page.errors, f"JavaScript errors: {page.errors}"


def test_classifier_mode_on_a_page_of_its_own(bare_browser, tmp_path):
    # the classifier's drawing shares the code that the regression mode
    # changed (coordinates, report): it still draws, counts svmlib's
    # support vectors and adds clicked points, also without a built book
    options = {"mode": "sweep", "C": 10.0, "sigma": 0.5, "points": "rings"}
    url = regression_page(tmp_path, options=options).as_uri()
    page = Page(bare_browser, None, url=url)
    try:
        start = page.state()
        assert start["steps"] > 0
        assert start["nSv"] == expected_support_vectors(start)
        assert "Training accuracy" in start["status"]
        page.click_world(2.5, 1.5)
        clicked = page.state()
        assert len(clicked["points"]) == len(start["points"]) + 1
        assert clicked["points"][-1] == pytest.approx([2.5, 1.5], abs=0.02)
        assert clicked["nSv"] == expected_support_vectors(clicked)
        page.screenshot("classifier-own-page")
    finally:
        page.close()
    assert not page.errors, f"JavaScript errors: {page.errors}"


def test_counts_of_one_are_singular(bare_browser, tmp_path):
    options = {"mode": "sweep", "C": 10.0, "sigma": 0.5, "points": "rings"}
    url = regression_page(tmp_path, options=options).as_uri()
    page = Page(bare_browser, None, url=url)
    try:
        page.page.locator("button.svmpg-clear").first.click()
        page.click_world(2.5, 1.5)
        one = page.state()
        assert len(one["points"]) == 1
        assert one["status"].startswith("1 point: add points of both")
        page.page.locator("button.svmpg-clear").first.click()
        assert page.state()["status"].startswith("0 points: add points")
    finally:
        page.close()
    assert not page.errors, f"JavaScript errors: {page.errors}"


def test_regression_playground_in_dark_mode(bare_browser, tmp_path):
    url = regression_page(tmp_path, theme="dark").as_uri()
    page = Page(bare_browser, None, url=url)
    try:
        colors = page.page.evaluate(
            "() => { const s = getComputedStyle(document.body);"
            " const st = document.querySelector('.svmpg-status');"
            " return [s.backgroundColor, getComputedStyle(st).color]; }"
        )
        state = page.svr_state()
        assert_as_libsvm(state)
        page.screenshot("svr-dark")
    finally:
        page.close()
    assert not page.errors, f"JavaScript errors: {page.errors}"
    # the theme's dark background, with light text around the canvas
    background, text = (
        [int(v) for v in re.findall(r"\d+", color)[:3]] for color in colors
    )
    assert sum(background) < 3 * 60 and sum(text) > 3 * 150, colors


def test_regression_retraining_time_for_100_points(bare_browser, tmp_path):
    rng = np.random.default_rng(23)
    x = rng.uniform(-2.9, 2.9, 100)
    z = np.clip(np.sin(1.2 * x) + rng.normal(0, 0.2, 100), -1.9, 1.9)
    points = np.column_stack([x, z]).tolist()
    page = Page(bare_browser, None, url=regression_page(tmp_path).as_uri())
    try:
        page.js("p.setPoints(arg);", points)
        timings = page.js(
            """
            const slider = p.root.querySelector('input.svmpg-epsilon');
            const out = [];
            for (const v of [0.1, 0.15, 0.2, 0.25, 0.3, 0.05, 0.35, 0.12,
                             0.22, 0.18, 0.28]) {
                slider.value = String(v);
                const t0 = performance.now();
                slider.dispatchEvent(new Event('input'));
                const t1 = performance.now();
                out.push({total: t1 - t0, train: p.lastTiming.trainMs,
                          nSv: Number(p.root.dataset.nSv),
                          steps: Number(p.root.dataset.steps)});
            }
            return out;
            """
        )
        last = page.svr_state()
        page.screenshot("svr-100-points")
    finally:
        page.close()
    assert not page.errors, f"JavaScript errors: {page.errors}"
    assert len(last["points"]) == 100
    assert_as_libsvm(last)
    train = statistics.median(t["train"] for t in timings)
    total = statistics.median(t["total"] for t in timings)
    print(
        f"\nregression: retraining after an epsilon slider move, 100 "
        f"points (200 dual variables), RBF sigma = {last['sigma']:g}, "
        f"C = {last['C']:g}, {len(timings)} moves: median {train:.1f} ms "
        f"to train (Gram matrix and SMO; max "
        f"{max(t['train'] for t in timings):.1f} ms, "
        f"{statistics.median(t['steps'] for t in timings):.0f} SMO steps), "
        f"{total:.1f} ms with the redraw"
    )
    print(json.dumps(timings))


def test_regression_still_image_without_javascript(bare_browser, tmp_path):
    url = regression_page(tmp_path).as_uri()
    page = Page(bare_browser, None, javascript=False, url=url)
    try:
        loaded = page.page.evaluate(
            "async () => { const img = document.querySelector("
            "'div.svm-playground img.svmpg-still');"
            " if (!img) return null;"
            " if (!img.complete) await new Promise(r =>"
            " { img.onload = img.onerror = r; });"
            " return [img.naturalWidth, img.alt]; }"
        )
        assert page.page.locator("canvas.svmpg-canvas").count() == 0
        page.screenshot("svr-nojs")
    finally:
        page.close()
    assert loaded and loaded[0] > 0, "the still image did not load"
    assert loaded[1].startswith("SVR playground (still): 25 points")


def test_regression_directive_options_and_other_formats(tmp_path):
    # the node's defaults, and the errors the directive turns into
    # build errors (naming the option)
    node = playground.make_node({"mode": "regression"})
    assert node["points_name"] == "sine" and node["epsilon"] == 0.2
    assert node["points"][0] == [-2.73, 0.41]
    with pytest.raises(ValueError, match="unknown point set 'blobs'"):
        playground.make_node({"mode": "regression", "points": "blobs"})
    with pytest.raises(ValueError, match="epsilon is an option of the regr"):
        playground.make_node({"mode": "sweep", "epsilon": 0.1})
    spec = playground.SvmPlaygroundDirective.option_spec
    assert spec["epsilon"]("0") == 0.0
    for bad in ("-0.1", "inf", "nan", "wide"):
        with pytest.raises(ValueError, match="non-negative number"):
            spec["epsilon"](bad)
    assert spec["mode"]("regression") == "regression"
    # LaTeX: the still image and the regression's sentence
    translator = type("Translator", (), {})()
    translator.builder = type("Builder", (), {"outdir": str(tmp_path)})()
    translator.body = []
    with pytest.raises(playground.nodes.SkipNode):
        playground.visit_latex(translator, svr_node())
    latex = "".join(translator.body)
    name = playground.still_name(svr_node())
    assert f"\\includegraphics[width=0.8\\linewidth]{{{name}}}" in latex
    assert playground.ONLINE_SENTENCE_REGRESSION in latex
    assert (tmp_path / name).is_file()
    # the HTML container: the settings the page reads, the still's alt
    html = playground.container_html(svr_node(), "still.png", "25 points")
    assert 'data-mode="regression"' in html and 'data-epsilon="0.2"' in html
    assert 'alt="SVR playground (still): 25 points"' in html


def svr_node():
    """A fresh regression node with SVR_OPTIONS."""
    return playground.make_node(SVR_OPTIONS)
