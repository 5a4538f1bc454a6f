"""Rewrites the relative imports in mlir-tblgen's Python op classes.

The generated module expects to live in `mlir/dialects/`; mlax installs it in
its own package, so `from ._ods_common` must become an absolute import.
"""
import sys

src, dst = sys.argv[1], sys.argv[2]
text = open(src).read()
text = text.replace("from ._ods_common import", "from mlir.dialects._ods_common import")
text = text.replace("from .._mlir_libs", "from mlir._mlir_libs")
open(dst, "w").write(text)
