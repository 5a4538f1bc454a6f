//===- MlaxVectorizeOps.cpp - the verifier of mlax.vmap -------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::mlax;

namespace {
LogicalResult checkSide(Operation *op, StringRef what, ArrayRef<int64_t> axes, TypeRange actual,
                        ArrayRef<Type> unbatched, int64_t size) {
  if (axes.size() != unbatched.size() || actual.size() != unbatched.size())
    return op->emitOpError() << "expects one " << what << " axis and one " << what
                             << " per callee " << (what == "in" ? "input" : "result") << " ("
                             << unbatched.size() << "), got " << axes.size() << " axes and "
                             << actual.size() << " values";
  for (auto [i, axis] : llvm::enumerate(axes)) {
    auto tensor = llvm::cast<RankedTensorType>(unbatched[i]);
    Type expected = unbatched[i];
    if (axis != -1) {
      if (axis < 0 || axis > tensor.getRank())
        return op->emitOpError() << what << "_axes[" << i << "] = " << axis
                                 << " is out of range for a batched rank-"
                                 << tensor.getRank() + 1 << " value (use -1 for none)";
      expected = vec::insertAxis(tensor, axis, size);
    }
    if (actual[i] != expected)
      return op->emitOpError() << (what == "in" ? "operand" : "result") << " #" << i
                               << " has type " << actual[i] << ", expected " << expected;
  }
  return success();
}
} // namespace

LogicalResult VmapOp::verifySymbolUses(SymbolTableCollection &symbols) {
  auto fn = symbols.lookupNearestSymbolFrom<func::FuncOp>(*this, getCalleeAttr());
  if (!fn)
    return emitOpError() << "callee '" << getCallee() << "' does not name a func.func";
  // The I64Attr getter is unsigned: a negative size must not read as a huge one.
  int64_t size = getBatchSizeAttr().getInt();
  if (size < 0)
    return emitOpError() << "batch size must be non-negative, got " << size;
  FunctionType type = fn.getFunctionType();
  if (failed(checkSide(*this, "in", getInAxes(), getOperandTypes(), type.getInputs(), size)))
    return failure();
  return checkSide(*this, "out", getOutAxes(), getResultTypes(), type.getResults(), size);
}

/// spmd_axis_name: mesh axis names, not empty, each once (which mesh they
/// name is only known where a sharding uses them: mlax-vectorize checks it).
LogicalResult VmapOp::verify() {
  std::optional<ArrayAttr> spmd = getSpmdAxisName();
  if (!spmd)
    return success();
  if (spmd->empty())
    return emitOpError("spmd_axis_name must name at least one mesh axis");
  llvm::SmallDenseSet<StringRef> seen;
  for (Attribute a : *spmd) {
    StringRef name = llvm::cast<StringAttr>(a).getValue();
    if (!seen.insert(name).second)
      return emitOpError() << "spmd_axis_name names mesh axis \"" << name << "\" twice";
  }
  return success();
}
