//===- MlaxRuleUtils.cpp - the interfaces' shared rules ------------------===//
//
// The `ad::` and `vec::` functions of MlaxInterfaces.h (the default
// elementwise derivative and batching rules, zeros, batched types) and the
// interfaces' generated definitions.
//
//===----------------------------------------------------------------------===//

#include "MlaxRuleUtils.h"

using namespace mlir;
using namespace mlir::mlax;
using namespace mlir::mlax::detail;

#include "mlax/Dialect/Mlax/IR/MlaxInterfaces.cpp.inc"

//======================================================================//
// Derivatives
//======================================================================//
bool ad::isDifferentiableType(Type type) {
  auto tensor = llvm::dyn_cast<RankedTensorType>(type);
  return tensor && llvm::isa<FloatType, ComplexType>(tensor.getElementType());
}

Value ad::zeros(OpBuilder &b, Location loc, Type type) { return MlaxBuilder(b, loc).zeros(type); }

LogicalResult ad::elementwiseJvp(Operation *op, OpBuilder &b, ArrayRef<Value> tangents,
                                 SmallVectorImpl<Value> &resultTangents) {
  auto iface = llvm::cast<DifferentiableOpInterface>(op);
  Value sum;
  if (isDifferentiableType(op->getResult(0).getType())) {
    MlaxBuilder e(b, op);
    for (auto [i, t] : llvm::enumerate(tangents))
      if (t)
        sum = e.add(sum, iface.applyPartial(b, i, t));
  }
  resultTangents.push_back(sum);
  return success();
}

LogicalResult ad::elementwiseVjp(Operation *op, OpBuilder &b, ArrayRef<Value> cotangents,
                                 SmallVectorImpl<Value> &operandCotangents) {
  auto iface = llvm::cast<DifferentiableOpInterface>(op);
  for (unsigned i = 0, e = op->getNumOperands(); i < e; ++i) {
    bool active = cotangents[0] && isDifferentiableType(op->getOperand(i).getType());
    operandCotangents.push_back(active ? iface.applyPartial(b, i, cotangents[0]) : Value());
  }
  return success();
}

//======================================================================//
// Batching
//======================================================================//
RankedTensorType vec::insertAxis(Type type, int64_t axis, int64_t size) {
  auto tensor = llvm::cast<RankedTensorType>(type);
  SmallVector<int64_t> shape(tensor.getShape());
  shape.insert(shape.begin() + axis, size);
  return RankedTensorType::get(shape, tensor.getElementType());
}

RankedTensorType vec::batchedType(Type type, int64_t batchSize) {
  return insertAxis(type, 0, batchSize);
}

Value vec::broadcastToBatch(OpBuilder &b, Location loc, Value v, int64_t batchSize) {
  auto type = llvm::cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < type.getRank(); ++d)
    dims.push_back(d + 1);
  return BroadcastInDimOp::create(b, loc, batchedType(type, batchSize), v, dims);
}


LogicalResult vec::elementwiseBatch(Operation *op, OpBuilder &b, ValueRange operands,
                                    ArrayRef<bool> batched, int64_t batchSize,
                                    SmallVectorImpl<Value> &results) {
  SmallVector<Value> newOperands;
  for (auto [v, isBatched] : llvm::zip(operands, batched))
    newOperands.push_back(ensureBatched(b, op->getLoc(), v, isBatched, batchSize));
  Operation *clone = cloneBatched(b, op, newOperands, batchSize);
  results.append(clone->getResults().begin(), clone->getResults().end());
  return success();
}
