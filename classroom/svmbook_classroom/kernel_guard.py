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

    def report(self):
        """Print the findings and the audit log as one JSON line."""
        self._write(
            self._dumps({"findings": self.findings, "events": self.events})
            + "\n"
        )


_MISSING = object()


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


def install(name, read_roots, write_roots):
    """Set up the guard of this kernel under ``builtins.<name>``.

    Parameters
    ----------
    name : str
        Where the guard object goes in ``builtins`` (the grader picks a
        random name per submission).
    read_roots, write_roots : list of str
        Folders whose files the code may read, respectively write; every
        other path it touches is recorded.
    """
    guard = Guard(get_ipython(), read_roots, write_roots)  # noqa: F821
    sys.addaudithook(guard.audit)
    setattr(builtins, name, guard)
    guard.baseline["builtins"][name] = guard
