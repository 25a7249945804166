"""Frame players that print: an animation on the web page, stills on paper.

A chapter that shows how something evolves (a hyperplane over the
iterations, a decision boundary over a sweep of C) draws one figure per
frame. On the web page the frames play in matplotlib's JavaScript player
(``Animation.to_jshtml``); the PDF edition cannot play them, so the same
output also carries a still image: a grid of a few frames, first and last
among them, under a line saying how many frames the online version plays.
Jupyter and the book pick the richer form where they can (HTML) and the
still where they cannot (LaTeX, which takes ``image/png``).

This module draws with matplotlib, which the book installs; svmlib itself
does not depend on it, so it is imported when a player is drawn.
"""

import base64
import html
import io
import math
import re

__all__ = ["FramePlayer", "STILLS", "STILL_DPI"]

#: Frames in the still image, at most (first and last among them).
STILLS = 4
#: Resolution of each still frame, in dots per inch: print quality.
STILL_DPI = 120
#: Size of the player's frames on the page, in CSS pixels per inch of the
#: figure, whatever the figure's own dpi: matplotlib's default, so that a
#: 10 pt title is 14 CSS pixels tall.
PLAYER_DPI = 100
#: Image pixels per CSS pixel in the player's frames: sharp on screens of
#: twice the usual density.
PLAYER_DENSITY = 2

_FRAME = re.compile(r'(frames\[\d+\] = "data:image/png;base64,)([^"]*)"')
_IMG = re.compile(r'<img id="_anim_img(\w+)">')
_DIV = '<div class="animation">'

# The player's own style, after matplotlib's (which fixes the slider at
# 374 px and the buttons in one row): as wide as its first frame at most,
# no wider than the column, the controls wrapping, a visible focus ring.
_STYLE = """<style>
.animation.svmlib-player {
  display: inline-block; box-sizing: border-box; max-width: 100%;
  padding: 4px; border-radius: 4px; text-align: center;
}
.svmlib-player:focus, .svmlib-player:focus-visible {
  outline: 3px solid #1a73e8; outline-offset: 2px;
}
.svmlib-player img { display: block; margin: 0 auto; max-width: 100%;
  height: auto; }
.svmlib-player input[type=range].anim-slider { display: block;
  box-sizing: border-box; width: 100%; margin: 6px 0; }
.svmlib-player .anim-buttons { display: flex; flex-wrap: wrap;
  justify-content: center; gap: 4px; margin: 6px 0; }
.svmlib-player .anim-buttons button { width: 40px; min-height: 32px; }
.svmlib-player .anim-state { display: flex; flex-wrap: wrap;
  justify-content: center; gap: 4px 12px; }
.svmlib-player .svmlib-player-help { margin: 4px 0 0; font-size: 0.85em;
  line-height: 1.3; }
</style>
"""

# Arrow keys step through the frames, Home and End jump to the ends, while
# the player (or one of its buttons) has focus; the slider and the radio
# buttons keep their own keys. Handled keys go no further (JupyterLab would
# take them as commands).
_KEYS = (
    "var a = window.anim{id}; var t = event.target;"
    " if (!a || t.tagName === 'INPUT') return;"
    " var k = event.key;"
    " if (k === 'ArrowRight') a.next_frame();"
    " else if (k === 'ArrowLeft') a.previous_frame();"
    " else if (k === 'Home') a.first_frame();"
    " else if (k === 'End') a.last_frame();"
    " else return;"
    " event.preventDefault(); event.stopPropagation();"
)


def _palette_png(buffer, fast=False):
    """Return the PNG in ``buffer`` with at most 256 colours, as bytes.

    Plots need no more colours, and the file is a few times smaller (the
    saved notebook carries it). ``fast`` trades a fifth more bytes for a
    fourth of the time (the player's many frames).
    """
    from PIL import Image  # matplotlib's own dependency

    buffer.seek(0)
    image = Image.open(buffer).convert("RGB")
    if fast:
        image = image.quantize(colors=256, method=Image.Quantize.FASTOCTREE)
    else:
        image = image.quantize(colors=256)
    smaller = io.BytesIO()
    image.save(smaller, format="PNG", optimize=not fast)
    return smaller.getvalue()


