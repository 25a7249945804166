"""The chapters as a student runs them: JupyterLab and Notebook 7 in Chromium.

JupyterLab 4.6.6 and Notebook 7.6.5 (the pinned versions) are started on
127.0.0.1 in the test, with the project's Jupyter configuration
(``JUPYTER_CONFIG_PATH=jupyter/``, README "Run one chapter": notebooks open
as the book shows them, see jupyter/svmbook_jupyter.py) and jupyterlab-myst,
on temporary copies of chapters (beside a link to svmlib/, so that their
``literalinclude`` paths resolve as in the repository). Headless Chromium
(Playwright, as in tests/test_browser.py) opens a chapter, runs all cells
from the Run menu, and checks what a student sees:

* no raw ``{glue``, ``{literalinclude}``, ``{svm-playground}`` or ``:::``
  text in the rendered markdown, and every markdown cell rendered;
* svmlib's code shown where the book includes it (each ``:pyobject:``'s
  ``def``/``class`` line, or its ``:start-at:`` line, in a code block);
* every frame player's first frame laid out at a non-zero size before
  anything touches the player;
* in *Tuning C and sigma* (JupyterLab), each ipywidgets slider moved with
  the mouse and with the keyboard redraws the figure.

*Margins and the hinge loss* is checked the same way in Notebook 7, and a
one-cell notebook shows that ``FramePlayer`` answers the arrow keys in Lab
and in Notebook 7, as an ipywidgets slider does in Notebook 7 (through
jupyter/labextensions/svmbook-jupyter). The cell that stands in for the
playground (svmlib.explore) is run on its own in *Regression* (Lab: the
mouse and the keyboard redraw the tube) and in *Platt's SMO* (Notebook 7:
the step slider answers the arrow keys). Screenshots go to
``$SVMBOOK_SCREENSHOTS`` (default: _build/screenshots/jupyterlab/).

Skipped, with the reason, only when Chromium is missing.
"""

import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCREENSHOTS = Path(
    os.environ.get(
        "SVMBOOK_SCREENSHOTS", ROOT / "_build" / "screenshots" / "jupyterlab"
    )
)
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run"]
TUNING = "chapters/kernels/tuning_c_and_sigma.ipynb"
MARGINS = "chapters/dual/margins_and_hinge_loss.ipynb"
REGRESSION = "chapters/beyond/regression.ipynb"
PLATT = "chapters/smo/platt_and_wss.ipynb"
# Tuning C and sigma took 6.5 min on 2 busy cores
RUN_ALL_SECONDS = int(os.environ.get("SVMBOOK_RUN_ALL_SECONDS", 1500))
RAW = ("{glue", "{literalinclude}", "{svm-playground}", ":::")

pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="Chromium is not installed (apt-get install chromium)",
)

PLAYER_CELL = """\
import matplotlib.pyplot as plt

from svmlib.frames import FramePlayer

fig, ax = plt.subplots(figsize=(4, 3), dpi=60)


def show(k):
    ax.clear()
    ax.plot([0, 1], [0, k], lw=3)
    ax.set(title=f"frame {k}", ylim=(0, 3))


FramePlayer(fig, show, 4)
"""

SLIDER_CELL = """\
from ipywidgets import IntSlider, interact


def show(k):
    print(f"k = {k}")


interact(show, k=IntSlider(5, 0, 10))
"""

KERNELSPEC = {  # else Jupyter asks which kernel
    "name": "python3",
    "display_name": "Python 3 (ipykernel)",
    "language": "python",
}


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _one_cell(path, source):
    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source)]
    notebook.metadata["kernelspec"] = KERNELSPEC
    nbformat.write(notebook, path)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """Copies of the chapters beside a link to svmlib/, and two small ones."""
    folder = tmp_path_factory.mktemp("jupyter")
    for chapter in (TUNING, MARGINS, REGRESSION, PLATT):
        (folder / chapter).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / chapter, folder / chapter)
    (folder / "svmlib").symlink_to(ROOT / "svmlib")
    _one_cell(folder / "player.ipynb", PLAYER_CELL)
    _one_cell(folder / "slider.ipynb", SLIDER_CELL)
    return folder


