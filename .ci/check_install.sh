#!/usr/bin/env bash
# Packaging check: svmlib installs from its sources with `pip install .` (not
# editable) into a fresh virtual environment, and every module imports.
#
#   bash .ci/check_install.sh            # newest releases allowed by pyproject
#   bash .ci/check_install.sh --lowest   # every dependency at its lower bound
#
# 1. `pip install .`: every module found by pkgutil.walk_packages imports,
#    except svmlib.teaching, whose import (and `python -m svmlib.teaching`)
#    must fail with an ImportError that names the extra,
#    pip install "svmlib[teaching]"; none of the classroom tools is installed.
# 2. `pip install .[teaching]`: every module imports, svmlib.teaching too.
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
    "$py" - "$work/src/pyproject.toml" >"$work/lowest.txt" <<'EOF'
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

with_extra = sys.argv[1] == "teaching"
venv = Path(sys.argv[2]).resolve()
HINT = 'pip install "svmlib[teaching]"'
TOOLS = ("nbgrader", "nbformat", "nbclient", "traitlets")
failures = []

import svmlib  # noqa: E402

if venv not in Path(svmlib.__file__).resolve().parents:
    sys.exit(f"svmlib was imported from {svmlib.__file__}, not from {venv}")

missing = [tool for tool in TOOLS if importlib.util.find_spec(tool) is None]
if with_extra and missing:
    failures.append(f"the teaching extra did not install {missing}")
if not with_extra and len(missing) < len(TOOLS):
    installed = sorted(set(TOOLS) - set(missing))
    failures.append(f"svmlib's core installed classroom tools: {installed}")

modules = ["svmlib"] + [
    info.name for info in pkgutil.walk_packages(svmlib.__path__, "svmlib.")
]
for name in modules:
    if name.endswith(".__main__"):  # runs the command: checked below
        continue
    try:
        importlib.import_module(name)
    except ImportError as error:
        if name == "svmlib.teaching" and not with_extra and HINT in str(error):
            print(f"  {name}: ImportError naming the extra, as it should")
            continue
        failures.append(f"import {name}: {type(error).__name__}: {error}")
    except Exception as error:
        failures.append(f"import {name}: {type(error).__name__}: {error}")
    else:
        if name == "svmlib.teaching" and not with_extra:
            failures.append("svmlib.teaching imported without its extra")
        else:
            print(f"  {name}: imported")

command = subprocess.run(
    [sys.executable, "-m", "svmlib.teaching", "--help"],
    capture_output=True,
    text=True,
)
if with_extra and command.returncode != 0:
    failures.append(f"python -m svmlib.teaching --help: {command.stderr}")
if not with_extra and (command.returncode == 0 or HINT not in command.stderr):
    failures.append(
        "python -m svmlib.teaching without the extra should fail naming "
        f"{HINT}; exit {command.returncode}, stderr: {command.stderr[-500:]}"
    )

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
        grep -iE '^(numpy|scipy|scikit-learn|threadpoolctl|pooch|pandas|tqdm|nbgrader|nbformat|nbclient|traitlets) ' |
        awk '{printf "%s==%s ", $1, $2} END {print ""}'
}

echo "--- pip install . (svmlib's core)"
pip_install "${constraints[@]}" "$work/src"
versions
check core

echo "--- pip install .[teaching]"
pip_install "${constraints[@]}" "$work/src[teaching]"
versions
check teaching

echo "--- install check passed"
