//===- MlaxDialect.cpp - mlax dialect registration ------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxDialect.h"
#include "mlax/Dialect/Mlax/IR/MlaxOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace mlir::mlax;

#include "mlax/Dialect/Mlax/IR/MlaxDialect.cpp.inc"

namespace {
/// Every mlax op is pure and region-free (or carries self-contained regions),
/// so calls can always be inlined.
struct MlaxInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Operation *, bool) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void MlaxDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "mlax/Dialect/Mlax/IR/MlaxOps.cpp.inc"
      >();
  registerAttributes();
  addInterfaces<MlaxInlinerInterface>();
}

//===----------------------------------------------------------------------===//
// Argument and result attributes: `mlax.sharding`
//===----------------------------------------------------------------------===//

namespace {

/// Checks `attr`, an `mlax.*` attribute on argument or result `index`
/// (`isResult`) of region `regionIndex` of `op`: `mlax.sharding` belongs on
/// a function's arguments and results, and must fit the value's type.
LogicalResult verifyValueAttribute(Operation *op, unsigned regionIndex, bool isResult,
                                   unsigned index, NamedAttribute attr) {
  if (attr.getName() != MlaxDialect::getShardingAttrName())
    return success(); // other mlax.* attributes are not the dialect's to check
  auto fn = llvm::dyn_cast<FunctionOpInterface>(op);
  if (!fn || regionIndex != 0)
    return op->emitOpError() << "'" << attr.getName().getValue()
                             << "' is only valid on the arguments and results of a function";
  Type type = isResult ? fn.getResultTypes()[index] : fn.getArgumentTypes()[index];
  auto sharding = llvm::dyn_cast<ShardingAttr>(attr.getValue());
  auto emit = [&]() {
    return op->emitOpError() << (isResult ? "result" : "argument") << " #" << index << ": ";
  };
  if (!sharding)
    return emit() << "'" << attr.getName().getValue()
                  << "' must be a #mlax.sharding attribute, got " << attr.getValue();
  return sharding.verifyForType(type, emit);
}

} // namespace

LogicalResult MlaxDialect::verifyRegionArgAttribute(Operation *op, unsigned regionIndex,
                                                    unsigned argIndex, NamedAttribute attr) {
  return verifyValueAttribute(op, regionIndex, /*isResult=*/false, argIndex, attr);
}

LogicalResult MlaxDialect::verifyRegionResultAttribute(Operation *op, unsigned regionIndex,
                                                       unsigned resultIndex,
                                                       NamedAttribute attr) {
  return verifyValueAttribute(op, regionIndex, /*isResult=*/true, resultIndex, attr);
}

Operation *MlaxDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  auto elements = llvm::dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return builder.create<ConstantOp>(loc, elements);
}
