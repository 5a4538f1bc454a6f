//===- MlaxBitOps.cpp - verifiers of the bit-level and PRNG-support ops ---===//
//
// bitcast_convert, sort, cumsum and take (the shifts, erf, erf_inv and
// next_after need no C++: their types follow from ODS traits). Every
// message starts with the op's name.
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

LogicalResult SortOp::verify() {
  if (getOperands().empty())
    return emitOpError("needs at least one operand");
  int64_t n = getOperands().size();
  if (getNumKeys() < 1 || getNumKeys() > n)
    return emitOpError("num_keys must be in [1, ")
           << n << "] (the number of operands), got " << getNumKeys();
  auto first = llvm::cast<RankedTensorType>(getOperands().front().getType());
  if (getDimension() < 0 || getDimension() >= first.getRank())
    return emitOpError("dimension ")
           << getDimension() << " is out of range for rank " << first.getRank();
  if ((int64_t)getResults().size() != n)
    return emitOpError("has one result per operand; got ")
           << n << " operands and " << getResults().size() << " results";
  for (int64_t i = 0; i < n; ++i) {
    auto t = llvm::cast<RankedTensorType>(getOperands()[i].getType());
    if (t.getShape() != first.getShape())
      return emitOpError("operands must have one shape; got ")
             << first << " and " << t;
    if (getResults()[i].getType() != t)
      return emitOpError("result ")
             << i << " must have its operand's type " << t << ", got "
             << getResults()[i].getType();
  }
  return success();
}

LogicalResult CumsumOp::verify() {
  int64_t rank = getType().getRank();
  if (getAxis() < 0 || getAxis() >= rank)
    return emitOpError("axis ") << getAxis() << " is out of range for rank "
                                << rank;
  return success();
}

LogicalResult TakeOp::verify() {
  auto in = llvm::cast<RankedTensorType>(getOperand().getType());
  auto idx = llvm::cast<RankedTensorType>(getIndices().getType());
  auto out = getType();
  int64_t axis = getAxis();
  if (axis < 0 || axis >= in.getRank())
    return emitOpError("axis ") << axis << " is out of range for rank "
                                << in.getRank();
  if (in.getElementType() != out.getElementType())
    return emitOpError("keeps the element type; got ")
           << in.getElementType() << " -> " << out.getElementType();
  SmallVector<int64_t> shape(in.getShape().take_front(axis));
  llvm::append_range(shape, idx.getShape());
  llvm::append_range(shape, in.getShape().drop_front(axis + 1));
  if (ArrayRef<int64_t>(shape) != out.getShape())
    return emitOpError("result type must be ")
           << RankedTensorType::get(shape, in.getElementType()) << ", got " << out;
  // Clamping into an empty axis has no answer (and no valid gather).
  if (in.getDimSize(axis) == 0 && out.getNumElements() != 0)
    return emitOpError("takes ") << idx.getNumElements() << " indices from axis " << axis
                                 << " of size 0";
  return success();
}
