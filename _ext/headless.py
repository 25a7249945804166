"""Tell the notebooks that the build executes them headless.

Sets ``SVMBOOK_HEADLESS=1`` in the build's environment before any notebook
is executed; the kernels that myst-nb starts inherit it. A chapter reads it
to leave out what needs a person at a live kernel (ipywidgets sliders, whose
comm messages nothing answers during headless execution and which the
static page could not use anyway). The test run sets the same variable (the
book's ``conftest.py``), so nbval executes exactly what the build executes.

It also removes ``MPLBACKEND`` from that environment: a kernel started with
``MPLBACKEND=Agg`` (a common setting for headless machines) draws every
figure into nothing, and the pages would have no figures. Without it, the
kernels use matplotlib's inline backend, which needs no display.
"""

import os

VARIABLE = "SVMBOOK_HEADLESS"


def setup(app):
    os.environ[VARIABLE] = "1"
    os.environ.pop("MPLBACKEND", None)  # kernels: the inline backend
    return {"parallel_read_safe": True, "parallel_write_safe": True}
