# Correct answers that try to carry the hidden tests out in the feedback:
# square reads the source of the test that calls it (inspect, linecache)
# and prints it and raises it; the last answer prints In, Out and _ih and
# raises an error holding them.
# cell: square
import inspect
import linecache

seen = []


def square(x):
    for frame in inspect.stack():
        seen.append(str(frame.code_context))
        seen.append("".join(linecache.getlines(frame.filename)))
    print("\n".join(seen))
    return x * x
# cell: root
def root(x):
    return x**0.5


print(In)
print(Out)
print(_ih)
print("\n".join(seen))
raise RuntimeError("\n".join(seen) + repr(In))
