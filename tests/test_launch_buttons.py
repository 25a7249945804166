"""The repository and launch buttons (_ext/launch_buttons.py).

A tiny book (one page, one notebook without code) with the book's own
``repository:``, ``launch_buttons:``, ``html:`` and ``parse:`` settings and
the extension is built with jupyter-book's command, in this process:
without the setting no page links a repository, Binder or Colab; with
``SVMBOOK_REPOSITORY_URL`` the notebook page carries the right links, and
building again without it takes them away. The rest checks the extension's
configuration step alone.
"""

import html
import re
import shutil
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest
import yaml
from click.testing import CliRunner
from jupyter_book.cli.main import main as jupyter_book
from sphinx.errors import ConfigError

ROOT = Path(__file__).resolve().parents[1]
EXTENSION = ROOT / "_ext" / "launch_buttons.py"
REPOSITORY = "https://github.com/svmbook-authors/svmbook"
#: what links a repository, or launches one, in a page
REMOTE = re.compile(
    r"github\.com|gitlab\.com|mybinder\.org|colab\.research\.google\.com"
)


def load_extension():
    """The extension as a module (it lives in _ext/, not in a package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("launch_buttons", EXTENSION)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


launch_buttons = load_extension()


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    """A one-page, one-notebook book with the real book's button settings."""
    folder = tmp_path_factory.mktemp("tiny_book")
    real = yaml.safe_load((ROOT / "_config.yml").read_text())
    config = {
        "title": "Tiny",
        "only_build_toc_files": True,
        "execute": {"execute_notebooks": "off"},
        **{key: real[key] for key in ("parse", "html", "repository")},
        "launch_buttons": real["launch_buttons"],
        "sphinx": {"local_extensions": {"launch_buttons": "_ext"}},
    }
    (folder / "_config.yml").write_text(yaml.safe_dump(config))
    (folder / "_toc.yml").write_text(
        "format: jb-book\nroot: index\nchapters:\n  - file: chapter\n"
    )
    (folder / "index.md").write_text(
        "# Tiny\n\nClone {{ repository }}:\n\n{{ clone_command }}\n\n"
        "In Colab:\n\n{{ colab_install }}\n"
    )
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_markdown_cell("# A chapter\n\nNo code.")],
        metadata={
            "kernelspec": {
                "name": "python3",
                "display_name": "Python 3",
                "language": "python",
            }
        },
    )
    nbformat.write(notebook, folder / "chapter.ipynb")
    (folder / "_ext").mkdir()
    shutil.copy(EXTENSION, folder / "_ext")
    return folder


def build(book, monkeypatch, url=None):
    """Build with -W -n; return {page name: HTML} of the built pages."""
    if url is None:
        monkeypatch.delenv(launch_buttons.VARIABLE, raising=False)
    else:
        monkeypatch.setenv(launch_buttons.VARIABLE, url)
    monkeypatch.chdir(book)  # local_extensions paths are relative
    result = CliRunner().invoke(
        jupyter_book, ["build", ".", "-W", "-n", "--keep-going", "-q"]
    )
    assert result.exit_code == 0, result.output
    html = book / "_build" / "html"
    return {
        page.stem: page.read_text(encoding="utf-8")
        for page in html.glob("*.html")
    }


def hrefs(page):
    return set(re.findall(r'href="([^"]+)"', page))


def text(page):
    """The text of a page, without tags (code is split by highlighting)."""
    return html.unescape(re.sub(r"<[^>]+>", "", page))


