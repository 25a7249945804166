"""Jupyter server settings for the chapters (README, "Run one chapter").

Read when this folder is on Jupyter's configuration path:
``export JUPYTER_CONFIG_PATH=$PWD/jupyter`` from the repository's folder,
then ``jupyter lab`` or ``jupyter notebook``. Notebooks open as the book
shows them (glued numbers, svmlib's code, see svmbook_jupyter.py) and are
saved as the book's source, without widget state.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

c = get_config()  # noqa: F821 - provided by Jupyter when it reads this file
c.ServerApp.contents_manager_class = "svmbook_jupyter.BookViewContentsManager"
