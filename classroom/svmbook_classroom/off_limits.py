"""Find the off-limits svmlib functions that a student's answer refers to.

An assignment lists in its notebook metadata (``svmbook.off_limits``) the
svmlib functions that implement what students are asked to write: the
hidden tests compare against them, so an answer that calls them would pass
without doing the work. :func:`off_limits_uses` reads the student's cells
(it does not run them) and follows imports and aliases: ``from
svmlib.solvers.sequential_minimal import two_variable_step as step``,
``import svmlib.solvers.sequential_minimal as s`` then
``s.two_variable_step``, or the full dotted
name. Code that imports or runs code by name (``importlib``,
``__import__``, ``exec``, ``eval``, ``compile``) cannot be followed this
way, nor can attributes fetched by a computed name (``getattr(svmlib,
"S" + "VC")``, ``setattr``, ``globals()``, ``vars()``, ``sys.modules``)
or objects found through the interpreter's internals (``gc``, ``ctypes``,
``inspect``, frames, a function's ``__globals__`` or ``__closure__``);
:func:`dynamic_code` points all of these out for review.
"""

import ast

#: Names that import modules, run code given as a string, or reach an
#: object by a name computed at run time.
DYNAMIC = (
    "__import__", "exec", "eval", "compile", "import_module", "getattr",
    "setattr", "delattr", "globals", "vars",
)  # fmt: skip
#: Modules whose use reaches modules, objects or code by name or from
#: the interpreter's internals (the stubs of off-limits functions hold the
#: real ones: the garbage collector, frames and ctypes can find them).
DYNAMIC_MODULES = (
    "importlib", "sys.modules", "sys._getframe", "gc", "ctypes", "inspect",
    "linecache", "builtins", "runpy",
)  # fmt: skip
#: Attributes of the interpreter's internals: a function's globals and
#: closure, a class's constructor and subclasses, frames.
INTERNALS = frozenset(
    {
        "__globals__", "__closure__", "__code__", "__func__", "__self__",
        "__wrapped__", "__new__", "__dict__", "__subclasses__", "__bases__",
        "__mro__", "__builtins__", "__getattribute__", "__setattr__",
        "__delattr__", "__loader__", "__spec__", "f_back", "f_globals",
        "f_locals", "f_builtins", "tb_frame", "gi_frame", "cr_frame",
    }
)  # fmt: skip


__all__ = ["dynamic_code", "off_limits_uses"]


def _parse(source):
    try:
        return ast.parse(source)
    except SyntaxError:  # IPython magics, or a broken answer: nothing known
        return None


def _dotted(node, aliases):
    """Return the dotted name an expression stands for, through ``aliases``."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    head = aliases.get(node.id, node.id)
    return ".".join([head, *reversed(parts)])


def _match(name, forbidden):
    """Return the forbidden entry that ``name`` is, or lies under, or None."""
    if name is None:
        return None
    parts = name.split(".")
    for k in range(len(parts), 0, -1):
        if ".".join(parts[:k]) in forbidden:
            return ".".join(parts[:k])
    return None


def _bind_imports(tree, aliases, uses, forbidden):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for name in node.names:
                aliases[name.asname or name.name.split(".")[0]] = (
                    name.name if name.asname else name.name.split(".")[0]
                )
                uses.add(_match(name.name, forbidden))
        elif isinstance(node, ast.ImportFrom) and node.module:
            for name in node.names:
                full = f"{node.module}.{name.name}"
                aliases[name.asname or name.name] = full
                uses.add(_match(full, forbidden))
    uses.discard(None)


def _defined(tree):
    """Names that a cell binds by ``def``, ``class`` or assignment."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                             ast.ClassDef)):  # fmt: skip
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


