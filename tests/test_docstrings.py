"""Every public object of svmlib (and of the classroom package) is documented,
and the API page shows it.

The rules, written once here (CONTRIBUTING.md points to them):

**What is public.** Every module of svmlib, and of the classroom package
``svmbook_classroom`` (``classroom/``), whose dotted name has no part
starting with an underscore (``svmbook_classroom.__main__``, a script, aside)
declares ``__all__``; the public objects are the names in those lists (an
object re-exported by a package counts once). For a public class, its public
members are the methods and properties it defines, or inherits from a
private svmlib base, whose names do not start with an underscore, and
``__call__``. Members inherited from scikit-learn or the standard library
are documented there.

**What each docstring holds** (parsed by numpydoc's ``docscrape``):

* a function or method: a summary; ``Parameters`` naming every parameter of
  its signature (``self`` and ``cls`` aside); ``Returns`` (or ``Yields``)
  when its body returns a value (``return <expr>``, ``yield``); ``Raises``
  when its body has a ``raise`` statement (errors raised by the helpers it
  calls should be listed too, but that is not checked here); ``References``
  (the paper, equation or book chapter); ``Examples`` with at least one
  ``>>>`` line, run as a doctest by ``pytest --doctest-modules``;
* a class: the same for its constructor (``Parameters``, ``Raises``), plus
  ``References`` and ``Examples``;
* exemptions: a *record* (a dataclass or named tuple, built by the code
  that returns it) needs a summary and ``Attributes`` naming every field,
  and no Examples or References of its own (the function that returns it
  has them); a *property* needs a summary that says what it is (and
  ``Raises`` if its getter raises); a method that overrides a method of a
  public svmlib base class needs a summary, the base's docstring documents
  the contract;
* a constant: a ``#:`` doc comment above its assignment (what autodoc
  shows).

**The API page** (``api.md``) names every public object, and every public
member that is not an override, in an explicit autodoc directive
(``autofunction``, ``autoclass`` with its ``:members:`` listed,
``autodata``); ``automodule`` shows module docstrings only. A property that
its class's ``Attributes`` section lists is rendered there (napoleon makes
it an attribute entry of the class), not again as a member. A constant is
named by the module that assigns it (autodoc reads its ``#:`` comment
there; through a package that re-exports it, autodoc would show the
docstring of its type).
"""

import ast
import dataclasses
import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest
from numpydoc.docscrape import ClassDoc, FunctionDoc
from sphinx.pycode import ModuleAnalyzer

import svmbook_classroom
import svmlib

ROOT = Path(__file__).resolve().parents[1]

# TEMPORARY: owner making it D-clean. Objects defined in these files are not
# checked yet (their owners are rewriting them); remove each entry when its
# file passes.
NOT_YET_CHECKED = set()

SKIPPED_MODULES = {"svmbook_classroom.__main__"}

#: The packages whose public objects are checked.
PACKAGES = (svmlib, svmbook_classroom)

#: Names of their modules start with one of these.
OWN = tuple(package.__name__ for package in PACKAGES)


def _public_modules():
    modules = []
    for package in PACKAGES:
        modules.append(package)
        prefix = package.__name__ + "."
        for info in pkgutil.walk_packages(package.__path__, prefix):
            parts = info.name.split(".")
            if info.name in SKIPPED_MODULES or any(
                part.startswith("_") for part in parts
            ):
                continue
            modules.append(importlib.import_module(info.name))
    return modules


MODULES = _public_modules()


def _is_record(cls):
    return dataclasses.is_dataclass(cls) or (
        issubclass(cls, tuple) and hasattr(cls, "_fields")
    )


def _defining_file(obj):
    module = inspect.getmodule(inspect.unwrap(obj))
    path = Path(inspect.getsourcefile(module)).resolve()
    return path.relative_to(ROOT).as_posix()


def _key(obj, name):
    # the name too: equal small constants (120 and 120) are one object
    return id(obj), name


