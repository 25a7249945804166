"""A frame player in a real JupyterLab: its first frame shows after Run All.

JupyterLab (4.6.6, the version students install) is started on 127.0.0.1
in the test, on a temporary copy of a one-cell notebook that makes a
``FramePlayer``; headless Chromium (Playwright, as in tests/test_browser.py)
opens it, runs all cells, and measures the player's image before anything
touches it. Issue 30 saw chapter players laid out 0 x 0 until the slider
moved; in this one-cell notebook matplotlib's own player (no src in its
<img> tag) did show, 240 x 180, so this test checks the first frame's size
and the arrow keys in Lab, and tests/test_frames.py shows that the frame
is in the HTML itself (Chromium with JavaScript off). A screenshot of the
player right after Run All is written to ``$SVMBOOK_SCREENSHOTS``
(default: _build/screenshots/jupyterlab/).

Skipped, with the reason, when Chromium, Playwright or JupyterLab is missing
or JupyterLab does not start; a failure under ``SVMBOOK_CHECK_BUILD=1``.
"""

import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCREENSHOTS = Path(
    os.environ.get(
        "SVMBOOK_SCREENSHOTS", ROOT / "_build" / "screenshots" / "jupyterlab"
    )
)
REQUIRED = os.environ.get("SVMBOOK_CHECK_BUILD") == "1"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run"]

CELL = """\
import matplotlib.pyplot as plt

from svmlib.frames import FramePlayer

fig, ax = plt.subplots(figsize=(4, 3), dpi=60)


def show(k):
    ax.clear()
    ax.plot([0, 1], [0, k], lw=3)
    ax.set(title=f"frame {k}", ylim=(0, 3))


FramePlayer(fig, show, 4)
"""


def _unavailable(reason):
    if REQUIRED:
        pytest.fail(reason)
    pytest.skip(reason)


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab server on a temporary folder: (base URL, token)."""
    if CHROMIUM is None:
        _unavailable("Chromium is not installed (apt-get install chromium)")
    try:
        import nbformat
        import playwright.sync_api  # noqa: F401
    except ImportError as error:
        _unavailable(f"Playwright or nbformat is missing: {error}")
    if shutil.which("jupyter-lab", path=Path(sys.executable).parent) is None:
        _unavailable("JupyterLab is not installed (pip install jupyterlab)")
    folder = tmp_path_factory.mktemp("lab")
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(CELL)]
    notebook.metadata["kernelspec"] = {  # else Lab asks which kernel
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    nbformat.write(notebook, folder / "player.ipynb")
    token, port = secrets.token_hex(16), _free_port()
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(folder / "runtime"))
    env.pop("SVMBOOK_HEADLESS", None)  # as a student runs it
    log = (folder / "lab.log").open("w")
    server = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "jupyter-lab"),
            "--no-browser",
            "--allow-root",  # CI containers run as root
            f"--port={port}",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.token={token}",
            f"--ServerApp.root_dir={folder}",
            f"--LabApp.workspaces_dir={folder / 'workspaces'}",
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
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(
                    f"{base}/api/status?token={token}", timeout=2
                ):
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    text = (folder / "lab.log").read_text()[-800:]
                    _unavailable(f"JupyterLab did not start: {text}")
                time.sleep(0.5)
        yield base, token
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def test_player_shows_its_first_frame_after_run_all(lab):
    from playwright.sync_api import sync_playwright

    base, token = lab
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS
        )
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(
                f"{base}/lab/tree/player.ipynb?reset&token={token}",
                wait_until="load",
            )
            page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=60_000)
            # the kernel has started: the status bar says it is idle
            page.wait_for_selector(
                ".jp-StatusBar-TextItem:has-text('Idle')", timeout=60_000
            )
            page.click(".jp-Notebook .jp-Cell .jp-InputPrompt")
            page.click(".lm-MenuBar-itemLabel:text-is('Run')")
            page.click(".lm-Menu-itemLabel:text-is('Run All Cells')")
            image = page.wait_for_selector(
                ".jp-OutputArea-output .svmlib-player img",
                state="attached",
                timeout=60_000,
            )
            page.wait_for_function(
                "img => img.complete && img.naturalWidth > 0",
                arg=image,
                timeout=10_000,
            )
            box = image.bounding_box()
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / "player_after_run_all.png"))
            # and the keyboard: focused, ArrowRight shows the next frame
            before = image.get_attribute("src")
            page.focus(".svmlib-player")
            page.keyboard.press("ArrowRight")
            after = page.evaluate(
                "() => document.querySelector('.svmlib-player img').src"
            )
            slider = page.evaluate(
                "() => document.querySelector('.svmlib-player input').value"
            )
        finally:
            browser.close()
    # 4 x 3 inches at svmlib.frames.PLAYER_DPI = 100 CSS px per inch
    assert box and box["width"] == pytest.approx(400, abs=1), box
    assert box["height"] == pytest.approx(300, abs=1), box
    assert after != before and slider == "1"
