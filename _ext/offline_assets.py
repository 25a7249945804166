"""Serve the book's JavaScript from the build itself, so the HTML works offline.

MathJax 3 is installed from the npm registry (``npm ci``, see package.json)
into ``node_modules/``. This extension points Sphinx's ``mathjax_path`` at a
local copy and, when the HTML build finishes, copies the files it needs into
``_build/html/_static/``. No third-party JavaScript is committed to the
repository, and pages never fetch anything from a CDN.
"""

import shutil
from pathlib import Path

from sphinx.errors import ConfigError

MATHJAX = Path("node_modules") / "mathjax" / "es5"
#: files and folders under MATHJAX that the CHTML renderer loads
MATHJAX_FILES = ("tex-chtml-full.js", "output/chtml/fonts/woff-v2")
TARGET = Path("_static") / "mathjax"


def _mathjax_source(app):
    source = Path(app.confdir) / MATHJAX
    if not (source / MATHJAX_FILES[0]).is_file():
        raise ConfigError(
            f"MathJax is missing from {source}. Run `npm ci` in {app.confdir} first "
            f"(the README's build command does)."
        )
    return source


def set_mathjax_path(app, config):
    _mathjax_source(app)
    config.mathjax_path = f"{TARGET.name}/{MATHJAX_FILES[0]}"


def copy_assets(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    source = _mathjax_source(app)
    target = Path(app.outdir) / TARGET
    for name in MATHJAX_FILES:
        if (source / name).is_dir():
            shutil.copytree(source / name, target / name, dirs_exist_ok=True)
        else:
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source / name, target / name)


def setup(app):
    app.connect("config-inited", set_mathjax_path)
    app.connect("build-finished", copy_assets)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
