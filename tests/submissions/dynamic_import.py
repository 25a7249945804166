# root reaches the off-limits function through importlib, which reading the
# code cannot follow: the grader flags it for a person to review.
# cell: square
def square(x):
    return x * x
# cell: root
import importlib

library = importlib.import_module("ma" + "th")


def root(x):
    return getattr(library, "sq" + "rt")(x)
