"""Hidden checks judged outside the student's process.

A hidden test written as ``assert`` statements in a test cell runs inside
the student's kernel, where the student's code can bend it: rebind the
names it compares with, patch the modules it imports, return objects that
claim to be equal to anything, or hook IPython so that its errors vanish.
A *check* is written so that none of that matters:

* a :class:`Probe` names a function of the student's notebook and the
  inputs the grader chooses (plain data: numbers, strings, lists, dicts
  and NumPy arrays). After the student's notebook has run, the grader
  calls the function in the sandboxed kernel on those inputs and writes
  what it returned as plain data only: arrays as ``.npy`` files (saved and
  read with ``allow_pickle=False``), numbers, strings, lists and dicts as
  JSON. Nothing of the student's objects leaves the sandbox: a subclass of
  ``ndarray`` is written as its numbers, a dict as its items (a dict whose
  keys are numbers, not strings, comes back as a dict with Python numbers
  as keys);
* the check's ``judge`` runs in the grader's own process, which never
  executes student code: it computes the reference itself (with svmlib,
  SciPy, ...) and compares it with the data. It raises ``AssertionError``
  when the answer is wrong; the question then scores zero and the student
  reads the check's ``hint``, never the judge's code;
* a probe whose function is missing, raised, timed out or returned
  something that is not plain data scores zero with the student's own
  error message (their traceback's last line).

A probe may run the student's function *graded alone*: ``stand_ins`` is
instructor code, run in a fresh namespace in the kernel, that defines
reference versions of the functions of earlier questions; for the
probe's call they replace the student's versions in the notebook's
namespace (and are put back afterwards), so that a mistake in an earlier
answer costs no points here.

The checks of an assignment live beside its solution notebook:
``assignments/checks/<notebook name>.py`` defines ``CHECKS``, a list of
:class:`Check` (one per autograded question it judges). A question of
that notebook without a check keeps nbgrader's way (its test cell, hidden
tests included, runs in the kernel). The book's page for instructors
(``instructors.md``, "Writing a hidden check") shows a whole example.
"""

import importlib.util
import io
import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

__all__ = ["Check", "Probe", "load_checks"]

#: Largest file of probe results the grader reads, in bytes.
MAX_RESULT_BYTES = 64 * 2**20


@dataclass(frozen=True)
class Probe:
    """One call of a student's function on inputs the grader chooses.

    Parameters
    ----------
    name : str
        The probe's name, unique within its check (the judge finds the
        result under it).
    function : str
        Name of the student's function in the notebook's namespace.
    args : tuple, default=()
        Positional arguments: plain data (numbers, strings, booleans,
        None, lists, tuples, dicts with string keys, NumPy arrays of
        numbers).
    kwargs : dict, default={}
        Keyword arguments, plain data as well.
    stand_ins : str, default=""
        Instructor code that defines reference versions of functions of
        earlier questions; the names it defines that the notebook also
        defines replace the student's versions during the call.

    Attributes
    ----------
    name : str
        The probe's name.
    function : str
        The student's function it calls.
    args : tuple
        Positional arguments.
    kwargs : dict
        Keyword arguments.
    stand_ins : str
        Reference code for the call (graded alone).

    Raises
    ------
    ValueError
        If ``name`` or ``function`` is not an identifier.

    References
    ----------
    The book's page for instructors (``instructors.md``), "Writing a
    hidden check".

    Examples
    --------
    >>> from svmbook_classroom.checks import Probe
    >>> Probe("zero", "square", args=(0.0,)).function
    'square'
    >>> Probe("bad name", "square")
    Traceback (most recent call last):
    ...
    ValueError: name must be an identifier, got 'bad name'.
    """

    name: str
    function: str
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    stand_ins: str = ""

    def __post_init__(self):
        """Check the two names."""
        for what in ("name", "function"):
            value = getattr(self, what)
            if not (isinstance(value, str) and value.isidentifier()):
                raise ValueError(
                    f"{what} must be an identifier, got {value!r}."
                )


