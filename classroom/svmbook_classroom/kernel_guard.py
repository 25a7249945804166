"""What the grader runs inside a submission's kernel, before the student's.

The grader does not import this module in the kernel (that would load
nbgrader there); it sends this file's source and calls ``install``.
The module uses the standard library and IPython only.

``install`` does three things:

* **an audit hook** (``sys.addaudithook``, PEP 578; it cannot be removed
  once added) that records what the code in the kernel tries to do outside
  its own folder: files read outside the allowed roots, files written,
  renamed or deleted outside its working folder, network connections and
  new processes;
* **a baseline** of everything a submission could bend to pass tests it
  does not pass: IPython's input and AST transformers and custom exception
  handler, ``sys.excepthook``, overridden methods of the shell, the test
  helpers of ``numpy``, ``numpy.testing`` and ``math`` and the builtins;
* a **guard object** the grader calls between cells: it records the names
  that read-only (given) cells define, and before every test cell it puts
  back the baseline and those names, and notes what it had to put back.

Everything runs in the student's process, so a determined attacker can
hide from it (the instructors' page says so); the sandbox around the
kernel (:mod:`svmbook_classroom.sandbox`) is what keeps other files out of
reach. What this module adds is that the usual tricks are undone before the
tests run and flagged for review.
"""

import builtins
import importlib
import json
import os
import sys
import types

# Nothing here is for users: the grader sends this file's source to the
# kernel and calls install (see svmbook_classroom.grading).
__all__ = []

#: Audit events that write, rename or delete a file (their first argument,
#: and the second for a rename, is a path).
WRITE_EVENTS = frozenset(
    {
        "os.remove", "os.rmdir", "os.rename", "os.mkdir", "os.truncate",
        "os.chmod", "os.chown", "os.link", "os.symlink", "os.utime",
        "shutil.rmtree", "shutil.move", "shutil.copyfile", "shutil.copytree",
    }
)  # fmt: skip
#: Audit events that list a folder (their first argument is the path).
LIST_EVENTS = frozenset({"os.listdir", "os.scandir", "glob.glob"})
#: Audit events that reach for the network.
NETWORK_EVENTS = frozenset(
    {
        "socket.connect", "socket.sendto", "socket.getaddrinfo",
        "socket.gethostbyname", "urllib.Request", "http.client.connect",
    }
)  # fmt: skip
#: Audit events that start another program.
PROCESS_EVENTS = frozenset(
    {
        "subprocess.Popen", "os.system", "os.exec", "os.posix_spawn",
        "os.spawn", "os.fork", "os.forkpty", "pty.spawn",
    }
)  # fmt: skip
#: Open flags that make an ``open`` event a write.
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND

#: Module attributes that tests rely on, by module name.
WATCHED = {
    "numpy": (
        "allclose", "isclose", "array_equal", "array_equiv", "all", "any",
        "isfinite", "isnan", "abs", "sum", "mean", "max", "min", "sign",
    ),
    "numpy.testing": (
        "assert_allclose", "assert_array_equal", "assert_array_almost_equal",
        "assert_almost_equal", "assert_equal", "assert_array_less",
        "assert_raises",
    ),
    "math": ("isclose", "isfinite", "isnan", "fabs"),
}  # fmt: skip
#: Methods of IPython's shell that run or report a cell.
SHELL_METHODS = (
    "run_cell", "run_cell_async", "run_ast_nodes", "run_code",
    "transform_cell", "transform_ast", "showtraceback", "showsyntaxerror",
    "_showtraceback",
)  # fmt: skip
#: The most events of one kind kept (a loop of attempts is one finding).
MAX_EVENTS = 50


#: Builtins that ipykernel itself replaces for every request (to forward
#: input to the front end).
PER_REQUEST_BUILTINS = frozenset({"input", "raw_input", "getpass"})
#: Names IPython itself rebinds after every cell (history, output cache).
IPYTHON_NAMES = frozenset({"In", "Out", "exit", "quit", "get_ipython"})


def _same(a, b):
    """Identity, or equality for bound methods (a new object per access)."""
    return a is b or (hasattr(a, "__self__") and a == b)


def _under(path, roots):
    return any(path == r or path.startswith(r + os.sep) for r in roots)