def _public_objects():
    """(qualified name, object) for every name in a public ``__all__``."""
    seen = {}
    for module in MODULES:
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            key = _key(obj, name)
            qualname = f"{module.__name__}.{name}"
            if key not in seen or len(qualname) < len(seen[key][0]):
                seen[key] = (qualname, obj)  # the shortest public path
    return sorted(seen.values(), key=lambda item: item[0])


PUBLIC = _public_objects()
PUBLIC_IDS = {id(obj) for _, obj in PUBLIC if inspect.isclass(obj)}


def _is_constant(obj):
    return not (inspect.isclass(obj) or callable(obj) or inspect.ismodule(obj))


def _members(cls):
    """(name, raw attribute, overrides) for the public members of ``cls``.

    ``overrides`` is True when a public svmlib base class defines the same
    name (the base documents it).
    """
    members = []
    names = sorted(
        name
        for klass in cls.__mro__
        for name in vars(klass)
        if not name.startswith("_") or name == "__call__"
    )
    for name in dict.fromkeys(names):
        owner = next(k for k in cls.__mro__ if name in vars(k))
        if not owner.__module__.startswith(OWN):
            continue
        if owner is not cls and id(owner) in PUBLIC_IDS:
            continue  # documented with its own class
        raw = vars(owner)[name]
        if isinstance(raw, (staticmethod, classmethod)):
            raw = raw.__func__
        if inspect.isfunction(getattr(raw, "fn", None)):
            raw = raw.fn  # scikit-learn's available_if (predict_proba)
        if not (inspect.isfunction(raw) or isinstance(raw, property)):
            continue
        overrides = any(
            name in vars(base) and id(base) in PUBLIC_IDS
            for base in owner.__mro__[1:]
            if base.__module__.startswith(OWN)
        )
        members.append((name, raw, overrides))
    return members


def _entries():
    """Everything checked: (id, kind, object) with kind one of
    function, class, record, method, override, property, constant."""
    entries = []
    for qualname, obj in PUBLIC:
        if _is_constant(obj):
            entries.append((qualname, "constant", obj))
            continue
        if inspect.isclass(obj):
            kind = "record" if _is_record(obj) else "class"
            entries.append((qualname, kind, obj))
            for name, raw, overrides in _members(obj):
                if overrides:
                    member_kind = "override"
                elif isinstance(raw, property):
                    member_kind = "property"
                else:
                    member_kind = "method"
                entries.append((f"{qualname}.{name}", member_kind, raw))
            continue
        entries.append((qualname, "function", obj))
    return entries


ENTRIES = _entries()


def _function_node(function):
    """The ``def`` of ``function`` in the parsed source of its module."""
    function = inspect.unwrap(function)
    try:
        tree = ast.parse(inspect.getsource(inspect.getmodule(function)))
    except (OSError, TypeError):
        return None
    first = function.__code__.co_firstlineno  # the first decorator's line
    for node in ast.walk(tree):
        if (
            isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.name == function.__name__
            and first
            in [node.lineno] + [d.lineno for d in node.decorator_list]
        ):
            return node
    return None


def _body_flags(function):
    """(returns a value, yields, raises) from the function's own body."""
    tree = _function_node(function)
    if tree is None:
        return False, False, False
    returns = yields = raises = False
    stack = list(ast.iter_child_nodes(tree))
    while stack:
        node = stack.pop()
        if isinstance(
            node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
        ):
            continue  # nested definitions raise and return for themselves
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Return) and node.value is not None:
            if not (
                isinstance(node.value, ast.Constant)
                and node.value.value is None
            ):
                returns = True
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            yields = True
        if isinstance(node, ast.Raise):
            raises = True
        stack.extend(ast.iter_child_nodes(node))
    return returns, yields, raises


def _documented_names(section):
    names = set()
    for parameter in section:
        for name in parameter.name.split(","):
            names.add(name.strip().lstrip("*"))
    return names


def _signature_names(function, drop_first):
    parameters = list(inspect.signature(function).parameters)
    if drop_first and parameters and parameters[0] in ("self", "cls"):
        parameters = parameters[1:]
    return parameters