@dataclass(frozen=True)
class Check:
    """The hidden check of one autograded question, judged outside.

    Parameters
    ----------
    grade_id : str
        The ``grade_id`` of the question's test cell.
    probes : tuple of Probe
        The calls whose results the judge reads.
    judge : callable
        ``judge(results)`` with ``results`` a dict from probe name to the
        plain data returned (NumPy arrays, Python numbers, strings, lists,
        dicts); it raises ``AssertionError`` if the answer is wrong. It
        runs in the grader's process: it never sees a student's object.
    hint : str
        What the student reads when the check fails.

    Attributes
    ----------
    grade_id : str
        The question's test cell.
    probes : tuple of Probe
        The calls.
    judge : callable
        The decision, outside the student's process.
    hint : str
        The feedback on a failure.

    Raises
    ------
    ValueError
        If two probes share a name.

    References
    ----------
    The book's page for instructors (``instructors.md``), "Writing a
    hidden check".

    Examples
    --------
    >>> import numpy as np
    >>> from svmbook_classroom.checks import Check, Probe
    >>> def judge(results):
    ...     assert np.allclose(results["three"], 9.0)
    >>> check = Check("test_square", (Probe("three", "square", (3.0,)),),
    ...               judge, "square(x) is x times x")
    >>> check.decide({"three": np.float64(9.0)})
    (True, '')
    >>> check.decide({"three": np.float64(6.0)})
    (False, 'square(x) is x times x')
    """

    grade_id: str
    probes: tuple
    judge: object
    hint: str

    def __post_init__(self):
        """Check that the probes' names are unique."""
        names = [probe.name for probe in self.probes]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.grade_id}: two probes share a name.")

    def decide(self, results):
        """Judge the results: (passed, message for the student).

        Parameters
        ----------
        results : dict
            Probe name to plain data.

        Returns
        -------
        passed : bool
            Whether the judge accepted the results.
        message : str
            Empty when passed; otherwise the check's hint, or a note that
            the results do not have the form the check expects.

        References
        ----------
        The book's page for instructors (``instructors.md``), "Writing a
        hidden check".

        Examples
        --------
        >>> from svmbook_classroom.checks import Check
        >>> def judge(results):
        ...     assert results["n"] == 2
        >>> Check("test_n", (), judge, "n is two").decide({"n": "two"})
        (False, 'n is two')
        """
        try:
            self.judge(results)
        except AssertionError:
            return False, self.hint
        except Exception as error:  # results of the wrong shape or type
            return False, (
                f"{self.hint} (the returned values do not have the "
                f"expected form: {type(error).__name__})"
            )
        return True, ""