def _accessible(page, n_frames, alt):
    """Return matplotlib's player ``page`` made to work on first sight.

    The frames become palette PNGs; the ``<img>`` tag gets the first frame,
    its size in CSS pixels and ``alt``; the player takes the keyboard focus
    and the arrow keys, and says how it is used.
    """
    from PIL import Image  # matplotlib's own dependency

    first = []

    def smaller(match):
        data = base64.b64decode(match.group(2).replace("\\\n", ""))
        png = _palette_png(io.BytesIO(data), fast=True)
        if not first:
            first.append((png, Image.open(io.BytesIO(png)).size))
        return f'{match.group(1)}{base64.b64encode(png).decode("ascii")}"'

    page = _FRAME.sub(smaller, page)
    (png, (width, height)), uid = first[0], _IMG.search(page).group(1)
    source = base64.b64encode(png).decode("ascii")
    page = _IMG.sub(
        f'<img id="_anim_img{uid}" src="data:image/png;base64,{source}" '
        f'width="{round(width / PLAYER_DENSITY)}" '
        f'height="{round(height / PLAYER_DENSITY)}" '
        f'alt="{html.escape(alt)}" style="max-width: 100%; height: auto;">',
        page,
        count=1,
    )
    label = html.escape(
        f"{alt}: left and right arrow keys step one frame, "
        "Home and End go to the first and last"
    )
    page = page.replace(
        _DIV,
        f"{_STYLE}"
        f'<div class="animation svmlib-player" id="_anim_player{uid}" '
        f'tabindex="0" role="group" aria-label="{label}" '
        # as wide as the frame (and padding), or as the buttons in a row
        f'style="width: {max(round(width / PLAYER_DENSITY), 400) + 8}px;" '
        f'onkeydown="{_KEYS.format(id=uid)}">',
        1,
    )
    page = page.replace(
        'class="anim-slider"',
        'class="anim-slider" aria-label="Frame"',
        1,
    )
    return page.replace(
        "</form>",
        "</form>\n"
        f'    <p class="svmlib-player-help">{n_frames} frames: drag the '
        "slider or press Play; or click the player and use the left and "
        "right arrow keys.</p>",
        1,
    )