def _has_example(doc):
    return any(line.lstrip().startswith(">>>") for line in doc["Examples"])


def _problems_of_callable(doc, function, *, method, full=True):
    problems = []
    names = _signature_names(function, drop_first=method)
    missing = [
        n for n in names if n not in _documented_names(doc["Parameters"])
    ]
    if missing:
        problems.append(f"Parameters lacks {', '.join(missing)}")
    returns, yields, raises = _body_flags(function)
    if returns and not doc["Returns"]:
        problems.append("no Returns section (the body returns a value)")
    if yields and not doc["Yields"]:
        problems.append("no Yields section (the body yields)")
    if raises and not doc["Raises"]:
        problems.append("no Raises section (the body raises)")
    if full:
        if not "".join(doc["References"]).strip():
            problems.append("no References section")
        if not _has_example(doc):
            problems.append("no Examples section with a >>> line")
    return problems


def _problems(kind, obj):
    if kind == "constant":
        return []  # checked by test_constants_have_doc_comments
    if kind == "property":
        doc = inspect.getdoc(obj)
        if not doc or not doc.strip():
            return ["no docstring"]
        problems = []
        if _body_flags(obj.fget)[2] and "Raises" not in doc:
            problems.append("no Raises section (the getter raises)")
        return problems
    raw = inspect.getdoc(obj) if kind != "override" else obj.__doc__
    if kind == "override" and isinstance(obj, property):
        raw = obj.__doc__
    if not raw or not raw.strip():
        return ["no docstring"]
    if kind == "override":
        return []
    if kind in ("class", "record"):
        doc = ClassDoc(obj, config={"show_class_members": False})
        if not "".join(doc["Summary"]).strip():
            return ["no summary line"]
        if kind == "record":
            fields = (
                [f.name for f in dataclasses.fields(obj)]
                if dataclasses.is_dataclass(obj)
                else list(obj._fields)
            )
            documented = _documented_names(doc["Attributes"])
            missing = [f for f in fields if f not in documented]
            return (
                [f"Attributes lacks {', '.join(missing)}"] if missing else []
            )
        init = vars(obj).get("__init__")
        if init is None:
            init = next(
                (
                    vars(k)["__init__"]
                    for k in obj.__mro__[1:]
                    if "__init__" in vars(k) and k.__module__.startswith(OWN)
                ),
                None,
            )
        problems = []
        if init is not None:
            problems += _problems_of_callable(
                doc, init, method=True, full=False
            )
        if not "".join(doc["References"]).strip():
            problems.append("no References section")
        if not _has_example(doc):
            problems.append("no Examples section with a >>> line")
        return problems
    doc = FunctionDoc(obj)
    if not "".join(doc["Summary"]).strip():
        return ["no summary line"]
    return _problems_of_callable(doc, obj, method=kind == "method")


def _assigning_file(name):
    """The file of the public module that assigns ``name`` at top level."""
    for module in MODULES:
        tree = ast.parse(inspect.getsource(module))
        for node in tree.body:
            targets = (
                node.targets
                if isinstance(node, ast.Assign)
                else [node.target]
                if isinstance(node, ast.AnnAssign)
                else []
            )
            if any(getattr(t, "id", None) == name for t in targets):
                return _defining_file(module)
    raise LookupError(name)


def _checked(qualname, kind, obj):
    if kind == "constant":
        path = _assigning_file(qualname.rpartition(".")[2])
    else:
        path = _defining_file(obj.fget if isinstance(obj, property) else obj)
    return path not in NOT_YET_CHECKED


CHECKED = [entry for entry in ENTRIES if _checked(*entry)]


def test_public_modules_declare_all():
    missing = [m.__name__ for m in MODULES if not hasattr(m, "__all__")]
    assert not missing, f"modules without __all__: {missing}"


