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

On x86-64 it sets ``OPENBLAS_CORETYPE=Haswell`` (unless already set): the
same OpenBLAS kernels, AVX2, on every machine. Otherwise OpenBLAS picks its
kernels by processor (AVX-512 ones on newer processors), float32 sums come
out in another order, and the last digits of the MNIST chapters' checked
outputs change from one machine to the next (measured: ||w||^2 3175.5049
with the Haswell kernels, 3175.5069 with the SkylakeX ones). A preset
``OPENBLAS_CORETYPE`` is kept.

With ``SVMBOOK_SECOND_CONFIG=1`` in the environment it sets up a second
numerical configuration instead (each variable unless already set): OpenBLAS's
Sandybridge kernels (AVX without FMA: other roundings in every product and
sum of BLAS), one thread for OpenBLAS, OpenMP, MKL and numba, and numpy's
loops without AVX2 or AVX-512 (``NPY_DISABLE_CPU_FEATURES``: other float32
``exp``, ``log`` and sums). ``.ci/run`` runs the chapters under nbval a
second time with it: a checked output must not change (CONTRIBUTING.md,
"Checked outputs"), and ``conftest.py`` does not cache that run's notebooks
for the build.
"""

import os
import platform

VARIABLE = "SVMBOOK_HEADLESS"
SECOND = "SVMBOOK_SECOND_CONFIG"

# The second numerical configuration (x86-64): see above.
SECOND_CONFIGURATION = {
    "OPENBLAS_CORETYPE": "Sandybridge",
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "NUMBA_NUM_THREADS": "1",
    "NPY_DISABLE_CPU_FEATURES": "X86_V3 X86_V4 AVX512_ICL AVX512_SPR",
}


def second_configuration(environ=os.environ):
    """Whether this run uses the second numerical configuration."""
    return bool(environ.get(SECOND))


def kernel_environment(environ=os.environ):
    """Set the variables that the notebooks' kernels inherit (see above)."""
    environ[VARIABLE] = "1"
    environ.pop("MPLBACKEND", None)  # kernels: the inline backend
    if platform.machine().lower() in ("x86_64", "amd64"):
        if second_configuration(environ):
            for name, value in SECOND_CONFIGURATION.items():
                environ.setdefault(name, value)
        environ.setdefault("OPENBLAS_CORETYPE", "Haswell")


def setup(app):
    kernel_environment()
    return {"parallel_read_safe": True, "parallel_write_safe": True}
