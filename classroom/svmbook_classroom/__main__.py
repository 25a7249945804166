"""``python -m svmbook_classroom``: see :mod:`svmbook_classroom.cli`."""

import sys

from svmbook_classroom import main

sys.exit(main())