def _import_watched():
    """Import the watched modules that are installed.

    This happens before any student cell runs: a module first imported by a
    student could be patched before the guard ever saw its functions.
    """
    for name in WATCHED:
        try:
            importlib.import_module(name)
        except ImportError:
            pass


class Guard:
    """Baseline, audit log and checks of one kernel (see the module)."""

    def __init__(self, shell, read_roots, write_roots):
        self.shell = shell
        self.read_roots = tuple(os.path.realpath(r) for r in read_roots)
        self.write_roots = tuple(os.path.realpath(r) for r in write_roots)
        self.events = []
        self.findings = []
        self.given = {}  # names defined by read-only cells -> objects
        self._before = {}
        self._realpath = os.path.realpath
        self._dumps = json.dumps
        self._write = sys.stdout.write
        self.off_limits = None  # OffLimits, once install has placed them
        self._watched = None
        _import_watched()  # so that the baseline holds the real functions
        self.baseline = self._state()

    # -- the audit hook ----------------------------------------------------

    def audit(self, event, args):
        """Record attempts outside the allowed roots (the audit hook)."""
        if event == "open":
            path, mode, flags = (tuple(args) + (None, None))[:3]
            writing = any(c in (mode or "") for c in "wax+") or bool(
                (flags or 0) & _WRITE_FLAGS
            )
            self._check_path(path, writing)
        elif event in LIST_EVENTS:
            self._check_path(args[0] if args else ".", False)
        elif event in WRITE_EVENTS:
            self._check_path(args[0] if args else None, True)
            if event in ("os.rename", "shutil.move") and len(args) > 1:
                self._check_path(args[1], True)
        elif event in NETWORK_EVENTS:
            self._record("network", f"{event} {args[1:2] or args[:1]!r}")
        elif event in PROCESS_EVENTS:
            self._record("process", f"{event} {args[:2]!r}")
        elif event == "sys.addaudithook":
            self._record("tamper", "added an audit hook")

    def _check_path(self, path, writing):
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        if not isinstance(path, str) or path in ("/dev/null", ""):
            return  # a file descriptor, or nothing to check
        full = self._realpath(path)
        if writing and not _under(full, self.write_roots):
            self._record("write", full)
        elif not writing and not _under(full, self.read_roots):
            self._record("read", full)

    def _record(self, kind, detail):
        entry = [kind, detail]
        count = sum(1 for e in self.events if e[0] == kind)
        if entry not in self.events and count < MAX_EVENTS:
            self.events.append(entry)

    # -- baseline and reset ------------------------------------------------

    def _state(self):
        shell = self.shell
        manager = shell.input_transformer_manager
        modules = {
            name: {a: getattr(sys.modules[name], a, None) for a in attrs}
            for name, attrs in WATCHED.items()
            if name in sys.modules
        }
        return {
            "cleanup_transforms": list(manager.cleanup_transforms),
            "line_transforms": list(manager.line_transforms),
            "token_transformers": list(manager.token_transformers),
            "input_transformers_post": list(shell.input_transformers_post),
            "ast_transformers": list(shell.ast_transformers),
            "custom_exceptions": shell.custom_exceptions,
            "excepthook": sys.excepthook,
            "class_methods": {
                m: getattr(type(shell), m, None) for m in SHELL_METHODS
            },
            "instance_methods": {
                m: vars(shell)[m] for m in SHELL_METHODS if m in vars(shell)
            },
            "modules": modules,
            "builtins": dict(vars(builtins)),
            "session_send": _session_send(shell),
        }

    def watch_modules(self):
        """Add the watched modules imported since the baseline."""
        for name, attrs in WATCHED.items():
            if name in sys.modules and name not in self.baseline["modules"]:
                module = sys.modules[name]
                self.baseline["modules"][name] = {
                    a: getattr(module, a, None) for a in attrs
                }

    def reset(self):
        """Put the baseline back; return what differed (list of str)."""
        self.watch_modules()
        base, shell = self.baseline, self.shell
        manager = shell.input_transformer_manager
        found = []
        for name, target in (
            ("cleanup_transforms", manager.cleanup_transforms),
            ("line_transforms", manager.line_transforms),
            ("token_transformers", manager.token_transformers),
            ("input_transformers_post", shell.input_transformers_post),
            ("ast_transformers", shell.ast_transformers),
        ):
            if list(target) != base[name]:
                found.append(f"IPython's {name} changed")
                target[:] = base[name]
        if shell.custom_exceptions != base["custom_exceptions"]:
            found.append("a custom exception handler was installed")
            shell.set_custom_exc((), None)
        # IPython sets sys.excepthook to the shell's own while a cell runs
        if not _same(sys.excepthook, shell.excepthook):
            found.append("sys.excepthook was replaced")
            sys.excepthook = shell.excepthook
        instance = base["instance_methods"]
        for method, original in base["class_methods"].items():
            current = vars(shell).get(method, _MISSING)
            if method in instance and not _same(current, instance[method]):
                found.append(f"the shell's {method} was overridden")
                setattr(shell, method, instance[method])
            elif method not in instance and current is not _MISSING:
                found.append(f"the shell's {method} was overridden")
                delattr(shell, method)
            if getattr(type(shell), method, None) is not original:
                found.append(f"the shell class's {method} was replaced")
                setattr(type(shell), method, original)
        for name, attrs in base["modules"].items():
            module = sys.modules.get(name)
            for attr, original in attrs.items():
                if module is not None and getattr(module, attr, None) is not (
                    original
                ):
                    found.append(f"{name}.{attr} was replaced")
                    setattr(module, attr, original)
        for name, original in base["builtins"].items():
            if name in PER_REQUEST_BUILTINS:
                continue
            if not _same(vars(builtins).get(name), original):
                found.append(f"the builtin {name} was replaced")
                setattr(builtins, name, original)
        for event, callbacks in getattr(shell.events, "callbacks", {}).items():
            theirs = [c for c in callbacks if _from_a_cell(c)]
            if theirs:
                found.append(f"an IPython {event} event callback was added")
                for callback in theirs:
                    callbacks.remove(callback)
        session = getattr(getattr(shell, "kernel", None), "session", None)
        if (
            session is not None
            and _session_send(shell) != base["session_send"]
        ):
            found.append("the kernel session's send was replaced")
            own, original = base["session_send"]
            if own is _MISSING:
                vars(session).pop("send", None)
            else:
                session.send = own
            if type(session).send is not original:
                type(session).send = original
        if sys.gettrace() is not None or sys.getprofile() is not None:
            found.append("a trace or profile function was set")
            sys.settrace(None)
            sys.setprofile(None)
        return found

    # -- names of the read-only cells --------------------------------------

    def before_given(self):
        """Remember the namespace (called before a read-only cell)."""
        self.before_instructor()
        self._before = dict(self.shell.user_ns)

    def after_given(self):
        """Keep the names a read-only cell (re)bound (called after it)."""
        for name, value in self.shell.user_ns.items():
            if name.startswith("_") or name in IPYTHON_NAMES:
                continue
            if self._before.get(name, _MISSING) is not value:
                self.given[name] = value
        self._before = {}

    def restore_given(self):
        """Bind the read-only cells' names again; return the changed ones."""
        user_ns, changed = self.shell.user_ns, []
        for name, value in self.given.items():
            if user_ns.get(name, _MISSING) is not value:
                changed.append(name)
                user_ns[name] = value
        return changed

    # -- what the grader calls ---------------------------------------------

    def before_test(self, grade_id):
        """Reset everything before a test cell; record what was wrong."""
        self.before_instructor()
        found = self.reset()
        changed = self.restore_given()
        if changed:
            found.append(
                "names set by read-only cells were changed: "
                + ", ".join(sorted(changed))
            )
        for item in found:
            entry = f"before {grade_id}: {item}"
            if entry not in self.findings:
                self.findings.append(entry)

    # -- off-limits functions and the probes' results -----------------------

    def before_student(self):
        """Turn the off-limits stubs on (before a student's cell, a probe)."""
        if self.off_limits is not None:
            replaced = self.off_limits.intact(self.shell.user_ns)
            if replaced:
                entry = (
                    "stubs of off-limits functions were replaced: "
                    + ", ".join(sorted(replaced))
                )
                if entry not in self.findings:
                    self.findings.append(entry)
            self.off_limits.student = True

    def before_instructor(self):
        """Let the instructor's cells call the off-limits functions."""
        if self.off_limits is not None:
            self.off_limits.student = False

    def watch_returns(self, name):
        """Wrap the notebook's function ``name`` to inspect what it returns.

        A probe hands on only plain data; a value of any other type (an
        ``ndarray`` subclass, a dict that claims to equal anything, an
        object of the student's own class) is recorded for review, whether
        the probe then refuses it or keeps only its numbers.
        """
        self.unwatch_returns()
        user_ns = self.shell.user_ns
        function = user_ns.get(name, _MISSING)
        if function is _MISSING or not callable(function):
            return
        record, problem_of = self._record, _plain_problem

        def watched(*args, **kwargs):
            result = function(*args, **kwargs)
            try:
                problem = problem_of(result)
            except Exception as error:  # the value resisted inspection
                problem = f"a value that resisted inspection ({error!r})"
            if problem:
                record("returned", f"{name} returned {problem}")
            return result

        self._watched = (name, function, watched)
        user_ns[name] = watched

    def unwatch_returns(self):
        """Put back the function that ``watch_returns`` wrapped."""
        watched, self._watched = getattr(self, "_watched", None), None
        if watched is not None:
            name, function, wrapper = watched
            if self.shell.user_ns.get(name) is wrapper:
                self.shell.user_ns[name] = function

    def report(self):
        """Print the findings and the audit log as one JSON line."""
        self._write(
            self._dumps({"findings": self.findings, "events": self.events})
            + "\n"
        )


