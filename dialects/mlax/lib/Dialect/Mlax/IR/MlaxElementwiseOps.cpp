//===- MlaxElementwiseOps.cpp - the elementwise family -------------------===//
//
// Verifiers of MlaxElementwiseOps.td's ops that need C++: bitcast_convert
// (the shifts, clz, erf, erf_inv and next_after need none: their types follow
// from ODS traits). Every message starts with the op's name. Then the rules
// that live here already (reduce_precision's derivative).
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::mlax;

namespace {

/// Bits of one element (complex counts both parts); 0 for bool.
unsigned elementBits(Type t) {
  if (auto c = llvm::dyn_cast<ComplexType>(t))
    return 2 * elementBits(c.getElementType());
  if (t.isInteger(1))
    return 0;
  return t.getIntOrFloatBitWidth();
}

} // namespace

LogicalResult BitcastConvertOp::verify() {
  auto in = llvm::cast<RankedTensorType>(getOperand().getType());
  auto out = getType();
  unsigned inBits = elementBits(in.getElementType());
  unsigned outBits = elementBits(out.getElementType());
  if (inBits == 0 || outBits == 0)
    return emitOpError("does not accept bool; got ")
           << in.getElementType() << " -> " << out.getElementType();
  ArrayRef<int64_t> inShape = in.getShape(), outShape = out.getShape();
  if (inBits == outBits) {
    if (inShape != outShape)
      return emitOpError("between types of one bit width keeps the shape; got ")
             << in << " -> " << out;
    return success();
  }
  if (inBits > outBits) {
    // Narrowing: a new trailing dimension of size inBits / outBits.
    if (inBits % outBits != 0 || outShape.size() != inShape.size() + 1 ||
        outShape.drop_back() != inShape ||
        outShape.back() != (int64_t)(inBits / outBits))
      return emitOpError("from ")
             << inBits << "-bit to " << outBits
             << "-bit elements adds a trailing dimension of size "
             << inBits / outBits << "; got " << in << " -> " << out;
    return success();
  }
  if (outBits % inBits != 0 || inShape.size() != outShape.size() + 1 ||
      inShape.drop_back() != outShape ||
      inShape.back() != (int64_t)(outBits / inBits))
    return emitOpError("from ")
           << inBits << "-bit to " << outBits
           << "-bit elements consumes a trailing dimension of size "
           << outBits / inBits << "; got " << in << " -> " << out;
  return success();
}

//===----------------------------------------------------------------------===//
// reduce_precision
//===----------------------------------------------------------------------===//

// Linear, as JAX's rule: the tangent (and the cotangent) is rounded the same way.
Value ReducePrecisionOp::applyPartial(OpBuilder &b, unsigned, Value t) {
  return ReducePrecisionOp::create(b, getLoc(), t, getExponentBitsAttr(),
                                   getMantissaBitsAttr());
}