class FramePlayer:
    """One matplotlib figure, redrawn frame by frame, for page and paper.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure that ``draw`` redraws. The player closes it once drawn
        (so that Jupyter does not show it a second time, empty).
    draw : callable
        ``draw(frame)`` redraws ``fig`` for one frame; its return value is
        ignored.
    frames : int or sequence
        The frames: ``range(frames)`` for an int, else the values passed to
        ``draw`` in order (as matplotlib's ``FuncAnimation``).
    interval : int, default 400
        Milliseconds between frames when the player plays.
    default_mode : {"once", "loop", "reflect"}, default "once"
        What the player does at the last frame.
    alt : str, optional
        What the frames show, for readers who cannot see them (the
        image's ``alt`` text); by default "Frame player, N frames".

    Raises
    ------
    ValueError
        If there are no frames.

    Notes
    -----
    Displayed in Jupyter (``_repr_mimebundle_``), the player gives
    ``text/html`` (the JavaScript player, every frame), ``image/png``
    (``STILLS`` evenly spaced frames at ``STILL_DPI``, in a grid)
    and ``text/plain``.

    The page's player shows ``PLAYER_DPI`` CSS pixels per inch of the
    figure, whatever the figure's own dpi, from frames drawn at
    ``PLAYER_DENSITY`` times that resolution; it is no wider than its
    column (the frame scales down, the controls wrap). Its ``<img>`` tag
    carries the first frame with its width and height, so that the frame
    shows before any script runs or any control is touched. With the
    player focused (Tab, or a click on it), the left and right arrow keys
    step one frame, Home and End go to the first and last frames.

    References
    ----------
    matplotlib's ``animation.FuncAnimation`` and ``Animation.to_jshtml``;
    IPython's rich display protocol (``_repr_mimebundle_``). The book's
    rule that figures print: CONTRIBUTING.md, "Notebook conventions".

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> player = FramePlayer(fig, lambda k: ax.plot([0, 1], [0, k]), 5)
    >>> sorted(player._repr_mimebundle_())
    ['image/png', 'text/html', 'text/plain']
    """

    def __init__(
        self,
        fig,
        draw,
        frames,
        *,
        interval=400,
        default_mode="once",
        alt=None,
    ):
        self.frames = (
            list(range(frames)) if isinstance(frames, int) else list(frames)
        )
        if not self.frames:
            raise ValueError("a FramePlayer needs at least one frame")
        self.fig = fig
        self.draw = draw
        self.interval = interval
        self.default_mode = default_mode
        self.alt = alt
        self._bundle = None

    def still_indices(self):
        """Return the positions of the frames shown in the still image.

        Evenly spaced, the first and last frames kept.

        Returns
        -------
        list of int
            At most ``STILLS`` distinct positions in ``self.frames``,
            increasing, the first 0 and the last ``len(self.frames) - 1``.

        References
        ----------
        The book's rule that figures print: CONTRIBUTING.md, "Notebook
        conventions".

        Examples
        --------
        >>> from svmlib.frames import FramePlayer
        >>> FramePlayer(None, print, 10).still_indices()
        [0, 3, 6, 9]
        >>> FramePlayer(None, print, 2).still_indices()
        [0, 1]
        """
        last = len(self.frames) - 1
        count = min(STILLS, last + 1)
        if count == 1:
            return [0]
        return sorted({round(k * last / (count - 1)) for k in range(count)})

    def _html(self):
        import matplotlib.pyplot as plt
        from matplotlib import animation

        movie = animation.FuncAnimation(
            self.fig,
            self.draw,
            frames=self.frames,
            interval=self.interval,
        )
        with plt.rc_context({"savefig.dpi": PLAYER_DPI * PLAYER_DENSITY}):
            page = movie.to_jshtml(default_mode=self.default_mode)
        alt = self.alt or f"Frame player, {len(self.frames)} frames"
        return _accessible(page, len(self.frames), alt)

    def _frame_png(self, position):
        self.draw(self.frames[position])
        buffer = io.BytesIO()
        self.fig.savefig(buffer, format="png", dpi=STILL_DPI)
        buffer.seek(0)
        return buffer

    def _still_png(self):
        import matplotlib.image as mpimg
        import matplotlib.pyplot as plt

        positions = self.still_indices()
        images = [mpimg.imread(self._frame_png(p)) for p in positions]
        columns = 2 if len(images) > 1 else 1
        rows = math.ceil(len(images) / columns)
        height, width = images[0].shape[:2]
        grid, axes = plt.subplots(
            rows,
            columns,
            figsize=(columns * width / STILL_DPI, rows * height / STILL_DPI),
            dpi=STILL_DPI,
            squeeze=False,
        )
        for ax in axes.flat:
            ax.axis("off")
        for k, (position, image) in enumerate(
            zip(positions, images, strict=True)
        ):
            ax = axes.flat[k]
            ax.imshow(image)
            ax.set_title(f"frame {position + 1} of {len(self.frames)}")
        grid.suptitle(
            f"{len(images)} of the {len(self.frames)} frames; "
            "the online version of the book plays them all"
        )
        grid.tight_layout()
        buffer = io.BytesIO()
        grid.savefig(buffer, format="png", dpi=STILL_DPI)
        plt.close(grid)
        return base64.b64encode(_palette_png(buffer)).decode("ascii")

    def _repr_mimebundle_(self, include=None, exclude=None):
        if self._bundle is None:
            import matplotlib.pyplot as plt

            html = self._html()
            still = self._still_png()
            plt.close(self.fig)
            self._bundle = {
                "text/html": html,
                "image/png": still,
                "text/plain": f"<FramePlayer: {len(self.frames)} frames>",
            }
        return self._bundle