_MISSING = object()


class OffLimitsError(RuntimeError):
    """A student's code called a function the assignment puts off limits."""


#: Filename of the code of a check's reference versions (stand-ins), which
#: may call off-limits functions (``svmbook_classroom.checks.RUNNER``).
STAND_INS_FILE = "<stand-ins>"
#: Types of plain data a probe hands on as it is (exactly these types).
PLAIN_TYPES = (bool, int, float, complex, str, type(None))
#: Most items of a returned value that the liar check looks at.
MAX_ITEMS = 100_000


class OffLimits:
    """Stubs in place of an assignment's off-limits functions (see install).

    Each off-limits name (``svmlib.mixture.gaussian_e_step``) is replaced,
    in its module and in the packages that re-export it, by a stub of the
    same name. While ``student`` is True (the grader sets it before a
    student's cell and before the probes of the hidden checks), a call
    from code written in the notebook raises ``OffLimitsError("off limits
    in this assignment: <name>")``; a call from library code (a file under
    the Python installation or svmlib) or from a check's reference
    versions (``<stand-ins>``) goes through. While it is False (the
    instructor's read-only and test cells), every call goes through.
    """

    def __init__(self, guard, names, library_roots):
        self.guard = guard
        self.student = False
        self.library = tuple(os.path.realpath(r) for r in library_roots)
        self._from_library = {}  # filename -> whether it is library code
        self.placed = []  # (module, attribute, stub)
        self.patched = []  # (class, its own __new__ or None, the guarded)
        self.skipped = []  # names that could not be replaced
        stubs = {}  # id(real) -> (real, stub)
        for name in names:
            found = _resolve(name)
            if found is None:
                continue
            module, attribute, real = found
            for original, stub in stubs.values():
                if real is stub:  # listed twice: already replaced
                    real = original
                    break
            if isinstance(real, type(sys)):  # a whole module
                targets = [
                    (real, a, v) for a, v in list(vars(real).items())
                    if _replaceable(v, name.split(".")[0])
                ]  # fmt: skip
            else:
                targets = [(module, attribute, real)]
            for module, attribute, value in targets:
                if _compiled_in(value, module):
                    self.skipped.append(f"{module.__name__}.{attribute}")
                    continue
                full = f"{module.__name__}.{attribute}"
                if id(value) not in stubs:
                    stubs[id(value)] = (value, self._stub(full, value))
                self._place(module, attribute, stubs[id(value)][1])
        # re-exports: packages of the same libraries that hold the same
        # objects (svmlib.SVC is svmlib.svc.SVC)
        tops = {name.split(".")[0] for name in names}
        for module_name, module in list(sys.modules.items()):
            if module_name.split(".")[0] not in tops or not hasattr(
                module, "__path__"
            ):
                continue
            for attribute, value in list(vars(module).items()):
                pair = stubs.get(id(value))
                if pair is not None and pair[0] is value:
                    self._place(module, attribute, pair[1])

    def _place(self, module, attribute, stub):
        if vars(module).get(attribute) is stub:  # a class, changed in place
            return
        try:
            setattr(module, attribute, stub)
        except (AttributeError, TypeError):
            self.skipped.append(f"{module.__name__}.{attribute}")
            return
        self.placed.append((module, attribute, stub))

    def allowed(self, depth):
        """Tell whether the caller ``depth`` frames up may reach the real."""
        if not self.student:
            return True
        try:
            filename = sys._getframe(depth + 1).f_code.co_filename
        except ValueError:
            return True
        if filename == STAND_INS_FILE:
            return True
        known = self._from_library.get(filename)
        if known is None:
            known = os.path.isabs(filename) and _under(
                os.path.realpath(filename), self.library
            )
            self._from_library[filename] = known
        return known

    def library_class(self, cls):
        """Tell whether a class comes from a library file (not a cell)."""
        module = sys.modules.get(getattr(cls, "__module__", None))
        filename = getattr(module, "__file__", None)
        return isinstance(filename, str) and _under(
            os.path.realpath(filename), self.library
        )

    def refuse(self, name):
        self.guard._record("offlimits", name)
        raise OffLimitsError(f"off limits in this assignment: {name}")

    def _stub(self, name, real):
        """Return a stub for ``real``: a function, a subclass or a proxy."""
        check = self

        if isinstance(real, type):
            # a class is changed in place (its __new__), not replaced: the
            # library's own isinstance checks and subclasses keep working
            own = real.__dict__.get("__new__")

            def __new__(cls, *args, **kwargs):
                if (
                    cls is real or not check.library_class(cls)
                ) and not check.allowed(1):
                    check.refuse(name)
                if own is not None:
                    return getattr(own, "__func__", own)(cls, *args, **kwargs)
                parent = super(real, cls).__new__
                if parent is object.__new__:
                    return parent(cls)
                return parent(cls, *args, **kwargs)

            try:
                real.__new__ = staticmethod(__new__)
                self.patched.append((real, own, real.__dict__["__new__"]))
                return real
            except (AttributeError, TypeError):  # a built-in type, say
                pass
        if callable(real) and not hasattr(real, "__getattr__"):
            if isinstance(real, (types.FunctionType,
                                 types.BuiltinFunctionType)):  # fmt: skip

                def stub(*args, **kwargs):
                    if not check.allowed(1):
                        check.refuse(name)
                    return real(*args, **kwargs)

                for attribute in ("__name__", "__qualname__", "__doc__",
                                  "__module__"):  # fmt: skip
                    try:
                        setattr(stub, attribute, getattr(real, attribute))
                    except (AttributeError, TypeError):
                        pass
                return stub

        class Stub:
            """Stands for an off-limits object (calls and attributes)."""

            __slots__ = ()

            def __call__(self, *args, **kwargs):
                if not check.allowed(1):
                    check.refuse(name)
                return real(*args, **kwargs)

            def __getattr__(self, attribute):
                if not check.allowed(1):
                    check.refuse(name)
                return getattr(real, attribute)

        return Stub()

    def intact(self, user_ns):
        """Put back stubs a student replaced; return what was replaced.

        A module attribute that is no longer its stub (a module reloaded,
        an attribute set) gets the stub again; a name of the notebook bound
        to the real function, or to one of the same module and name (from
        a reloaded module), is bound to the stub.
        """
        replaced = []
        by_name = {}
        for module, attribute, stub in self.placed:
            if vars(module).get(attribute) is not stub:
                replaced.append(f"{module.__name__}.{attribute}")
                setattr(module, attribute, stub)
            if _identity(stub) is not None:
                by_name[_identity(stub)] = stub
        for cls, _, guarded in self.patched:
            if cls.__dict__.get("__new__") is not guarded:
                replaced.append(f"{cls.__module__}.{cls.__qualname__}")
                cls.__new__ = guarded
        for name, value in list(user_ns.items()):
            key = _identity(value)
            stub = by_name.get(key) if key is not None else None
            if stub is not None and value is not stub:
                replaced.append(f"the notebook's name {name}")
                user_ns[name] = stub
        return replaced