@contextmanager
def _server(app, folder):
    """A Jupyter server (jupyter-lab or jupyter-notebook): base URL, token."""
    executable = Path(sys.executable).parent / f"jupyter-{app}"
    assert executable.exists(), f"{executable.name} is not installed"
    token, port = secrets.token_hex(16), _free_port()
    env = dict(
        os.environ,
        JUPYTER_RUNTIME_DIR=str(folder / f"runtime-{app}"),
        JUPYTER_CONFIG_PATH=str(ROOT / "jupyter"),
    )
    for name in ("SVMBOOK_HEADLESS", "MPLBACKEND"):  # as a student runs it
        env.pop(name, None)
    log_path = folder / f"{app}.log"
    log = log_path.open("w")
    server = subprocess.Popen(
        [
            str(executable),
            "--no-browser",
            "--allow-root",  # CI containers run as root
            f"--port={port}",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.token={token}",
            f"--ServerApp.root_dir={folder}",
            f"--LabApp.workspaces_dir={folder / f'workspaces-{app}'}",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        ],
        cwd=folder,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(
                    f"{base}/api/status?token={token}", timeout=2
                ):
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(
                        f"jupyter {app} did not start: "
                        + log_path.read_text()[-800:]
                    )
                time.sleep(0.5)
        yield base, token
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


@pytest.fixture(scope="module")
def lab(folder):
    with _server("lab", folder) as url:
        yield url


@pytest.fixture(scope="module")
def notebook7(folder):
    with _server("notebook", folder) as url:
        yield url


@contextmanager
def _page(server, path, app):
    from playwright.sync_api import sync_playwright

    base, token = server
    if app == "lab":
        url = f"{base}/lab/tree/{path}?reset&token={token}"
    else:
        url = f"{base}/notebooks/{path}?token={token}"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS
        )
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            errors = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(url, wait_until="load", timeout=120_000)
            page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=90_000)
            _wait_idle(page)
            yield page
        finally:
            browser.close()


def _wait_idle(page, timeout=120_000):
    page.wait_for_function(
        "() => { const e = document.querySelector("
        "'.jp-Notebook-ExecutionIndicator'); "
        "return e && e.getAttribute('data-status') === 'idle'; }",
        timeout=timeout,
    )


def _run_all(page):
    """Run > Run All Cells, then wait until every code cell has run."""
    started = time.monotonic()
    for attempt in range(3):  # a click before the kernel is ready is lost
        page.click(".jp-Notebook .jp-Cell .jp-InputPrompt")
        page.click(".lm-MenuBar-itemLabel:text-is('Run')")
        page.click(".lm-Menu-itemLabel:text-is('Run All Cells')")
        try:
            page.wait_for_function(
                "() => Array.from(document.querySelectorAll("
                "'.jp-Notebook .jp-CodeCell .jp-InputPrompt')).some("
                "p => /\\[(\\*|\\d+)\\]/.test(p.textContent))",
                timeout=60_000,
                polling=500,
            )
            break
        except Exception:
            if attempt == 2:
                raise
    try:
        page.wait_for_function(
            "() => Array.from(document.querySelectorAll("
            "'.jp-Notebook .jp-CodeCell .jp-InputPrompt')).every("
            "p => /\\[\\d+\\]/.test(p.textContent))",
            timeout=RUN_ALL_SECONDS * 1000,
            polling=1000,
        )
        _wait_idle(page, timeout=RUN_ALL_SECONDS * 1000)
    except Exception:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "run_all_timeout.png"))
        raise
    print(f"Run All: {time.monotonic() - started:.0f} s")


def _markdown(page):
    """The text of every markdown cell as rendered (one string each).

    jupyterlab-myst renders a markdown cell into a ``.myst`` element (not
    JupyterLab's ``.jp-MarkdownOutput``); either counts.
    """
    return page.evaluate(
        "() => Array.from(document.querySelectorAll("
        "'.jp-Notebook .jp-MarkdownCell')).map(cell => { "
        "const out = cell.querySelector('.myst, .jp-MarkdownOutput'); "
        "return out ? out.textContent : null; })"
    )


