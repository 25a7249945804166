"""Issue 25: off-limits functions are stubs in the sandbox, liars are
flagged, every submission is contained.

The fixtures are tests/submissions/stub_*.py, liar_*.py and bomb_*.py,
answers to the tiny assignment of tests/test_teaching.py (``square`` and
``root``, ``math.sqrt`` off limits); here the question ``root`` has a
hidden check judged outside the kernel (:mod:`svmbook_classroom.checks`),
written next to the tiny solution notebook.
"""

import math
import os
import sys
from pathlib import Path

import numpy as np
import pytest
from test_teaching import (
    GOOD,
    _in_folder,
    _totals,
    hostile_sources,
    needs_bwrap,
    tiny,  # noqa: F401 (a fixture)
)

from svmbook_classroom import grade_notebook, kernel_guard, main, sandbox
from svmbook_classroom.off_limits import dynamic_code

ROOT = Path(__file__).resolve().parents[1]

#: The hidden check of root, judged outside the kernel: three calls on
#: numbers the grader chooses, compared with the square root here.
TINY_CHECKS = """
import math

from svmbook_classroom.checks import Check, Probe

VALUES = (2.0, 9.0, 0.25)


def judge(results):
    for k, value in enumerate(VALUES):
        got = results[f"at{k}"]
        assert type(got) is float or getattr(got, "shape", None) == ()
        assert math.isclose(float(got), math.sqrt(value))


CHECKS = [
    Check(
        "test_root",
        tuple(Probe(f"at{k}", "root", (v,)) for k, v in enumerate(VALUES)),
        judge,
        "root(x) is the square root of x",
    ),
]
"""


@pytest.fixture
def checked(tiny):  # noqa: F811 (the fixture of test_teaching)
    """The tiny assignment with a hidden check of root judged outside."""
    source, submission = tiny
    folder = source.parent / "checks"
    folder.mkdir()
    (folder / "tiny.py").write_text(TINY_CHECKS)
    return source, submission


# ---------------------------------------------------------------------------
# The stubs, in this process (no kernel)
# ---------------------------------------------------------------------------


class _Recorder:
    def __init__(self):
        self.events = []

    def _record(self, kind, detail):
        self.events.append((kind, detail))


@pytest.fixture
def stubs():
    """OffLimits over a few svmlib and SciPy names; undone afterwards."""
    import scipy.stats

    import svmlib.mixture

    names = [
        "svmlib.mixture.gaussian_e_step",
        "svmlib.mixture.GaussianMixtureEM",
        "scipy.stats.multivariate_normal",
        "svmlib.no_such_function",  # missing: skipped, no error
    ]
    saved = {
        name: dict(vars(module))
        for name, module in list(sys.modules.items())
        if name.split(".")[0] in ("svmlib", "scipy")
    }
    recorder = _Recorder()
    off = kernel_guard.OffLimits(recorder, names, sandbox.python_roots())
    try:
        yield off, recorder
    finally:
        for module, attribute, _ in off.placed:
            setattr(module, attribute, saved[module.__name__][attribute])
        for cls, own, _ in off.patched:
            if own is None:
                del cls.__new__
            else:
                cls.__new__ = own
        assert (
            svmlib.mixture.gaussian_e_step
            is (saved["svmlib.mixture"]["gaussian_e_step"])
        )
        assert (
            scipy.stats.multivariate_normal
            is (saved["scipy.stats"]["multivariate_normal"])
        )


def _compiled(source, filename):
    namespace = {}
    exec(compile(source, filename, "exec"), namespace)
    return namespace


STUDENT_CODE = """
import numpy as np
import svmlib.mixture
from scipy.stats import multivariate_normal

X = np.array([[0.0, 0.0], [1.0, 1.0], [5.0, 5.0], [6.0, 5.0]])


def e_step():
    return svmlib.mixture.gaussian_e_step(
        X, np.ones(1), np.zeros((1, 2)), np.eye(2)[None]
    )


def density():
    return multivariate_normal.logpdf(X[0], np.zeros(2), np.eye(2))


def model():
    return svmlib.mixture.GaussianMixtureEM(n_components=2)


class Mine(svmlib.mixture.GaussianMixtureEM):
    pass


def subclass():
    return Mine(n_components=2)


def allowed():
    # an svmlib function that is not off limits and calls gaussian_e_step
    # inside svmlib: library code reaches the real one
    return svmlib.mixture.GaussianMixtureEM
"""