def _identity(value):
    """Return (module, qualified name) of a function or class, or None."""
    try:
        if not isinstance(value, (type, types.FunctionType,
                                  types.BuiltinFunctionType)):  # fmt: skip
            return None
        return (value.__module__, value.__qualname__)
    except Exception:
        return None


def _resolve(name):
    """Return (module, attribute, object) of a dotted name, or None.

    A name that is a module gives (its parent or None, its last part, the
    module).
    """
    parts = name.split(".")
    for k in range(len(parts), 0, -1):
        try:
            module = importlib.import_module(".".join(parts[:k]))
        except Exception:  # not a module (an attribute), or missing
            continue
        value, owner = module, None
        for part in parts[k:]:
            owner, value = value, getattr(value, part, _MISSING)
            if value is _MISSING:
                return None
        if owner is None:
            return None, parts[-1], module
        if not isinstance(owner, type(sys)):
            return None  # an attribute of a class: not replaced
        return owner, parts[-1], value
    return None


def _replaceable(value, top):
    """Tell whether a value is a function or class of the library ``top``."""
    if isinstance(value, type(sys)) or not callable(value):
        return False
    module = getattr(value, "__module__", None) or ""
    return module == top or module.startswith(top + ".")


def _compiled_in(value, module):
    """Numba code in its own module: compiled callers look it up there."""
    function = getattr(value, "py_func", None)
    return function is not None and (
        getattr(function, "__module__", None) == module.__name__
    )


