"""Serve the book's third-party assets from the build, so it works offline.

The assets are installed from the npm registry (``npm ci``, see package.json)
into ``node_modules/``, and nothing third-party is committed:

* MathJax 3: this extension points Sphinx's ``mathjax_path`` at a local copy;
* Font Awesome 4: matplotlib's animation players (``to_jshtml``) link its
  stylesheet from a CDN for their button icons; the links are pointed at a
  local copy instead.

When the HTML build finishes, the files are copied into
``_build/html/_static/`` and the players' links in the written pages are
rewritten, so that no page fetches anything from the network.

Three fixes for pages read from disk keep the browser console free of
errors: repeated script entries are dropped from each page (sphinx-thebe
adds its inline configuration script once per reading pass, and ``const
THEBE_JS_URL`` declared twice is an error); the theme's colour mode
defaults to "auto" (with no mode stored, as for a page opened from a file,
the theme logs an error before falling back to it); and the theme's
``<link rel="preload" as="font" crossorigin>`` hints for Font Awesome's web
fonts are dropped from the written pages. A font preload is a CORS request,
which Chromium refuses for ``file://`` ("blocked by CORS policy", one error
per font on every page); the fonts themselves still load, from the
``@font-face`` rules of the theme's stylesheet, and the icons are drawn by
Font Awesome's script as inline SVG.
"""

import os
import re
import shutil
from pathlib import Path

from sphinx.errors import ConfigError

NODE_MODULES = Path("node_modules")
#: (package folder, files and folders to copy, target under _static)
ASSETS = (
    (
        Path("mathjax") / "es5",
        ("tex-chtml-full.js", "output/chtml/fonts/woff-v2"),
        "mathjax",
    ),
    (
        Path("font-awesome"),
        ("css/font-awesome.min.css", "fonts"),
        "font-awesome",
    ),
)
MATHJAX_SCRIPT = "mathjax/tex-chtml-full.js"
#: the stylesheet link that matplotlib's animation HTML carries
FONT_AWESOME_CDN = "https://maxcdn.bootstrapcdn.com/font-awesome/4.4.0/css/font-awesome.min.css"
FONT_AWESOME_LOCAL = "_static/font-awesome/css/font-awesome.min.css"
#: a <link> element (one line, as the theme writes it) and its line break
LINK = re.compile(r"[ \t]*<link\b[^>]*>\n?")


def _package(app, folder):
    source = Path(app.confdir) / NODE_MODULES / folder
    if not source.is_dir():
        raise ConfigError(
            f"{source} is missing. Run `npm ci` in {app.confdir} first "
            "(the README's build command does)."
        )
    return source


def configure(app, config):
    for folder, _, _ in ASSETS:
        _package(app, folder)
    config.mathjax_path = MATHJAX_SCRIPT
    config.html_context = {
        "default_mode": "auto",
        **(config.html_context or {}),
    }


def _copy_assets(app):
    for folder, names, target in ASSETS:
        source, destination = (
            _package(app, folder),
            Path(app.outdir) / "_static" / target,
        )
        for name in names:
            if (source / name).is_dir():
                shutil.copytree(
                    source / name, destination / name, dirs_exist_ok=True
                )
            else:
                (destination / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source / name, destination / name)


def _is_font_preload(link):
    return (
        re.search(r"""\brel=["']?preload\b""", link) is not None
        and re.search(r"""\bas=["']?font\b""", link) is not None
    )


def drop_font_preloads(html):
    """Remove the ``<link rel="preload" as="font">`` elements of a page.

    Other links (stylesheets, script preloads) are kept.
    """
    return LINK.sub(
        lambda match: "" if _is_font_preload(match.group()) else match.group(),
        html,
    )


def _rewrite_pages(app):
    """Make each written page load its assets from disk without errors.

    The animation players' Font Awesome links point at the local copy, and
    the font preloads are dropped (see the module's docstring).
    """
    outdir = Path(app.outdir)
    for page in outdir.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        rewritten = drop_font_preloads(html)
        if FONT_AWESOME_CDN in rewritten:
            local = os.path.relpath(
                outdir / FONT_AWESOME_LOCAL, page.parent
            ).replace(os.sep, "/")
            rewritten = rewritten.replace(FONT_AWESOME_CDN, local)
        if rewritten != html:
            page.write_text(rewritten, encoding="utf-8")


def _script_key(script):
    # an inline script is registered with filename None once, "" another
    return (
        script.filename or "",
        script.priority,
        tuple(sorted(script.attributes.items())),
    )


def drop_duplicate_scripts(app, pagename, templatename, context, doctree):
    """Keep the first of identical script entries.

    Identical: the same file or body, and the same attributes.
    """
    scripts = context.get("script_files")
    if scripts:
        unique = {}
        for script in scripts:
            unique.setdefault(_script_key(script), script)
        scripts[:] = list(unique.values())


def finish(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    _copy_assets(app)
    _rewrite_pages(app)


def setup(app):
    app.connect("config-inited", configure)
    app.connect("html-page-context", drop_duplicate_scripts)
    app.connect("build-finished", finish)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
