"""svmlib.frames: one output, a player on the web page and stills on paper.

The player is also opened in headless Chromium (Playwright, as in
tests/test_browser.py; skipped when either is missing): its first frame
shows before any script runs, the arrow keys step it, and it fits a phone.
"""

import base64
import io
import os
import re
import shutil

import matplotlib

matplotlib.use("Agg")
import matplotlib.image as mpimg  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from svmlib.frames import (  # noqa: E402
    PLAYER_DENSITY,
    PLAYER_DPI,
    STILL_DPI,
    STILLS,
    FramePlayer,
)


def _player(frames):
    fig, ax = plt.subplots(figsize=(2, 1.5))
    drawn = []

    def draw(k):
        drawn.append(k)
        ax.clear()
        ax.plot([0, 1], [0, k])

    return FramePlayer(fig, draw, frames), fig, drawn


@pytest.mark.parametrize(
    ("n_frames", "expected"),
    [(1, [0]), (2, [0, 1]), (3, [0, 1, 2]), (10, [0, 3, 6, 9]),
     (25, [0, 8, 16, 24])],
)  # fmt: skip
def test_stills_are_spread_evenly_with_both_ends(n_frames, expected):
    player, _, _ = _player(n_frames)
    assert player.still_indices() == expected
    assert len(expected) <= STILLS


def test_bundle_has_every_frame_on_the_page_and_stills_on_paper():
    player, fig, drawn = _player([5, 7, 9, 11, 13, 15])
    bundle = player._repr_mimebundle_()
    assert bundle["text/html"].count("new Animation(") == 1
    # the JavaScript player holds every frame, as base64 PNG images, and
    # its <img> tag the first one
    assert bundle["text/html"].count("data:image/png;base64") == 6 + 1
    still = mpimg.imread(io.BytesIO(base64.b64decode(bundle["image/png"])))
    # a 2 x 2 grid of 2 x 1.5 inch frames at STILL_DPI, and a title line
    height, width = still.shape[:2]
    assert width == pytest.approx(2 * 2 * STILL_DPI, rel=0.02)
    assert height >= 2 * 1.5 * STILL_DPI
    # the stills redraw the frames' own values, the last one included
    assert drawn[-4:] == [5, 9, 11, 15]
    assert bundle["text/plain"] == "<FramePlayer: 6 frames>"
    assert not plt.fignum_exists(fig.number)  # closed: not shown twice
    assert player._repr_mimebundle_() is bundle  # drawn once


def test_no_frames_is_an_error():
    fig = plt.figure()
    with pytest.raises(ValueError, match="at least one frame"):
        FramePlayer(fig, lambda k: None, [])
    plt.close(fig)


def _tag(html, name):
    return re.search(rf"<{name} [^>]*>", html).group(0)


def _attribute(tag, name):
    return re.search(rf'\b{name}="([^"]*)"', tag).group(1)


def test_first_frame_is_in_the_img_tag_with_its_size():
    # Before: <img id=...> with no src nor size, filled by a script; after
    # Run All, JupyterLab and Notebook 7 laid it out 0 x 0 until the slider
    # moved (issue 30).
    player, _, _ = _player(4)  # a 2 x 1.5 inch figure
    html = player._repr_mimebundle_()["text/html"]
    img = _tag(html, "img")
    width, height = (
        int(_attribute(img, "width")),
        int(_attribute(img, "height")),
    )
    assert (width, height) == (2 * PLAYER_DPI, round(1.5 * PLAYER_DPI))
    assert "max-width: 100%" in img and "height: auto" in img
    assert _attribute(img, "alt") == "Frame player, 4 frames"
    source = _attribute(img, "src")
    frames = re.findall(
        r'frames\[(\d+)\] = "(data:image/png;base64,[^"]*)"', html
    )
    assert [int(k) for k, _ in frames] == [0, 1, 2, 3]
    assert source == frames[0][1]  # the first frame, not another
    assert len({data for _, data in frames}) == 4  # four different frames
    picture = mpimg.imread(io.BytesIO(base64.b64decode(source.split(",")[1])))
    # drawn at PLAYER_DENSITY image pixels per CSS pixel: sharp on HiDPI
    assert picture.shape[:2] == (
        height * PLAYER_DENSITY,
        width * PLAYER_DENSITY,
    )


def test_player_takes_focus_and_the_arrow_keys():
    player, _, _ = _player(3)
    player.alt = "a line turning"
    html = player._repr_mimebundle_()["text/html"]
    div = _tag(html, "div")
    assert 'class="animation svmlib-player"' in div
    assert 'tabindex="0"' in div
    assert _attribute(div, "aria-label").startswith("a line turning: left")
    handler = _attribute(div, "onkeydown").replace("&#x27;", "'")
    uid = _attribute(_tag(html, "img"), "id").removeprefix("_anim_img")
    assert f"window.anim{uid};" in handler
    for key, method in (
        ("ArrowRight", "next_frame"),
        ("ArrowLeft", "previous_frame"),
        ("Home", "first_frame"),
        ("End", "last_frame"),
    ):
        assert f"if (k === '{key}') a.{method}();" in handler
    assert ".svmlib-player:focus" in html  # a visible focus ring
    assert 'aria-label="Frame"' in _tag(html, "input")
    assert _attribute(_tag(html, "img"), "alt") == "a line turning"
    assert "3 frames: drag the slider" in html