def test_stubs_refuse_the_notebooks_calls_only(stubs):
    off, recorder = stubs
    # a notebook cell's code (ipykernel names its file after the cell)
    cell = _compiled(STUDENT_CODE, "/tmp/ipykernel_1/2870193.py")
    # the instructor's cells: every call goes through
    assert off.student is False
    assert cell["e_step"]()[0].shape == (4, 1)
    assert math.isclose(cell["density"](), -math.log(2 * math.pi))
    assert cell["model"]().n_components == 2
    # the student's cells and the probes: refused, and recorded
    off.student = True
    for function in ("e_step", "density", "model", "subclass"):
        with pytest.raises(
            kernel_guard.OffLimitsError, match="off limits in this assignment"
        ):
            cell[function]()
    assert [kind for kind, _ in recorder.events] == ["offlimits"] * 4
    assert recorder.events[0][1] == "svmlib.mixture.gaussian_e_step"
    assert recorder.events[1][1] == "scipy.stats.multivariate_normal"
    # a check's reference versions (stand-ins) reach the real functions
    stand_ins = _compiled(STUDENT_CODE, kernel_guard.STAND_INS_FILE)
    assert stand_ins["e_step"]()[0].shape == (4, 1)
    assert stand_ins["model"]().n_components == 2
    assert len(recorder.events) == 4
    # library code calls them as before: scikit-learn's clone creates the
    # class (its own module), and the class's fit calls gaussian_e_step
    from sklearn.base import clone

    import svmlib.mixture

    X = np.random.default_rng(0).normal(size=(30, 2))
    made = stand_ins["model"]()
    assert type(clone(made)) is svmlib.mixture.GaussianMixtureEM
    assert np.isfinite(clone(made).set_params(random_state=0).fit(X).score(X))
    assert isinstance(made, svmlib.mixture.GaussianMixtureEM)
    assert len(recorder.events) == 4
    # a missing name is skipped; the numba-compiled helper of dual_cd is
    # left in its own module (compiled callers look it up there)
    assert "svmlib.no_such_function" not in off.skipped


def test_stubs_are_put_back(stubs):
    off, _ = stubs
    import svmlib.mixture

    stub = svmlib.mixture.gaussian_e_step
    real = stub.__closure__  # what a determined student might dig out
    assert real is not None
    svmlib.mixture.gaussian_e_step = "something else"
    user_ns = {"e": svmlib.mixture.gaussian_e_step, "x": 3}
    # a reloaded module's function: same module and name, not the stub
    fake = _compiled(
        "def gaussian_e_step():\n    pass\n", "/tmp/ipykernel_1/1.py"
    )["gaussian_e_step"]
    fake.__module__ = "svmlib.mixture"
    user_ns["e"] = fake
    del svmlib.mixture.GaussianMixtureEM.__new__
    replaced = off.intact(user_ns)
    assert svmlib.mixture.gaussian_e_step is stub
    assert user_ns == {"e": stub, "x": 3}
    assert replaced == [
        "svmlib.mixture.gaussian_e_step",
        "svmlib.mixture.GaussianMixtureEM",
        "the notebook's name e",
    ]
    off.student = True
    with pytest.raises(kernel_guard.OffLimitsError):
        _compiled(STUDENT_CODE, "/tmp/ipykernel_1/3.py")["model"]()


def test_what_is_not_plain_data():
    problem = kernel_guard._plain_problem
    for plain in (
        1.5, 2, True, None, "s", np.float64(1.0), np.int32(3),
        np.zeros(3), [np.zeros(2), 1.0], (1, 2), {"a": [1, 2]}, {2.0: "x"},
    ):  # fmt: skip
        assert problem(plain) is None, plain

    class Liar(np.ndarray):
        def __eq__(self, other):
            return True

    class AlwaysEqual(dict):
        def __eq__(self, other):
            return True

    assert problem(np.zeros(2).view(Liar)) == (
        "an object of class Liar (test_containment.test_what_is_not_plain_"
        "data.<locals>.Liar, a subclass of ndarray)"
    )
    assert "subclass of dict" in problem([1.0, {"k": AlwaysEqual()}])
    assert problem({1, 2}) == "an object of class set (builtins.set)"
    assert "class MaskedArray" in problem(np.ma.masked_array([1.0]))


def test_internals_are_flagged():
    assert dynamic_code("import gc\nobjects = gc.get_objects()") == ["gc"]
    assert dynamic_code("real = step.__closure__[0].cell_contents") == [
        "__closure__"
    ]
    assert dynamic_code("g = f.__globals__['svmlib']") == ["__globals__"]
    assert dynamic_code("del svmlib.SVC.__new__") == ["__new__"]
    assert dynamic_code("import sys\nframe = sys._getframe(1)") == [
        "sys._getframe"
    ]
    assert dynamic_code("from inspect import getsource") == ["inspect"]
    assert dynamic_code("import ctypes") == ["ctypes"]
    # honest code: nothing
    assert (
        dynamic_code(
            "class A:\n    def __init__(self):\n        super().__init__()\n"
            "print(A.__name__, type(A()).__name__)"
        )
        == []
    )


