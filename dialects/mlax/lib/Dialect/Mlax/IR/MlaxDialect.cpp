//===- MlaxDialect.cpp - mlax dialect registration ------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxDialect.h"
#include "mlax/Dialect/Mlax/IR/MlaxOps.h"

#include "mlir/IR/Builders.h"
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
  addInterfaces<MlaxInlinerInterface>();
}

Operation *MlaxDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  auto elements = llvm::dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return builder.create<ConstantOp>(loc, elements);
}
