# Correct answers, then a fork bomb in the square cell: children that
# sleep for two minutes. Bounded at 300 processes, so that a grader that
# failed to contain it would not take the machine down; the grader's
# process limit (smaller in the test) must stop it, and the children must
# end with the sandbox.
# cell: square
import os
import time


def square(x):
    return x * x


for _ in range(300):
    if os.fork() == 0:
        time.sleep(120)
        os._exit(0)
# cell: root
def root(x):
    return x**0.5