def load_checks(path):
    """Read the checks of one assignment from its Python file.

    Parameters
    ----------
    path : path-like
        The file (``assignments/checks/<notebook>.py``) that defines
        ``CHECKS``. It is the instructor's code, run in the grader.

    Returns
    -------
    dict
        ``grade_id`` to :class:`Check`; empty when the file does not
        exist.

    Raises
    ------
    ValueError
        If the file does not define ``CHECKS`` as a list of Check, or two
        checks judge the same question.

    References
    ----------
    The book's page for instructors (``instructors.md``), "Writing a
    hidden check".

    Examples
    --------
    >>> from svmbook_classroom.checks import load_checks
    >>> load_checks("no/such/file.py")
    {}
    """
    path = Path(path)
    if not path.is_file():
        return {}
    spec = importlib.util.spec_from_file_location(
        f"_svmbook_checks_{path.stem.replace('-', '_')}", path
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    checks = getattr(module, "CHECKS", None)
    if not isinstance(checks, list) or not all(
        isinstance(check, Check) for check in checks
    ):
        raise ValueError(f"{path} must define CHECKS, a list of Check.")
    by_id = {check.grade_id: check for check in checks}
    if len(by_id) != len(checks):
        raise ValueError(f"{path}: two checks judge the same question.")
    return by_id


def checks_file(source_notebook):
    """Path of the checks of a solution notebook (may not exist)."""
    source_notebook = Path(source_notebook)
    return source_notebook.parent / "checks" / f"{source_notebook.stem}.py"


# ---------------------------------------------------------------------------
# Inputs, written by the grader for the kernel
# ---------------------------------------------------------------------------


def _encode_input(value, folder, counter):
    """Plain data to a JSON-able description (arrays to .npy files)."""
    if isinstance(value, np.ndarray):
        if value.dtype == object:
            raise ValueError("probe inputs must be arrays of numbers")
        name = f"in{len(counter)}.npy"
        counter.append(name)
        np.save(folder / name, value, allow_pickle=False)
        return {"array": name}
    if isinstance(value, np.generic):
        return {"value": value.item()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return {"value": value}
    if isinstance(value, (list, tuple)):
        return {
            "tuple" if isinstance(value, tuple) else "list": [
                _encode_input(v, folder, counter) for v in value
            ]
        }
    if isinstance(value, dict):
        return {
            "dict": {
                str(k): _encode_input(v, folder, counter)
                for k, v in value.items()
            }
        }
    raise ValueError(f"probe inputs must be plain data, got {type(value)}")


def write_inputs(probe, folder):
    """Write a probe's inputs into ``folder``; return its JSON description."""
    folder.mkdir(parents=True, exist_ok=True)
    counter = []
    return {
        "args": [_encode_input(a, folder, counter) for a in probe.args],
        "kwargs": {
            k: _encode_input(v, folder, counter)
            for k, v in probe.kwargs.items()
        },
    }


#: The code run in the kernel for one probe: calls the student's function
#: on the inputs and writes its result as plain data. Formatted with
#: ``inputs``, ``folder``, ``function`` and ``stand_ins`` (reprs).
RUNNER = """
def _svmbook_probe():
    import json as _json
    import os as _os
    import traceback as _traceback

    import numpy as _np

    folder = {folder}
    names = [0]

    def load(item):
        if "array" in item:
            return _np.load(_os.path.join(folder, item["array"]),
                            allow_pickle=False)
        if "value" in item:
            return item["value"]
        if "tuple" in item:
            return tuple(load(v) for v in item["tuple"])
        if "list" in item:
            return [load(v) for v in item["list"]]
        return {{k: load(v) for k, v in item["dict"].items()}}

    def key(k):
        if isinstance(
            k, (int, float, _np.integer, _np.floating)
        ) and not isinstance(k, bool):
            number = _np.asarray(k)
            if number.shape == () and number.dtype.kind in "iuf":
                return number.item()
        raise TypeError("a dict whose keys are not all strings or numbers")

    def plain(value, depth=0):
        if depth > 8:
            raise TypeError("nested too deeply")
        if isinstance(value, (bool, _np.bool_)):
            return {{"value": bool(value)}}
        if isinstance(value, (int, float, _np.integer, _np.floating)):
            array = _np.asarray(value)
            if array.dtype.kind not in "biuf":
                raise TypeError(f"{{type(value).__name__}} is not a number")
            value = array
        if isinstance(value, _np.ndarray):
            array = _np.array(_np.asarray(value), copy=True, subok=False)
            if array.dtype.kind not in "biufc":
                raise TypeError(f"an array of {{array.dtype}}, not numbers")
            names[0] += 1
            name = f"out{{names[0]}}.npy"
            _np.save(_os.path.join(folder, name), array, allow_pickle=False)
            return {{"array": name}}
        if value is None or type(value) is str:
            return {{"value": value}}
        if isinstance(value, (list, tuple)):
            return {{"list": [plain(v, depth + 1) for v in list(value)]}}
        if isinstance(value, dict):
            items = list(dict.items(value))
            if all(type(k) is str for k, _ in items):
                return {{"dict": {{k: plain(v, depth + 1) for k, v in items}}}}
            return {{"pairs": [[key(k), plain(v, depth + 1)]
                              for k, v in items]}}
        raise TypeError(f"{{type(value).__name__}} is not plain data")

    spec = {inputs}
    namespace = globals()
    stand_ins = {{}}
    swapped, saved, missing = {{}}, {{}}, []
    try:
        if {stand_ins}:
            exec(compile({stand_ins}, "<stand-ins>", "exec"), stand_ins)
        swapped = {{
            k: v for k, v in stand_ins.items()
            if getattr(getattr(v, "__code__", None), "co_filename", "")
            == "<stand-ins>"
        }}
        if {function} not in namespace:
            raise NameError("name " + repr({function}) + " is not defined")
        function = namespace[{function}]
        saved = {{k: namespace[k] for k in swapped if k in namespace}}
        missing = [k for k in swapped if k not in namespace]
        namespace.update(swapped)
        try:
            result = function(
                *[load(a) for a in spec["args"]],
                **{{k: load(v) for k, v in spec["kwargs"].items()}},
            )
            out = {{"result": plain(result)}}
        finally:
            namespace.update(saved)
            for k in missing:
                namespace.pop(k, None)
    except BaseException as error:
        lines = _traceback.format_exception_only(type(error), error)
        out = {{"error": "".join(lines).strip()[-500:]}}
    with open(_os.path.join(folder, "result.json"), "w") as handle:
        _json.dump(out, handle)


_svmbook_probe()
del _svmbook_probe
"""


def runner_code(probe, folder, inputs):
    """Return the kernel code of one probe (see ``RUNNER``)."""
    return RUNNER.format(
        folder=repr(str(folder)),
        inputs=repr(inputs),
        function=repr(probe.function),
        stand_ins=repr(probe.stand_ins),
    )


# ---------------------------------------------------------------------------
# Results, read by the grader
# ---------------------------------------------------------------------------


class ResultError(ValueError):
    """The results of a probe are missing or malformed."""


def _read_bytes(path):
    """Return a regular file's bytes (no links), at most MAX_RESULT_BYTES."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError as error:
        raise ResultError(f"no result file ({error.strerror})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ResultError("the result is not a regular file")
        if info.st_size > MAX_RESULT_BYTES:
            raise ResultError("the result is too large")
        with os.fdopen(fd, "rb", closefd=False) as handle:
            return handle.read(MAX_RESULT_BYTES + 1)
    finally:
        os.close(fd)


def _decode(item, folder, depth=0):
    if depth > 10 or not isinstance(item, dict) or len(item) != 1:
        raise ResultError("malformed result")
    ((kind, value),) = item.items()
    if kind == "array":
        if not (isinstance(value, str) and value.endswith(".npy")):
            raise ResultError("malformed result")
        if os.path.basename(value) != value:
            raise ResultError("malformed result")
        data = _read_bytes(folder / value)
        try:
            array = np.load(io.BytesIO(data), allow_pickle=False)
        except Exception as error:
            raise ResultError(f"unreadable array ({error})") from None
        if not isinstance(array, np.ndarray) or array.dtype.kind not in (
            "biufc"
        ):
            raise ResultError("not an array of numbers")
        return array
    if kind == "value":
        if value is None or isinstance(value, (bool, str)):
            return value
        if isinstance(value, (int, float)):
            return value
        raise ResultError("malformed result")
    if kind == "list" and isinstance(value, list):
        return [_decode(v, folder, depth + 1) for v in value]
    if kind == "dict" and isinstance(value, dict):
        return {
            str(k): _decode(v, folder, depth + 1) for k, v in value.items()
        }
    if kind == "pairs" and isinstance(value, list):
        pairs = {}
        for pair in value:
            if not (
                isinstance(pair, list)
                and len(pair) == 2
                and isinstance(pair[0], (int, float))
                and not isinstance(pair[0], bool)
            ):
                raise ResultError("malformed result")
            pairs[pair[0]] = _decode(pair[1], folder, depth + 1)
        return pairs
    raise ResultError("malformed result")


def read_result(folder):
    """Return the plain data of one probe, or raise ResultError.

    A probe whose function raised gives a ResultError with the student's
    own error message.
    """
    folder = Path(folder)
    try:
        record = json.loads(_read_bytes(folder / "result.json"))
    except ValueError as error:
        if isinstance(error, ResultError):
            raise
        raise ResultError("the result is not JSON") from None
    if not isinstance(record, dict) or len(record) != 1:
        raise ResultError("malformed result")
    if "error" in record:
        raise ResultError(str(record["error"]))
    if "result" not in record:
        raise ResultError("malformed result")
    return _decode(record["result"], folder)
