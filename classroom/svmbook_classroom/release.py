"""The student versions of the assignments, and the student edition.

:func:`release_notebook` turns a solution notebook into what students get,
with nbgrader's own preprocessors; :func:`release` does it for a folder;
:func:`student_edition` writes the whole folder that students download or
clone: the student notebooks, svmlib's sources, the instructions and an
archive of it all, and checks that no solution or hidden test is in it.
"""

import copy
import shutil
from pathlib import Path

import nbformat
from nbgrader.preprocessors import (
    CheckCellMetadata,
    ClearHiddenTests,
    ClearMarkScheme,
    ClearOutput,
    ClearSolutions,
    ComputeChecksums,
    LockCells,
)

__all__ = ["release", "release_notebook", "student_edition"]

#: nbgrader's release steps, in the order ``nbgrader generate_assignment``
#: applies them (without the course database).
RELEASE_STEPS = (
    CheckCellMetadata,
    LockCells,
    ClearSolutions,
    ClearOutput,
    ClearHiddenTests,
    ClearMarkScheme,
    ComputeChecksums,
    CheckCellMetadata,
)


def release_notebook(nb):
    r"""Return the student version of a solution notebook.

    Parameters
    ----------
    nb : nbformat.NotebookNode
        A solution notebook (nbformat 4) in nbgrader's markup; not modified.

    Returns
    -------
    nbformat.NotebookNode
        A copy in which every ``### BEGIN SOLUTION`` ... ``### END SOLUTION``
        region of a code cell is replaced by ``# YOUR CODE HERE`` and
        ``raise NotImplementedError()`` (indented like the region), every
        solution markdown cell by ``YOUR ANSWER HERE``, every
        ``### BEGIN HIDDEN TESTS`` ... ``### END HIDDEN TESTS`` region is
        removed, all outputs are cleared, and the grade and read-only cells
        are locked and carry nbgrader's checksums; the execution times that
        JupyterLab records in cell metadata are removed.

    Raises
    ------
    nbgrader.nbgraderformat.ValidationError
        If the nbgrader metadata is invalid (for example a duplicated
        ``grade_id`` or a grade cell without points).
    RuntimeError
        If a solution or hidden-test region is not closed, is nested, or lies
        in a cell that is not marked as a solution (respectively grade) cell.

    Notes
    -----
    The steps are nbgrader's own preprocessors (``LockCells``,
    ``ClearSolutions``, ``ClearOutput``, ``ClearHiddenTests``,
    ``ClearMarkScheme``, ``ComputeChecksums``, ``CheckCellMetadata``), in the
    order of ``nbgrader generate_assignment``.

    References
    ----------
    ``nbgrader generate_assignment``, Project Jupyter et al. (2019), "nbgrader:
    a tool for creating and grading assignments in the Jupyter Notebook",
    *Journal of Open Source Education* 2(11), 32.

    Examples
    --------
    >>> from nbformat.v4 import new_code_cell, new_notebook
    >>> answer = new_code_cell(
    ...     "\n".join(
    ...         [
    ...             "def square(x):",
    ...             "    ### BEGIN SOLUTION",
    ...             "    return x * x",
    ...             "    ### END SOLUTION",
    ...         ]
    ...     ),
    ...     metadata={
    ...         "nbgrader": {
    ...             "grade": False,
    ...             "solution": True,
    ...             "locked": False,
    ...             "grade_id": "square",
    ...             "schema_version": 3,
    ...         }
    ...     },
    ... )
    >>> student = release_notebook(new_notebook(cells=[answer]))
    >>> print(student.cells[0].source)
    def square(x):
        # YOUR CODE HERE
        raise NotImplementedError()
    """
    nb = copy.deepcopy(nb)
    resources = {}
    for step in RELEASE_STEPS:
        nb, resources = step().preprocess(nb, resources)
    for cell in nb.cells:  # when and how long cells ran (JupyterLab)
        cell.metadata.pop("execution", None)
        cell.metadata.pop("ExecuteTime", None)
    return nb