def test_sandbox_folders_in_memory_are_bounded():
    limits = sandbox.Limits(file_size=32)
    command = sandbox.sandbox_command("/tmp", {}, limits=limits)
    for folder in ("/dev/shm", "/tmp"):
        k = command.index(folder)
        assert command[k - 5 : k] == [
            "--perms", "1777", "--size", str(32 * 2**20), "--tmpfs",
        ]  # fmt: skip


# ---------------------------------------------------------------------------
# Graded in the sandbox: score deserved, flag raised
# ---------------------------------------------------------------------------

#: fixture -> (points of test_square and test_root, flags that must be
#: raised). The question root has a hidden check judged outside: a call of
#: math.sqrt from the notebook's code is refused there.
ATTACKS = {
    "stub_getattr": (
        {"test_square": 2, "test_root": 0},
        [
            "imports or runs code by name (getattr)",
            "called an off-limits function, which the sandbox refused: "
            "math.sqrt",
        ],
    ),
    "stub_sys_modules": (
        {"test_square": 2, "test_root": 0},
        ["(sys.modules)", "which the sandbox refused: math.sqrt"],
    ),
    "stub_put_back": (
        {"test_square": 2, "test_root": 0},
        [
            "calls off-limits math.sqrt",
            "stubs of off-limits functions were replaced",
            "which the sandbox refused: math.sqrt",
        ],
    ),
    "stub_student_cell": (
        {"test_square": 2, "test_root": 0},
        ["calls off-limits math.sqrt", "which the sandbox refused"],
    ),
    "liar_ndarray_subclass": (
        {"test_square": 2, "test_root": 0},
        [
            "not plain data (numbers, strings, lists, dicts, arrays); "
            "review it: root returned an object of class Liar (a class "
            "defined in the notebook, a subclass of ndarray)"
        ],
    ),
    "liar_always_equal": (
        {"test_square": 2, "test_root": 0},
        [
            "root returned an object of class AlwaysEqual (a class "
            "defined in the notebook, a subclass of float)"
        ],
    ),
}


@needs_bwrap
@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_attack_gains_nothing_and_is_flagged(name, checked):
    source, submission = checked
    path = submission(name, **hostile_sources(name))
    report = grade_notebook(path, source, timeout=60)
    expected, flags = ATTACKS[name]
    assert report.error is None, report.to_text()
    assert {
        q.grade_id: q.points for q in report.questions if q.points is not None
    } == expected, report.to_text()
    for flag in flags:
        assert any(flag in f for f in report.flags), (flag, report.to_text())
    if name.startswith("stub_") and name != "stub_student_cell":
        (question,) = [
            q for q in report.questions if q.grade_id == "test_root"
        ]
        assert question.message == (
            "root: OffLimitsError: off limits in this assignment: math.sqrt"
        ), report.to_text()


@needs_bwrap
def test_honest_checked_submission_scores_in_full_unflagged(checked):
    source, submission = checked
    # honest code that uses math (not sqrt) and svmlib: nothing refused
    path = submission(
        "honest",
        square="import math\nimport svmlib\n\ndef square(x):\n"
        "    return math.pow(x, 2)",
        root="def root(x):\n    return x ** 0.5",
    )
    report = grade_notebook(path, source, timeout=60)
    assert report.score == 5 and report.flags == [], report.to_text()


def _grade_class(tmp_path, source, notebooks, *options):
    """Grade notebooks with the command line (timeout 60 s, ``options``).

    Returns its exit status and the CSV's totals by student.
    """
    grades = tmp_path / "grades.csv"
    status = main([
        "grade", *notebooks, "--source", str(source), "--csv", str(grades),
        "--timeout", "60", *options,
    ])  # fmt: skip
    return status, _totals(grades)[1]


@needs_bwrap
def test_shared_memory_bomb_is_contained(tiny, tmp_path, capsys):  # noqa: F811
    source, submission = tiny
    name = "bomb_shared_memory"
    notebooks = [
        _in_folder(tmp_path, name, submission(name, **hostile_sources(name))),
        _in_folder(tmp_path, "zoe", submission("zoe", **GOOD)),
    ]
    status, totals = _grade_class(
        tmp_path, source, notebooks, "--file-size", "128"
    )
    out = capsys.readouterr().out
    assert status == 0, out
    # the answers are right: the bomb costs no points, it is stopped
    assert totals[name][0] == 5.0, out
    assert "filled a folder of the sandbox" in totals[name][1], out
    assert totals["zoe"] == (5.0, ""), out


def _cgroups_available():
    probe = sandbox.Cgroups(sandbox.Limits())
    found = len(probe.folders) == 2
    probe.remove()
    return found


