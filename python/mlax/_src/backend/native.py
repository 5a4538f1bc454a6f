"""The native half of mlax: the plugin library, the generated op classes,
the MLIR context, and the mlax-opt binary.

The plugin (dialect + passes compiled against the upstream MLIR) is loaded
into the process with RTLD_GLOBAL so it shares MLIR with the `mlir` Python
bindings; its registration functions take the context's C pointer.
"""
from __future__ import annotations

import ctypes
import functools
import importlib
import importlib.util
import os
import sys
import threading

from mlir import ir

_PLUGIN_NAME = "libmlax_plugin.so"


def _native_dirs():
    """Where the built native files may be: a CMake build directory named by
    $MLAX_BUILD_DIR (for C++ development; it wins when set), then the
    installed package."""
    # The package's own directories (mlax is being imported when this runs;
    # _src never imports the public namespace).
    package_dirs = sys.modules["mlax"].__path__
    dirs = []
    build = os.environ.get("MLAX_BUILD_DIR")
    if build:
        dirs += [os.path.join(build, "python"), os.path.join(build, "tools")]
    return dirs + [os.path.join(p, "_lib") for p in package_dirs]


def _find(name: str) -> str:
    for d in _native_dirs():
        path = os.path.join(d, name)
        if os.path.exists(path):
            return path
    raise ImportError(
        f"mlax: native file {name!r} not found in {_native_dirs()}; "
        "reinstall mlax (`pip install .`) or set MLAX_BUILD_DIR to a CMake build")


def mlax_opt_path() -> str:
    return _find("mlax-opt")


def mlax_opt_main():
    """Console entry point: runs the mlax-opt binary with this process's args."""
    path = mlax_opt_path()
    os.execv(path, [path] + sys.argv[1:])


# Loading the plugin and the generated op classes happens once per process;
# several threads may ask at the same moment (functools.cache alone would let
# both load, and the second registration of the dialect's Python classes fails).
_load_lock = threading.RLock()


def _once(fn):
    cached = functools.cache(fn)

    @functools.wraps(fn)
    def wrapper():
        with _load_lock:
            return cached()
    wrapper.cache_clear = cached.cache_clear
    return wrapper


@_once
def _plugin():
    lib = ctypes.CDLL(_find(_PLUGIN_NAME), mode=ctypes.RTLD_GLOBAL)
    lib.mlaxRegisterDialects.argtypes = [ctypes.c_void_p]
    lib.mlaxRegisterDialects.restype = None
    lib.mlaxRegisterPasses.argtypes = []
    lib.mlaxRegisterPasses.restype = None
    lib.mlaxRegisterPasses()
    return lib


def _context_pointer(ctx: ir.Context) -> int:
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype = ctypes.c_void_p
    get.argtypes = [ctypes.py_object, ctypes.c_char_p]
    return get(ctx._CAPIPtr, b"mlir.ir.Context._CAPIPtr")


def new_context() -> ir.Context:
    """A context with the mlax and func dialects loaded; unregistered
    dialects are allowed because the lowering emits StableHLO by name."""
    ctx = ir.Context()
    ctx.allow_unregistered_dialects = True
    _plugin().mlaxRegisterDialects(_context_pointer(ctx))
    return ctx


_local = threading.local()


def context() -> ir.Context:
    """This thread's mlax context (MLIR contexts are not shared across
    threads that build IR concurrently)."""
    ctx = getattr(_local, "ctx", None)
    if ctx is None:
        ctx = _local.ctx = new_context()
    return ctx


@_once
def ops():
    """The generated op classes (`mlir-tblgen -gen-python-op-bindings`)."""
    _plugin()
    if not os.environ.get("MLAX_BUILD_DIR"):
        try:
            return _dialect_module(importlib.import_module("mlax._src.dialect._mlax_ops_gen"))
        except ImportError:
            pass
    for d in _native_dirs():
        path = os.path.join(d, "_mlax_ops_gen.py")
        if os.path.exists(path):
            spec = importlib.util.spec_from_file_location(
                "mlax._src.dialect._mlax_ops_gen", path)
            module = importlib.util.module_from_spec(spec)
            sys.modules[spec.name] = module
            spec.loader.exec_module(module)
            return _dialect_module(module)
    raise ImportError(
        f"mlax: the generated op classes were not found in {_native_dirs()}")


def _dialect_module(module):
    """Makes `module` (the generated op classes) the `mlax` dialect's Python
    module for MLIR's bindings, which look a dialect's module up (as
    `<prefix>.<dialect>` for each search prefix) whenever they wrap one of
    its ops read back from IR, and do not remember a failed lookup: without
    this, each mlax op a Python walk of the IR met tried two imports."""
    from mlir._mlir_libs import _mlir

    sys.modules["mlax._src.dialect.mlax"] = module
    if "mlax._src.dialect" not in _mlir.globals.dialect_search_modules:
        _mlir.globals.append_dialect_search_prefix("mlax._src.dialect")
    return module