def _plain_problem(value, depth=0, seen=None):
    """Why a returned value is not plain data, or None if it is.

    Only ``type(value)`` is consulted (never ``isinstance``, which a class
    can answer as it likes), and no method of the value is called.
    """
    import numpy

    seen = [0] if seen is None else seen
    seen[0] += 1
    kind = type(value)
    if depth > 8 or seen[0] > MAX_ITEMS:
        return None  # the probe itself refuses what is nested too deeply
    if kind in PLAIN_TYPES or kind is numpy.ndarray:
        return None
    if issubclass(kind, numpy.generic) and kind.__module__ == "numpy":
        return None
    if kind in (list, tuple):
        for item in (list.__iter__ if kind is list else tuple.__iter__)(value):
            problem = _plain_problem(item, depth + 1, seen)
            if problem:
                return problem
        return None
    if kind is dict:
        for key, item in dict.items(value):
            problem = _plain_problem(key, depth + 1, seen) or _plain_problem(
                item, depth + 1, seen
            )
            if problem:
                return problem
        return None
    bases = [
        b.__name__ for b in kind.__mro__[1:]
        if b.__module__ in ("builtins", "numpy") and b is not object
    ]  # fmt: skip
    where = (
        "a class defined in the notebook"
        if kind.__module__ == "__main__"
        else f"{kind.__module__}.{kind.__qualname__}"
    )
    return f"an object of class {kind.__name__} ({where}" + (
        f", a subclass of {bases[0]})" if bases else ")"
    )