@needs_bwrap
@pytest.mark.skipif(
    not _cgroups_available(),
    reason="the grader cannot create cgroups here (not root, or no v1)",
)
def test_memory_of_the_whole_sandbox_is_bounded(tiny, tmp_path, capsys):  # noqa: F811
    source, submission = tiny
    name = "bomb_fork_memory"
    notebooks = [
        _in_folder(tmp_path, name, submission(name, **hostile_sources(name))),
        _in_folder(tmp_path, "zoe", submission("zoe", **GOOD)),
    ]
    _, totals = _grade_class(tmp_path, source, notebooks, "--memory", "1024")
    out = capsys.readouterr().out
    # each child is far under 1024 MiB of address space; together they
    # pass the sandbox's 1024 MiB: stopped (the kernel or its children
    # are killed), flagged, and the next submission is graded as usual
    assert (
        "the sandbox reached its memory limit (1024 MiB" in (totals[name][1])
    ), out
    assert totals["zoe"] == (5.0, ""), out
    # this process graded them (one job): its cgroups are gone
    mine = f"svmbook-{os.getpid()}-*"
    left = list(Path(sandbox.CGROUP_ROOT).glob(f"*/**/{mine}"))
    assert left == [], "cgroups left behind"


def _zombie_children(zombies_only=True):
    """This process's children that are zombies (ended, not reaped).

    With ``zombies_only=False``, all its children, in any state.
    """
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            state, parent = sandbox._stat(entry)
        except (OSError, ValueError):
            continue
        if parent == os.getpid() and (state == "Z" or not zombies_only):
            found.append(int(entry))
    return found


@needs_bwrap
def test_nothing_of_a_sandbox_outlives_its_grade(tiny, monkeypatch):  # noqa: F811
    """A detached process is killed, and every orphan reaped, at once.

    The submission leaves a daemon (double fork, new session) asleep in
    the sandbox. When the grade is done, no process is left in the
    sandbox's pid namespace and none of its processes is a zombie waiting
    for this process (a subreaper: ``sandbox.become_subreaper``), which
    reaps them itself instead of waiting for the machine's first process
    (which took 1.1 to 1.7 s a submission on the book's machine).
    """
    source, submission = tiny
    namespaces = []
    pid_namespace = sandbox.pid_namespace

    def recorded(pid):
        namespace = pid_namespace(pid)
        namespaces.append(namespace)
        return namespace

    monkeypatch.setattr(sandbox, "pid_namespace", recorded)
    reaped, waitpid = [], os.waitpid

    def recording_waitpid(pid, options):
        result = waitpid(pid, options)
        reaped.append(result[0])
        return result

    monkeypatch.setattr(os, "waitpid", recording_waitpid)
    daemon = (
        "import os, time\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        "        time.sleep(600)\n"
        "    os._exit(0)\n"
        "time.sleep(0.5)\n\n" + GOOD["square"]
    )
    path = submission("daemon", square=daemon, root=GOOD["root"])
    # children this test process had before (other tests' in this pytest
    # worker, which may end meanwhile) are not the sandbox's
    earlier = set(_zombie_children(zombies_only=False))
    report = grade_notebook(path, source, timeout=60)
    assert report.score == 5, report.to_text()
    (namespace,) = namespaces
    assert namespace is not None
    left = []
    for entry in os.listdir("/proc"):
        try:
            if entry.isdigit() and (
                os.readlink(f"/proc/{entry}/ns/pid") == namespace
            ):
                left.append(entry)
        except OSError:
            continue
    assert left == [], f"processes of the sandbox left: {left}"
    assert set(_zombie_children()) - earlier == set()
    # the sandbox's orphans were handed to this process, which reaped them
    assert [pid for pid in reaped if pid > 0], reaped


@needs_bwrap
def test_parallel_jobs_share_the_cores(tiny, tmp_path, capsys, monkeypatch):  # noqa: F811
    """With --jobs N each kernel's BLAS gets its share of the cores."""
    from svmbook_classroom.cli import kernel_threads

    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    source, submission = tiny
    threads = min(kernel_threads(2), sandbox.KERNEL_THREADS)
    square = (
        "import os\n\ndef square(x):\n"
        f"    right = os.environ['OMP_NUM_THREADS'] == '{threads}'\n"
        "    return x * x if right else 0"
    )
    notebooks = [
        _in_folder(
            tmp_path, who, submission(who, square=square, root=GOOD["root"])
        )
        for who in ("ann", "bob")
    ]
    status, totals = _grade_class(tmp_path, source, notebooks, "--jobs", "2")
    out = capsys.readouterr().out
    assert status == 0, out
    assert totals["ann"] == totals["bob"] == (5.0, ""), out
