"""The repository button and the Binder and Colab buttons, from one setting.

The book learns the address of its public repository at build time, from
the environment variable ``SVMBOOK_REPOSITORY_URL`` or, when that is unset
or empty, from ``repository: url:`` in ``_config.yml`` (empty in the
book's own file)::

    SVMBOOK_REPOSITORY_URL=https://github.com/OWNER/svmbook \\
        jupyter-book build . -W -n --keep-going

With an address, every page gets sphinx-book-theme's repository button, and
every notebook page its launch buttons: the ``launch_buttons:`` of
``_config.yml`` (Binder and Colab), opening the page's notebook on the
branch ``repository: branch:`` (``path_to_book:`` is where the book lies in
the repository). Colab only opens notebooks from GitHub, so its button is
left out for GitLab and Bitbucket addresses. Without an address, none of
these buttons is shown and no page links a repository: the theme's settings
are cleared, including jupyter-book's default address (its own
repository), which stands for "unset" too.

The same value fills MyST substitutions for the pages that tell readers
where the repository is (``instructors.md``):

``{{ repository }}``
    "[the book's repository](URL)", or, unset, "the book's repository (its
    address is set when the book is published)";
``{{ repository_url }}``
    the address, or ``<repository URL>``;
``{{ clone_command }}``, ``{{ colab_install }}``
    the code blocks that clone the repository and install svmlib from it
    in a Colab notebook, with the address or the placeholder.

The student edition (``SVMBOOK_EDITION=student``, ``_ext/edition.py``)
shows no launch buttons: they would open the repository's notebooks, with
their solutions.

A value that is not the address of a repository on GitHub, GitLab or
Bitbucket (``https://HOST/OWNER/NAME``) stops the build with an error that
names the setting.
"""

import os
from urllib.parse import urlsplit

from sphinx.errors import ConfigError
from sphinx.util import logging

VARIABLE = "SVMBOOK_REPOSITORY_URL"
#: what jupyter-book's default configuration puts in ``repository: url:``
JUPYTER_BOOK_DEFAULT = "https://github.com/executablebooks/jupyter-book"
#: hosts whose addresses sphinx-book-theme understands, and their provider
PROVIDERS = {
    "github.com": "github",
    "gitlab.com": "gitlab",
    "bitbucket.org": "bitbucket",
}
#: theme options that link a repository
REPOSITORY_OPTIONS = (
    "repository_url",
    "repository_branch",
    "repository_provider",
    "path_to_docs",
)
REPOSITORY_BUTTONS = (
    "use_repository_button",
    "use_issues_button",
    "use_edit_page_button",
    "use_source_button",
)
UNSET_TEXT = (
    "the book's repository (its address is set when the book is published)"
)
PLACEHOLDER = "<repository URL>"

logger = logging.getLogger(__name__)


def repository_url(configured=None):
    """The address: ``$SVMBOOK_REPOSITORY_URL``, else ``configured``.

    Parameters
    ----------
    configured : str or None
        ``repository: url:`` of ``_config.yml`` (sphinx-book-theme's
        ``repository_url``); jupyter-book's default address counts as unset.

    Returns
    -------
    str or None
        ``https://HOST/OWNER/NAME`` without a trailing slash or ``.git``, or
        None when neither is set.

    Raises
    ------
    sphinx.errors.ConfigError
        If the value is not the address of a repository on GitHub, GitLab
        or Bitbucket.
    """
    source = VARIABLE
    value = os.environ.get(VARIABLE, "").strip()
    if not value:
        source = "repository: url: in _config.yml"
        value = (configured or "").strip()
        if value.rstrip("/") == JUPYTER_BOOK_DEFAULT:
            value = ""
    if not value:
        return None
    parts = urlsplit(value)
    path = parts.path.strip("/").removesuffix(".git").split("/")
    if (
        parts.scheme not in ("https", "http")
        or parts.hostname not in PROVIDERS
        or len(path) != 2
        or not all(path)
        or parts.query
        or parts.fragment
    ):
        raise ConfigError(
            f"{source} must be the address of the book's repository on "
            "GitHub, GitLab or Bitbucket, like "
            f"https://github.com/OWNER/svmbook; got {value!r}. Leave it "
            "empty for a book without repository and launch buttons."
        )
    return f"https://{parts.hostname}/{path[0]}/{path[1]}"


def substitutions(url):
    """The MyST substitutions that name the repository (see the module)."""
    shown = url or PLACEHOLDER
    return {
        "repository": f"[the book's repository]({url})" if url else UNSET_TEXT,
        "repository_url": shown,
        "clone_command": "\n".join(
            [
                "```bash",
                f"git clone {shown} svmbook && cd svmbook",
                "python -m venv .venv",
                "source .venv/bin/activate"
                "   # Windows: .venv\\Scripts\\activate",
                "pip install -r requirements.txt",
                "jupyter lab",
                "```",
            ]
        ),
        "colab_install": "\n".join(
            ["```python", f'%pip install "svmlib @ git+{shown}"', "```"]
        ),
    }


def configure(app, config):
    """``config-inited``: set or clear the repository and launch options."""
    options = dict(config.html_theme_options or {})
    url = repository_url(options.get("repository_url"))
    launch = dict(options.get("launch_buttons") or {})
    if url is None:
        for key in REPOSITORY_OPTIONS:
            options.pop(key, None)
        options.update(dict.fromkeys(REPOSITORY_BUTTONS, False))
        launch = {}
    else:
        provider = PROVIDERS[urlsplit(url).hostname]
        options["repository_url"] = url
        options["repository_provider"] = provider
        options["repository_branch"] = (
            options.get("repository_branch") or "main"
        )
        options["use_repository_button"] = True
        if provider != "github":
            launch.pop("colab_url", None)  # Colab opens GitHub notebooks only
        if getattr(config, "svmbook_edition", "full") == "student":
            launch = {}  # the notebooks in the repository hold the solutions
        logger.info(f"svmbook: repository {url}")
    options["launch_buttons"] = launch
    config.html_theme_options = options
    config.myst_substitutions = {
        **(config.myst_substitutions or {}),
        **substitutions(url),
    }


def setup(app):
    # after _ext/edition.py (priority 500), which records the edition
    app.connect("config-inited", configure, priority=600)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