def test_the_walk_finds_the_public_api():
    # the walk is not vacuous: known public objects and members are in it
    names = {qualname for qualname, _, _ in ENTRIES}
    for expected in (
        "svmlib.SVC",
        "svmlib.SVC.predict_proba",
        "svmlib.SVC.coef_",
        "svmlib.datasets.MNIST_FILES",
        "svmlib.kernels.Kernel.__call__",
        "svmlib.solvers.smo",
        "svmlib.timing.Timing",
        "svmbook_classroom.grade_notebook",
        "svmbook_classroom.Limits",
    ):
        assert expected in names
    kinds = {qualname: kind for qualname, kind, _ in ENTRIES}
    assert kinds["svmlib.SVC.coef_"] == "property"
    assert kinds["svmlib.timing.Timing"] == "record"
    assert kinds["svmlib.kernels.RBF.from_inner_products"] == "override"
    assert kinds["svmlib.datasets.MNIST_URLS"] == "constant"


@pytest.mark.parametrize(
    "qualname, kind, obj", CHECKED, ids=[entry[0] for entry in CHECKED]
)
def test_docstring_sections(qualname, kind, obj):
    problems = _problems(kind, obj)
    assert not problems, f"{qualname} ({kind}): " + "; ".join(problems)


def test_the_checks_can_fail():
    def undocumented(x, y):
        if x:
            raise ValueError("x")
        return y

    def documented(x):
        """Double x.

        Parameters
        ----------
        x : float
            A number.

        Returns
        -------
        float
            2 x.

        References
        ----------
        Book chapter: *Introduction*.

        Examples
        --------
        >>> documented(1.0)
        2.0
        """
        return 2 * x

    assert _problems("function", undocumented) == ["no docstring"]
    assert _problems("function", documented) == []
    documented.__doc__ = documented.__doc__.replace("x : float", "z : float")
    assert _problems("function", documented) == ["Parameters lacks x"]
    documented.__doc__ = "Double x.\n\nParameters\n----------\nx : float\n"
    assert _problems("function", documented) == [
        "no Returns section (the body returns a value)",
        "no References section",
        "no Examples section with a >>> line",
    ]


# ---------------------------------------------------------------------------
# Constants
# ---------------------------------------------------------------------------


def _attribute_docs():
    docs = {}
    for module in MODULES:
        analyzer = ModuleAnalyzer.for_module(module.__name__)
        for (scope, name), lines in analyzer.find_attr_docs().items():
            if scope == "" and hasattr(module, name):
                key = _key(getattr(module, name), name)
                docs[key] = "\n".join(lines).strip()
    return docs


def test_constants_have_doc_comments():
    docs = _attribute_docs()
    constants = [
        qualname
        for qualname, kind, obj in CHECKED
        if kind == "constant"
        and not docs.get(_key(obj, qualname.rpartition(".")[2]))
    ]
    assert not constants, f"constants without a #: doc comment: {constants}"


# ---------------------------------------------------------------------------
# The API page
# ---------------------------------------------------------------------------

DIRECTIVE = re.compile(r"^\.\. (auto\w+):: (\S+)\s*$")
OPTION = re.compile(r"^\s+:([\w-]+):(.*)$")


def _api_directives(text=None):
    """(directive, target, {option: value}) of every eval-rst block."""
    if text is None:
        text = (ROOT / "api.md").read_text()
    directives = []
    blocks = re.findall(r"```\{eval-rst\}\n(.*?)```", text, flags=re.S)
    for block in blocks:
        lines = block.splitlines()
        i = 0
        while i < len(lines):
            match = DIRECTIVE.match(lines[i])
            i += 1
            if not match:
                continue
            options = {}
            while i < len(lines) and (
                OPTION.match(lines[i])
                or (lines[i].startswith("      ") and options)
            ):
                option = OPTION.match(lines[i])
                if option:
                    key = option.group(1)
                    options[key] = option.group(2).strip()
                else:  # continuation of the previous option's value
                    options[key] += " " + lines[i].strip()
                i += 1
            directives.append((match.group(1), match.group(2), options))
    return directives


