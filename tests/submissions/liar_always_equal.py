# root returns a float subclass equal to everything (and a dict subclass
# for a dict): the probe refuses both as not plain data, root scores 0, and
# the grader flags what root returned.
# cell: square
def square(x):
    return x * x
# cell: root
class AlwaysEqual(float):
    def __eq__(self, other):
        return True

    __hash__ = float.__hash__


def root(x):
    return AlwaysEqual(0.0)
