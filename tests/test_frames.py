"""svmlib.frames: one output, a player on the web page and stills on paper."""

import base64
import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.image as mpimg  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from svmlib.frames import STILL_DPI, STILLS, FramePlayer  # noqa: E402


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
    # the JavaScript player holds every frame, as base64 PNG images
    assert bundle["text/html"].count("data:image/png;base64") == 6
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