def off_limits_uses(cells, forbidden):
    """Return the off-limits names that each student cell refers to.

    Parameters
    ----------
    cells : list of (str, bool)
        The code cells in notebook order: source, and whether the student
        wrote it (False for the instructor's read-only and test cells,
        whose imports still define aliases).
    forbidden : collection of str
        Fully dotted names, e.g.
        ``"svmlib.solvers.sequential_minimal.two_variable_step"``; a
        module's name forbids everything in it.

    Returns
    -------
    list of set of str
        For each cell, the forbidden names it refers to (empty for the
        instructor's cells).

    References
    ----------
    The book's page for instructors (``instructors.md``), "What the grader
    protects against"; Python's ``ast`` module (the cells are parsed, not run).

    Examples
    --------
    >>> from svmbook_classroom.off_limits import off_limits_uses
    >>> cells = [("import svmlib.solvers.sequential_minimal as s", False),
    ...          ("step = s.two_variable_step", True)]
    >>> name = "svmlib.solvers.sequential_minimal.two_variable_step"
    >>> off_limits_uses(cells, {name})
    [set(), {'svmlib.solvers.sequential_minimal.two_variable_step'}]
    >>> off_limits_uses([("from svmbook_classroom import grading", True)],
    ...                 {"svmbook_classroom"})
    [{'svmbook_classroom'}]
    """
    forbidden = set(forbidden)
    aliases, found = {}, []
    for source, by_student in cells:
        tree, uses = _parse(source), set()
        if tree is not None:
            for name in _defined(tree):  # the student's own, not an alias
                aliases.pop(name, None)
            _bind_imports(tree, aliases, uses, forbidden)
            for node in ast.walk(tree):
                if isinstance(node, (ast.Name, ast.Attribute)):
                    match = _match(_dotted(node, aliases), forbidden)
                    if match is not None:
                        uses.add(match)
        found.append(uses if by_student else set())
    return found


def dynamic_code(source):
    r"""Return what in ``source`` imports, runs or reaches code by name.

    Parameters
    ----------
    source : str
        Python code (a notebook cell); code that does not parse has none.

    Returns
    -------
    list of str
        The names among ``DYNAMIC`` (``__import__``, ``exec``, ``eval``,
        ``compile``, ``import_module``, ``getattr``, ``setattr``,
        ``delattr``, ``globals``, ``vars``) that it calls or refers to,
        the attributes of ``INTERNALS`` it reaches (``__globals__``,
        ``__closure__``, ``__new__``, frames ...), and the modules of
        ``DYNAMIC_MODULES`` (``importlib``, ``sys.modules``, ``gc``,
        ``ctypes``, ``inspect`` ...) it imports or uses, sorted.

    References
    ----------
    The book's page for instructors (``instructors.md``), "What the grader
    protects against": a name built at run time escapes
    :func:`off_limits_uses`, so the call is flagged instead.

    Examples
    --------
    >>> from svmbook_classroom.off_limits import dynamic_code
    >>> dynamic_code("m = __import__('svm' + 'lib')\nx = eval('1 + 1')")
    ['__import__', 'eval']
    >>> dynamic_code("import svmlib\nf = getattr(svmlib, 'S' + 'VC')")
    ['getattr']
    >>> dynamic_code("import sys\nm = sys.modules['svm' + 'lib']")
    ['sys.modules']
    >>> dynamic_code("import gc\nf = step.__closure__[0]")
    ['__closure__', 'gc']
    """
    tree = _parse(source)
    if tree is None:
        return []
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in DYNAMIC:
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            if node.attr in DYNAMIC or node.attr in INTERNALS:
                found.add(node.attr)
            match = _match(_dotted(node, {}), DYNAMIC_MODULES)
            if match is not None:
                found.add(match)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [node.module or ""] if isinstance(
                node, ast.ImportFrom
            ) else [a.name for a in node.names]  # fmt: skip
            if isinstance(node, ast.ImportFrom) and node.module == "sys":
                names += [f"sys.{a.name}" for a in node.names]
            for name in names:
                match = _match(name, DYNAMIC_MODULES)
                if match is not None:
                    found.add(match)
    return sorted(found)
