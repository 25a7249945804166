"""Jupyter server settings for the chapters (README, "Run one chapter").

Read when this folder is on Jupyter's configuration path:
``export JUPYTER_CONFIG_PATH=$PWD/jupyter`` from the repository's folder,
then ``jupyter lab`` or ``jupyter notebook``. Notebooks open as the book
shows them (glued numbers, svmlib's code, see svmbook_jupyter.py) and are
saved as the book's source, without widget state; and the arrow keys
reach ipywidgets sliders and frame players in Notebook 7 too (the small
front-end extension in labextensions/svmbook-jupyter, plain JavaScript).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

c = get_config()  # noqa: F821 - provided by Jupyter when it reads this file
c.ServerApp.contents_manager_class = "svmbook_jupyter.BookViewContentsManager"
# labextensions/svmbook-jupyter: arrow keys for sliders and players in
# Notebook 7 (LabServerApp: both jupyter lab and jupyter notebook read it)
c.LabServerApp.extra_labextensions_path = [
    str(Path(__file__).resolve().parent / "labextensions")
]