# A real browser ----------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run"]
REQUIRED = os.environ.get("SVMBOOK_CHECK_BUILD") == "1"


@pytest.fixture(scope="module")
def chromium():
    reason = None
    if CHROMIUM is None:
        reason = "Chromium is not installed (Debian: apt-get install chromium)"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        reason = (
            "Playwright is not installed (pip install -r requirements.txt)"
        )
    if reason:
        if REQUIRED:
            pytest.fail(reason)
        pytest.skip(reason)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def player_page(tmp_path_factory):
    """A page with one 6.4 x 2.4 inch player (640 CSS px) of 3 frames."""
    fig, ax = plt.subplots(figsize=(6.4, 2.4), dpi=60)

    def draw(k):
        ax.clear()
        ax.plot([0, 1], [0, k], lw=4)
        ax.set(title=f"frame {k}", ylim=(0, 2))

    html = FramePlayer(fig, draw, 3)._repr_mimebundle_()["text/html"]
    path = tmp_path_factory.mktemp("player") / "player.html"
    path.write_text(
        '<!doctype html><html><head><meta charset="utf-8"><meta '
        'name="viewport" content="width=device-width, initial-scale=1">'
        f"</head><body>{html}</body></html>",
        encoding="utf-8",
    )
    return path.as_uri()


def _open(browser, url, width, script=True):
    context = browser.new_context(
        viewport={"width": width, "height": 800}, java_script_enabled=script
    )
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.route(re.compile(r"^https?://"), lambda route: route.abort())
    page.goto(url, wait_until="load")
    return context, page, errors


IMAGE = """() => {
    const img = document.querySelector('.svmlib-player img');
    const box = img.getBoundingClientRect();
    return {width: box.width, height: box.height, natural: img.naturalWidth,
            src: img.src, slider: document.querySelector(
                '.svmlib-player input[type=range]').value};
}"""


def test_first_frame_shows_before_any_script_or_interaction(
    chromium, player_page
):
    # with JavaScript off, what shows is what the HTML itself carries
    context, page, _ = _open(chromium, player_page, 1280, script=False)
    try:
        image = page.evaluate(IMAGE)
    finally:
        context.close()
    assert image["natural"] == 640 * PLAYER_DENSITY
    assert (image["width"], image["height"]) == (640, 240)


def test_arrow_keys_step_the_focused_player(chromium, player_page):
    context, page, errors = _open(chromium, player_page, 1280)
    try:
        page.wait_for_function(
            "() => document.querySelector('.svmlib-player input').max === '2'"
        )
        first = page.evaluate(IMAGE)
        assert first["width"] == 640 and first["height"] == 240
        page.keyboard.press("Tab")  # the first stop: the player itself
        focused = page.evaluate(
            "() => [document.activeElement.classList.contains("
            "'svmlib-player'), getComputedStyle(document.activeElement)"
            ".outlineStyle]"
        )
        assert focused == [True, "solid"]  # a visible focus ring
        steps = []
        for key in (
            "ArrowRight",
            "ArrowRight",
            "ArrowRight",
            "ArrowLeft",
            "Home",
            "End",
        ):
            page.keyboard.press(key)
            steps.append(page.evaluate(IMAGE))
    finally:
        context.close()
    assert [s["slider"] for s in steps] == ["1", "2", "2", "1", "0", "2"]
    sources = [first["src"]] + [s["src"] for s in steps]
    assert len(set(sources)) == 3  # three different frames shown
    assert sources[1] != sources[0] and sources[5] == sources[0]
    assert all(s["width"] == 640 for s in steps)
    assert not errors, errors


def test_player_fits_a_phone(chromium, player_page):
    context, page, errors = _open(chromium, player_page, 390)
    try:
        page.wait_for_function(
            "() => document.querySelector('.svmlib-player input').max === '2'"
        )
        layout = page.evaluate(
            """() => {
            const player = document.querySelector('.svmlib-player');
            const rights = Array.from(player.querySelectorAll('*'))
                .map(el => el.getBoundingClientRect().right);
            const img = player.querySelector('img').getBoundingClientRect();
            return {page: document.documentElement.scrollWidth,
                    right: Math.max(...rights,
                                    player.getBoundingClientRect().right),
                    img: [img.width, img.height]};
        }"""
        )
    finally:
        context.close()
    assert layout["page"] <= 390, layout  # no sideways scrolling
    assert layout["right"] <= 390, layout  # no control cut off
    width, height = layout["img"]
    assert 300 < width < 390  # scaled down, aspect kept
    assert height == pytest.approx(width * 240 / 640, abs=1)
    assert not errors, errors