def _check_page(page, chapter):
    """No raw markup, svmlib's code shown, players with a first frame."""
    notebook = json.loads((ROOT / chapter).read_text())
    markdown = [
        "".join(c["source"])
        for c in notebook["cells"]
        if c["cell_type"] == "markdown"
    ]
    shown = _markdown(page)
    assert len(shown) == len(markdown)
    unrendered = [i for i, text in enumerate(shown) if text is None]
    assert not unrendered, f"markdown cells not rendered: {unrendered}"
    for raw in RAW:
        found = [text[:200] for text in shown if raw in text]
        assert not found, f"{raw!r} is visible: {found}"
    # svmlib's code where the book includes it
    code = "\n".join(
        page.evaluate(
            "() => Array.from(document.querySelectorAll("
            "'.jp-MarkdownCell .myst pre, .jp-MarkdownOutput pre'))"
            ".map(e => e.textContent)"
        )
    )
    for text in markdown:
        for block in re.findall(
            r"\{literalinclude\}[^\n]*\n((?::[\w-]+:[^\n]*\n)*)", text
        ):
            options = dict(re.findall(r":([\w-]+):\s*(.*)", block))
            if "start-at" in options:
                expected = options["start-at"].strip("\"'")
            else:
                name = options["pyobject"].split(".")[-1]
                expected = re.compile(rf"(def|class) {name}\b")
            if isinstance(expected, str):
                assert expected in code, f"svmlib's {expected!r} not shown"
            else:
                assert expected.search(code), f"{expected.pattern} not shown"
    # every frame player's first frame, before any interaction
    players = page.query_selector_all(".svmlib-player img")
    sizes = []
    for image in players:
        image.scroll_into_view_if_needed()
        page.wait_for_function(
            "img => img.complete && img.naturalWidth > 0",
            arg=image,
            timeout=30_000,
        )
        box = image.bounding_box()
        sizes.append((box["width"], box["height"]) if box else (0, 0))
    return sizes


def _figure_src(page):
    return page.evaluate(
        "() => Array.from(document.querySelectorAll("
        "'.svmlib-explore .jp-OutputArea-output img')).map(i => i.src)"
        ".join('|')"
    )


def _wait_figure_change(page, before, timeout=120_000):
    page.wait_for_function(
        "before => { const now = Array.from(document.querySelectorAll("
        "'.svmlib-explore .jp-OutputArea-output img')).map(i => i.src)"
        ".join('|'); return now && now !== before; }",
        arg=before,
        timeout=timeout,
        polling=250,
    )


def test_tuning_chapter_in_jupyterlab(lab):
    """Run All in Lab: markup rendered, players drawn, sliders redraw."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with _page(lab, TUNING, "lab") as page:
        _run_all(page)
        sizes = _check_page(page, TUNING)
        assert len(sizes) == 2, sizes
        assert all(w > 0 and h > 0 for w, h in sizes), sizes
        page.query_selector(".svmlib-player").scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / "lab_player_after_run_all.png"))
        # the two sliders of svmlib.explore.explore_grid (C, sigma) redraw
        # the figure below them
        handles = page.query_selector_all(".svmlib-explore .noUi-handle")
        assert len(handles) == 2
        handles[0].scroll_into_view_if_needed()
        page.wait_for_selector(
            ".svmlib-explore .jp-OutputArea-output img", timeout=60_000
        )
        page.screenshot(path=str(SCREENSHOTS / "lab_before_slider.png"))
        for number, handle in enumerate(handles):
            before = _figure_src(page)
            box = handle.bounding_box()
            x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            page.mouse.move(x, y)
            page.mouse.down()
            page.mouse.move(x + 40, y, steps=5)
            page.mouse.up()
            _wait_figure_change(page, before)
            if number == 0:
                page.screenshot(path=str(SCREENSHOTS / "lab_after_slider.png"))
            before = _figure_src(page)
            handle.focus()
            page.keyboard.press("ArrowLeft")
            _wait_figure_change(page, before)


@pytest.mark.parametrize("app", ["lab", "notebook"])
def test_player_answers_arrow_keys(app, request):
    """A one-cell FramePlayer: 400 x 300 at once, arrow keys step it.

    ArrowRight on the focused player, then ArrowRight on its own slider
    (an ``<input type=range>``), in JupyterLab and in Notebook 7.
    """
    server = request.getfixturevalue("lab" if app == "lab" else "notebook7")
    with _page(server, "player.ipynb", app) as page:
        _run_all(page)
        image = page.wait_for_selector(
            ".svmlib-player img", state="attached", timeout=60_000
        )
        page.wait_for_function(
            "img => img.complete && img.naturalWidth > 0",
            arg=image,
            timeout=10_000,
        )
        box = image.bounding_box()
        before = image.get_attribute("src")
        page.focus(".svmlib-player")
        page.keyboard.press("ArrowRight")
        after = page.evaluate(
            "() => document.querySelector('.svmlib-player img').src"
        )
        slider = page.evaluate(
            "() => document.querySelector('.svmlib-player input').value"
        )
        page.focus(".svmlib-player input[type=range]")
        page.keyboard.press("ArrowRight")
        page.wait_for_function(
            "() => document.querySelector('.svmlib-player input').value"
            " === '2'",
            timeout=5_000,
        )
    # 4 x 3 inches at svmlib.frames.PLAYER_DPI = 100 CSS px per inch
    assert box and box["width"] == pytest.approx(400, abs=1), box
    assert box["height"] == pytest.approx(300, abs=1), box
    assert after != before and slider == "1"


def test_margins_chapter_in_notebook7(notebook7):
    """Run All in Notebook 7: markup rendered, svmlib's code, players."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with _page(notebook7, MARGINS, "notebook") as page:
        _run_all(page)
        sizes = _check_page(page, MARGINS)
        page.screenshot(
            path=str(SCREENSHOTS / "notebook7_margins.png"), full_page=True
        )
    assert sizes and all(w > 0 and h > 0 for w, h in sizes), sizes


