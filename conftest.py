"""pytest settings for the whole book: notebooks run headless, as in the build.

The chapter notebooks are executed by nbval with ``SVMBOOK_HEADLESS=1`` in
the environment, the variable that the book build sets
(``_ext/headless.py``), so the tests execute exactly what the build does.
"""

import os

os.environ["SVMBOOK_HEADLESS"] = "1"
