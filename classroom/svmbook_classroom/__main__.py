"""``python -m svmlib.teaching``: see :mod:`svmlib.teaching.cli`."""

import sys

from svmlib.teaching import main

sys.exit(main())
