#!/usr/bin/env bash
# Packaging check: svmlib installs from its sources with `pip install .` (not
# editable) into a fresh virtual environment, and every module imports.
#
#   bash .ci/check_install.sh            # newest releases allowed by pyproject
#   bash .ci/check_install.sh --lowest   # every dependency at its lower bound
#
# 1. `pip install .`: every module of svmlib found by pkgutil.walk_packages
#    imports; none of the classroom tools (nbgrader, nbformat, nbclient,
#    traitlets) and not the classroom package is installed.
# 2. `pip install ./classroom` (the package svmbook-classroom, its own
#    pyproject.toml): it installs with its tools, every module of
#    svmbook_classroom imports, and `python -m svmbook_classroom --help`
#    works.
# Each stage also fits a small SVC, so the installed library does run.
#
# The environment and a copy of the sources live in a temporary folder,
# removed at the end; the working tree is left as it was (setuptools would
# write build/ and *.egg-info into it).
set -euo pipefail

lowest=0
case "${1:-}" in
    "") ;;
    --lowest) lowest=1 ;;
    *)
        echo "usage: bash .ci/check_install.sh [--lowest]" >&2
        exit 2
        ;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# the project's files as a fresh clone has them (tracked, plus new files that
# .gitignore does not exclude)
mkdir "$work/src"
(cd "$root" && git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' file; do
        [ -e "$file" ] && printf '%s\0' "$file"
    done | tar --null -T - -cf -) | tar -xf - -C "$work/src"

python3 -m venv "$work/venv"
py="$work/venv/bin/python"
pip_install() {
    "$py" -m pip install --quiet --disable-pip-version-check "$@"
}

constraints=()
if [ "$lowest" = 1 ]; then
    # pin every ">=" bound of [project] dependencies and extras exactly
    "$py" - "$work/src/pyproject.toml" "$work/src/classroom/pyproject.toml" \
        >"$work/lowest.txt" <<'EOF'
import re
import sys

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    sys.exit("--lowest needs Python 3.11 or newer (tomllib)")

with open(sys.argv[1], "rb") as handle:
    project = tomllib.load(handle)["project"]
requirements = list(project["dependencies"])
for extra in project.get("optional-dependencies", {}).values():
    requirements += extra
with open(sys.argv[2], "rb") as handle:  # the classroom package's
    classroom = tomllib.load(handle)["project"]
requirements += [r for r in classroom["dependencies"] if r != "svmlib"]
for requirement in requirements:
    match = re.fullmatch(r"\s*([A-Za-z0-9_.-]+)\s*>=\s*([^,;\s]+)\s*", requirement)
    if not match:
        sys.exit(f"no plain lower bound to pin in {requirement!r}")
    print(f"{match[1]}=={match[2]}")
EOF
    echo "lower bounds pinned:" $(cat "$work/lowest.txt")
    constraints=(-c "$work/lowest.txt")
fi

# Run in $work, not in the sources, so that `import svmlib` finds the
# installed package only.
check() {
    (cd "$work" && "$py" - "$1" "$work/venv") <<'EOF'
import importlib
import importlib.util
import pkgutil
import subprocess
import sys
from pathlib import Path

with_classroom = sys.argv[1] == "classroom"
venv = Path(sys.argv[2]).resolve()
TOOLS = ("nbgrader", "nbformat", "nbclient", "traitlets", "svmbook_classroom")
failures = []

import svmlib  # noqa: E402

if venv not in Path(svmlib.__file__).resolve().parents:
    sys.exit(f"svmlib was imported from {svmlib.__file__}, not from {venv}")

missing = [tool for tool in TOOLS if importlib.util.find_spec(tool) is None]
if with_classroom and missing:
    failures.append(f"pip install ./classroom did not install {missing}")
if not with_classroom and len(missing) < len(TOOLS):
    installed = sorted(set(TOOLS) - set(missing))
    failures.append(f"svmlib's core installed classroom tools: {installed}")

modules = ["svmlib"] + [
    info.name for info in pkgutil.walk_packages(svmlib.__path__, "svmlib.")
]
if with_classroom:
    import svmbook_classroom

    if venv not in Path(svmbook_classroom.__file__).resolve().parents:
        sys.exit(f"svmbook_classroom was imported from "
                 f"{svmbook_classroom.__file__}, not from {venv}")
    modules += ["svmbook_classroom"] + [
        info.name
        for info in pkgutil.walk_packages(
            svmbook_classroom.__path__, "svmbook_classroom."
        )
    ]
for name in modules:
    if name.endswith(".__main__"):  # runs the command: checked below
        continue
    try:
        importlib.import_module(name)
    except Exception as error:
        failures.append(f"import {name}: {type(error).__name__}: {error}")
    else:
        print(f"  {name}: imported")
if not with_classroom and "svmbook_classroom" in sys.modules:
    failures.append("importing svmlib imported svmbook_classroom")

if with_classroom:
    command = subprocess.run(
        [sys.executable, "-m", "svmbook_classroom", "--help"],
        capture_output=True,
        text=True,
    )
    if command.returncode != 0 or "usage:" not in command.stdout:
        failures.append(
            f"python -m svmbook_classroom --help: exit {command.returncode}, "
            f"stderr: {command.stderr[-500:]}"
        )
    else:
        print("  python -m svmbook_classroom --help: works")

from sklearn.datasets import make_blobs  # noqa: E402

X, y = make_blobs(40, centers=2, random_state=0)
accuracy = svmlib.SVC(kernel="linear").fit(X, y).score(X, y)
if accuracy < 0.9:
    failures.append(f"SVC fitted on two blobs: training accuracy {accuracy}")

if failures:
    sys.exit("FAILED:\n  " + "\n  ".join(failures))
print(f"  {len(modules)} modules checked; SVC fits (accuracy {accuracy:.2f})")
EOF
}

versions() {
    "$py" -m pip list --disable-pip-version-check 2>/dev/null |
        grep -iE '^(numpy|scipy|scikit-learn|threadpoolctl|pooch|pandas|tqdm|nbgrader|nbformat|nbclient|traitlets|svmbook-classroom) ' |
        awk '{printf "%s==%s ", $1, $2} END {print ""}'
}

echo "--- pip install . (svmlib's core)"
pip_install "${constraints[@]}" "$work/src"
versions
check core

echo "--- pip install ./classroom (svmbook-classroom)"
pip_install "${constraints[@]}" "$work/src" "$work/src/classroom"
versions
check classroom

echo "--- install check passed"
