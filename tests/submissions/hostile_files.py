# Correct answers, and attempts to read the hidden tests, delete another
# student's submission and write a file two folders up (each attempt's
# error swallowed so that the answers still run).
# cell: square
import os


def square(x):
    return x * x


for attempt in (
    lambda: open({source!r}).read(),
    lambda: os.remove({victim!r}),
    lambda: open("../../escaped.txt", "w").write("was here"),
):
    try:
        attempt()
    except OSError:
        pass
# cell: root
def root(x):
    return x**0.5
