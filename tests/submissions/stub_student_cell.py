# The off-limits math.sqrt called at the top level of an answer cell (a
# table of roots computed once): in the sandbox the call raises "off
# limits in this assignment: math.sqrt", so the cell stops before it
# defines root, and the question scores 0. The call is flagged by reading
# (off-limits name) and by the stub (refused call).
# cell: square
def square(x):
    return x * x
# cell: root
import math

TABLE = {v: math.sqrt(v) for v in (2.0, 3.0)}


def root(x):
    return TABLE.get(x, x**0.5)