def _session_send(shell):
    """Return the kernel session's send (instance and class attribute)."""
    session = getattr(getattr(shell, "kernel", None), "session", None)
    if session is None:
        return None
    return vars(session).get("send", _MISSING), type(session).send


def _from_a_cell(callback):
    """Tell whether a callable was defined in a notebook cell."""
    function = getattr(callback, "__func__", callback)
    code = getattr(function, "__code__", None)
    name = getattr(code, "co_filename", "")
    return "ipykernel_" in name or name.startswith("<ipython-input")


def install(name, read_roots, write_roots, off_limits=(), library_roots=()):
    """Set up the guard of this kernel under ``builtins.<name>``.

    Parameters
    ----------
    name : str
        Where the guard object goes in ``builtins`` (the grader picks a
        random name per submission).
    read_roots, write_roots : list of str
        Folders whose files the code may read, respectively write; every
        other path it touches is recorded.
    off_limits : list of str
        Dotted names of the functions (classes, modules) the assignment
        puts off limits: replaced by stubs (:class:`OffLimits`).
    library_roots : list of str
        Folders of the Python installation and svmlib: code from files
        there may call the real functions behind the stubs.
    """
    guard = Guard(get_ipython(), read_roots, write_roots)  # noqa: F821
    if off_limits:
        guard.off_limits = OffLimits(guard, off_limits, library_roots)
    sys.addaudithook(guard.audit)
    setattr(builtins, name, guard)
    guard.baseline["builtins"][name] = guard