def _resolve(target, directive="autofunction"):
    """The object a directive documents, found as autodoc finds it.

    The module is the target's path without its last part (without its last
    two for a method or property); the rest is looked up as attributes, so
    ``svmlib.solvers.dual_gd`` is the function that the package exports
    (its module is ``svmlib.solvers.gradient_ascent``).
    """
    if directive == "automodule":
        return importlib.import_module(target)
    depth = 2 if directive in MEMBER_DIRECTIVES else 1
    parts = target.split(".")
    obj = importlib.import_module(".".join(parts[:-depth]))
    for part in parts[-depth:]:
        obj = inspect.getattr_static(obj, part)
    return obj


MEMBER_DIRECTIVES = ("automethod", "autoproperty", "autoattribute")


def _rendered(directives):
    """ids of the rendered objects, and (class id, member) pairs."""
    objects, members = set(), set()
    for directive, target, options in directives:
        if directive == "automodule":
            assert "members" not in options, (
                f"automodule {target}: list the members explicitly"
            )
            continue
        obj = _resolve(target, directive)
        if directive in MEMBER_DIRECTIVES:
            owner, _, name = target.rpartition(".")
            members.add((id(_resolve(owner, "autoclass")), name))
            continue
        objects.add(_key(obj, target.rpartition(".")[2]))
        if directive == "autoclass":
            listed = options.get("members", "")
            assert "members" not in options or listed, (
                f"autoclass {target}: list the members explicitly"
            )
            for key in ("members", "special-members"):
                for name in options.get(key, "").split(","):
                    if name.strip():
                        members.add((id(obj), name.strip()))
    return objects, members


def _attributes_section(cls):
    """Names in the class docstring's Attributes section.

    napoleon renders that section as attribute entries of the class (the
    book's ``napoleon_use_ivar`` is off), so a property listed there is on
    the page already: rendering it again as a member would describe one
    object twice, which the build (``-W``) refuses.
    """
    doc = ClassDoc(cls, config={"show_class_members": False})
    return _documented_names(doc["Attributes"])


def _missing_from_api(directives):
    objects, members = _rendered(directives)
    missing = []
    for qualname, obj in PUBLIC:
        if _key(obj, qualname.rpartition(".")[2]) not in objects:
            missing.append(qualname)
        if inspect.isclass(obj):
            in_attributes = _attributes_section(obj)
            for name, _, overrides in _members(obj):
                if overrides or name in in_attributes:
                    continue
                if (id(obj), name) not in members:
                    missing.append(f"{qualname}.{name}")
    return missing


def test_api_page_renders_every_public_object():
    missing = _missing_from_api(_api_directives())
    assert not missing, f"api.md does not render: {missing}"


def test_api_page_names_existing_objects():
    for directive, target, options in _api_directives():
        obj = _resolve(target, directive)  # raises for a stale name
        if directive == "autoclass":
            for key in ("members", "special-members"):
                for name in options.get(key, "").split(","):
                    if name.strip():
                        assert any(
                            name.strip() in vars(k) for k in obj.__mro__
                        ), f"{target} has no member {name.strip()}"


def test_api_check_can_fail():
    page = (
        "```{eval-rst}\n.. autoclass:: svmlib.SVC\n"
        "   :members: fit, predict\n```\n"
    )
    missing = _missing_from_api(_api_directives(page))
    assert "svmlib.SVC.predict_proba" in missing
    assert "svmlib.SVC.fit" not in missing
    assert "svmlib.datasets.MNIST_FILES" in missing


def test_temporary_exemptions_match_pyproject():
    # the files skipped here are those whose ruff D rules are still off in
    # pyproject.toml (both marked TEMPORARY): remove an entry in both places
    text = (ROOT / "pyproject.toml").read_text()
    ignored = set(
        re.findall(
            r'# TEMPORARY: owner making it D-clean\n"([^"]+)" = \["D"\]', text
        )
    )
    assert ignored == NOT_YET_CHECKED
