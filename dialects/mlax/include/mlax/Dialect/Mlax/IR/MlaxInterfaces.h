//===- MlaxInterfaces.h - mlax op interfaces --------------------*- C++ -*-===//
#ifndef MLAX_DIALECT_MLAXINTERFACES_H
#define MLAX_DIALECT_MLAXINTERFACES_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"

namespace mlir::mlax::ad {
/// The default rules of elementwise ops, built on `applyPartial`.
LogicalResult elementwiseJvp(Operation *op, OpBuilder &b, ArrayRef<Value> tangents,
                             SmallVectorImpl<Value> &resultTangents);
LogicalResult elementwiseVjp(Operation *op, OpBuilder &b, ArrayRef<Value> cotangents,
                             SmallVectorImpl<Value> &operandCotangents);
/// Whether values of `type` carry (co)tangents: tensors of real or complex
/// floats.
bool isDifferentiableType(Type type);
/// An `mlax.constant` of zeros of tensor type `type` (float or integer).
Value zeros(OpBuilder &b, Location loc, Type type);
} // namespace mlir::mlax::ad

namespace mlir::mlax::vec {
/// The default batching rule of elementwise ops.
LogicalResult elementwiseBatch(Operation *op, OpBuilder &b, ValueRange operands,
                               ArrayRef<bool> batched, int64_t batchSize,
                               SmallVectorImpl<Value> &results);
/// `type` with a dimension of `size` inserted at `axis`.
RankedTensorType insertAxis(Type type, int64_t axis, int64_t size);
/// `type` with a leading batch dimension of `batchSize`.
RankedTensorType batchedType(Type type, int64_t batchSize);
/// An unbatched value repeated along a new leading batch dimension.
Value broadcastToBatch(OpBuilder &b, Location loc, Value v, int64_t batchSize);
} // namespace mlir::mlax::vec

namespace mlir::OpTrait::mlax {
/// An op whose derivative rule is written for real values only (the linalg
/// factorizations, whose complex rules need conjugate transposes): mlax-autodiff
/// refuses to differentiate it where a complex value carries a derivative.
template <typename ConcreteType>
class RealDerivativeOnly : public TraitBase<ConcreteType, RealDerivativeOnly> {};
} // namespace mlir::OpTrait::mlax

#include "mlax/Dialect/Mlax/IR/MlaxInterfaces.h.inc"

#endif // MLAX_DIALECT_MLAXINTERFACES_H
