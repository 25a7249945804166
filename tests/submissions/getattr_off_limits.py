# root calls the off-limits math.sqrt through a name computed at run time
# (getattr), which reading the code cannot follow: the grader flags it.
# cell: square
def square(x):
    return x * x
# cell: root
def root(x):
    return getattr(math, "sq" + "rt")(x)
