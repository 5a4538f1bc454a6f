#!/usr/bin/env bash
# mlax's one entry point. Each command does the set-up it needs first
# (a virtualenv in .venv, the pinned LLVM/MLIR/jax packages from PyPI, and an
# editable build of mlax with CMake/Ninja at -j2), so it works on a fresh
# clone.
#
#   bash scripts/run.sh demo     set up, then run examples/demo.py
#   bash scripts/run.sh test     set up, then run lit (test/lit) and pytest (test/py)
#   bash scripts/run.sh quick    set up, then lit and pytest without the slow tier
#                                (property, fuzz and subprocess tests); stops at
#                                the first failure. Extra arguments go to pytest.
#   bash scripts/run.sh bench    set up, then run bench/run.py
#   bash scripts/run.sh setup    only the set-up
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
venv="$root/.venv"
py="$venv/bin/python"
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}"
export TF_CPP_MIN_LOG_LEVEL="${TF_CPP_MIN_LOG_LEVEL:-2}"
export PIP_DISABLE_PIP_VERSION_CHECK=1

setup() {
  if [ ! -x "$py" ]; then
    echo "== creating $venv"
    python3 -m venv "$venv"
  fi
  # Build requirements come from pyproject.toml, so they are listed once.
  mapfile -t build_reqs < <("$py" -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"]))')
  echo "== installing build requirements"
  "$py" -m pip install -q "${build_reqs[@]}"
  echo "== building and installing mlax (editable; C++ built with -j$CMAKE_BUILD_PARALLEL_LEVEL)"
  "$py" -m pip install -q --no-build-isolation -e ".[test]"
}

case "${1:-demo}" in
  setup) setup ;;
  demo) setup; "$py" examples/demo.py ;;
  test)
    setup
    echo "== lit (test/lit)"
    "$venv/bin/lit" -sv test/lit
    echo "== pytest (test/py)"
    # One worker per core; each worker shares compiled programs among its
    # tests (runtime.compile's cache), so files stay on one worker. The
    # slowest tests are listed at the end: where CI's time budget goes.
    "$py" -m pytest test/py -q -n auto --dist loadfile --durations=30
    ;;
  quick)
    setup
    shift
    echo "== lit (test/lit)"
    "$venv/bin/lit" -s test/lit
    echo "== pytest (test/py), quick tier"
    "$py" -m pytest test/py -q -n auto --dist loadfile -m "not slow" -x "$@"
    ;;
  bench) setup; shift; "$py" bench/run.py "$@" ;;
  *) echo "usage: bash scripts/run.sh {demo|test|quick|bench|setup}" >&2; exit 2 ;;
esac
