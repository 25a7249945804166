# Correct answers, then files of 64 MiB each written to /dev/shm (memory
# on the grading machine, not disk), up to 4 GiB in all: each file is under
# the file-size limit, so only the size of the sandbox's /dev/shm stops
# them. Bounded at 64 files so that a grader that failed to contain it
# would not take the machine down.
# cell: square
def square(x):
    return x * x
# cell: root
def root(x):
    return x**0.5


for k in range(64):
    with open(f"/dev/shm/block{k}", "wb") as handle:
        handle.write(b"\1" * 64 * 2**20)