def release(source, out_dir):
    """Write the student version of every solution notebook in ``source``.

    Parameters
    ----------
    source : str or path-like
        A solution notebook, or a folder whose ``*.ipynb`` files are solution
        notebooks (sub-folders are not searched; other files are not copied).
    out_dir : str or path-like
        Folder for the student notebooks (created if missing); each keeps its
        file name. Existing files of the same name are overwritten.

    Returns
    -------
    list of pathlib.Path
        The notebooks written.

    Raises
    ------
    ValueError
        If ``source`` holds no notebook, or ``out_dir`` is the folder of the
        solution notebooks (that would overwrite the solutions).
    FileNotFoundError
        If ``source`` does not exist.

    References
    ----------
    ``nbgrader generate_assignment``, Project Jupyter et al. (2019), "nbgrader:
    a tool for creating and grading assignments in the Jupyter Notebook",
    *Journal of Open Source Education* 2(11), 32; the book's page for
    instructors (``instructors.md``).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import nbformat
    >>> from nbformat.v4 import new_code_cell, new_notebook
    >>> from svmbook_classroom import release
    >>> def solution_notebook():
    ...     answer = new_code_cell("x = 4", metadata={"nbgrader": {
    ...         "grade": False, "solution": True, "locked": False,
    ...         "grade_id": "x", "schema_version": 3}})
    ...     return new_notebook(cells=[answer])
    >>> folder = Path(tempfile.mkdtemp())
    >>> nbformat.write(solution_notebook(), folder / "01_x.ipynb")
    >>> [path.name for path in release(folder, folder / "student")]
    ['01_x.ipynb']
    >>> student = nbformat.read(folder / "student" / "01_x.ipynb", 4)
    >>> print(student.cells[0].source)
    # YOUR CODE HERE
    raise NotImplementedError()
    """
    source = Path(source)
    if not source.exists():
        raise FileNotFoundError(f"No such file or folder: {source}")
    notebooks = sorted(source.glob("*.ipynb")) if source.is_dir() else [source]
    if not notebooks:
        raise ValueError(f"{source} holds no .ipynb notebook to release.")
    out_dir = Path(out_dir)
    if out_dir.resolve() == notebooks[0].parent.resolve():
        raise ValueError(
            f"The output folder {out_dir} is the folder of the solution "
            "notebooks; releasing there would overwrite the solutions. "
            "Choose another folder."
        )
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for path in notebooks:
        student = release_notebook(nbformat.read(path, as_version=4))
        target = out_dir / path.name
        nbformat.write(student, target)
        written.append(target)
    return written


#: Files of the project that the student edition carries, besides svmlib.
EDITION_FILES = ("pyproject.toml", "LICENSE", "LICENSE.md", "LICENSE.txt")

#: Packages of the student edition's requirements beside svmlib itself,
#: pinned as in the book's requirements.txt when it pins them.
EDITION_TOOLS = ("jupyterlab", "ipykernel", "ipywidgets")

STUDENT_README = """\
# svmbook: the assignments

This folder is the student edition of the svmbook assignments: the
notebooks you fill in, and the library `svmlib` that they use. It holds no
solutions and no hidden tests.

## Set up (once)

```bash
python3 -m venv .venv
source .venv/bin/activate
pip install -r requirements.txt
```

MNIST (assignments 5 and 8) is downloaded on first use; offline, point
`SVMLIB_DATA_DIR` at a folder holding the MNIST files.

## Work

```bash
jupyter lab assignments/{first}
```

Fill in every cell that says `# YOUR CODE HERE` or `YOUR ANSWER HERE`, keep
the function names, run *Kernel > Restart & Run All* before you hand in
the `.ipynb` file under its original name. The tests under each question
are a first check; the grader runs further hidden tests. Each notebook
names the svmlib functions that you may not call in your answers (they are
what you are asked to write); the grader flags answers that call them.

| notebook | points |
|---|---|
{table}
"""


def _pinned(requirements, names):
    """Lines ``name==version`` of requirements.txt for the given names."""
    pins = {}
    if requirements.exists():
        for line in requirements.read_text().splitlines():
            name, _, version = line.partition("==")
            if version and name.strip().lower() in names:
                pins[name.strip().lower()] = line.strip()
    return [pins.get(name, name) for name in names]


def _points(nb):
    return sum(
        float(cell.metadata["nbgrader"].get("points", 0))
        for cell in nb.cells
        if cell.metadata.get("nbgrader", {}).get("grade")
    )


