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
import io
import math

__all__ = ["FramePlayer", "STILLS", "STILL_DPI"]

#: Frames in the still image, at most (first and last among them).
STILLS = 4
#: Resolution of each still frame, in dots per inch: print quality.
STILL_DPI = 120


def _palette_png(buffer):
    """Return the PNG in ``buffer`` with at most 256 colours, as bytes.

    Plots need no more colours, and the file is a few times smaller (the
    saved notebook carries it).
    """
    from PIL import Image  # matplotlib's own dependency

    buffer.seek(0)
    image = Image.open(buffer).convert("RGB").quantize(colors=256)
    smaller = io.BytesIO()
    image.save(smaller, format="PNG", optimize=True)
    return smaller.getvalue()


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
        self, fig, draw, frames, *, interval=400, default_mode="once"
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
        from matplotlib import animation

        movie = animation.FuncAnimation(
            self.fig,
            self.draw,
            frames=self.frames,
            interval=self.interval,
        )
        return movie.to_jshtml(default_mode=self.default_mode)

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