def test_slider_answers_arrow_keys_in_notebook7(notebook7):
    """ArrowRight and ArrowLeft move an ipywidgets slider in Notebook 7.

    Notebook 7.6.5 runs its shortcuts in the capture phase, before the
    slider; jupyter/labextensions/svmbook-jupyter lets these keys through.
    """
    with _page(notebook7, "slider.ipynb", "notebook") as page:
        _run_all(page)
        handle = page.wait_for_selector(".noUi-handle", timeout=60_000)
        output = ".widget-interact .jp-OutputArea-output"
        page.wait_for_selector(f"{output}:has-text('k = 5')")
        handle.focus()
        page.keyboard.press("ArrowRight")
        page.wait_for_selector(f"{output}:has-text('k = 6')", timeout=15_000)
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowLeft")
        page.wait_for_selector(f"{output}:has-text('k = 4')", timeout=15_000)


def _explore_src(page):
    return page.evaluate(
        "() => Array.from(document.querySelectorAll("
        "'.svmlib-explore .jp-OutputArea-output img')).map(i => i.src)"
        ".join('|')"
    )


def _wait_explore_change(page, before, timeout=60_000):
    page.wait_for_function(
        "before => { const now = Array.from(document.querySelectorAll("
        "'.svmlib-explore .jp-OutputArea-output img')).map(i => i.src)"
        ".join('|'); return now && now !== before; }",
        arg=before,
        timeout=timeout,
        polling=250,
    )


def _run_explore_cell(page, chapter, function):
    """Run the cell the Jupyter view added in place of the playground."""
    # the cell's place in the view (CodeMirror renders an editor's text, and
    # Lab a markdown cell, only once it is scrolled into view)
    sys.path.insert(0, str(ROOT / "jupyter"))
    import svmbook_jupyter

    path = ROOT / chapter
    shown = svmbook_jupyter.to_view(json.loads(path.read_text()), path)
    (index,) = [
        i
        for i, c in enumerate(shown["cells"])
        if c["metadata"].get(svmbook_jupyter.KEY, {}).get("added")
    ]
    cell = page.locator(".jp-Notebook .jp-Cell").nth(index)
    cell.scroll_into_view_if_needed()
    cell.locator(".jp-InputArea-editor").click()
    page.wait_for_function(
        "([i, f]) => document.querySelectorAll('.jp-Notebook .jp-Cell')[i]"
        ".textContent.includes('from svmlib.explore import ' + f)",
        arg=[index, function],
        timeout=30_000,
    )
    page.keyboard.press("Shift+Enter")
    page.wait_for_selector(
        ".svmlib-explore .jp-OutputArea-output img", timeout=120_000
    )


def test_regression_playground_cell_in_jupyterlab(lab):
    """The tube's sliders redraw it, moved by mouse and by keyboard."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with _page(lab, REGRESSION, "lab") as page:
        _run_explore_cell(page, REGRESSION, "explore_svr")
        handles = page.query_selector_all(".svmlib-explore .noUi-handle")
        assert len(handles) == 3  # C, epsilon, sigma
        handles[0].scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / "lab_regression_before.png"))
        before = _explore_src(page)
        box = handles[1].bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x + 60, y, steps=5)
        page.mouse.up()
        _wait_explore_change(page, before)
        page.screenshot(path=str(SCREENSHOTS / "lab_regression_after.png"))
        before = _explore_src(page)
        handles[0].focus()
        page.keyboard.press("ArrowLeft")
        _wait_explore_change(page, before)


def test_platt_playground_cell_in_notebook7(notebook7):
    """SMO step by step: ArrowRight on the step slider draws step 2."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with _page(notebook7, PLATT, "notebook") as page:
        _run_explore_cell(page, PLATT, "explore_smo")
        handle = page.query_selector(".svmlib-explore .noUi-handle")
        handle.scroll_into_view_if_needed()
        before = _explore_src(page)
        handle.focus()
        page.keyboard.press("ArrowRight")
        _wait_explore_change(page, before)
        page.screenshot(path=str(SCREENSHOTS / "notebook7_platt_step.png"))