def student_edition(project, out_dir, *, archive=True):
    r"""Write the folder that students get, and check it holds no solution.

    Parameters
    ----------
    project : str or path-like
        The book's folder: ``assignments/`` (solution notebooks), ``svmlib/``
        and ``pyproject.toml``.
    out_dir : str or path-like
        A new (or empty) folder; it receives ``assignments/`` (the student
        notebooks of :func:`release`), ``svmlib/`` (the library's sources),
        ``pyproject.toml``, a ``requirements.txt`` (svmlib and JupyterLab)
        and a ``README.md`` for students.
    archive : bool, default=True
        Also write ``<out_dir>.zip``, the same folder as one file.

    Returns
    -------
    pathlib.Path
        The folder written (or the archive, when ``archive``).

    Raises
    ------
    ValueError
        If ``out_dir`` is inside ``project`` or is not empty.
    RuntimeError
        If a file of the edition contains solution or hidden-test markup,
        or a line of a solution region (the edition is then removed).

    References
    ----------
    The book's page for instructors (``instructors.md``), "The student edition
    of the book".

    Examples
    --------
    A book folder with one assignment:

    >>> import tempfile
    >>> from pathlib import Path
    >>> import nbformat
    >>> from nbformat.v4 import new_code_cell, new_notebook
    >>> from svmbook_classroom import student_edition
    >>> def solution_notebook():
    ...     answer = new_code_cell("x = 4", metadata={"nbgrader": {
    ...         "grade": False, "solution": True, "locked": False,
    ...         "grade_id": "x", "schema_version": 3}})
    ...     return new_notebook(cells=[answer])
    >>> project = Path(tempfile.mkdtemp())
    >>> (project / "assignments").mkdir()
    >>> (project / "svmlib").mkdir()
    >>> _ = (project / "svmlib" / "__init__.py").write_text("")
    >>> _ = (project / "pyproject.toml").write_text("[project]\n")
    >>> nbformat.write(solution_notebook(),
    ...                project / "assignments" / "01_x.ipynb")
    >>> out = Path(tempfile.mkdtemp()) / "edition"
    >>> student_edition(project, out, archive=False) == out.resolve()
    True
    >>> print(*sorted(path.name for path in out.iterdir()))
    README.md assignments pyproject.toml requirements.txt svmlib
    >>> student_edition(project, project / "edition")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: ... is inside the book's folder ...
    """
    project, out_dir = Path(project).resolve(), Path(out_dir).resolve()
    if out_dir == project or project in out_dir.parents:
        raise ValueError(
            f"{out_dir} is inside the book's folder {project}; write the "
            "student edition elsewhere, so that it can never be committed "
            "beside the solutions."
        )
    if out_dir.exists() and any(out_dir.iterdir()):
        raise ValueError(f"{out_dir} is not empty.")
    solutions = sorted((project / "assignments").glob("*.ipynb"))
    written = release(project / "assignments", out_dir / "assignments")
    shutil.copytree(
        project / "svmlib",
        out_dir / "svmlib",
        # the grader is its own package (classroom/), not copied
        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
    )
    for name in EDITION_FILES:
        if (project / name).exists():
            shutil.copy(project / name, out_dir / name)
    tools = _pinned(project / "requirements.txt", EDITION_TOOLS)
    (out_dir / "requirements.txt").write_text(
        "\n".join(["# svmlib and Jupyter, to fill in the assignments", "."]
                  + tools) + "\n"
    )  # fmt: skip
    table = "\n".join(
        f"| `{path.name}` | {_points(nbformat.read(path, as_version=4)):g} |"
        for path in written
    )
    (out_dir / "README.md").write_text(
        STUDENT_README.format(first=written[0].name, table=table)
    )
    try:
        _check_no_solutions(out_dir, solutions)
    except RuntimeError:
        shutil.rmtree(out_dir)
        raise
    if archive:
        return Path(shutil.make_archive(str(out_dir), "zip", out_dir))
    return out_dir


#: Markup that only solution notebooks contain.
SOLUTION_MARKUP = ("### BEGIN SOLUTION", "### BEGIN HIDDEN TESTS")


def _solution_lines(path):
    """Distinctive lines of the solution and hidden-test regions.

    Long lines (40 characters or more) that occur only inside the regions:
    a line that the notebook also shows outside them (given code, the
    text) is given to students anyway.
    """
    inside_lines, outside = set(), []
    for cell in nbformat.read(path, as_version=4).cells:
        inside = False
        for line in cell.source.splitlines():
            stripped = line.strip()
            if stripped in ("### BEGIN SOLUTION", "### BEGIN HIDDEN TESTS"):
                inside = True
            elif stripped in ("### END SOLUTION", "### END HIDDEN TESTS"):
                inside = False
            elif inside and len(stripped) >= 40:
                inside_lines.add(stripped)
            else:
                outside.append(line)
    shown = "\n".join(outside)
    return {line for line in inside_lines if line not in shown}


def _check_no_solutions(folder, solutions):
    """RuntimeError if a text file in ``folder`` gives a solution away.

    Every file is searched for the markup; the notebooks and the README
    also for the lines of the solution regions (svmlib's own sources
    implement the algorithms, which is why the notebooks put them off
    limits).
    """
    secret = set().union(*(_solution_lines(path) for path in solutions))
    for path in sorted(folder.rglob("*")):
        if not path.is_file():
            continue
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue
        lines = secret if path.suffix in (".ipynb", ".md") else ()
        leaked = [m for m in SOLUTION_MARKUP if m in text] + [
            line for line in lines if line in text
        ]
        if leaked:
            raise RuntimeError(
                f"{path.relative_to(folder)} gives a solution away: "
                f"{leaked[0]!r}"
            )
