# Correct answers, then 12 child processes that each fill 128 MiB and wait:
# 1.5 GiB in all, each process far under the per-process address-space
# limit. Only a limit on the sandbox's memory as a whole (its cgroup, where
# the grader can make one) stops them; bounded so that a grader that
# failed to contain it would not take the machine down.
# cell: square
def square(x):
    return x * x
# cell: root
import os
import time

import numpy as np


def root(x):
    return x**0.5


children = []
for _ in range(12):
    pid = os.fork()
    if pid == 0:
        block = np.ones(128 * 2**20 // 8)
        time.sleep(20)
        os._exit(0)
    children.append(pid)
for pid in children:
    os.waitpid(pid, 0)
