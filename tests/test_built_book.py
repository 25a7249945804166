"""Checks on the built HTML book in _build/html.

The README's test command runs before any build, so these tests skip when
the book is not built; `.ci/run` runs them again after the build with
SVMBOOK_CHECK_BUILD=1, where an unbuilt book is a failure. A page missing
from a built book (a chapter renamed or removed) is always a failure.
"""

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BUILT_HTML = ROOT / "_build" / "html"
REQUIRED = os.environ.get("SVMBOOK_CHECK_BUILD") == "1"


def built(relative):
    """Path of a file of the built book.

    Skips when the book is not built (fails instead in CI); fails when the
    book is built but the file is missing.
    """
    index = BUILT_HTML / "index.html"
    if not index.is_file():
        message = f"{index.relative_to(ROOT)} is missing: build the book first"
        if REQUIRED:
            pytest.fail(message)
        pytest.skip(message)
    path = BUILT_HTML / relative
    if not path.is_file():
        pytest.fail(
            f"{path.relative_to(ROOT)} is missing from the built book: was "
            "its chapter renamed or removed? Update this test with it."
        )
    return path


def pages():
    built("index.html")
    return sorted(
        p for p in BUILT_HTML.rglob("*.html") if "_static" not in p.parts
    )


def test_tuning_page_carries_precomputed_frames():
    html = built("chapters/kernels/tuning_c_and_sigma.html").read_text(
        encoding="utf-8"
    )
    # matplotlib's to_jshtml: an Animation player whose frames are inline
    # PNG data URIs
    assert "new Animation(" in html
    frames = re.findall(r"frames\[(\d+)\] = \"data:image/png;base64,", html)
    assert len(frames) >= 2 * 10, (
        "expected two sweeps of at least 10 frames each"
    )
    # no frame is missing from any player: indices restart at 0 once per player
    starts = [i for i, index in enumerate(frames) if index == "0"]
    assert len(starts) >= 2
    for begin, end in zip(starts, starts[1:] + [len(frames)], strict=True):
        assert [int(k) for k in frames[begin:end]] == list(range(end - begin))


def test_mathjax_and_player_icons_are_served_locally():
    assert built("_static/mathjax/tex-chtml-full.js").stat().st_size > 100_000
    assert any(
        (BUILT_HTML / "_static/mathjax/output/chtml/fonts/woff-v2").glob(
            "*.woff"
        )
    )
    assert (
        built("_static/font-awesome/css/font-awesome.min.css").stat().st_size
        > 10_000
    )
    assert built(
        "_static/font-awesome/fonts/fontawesome-webfont.woff2"
    ).is_file()


def test_no_page_loads_scripts_or_styles_from_the_network():
    remote = re.compile(
        r"<(?:script|link)\b[^>]*(?:src|href)=\"(?:https?:)?//[^\"]+\"[^>]*>"
    )
    offenders = {}
    for page in pages():
        tags = [
            tag
            for tag in remote.findall(page.read_text(encoding="utf-8"))
            if "stylesheet" in tag or "<script" in tag
        ]
        if tags:
            offenders[str(page.relative_to(BUILT_HTML))] = tags[:2]
    assert not offenders, f"pages that fetch from the network: {offenders}"
