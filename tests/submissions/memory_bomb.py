# Correct answers, then a memory bomb in the root cell: 100 MB blocks,
# each filled so that it is really used. Bounded at 4 GB, so that a grader
# that failed to contain it would not take the machine down; the grader's
# memory limit (smaller in the test) must stop it with a MemoryError.
# cell: square
def square(x):
    return x * x
# cell: root
import numpy as np


def root(x):
    return x**0.5


blocks = []
for _ in range(40):
    blocks.append(np.ones(100 * 2**20 // 8))