def test_buttons_follow_the_setting(book, monkeypatch):
    pages = build(book, monkeypatch)
    assert {"index", "chapter"} <= set(pages)
    linked = {name: REMOTE.findall(html) for name, html in pages.items()}
    assert not any(linked.values()), f"links without the setting: {linked}"
    assert "launch-buttons" not in pages["chapter"]
    index = text(pages["index"])
    assert "Clone the book’s repository (its address is set when" in index
    assert "git clone <repository URL> svmbook" in index
    assert '%pip install "svmlib @ git+<repository URL>"' in index

    pages = build(book, monkeypatch, url=REPOSITORY + ".git/")
    chapter = hrefs(pages["chapter"])
    assert REPOSITORY in chapter  # the repository button
    assert (
        "https://mybinder.org/v2/gh/svmbook-authors/svmbook/main"
        "?urlpath=lab/tree/chapter.ipynb"
    ) in chapter
    assert (
        "https://colab.research.google.com/github/svmbook-authors/svmbook"
        "/blob/main/chapter.ipynb"
    ) in chapter
    # a page that is not a notebook: the repository button, no launch
    assert REPOSITORY in hrefs(pages["index"])
    assert "mybinder" not in pages["index"] and "colab" not in pages["index"]
    # the substitutions of instructors.md
    assert (
        f'<a class="reference external" href="{REPOSITORY}">'
        in (pages["index"])
    )
    index = text(pages["index"])
    assert f"git clone {REPOSITORY} svmbook" in index
    assert f'%pip install "svmlib @ git+{REPOSITORY}"' in index
    assert "(its address is set" not in index and "<repository" not in index

    # unset again: every page is written anew, without the links
    pages = build(book, monkeypatch, url="")
    linked = {name: REMOTE.findall(html) for name, html in pages.items()}
    assert not any(linked.values()), f"links left after unsetting: {linked}"


def configure(theme_options, edition="full"):
    config = SimpleNamespace(
        html_theme_options=theme_options,
        myst_substitutions={"other": "kept"},
        svmbook_edition=edition,
    )
    launch_buttons.configure(None, config)
    return config


BOOK_OPTIONS = {
    "repository_url": "",
    "repository_branch": "main",
    "path_to_docs": "",
    "launch_buttons": {
        "binderhub_url": "https://mybinder.org",
        "colab_url": "https://colab.research.google.com",
    },
    "use_issues_button": False,
}


def test_unset_clears_every_repository_option(monkeypatch):
    monkeypatch.delenv(launch_buttons.VARIABLE, raising=False)
    # jupyter-book's own default address counts as unset
    options = {
        **BOOK_OPTIONS,
        "repository_url": launch_buttons.JUPYTER_BOOK_DEFAULT,
    }
    config = configure(options)
    theme = config.html_theme_options
    assert "repository_url" not in theme and theme["launch_buttons"] == {}
    assert not any(theme[key] for key in launch_buttons.REPOSITORY_BUTTONS)
    assert config.myst_substitutions["other"] == "kept"
    assert config.myst_substitutions["repository_url"] == "<repository URL>"


def test_variable_wins_over_the_config_file(monkeypatch):
    monkeypatch.setenv(launch_buttons.VARIABLE, "https://github.com/a/b")
    options = {**BOOK_OPTIONS, "repository_url": "https://github.com/c/d"}
    theme = configure(options).html_theme_options
    assert theme["repository_url"] == "https://github.com/a/b"
    monkeypatch.setenv(launch_buttons.VARIABLE, "  ")
    theme = configure(options).html_theme_options
    assert theme["repository_url"] == "https://github.com/c/d"
    assert theme["use_repository_button"] is True


def test_colab_only_for_github_and_no_launch_in_the_student_edition(
    monkeypatch,
):
    monkeypatch.setenv(launch_buttons.VARIABLE, "https://gitlab.com/a/b")
    theme = configure(dict(BOOK_OPTIONS)).html_theme_options
    assert theme["repository_provider"] == "gitlab"
    assert theme["launch_buttons"] == {"binderhub_url": "https://mybinder.org"}

    monkeypatch.setenv(launch_buttons.VARIABLE, REPOSITORY)
    theme = configure(dict(BOOK_OPTIONS), edition="student").html_theme_options
    assert theme["launch_buttons"] == {}
    assert theme["use_repository_button"] is True


@pytest.mark.parametrize(
    "value",
    [
        "github.com/a/b",
        "https://example.org/a/b",
        "https://github.com/a",
        "https://github.com/a/b/tree/main",
        "<repository URL>",
    ],
)
def test_bad_address_names_the_setting(monkeypatch, value):
    monkeypatch.setenv(launch_buttons.VARIABLE, value)
    with pytest.raises(ConfigError, match="SVMBOOK_REPOSITORY_URL.*OWNER"):
        configure(dict(BOOK_OPTIONS))
