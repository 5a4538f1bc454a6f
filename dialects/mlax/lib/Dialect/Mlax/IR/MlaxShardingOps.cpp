//===- MlaxShardingOps.cpp - sharding_constraint --------------------------===//
//
// The verifier, folder, derivative rules and batching rule of
// `mlax.sharding_constraint` (jax.lax.with_sharding_constraint). Its
// sharding attribute's own C++ is in MlaxAttributes.cpp.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"
#include "MlaxRuleUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::mlax;

//======================================================================//
// Verifier
//======================================================================//

LogicalResult ShardingConstraintOp::verify() {
  return getSharding().verifyForType(getOperand().getType(),
                                     [&]() { return emitOpError(); });
}

//======================================================================//
// Folder
//======================================================================//

/// A constraint of a value already constrained to the same sharding is that
/// value. Nothing else folds: a constant stays constrained, as in JAX.
OpFoldResult ShardingConstraintOp::fold(FoldAdaptor) {
  auto inner = getOperand().getDefiningOp<ShardingConstraintOp>();
  if (inner && inner.getSharding() == getSharding())
    return getOperand();
  return {};
}

//======================================================================//
// Derivative rules (jax: the tangent and the cotangent are constrained
// alike; the transpose of the constraint is the same constraint)
//======================================================================//

LogicalResult ShardingConstraintOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                                        SmallVectorImpl<Value> &resultTangents) {
  Value t = tangents[0];
  resultTangents.push_back(
      t ? ShardingConstraintOp::create(b, getLoc(), t, getSharding()).getResult() : Value());
  return success();
}

LogicalResult ShardingConstraintOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                                        SmallVectorImpl<Value> &operandCotangents) {
  Value ct = cotangents[0];
  operandCotangents.push_back(
      ct ? ShardingConstraintOp::create(b, getLoc(), ct, getSharding()).getResult() : Value());
  return success();
}

//======================================================================//
// Batching rule: the batch dimension (in front) is replicated
//======================================================================//

LogicalResult ShardingConstraintOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>,
                                          int64_t, SmallVectorImpl<Value> &results) {
  int64_t rank = getType().getRank();
  ShardingAttr sharding = getSharding().withReplicatedDimension(/*position=*/0, rank);
  results.push_back(ShardingConstraintOp::create(b, getLoc(), operands[0], sharding));
  return success();
}
