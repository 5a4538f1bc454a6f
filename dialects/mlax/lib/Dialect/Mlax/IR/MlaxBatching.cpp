//===- MlaxBatching.cpp - batching rules of the mlax ops ------------------===//
//
// Each op's `BatchableOpInterface` implementation (grep the op's name).
// A batched value carries the batch dimension in front. Elementwise ops use
// the default rule; ops whose batched form is another op emit it directly:
// a batched dot_general gains a batch dimension, a reduction reduces shifted
// axes, a slice keeps the whole batch dimension. Nothing loops over the batch.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::mlax;

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

namespace {

/// `dims` shifted past the batch dimension.
SmallVector<int64_t> shifted(ArrayRef<int64_t> dims) {
  SmallVector<int64_t> out;
  for (int64_t d : dims)
    out.push_back(d + 1);
  return out;
}

/// [0] followed by `dims` shifted past the batch dimension.
SmallVector<int64_t> withBatchFirst(ArrayRef<int64_t> dims) {
  SmallVector<int64_t> out{0};
  out.append(shifted(dims));
  return out;
}

Value ensureBatched(OpBuilder &b, Location loc, Value v, bool batched, int64_t batchSize) {
  return batched ? v : vec::broadcastToBatch(b, loc, v, batchSize);
}

/// Clones `op` with `operands` and every result type batched.
Operation *cloneBatched(OpBuilder &b, Operation *op, ValueRange operands, int64_t batchSize) {
  IRMapping map;
  map.map(op->getOperands(), operands);
  Operation *clone = b.clone(*op, map);
  for (Value r : clone->getResults())
    r.setType(vec::batchedType(r.getType(), batchSize));
  return clone;
}

} // namespace

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

//===----------------------------------------------------------------------===//
// select_n: a scalar `which` may stay scalar when unbatched
//===----------------------------------------------------------------------===//

LogicalResult SelectNOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool> batched,
                               int64_t batchSize, SmallVectorImpl<Value> &results) {
  Location loc = getLoc();
  RankedTensorType caseType = llvm::cast<RankedTensorType>(getCases().front().getType());
  RankedTensorType resultType = vec::batchedType(caseType, batchSize);
  Value which = operands[0];
  auto whichType = llvm::cast<RankedTensorType>(which.getType());
  if (batched[0]) {
    // A per-example scalar choice becomes an elementwise one.
    if (whichType.getRank() == 1 && caseType.getRank() > 0)
      which = BroadcastInDimOp::create(
          b, loc, resultType.clone(whichType.getElementType()), which, ArrayRef<int64_t>{0});
  } else if (whichType.getRank() != 0) {
    which = vec::broadcastToBatch(b, loc, which, batchSize);
  }
  SmallVector<Value> cases;
  for (auto [v, isBatched] : llvm::zip(operands.drop_front(), batched.drop_front()))
    cases.push_back(ensureBatched(b, loc, v, isBatched, batchSize));
  results.push_back(SelectNOp::create(b, loc, which, cases));
  return success();
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

LogicalResult BroadcastInDimOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>,
                                      int64_t batchSize, SmallVectorImpl<Value> &results) {
  results.push_back(BroadcastInDimOp::create(b, getLoc(),
                                             vec::batchedType(getType(), batchSize),
                                             operands[0],
                                             withBatchFirst(getBroadcastDimensions())));
  return success();
}

LogicalResult ReshapeOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>,
                               int64_t batchSize, SmallVectorImpl<Value> &results) {
  results.push_back(
      ReshapeOp::create(b, getLoc(), vec::batchedType(getType(), batchSize), operands[0]));
  return success();
}

LogicalResult TransposeOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>, int64_t,
                                 SmallVectorImpl<Value> &results) {
  results.push_back(
      TransposeOp::create(b, getLoc(), operands[0], withBatchFirst(getPermutation())));
  return success();
}

LogicalResult SliceOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>,
                             int64_t batchSize, SmallVectorImpl<Value> &results) {
  SmallVector<int64_t> start{0}, limit{batchSize}, strides{1};
  start.append(getStartIndices().begin(), getStartIndices().end());
  limit.append(getLimitIndices().begin(), getLimitIndices().end());
  strides.append(getStrides().begin(), getStrides().end());
  results.push_back(SliceOp::create(b, getLoc(), operands[0], start, limit, strides));
  return success();
}

LogicalResult ConcatenateOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool> batched,
                                   int64_t batchSize, SmallVectorImpl<Value> &results) {
  SmallVector<Value> inputs;
  for (auto [v, isBatched] : llvm::zip(operands, batched))
    inputs.push_back(ensureBatched(b, getLoc(), v, isBatched, batchSize));
  results.push_back(ConcatenateOp::create(b, getLoc(), inputs, getDimension() + 1));
  return success();
}

LogicalResult PadOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool> batched,
                           int64_t batchSize, SmallVectorImpl<Value> &results) {
  Location loc = getLoc();
  SmallVector<int64_t> low{0}, high{0}, interior{0};
  low.append(getEdgePaddingLow().begin(), getEdgePaddingLow().end());
  high.append(getEdgePaddingHigh().begin(), getEdgePaddingHigh().end());
  interior.append(getInteriorPadding().begin(), getInteriorPadding().end());
  Value x = ensureBatched(b, loc, operands[0], batched[0], batchSize);
  if (!batched[1]) {
    results.push_back(PadOp::create(b, loc, x, operands[1], low, high, interior));
    return success();
  }
  // A per-example padding value: pad with anything, then select the padding
  // value wherever a mask padded with `false` says so.
  auto xType = llvm::cast<RankedTensorType>(x.getType());
  Type i1 = b.getI1Type();
  auto scalarOf = [&](Type elt, Attribute value) -> Value {
    auto type = RankedTensorType::get({}, elt);
    return ConstantOp::create(b, loc, llvm::cast<ElementsAttr>(DenseElementsAttr::get(type, value)));
  };
  Value padded = PadOp::create(b, loc, x, scalarOf(xType.getElementType(),
                                                   b.getZeroAttr(xType.getElementType())),
                               low, high, interior);
  auto resultType = llvm::cast<RankedTensorType>(padded.getType());
  Value ones = ConstantOp::create(
      b, loc, llvm::cast<ElementsAttr>(DenseElementsAttr::get(xType.clone(i1), true)));
  Value mask = PadOp::create(b, loc, ones, scalarOf(i1, b.getBoolAttr(false)), low, high,
                             interior);
  Value fill = BroadcastInDimOp::create(b, loc, resultType, operands[1], ArrayRef<int64_t>{0});
  results.push_back(SelectNOp::create(b, loc, mask, ValueRange{fill, padded}));
  (void)resultType;
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions: the same reduction over shifted axes
//===----------------------------------------------------------------------===//

namespace {
template <typename ReduceOpT>
LogicalResult batchReduction(ReduceOpT op, OpBuilder &b, ValueRange operands,
                             SmallVectorImpl<Value> &results) {
  results.push_back(ReduceOpT::create(b, op.getLoc(), operands[0], shifted(op.getAxes())));
  return success();
}
} // namespace

#define MLAX_BATCH_REDUCTION(OP)                                                         \
  LogicalResult OP::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>, int64_t,    \
                          SmallVectorImpl<Value> &results) {                             \
    return batchReduction(*this, b, operands, results);                                  \
  }
MLAX_BATCH_REDUCTION(ReduceSumOp)
MLAX_BATCH_REDUCTION(ReduceProdOp)
MLAX_BATCH_REDUCTION(ReduceMaxOp)
MLAX_BATCH_REDUCTION(ReduceMinOp)
MLAX_BATCH_REDUCTION(ReduceAndOp)
MLAX_BATCH_REDUCTION(ReduceOrOp)
#undef MLAX_BATCH_REDUCTION

//===----------------------------------------------------------------------===//
// dot_general: a batch dimension, or a free dimension moved to the front
//===----------------------------------------------------------------------===//

LogicalResult DotGeneralOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool> batched,
                                  int64_t batchSize, SmallVectorImpl<Value> &results) {
  Location loc = getLoc();
  ArrayRef<int64_t> lb = getLhsBatchingDimensions(), rb = getRhsBatchingDimensions();
  ArrayRef<int64_t> lc = getLhsContractingDimensions(), rc = getRhsContractingDimensions();
  auto lhsType = llvm::cast<RankedTensorType>(getLhs().getType());
  Type elt = getType().getElementType();
  ArrayRef<int64_t> shape = getType().getShape();
  auto make = [&](ArrayRef<int64_t> outShape, ArrayRef<int64_t> nlb, ArrayRef<int64_t> nrb,
                  ArrayRef<int64_t> nlc, ArrayRef<int64_t> nrc) -> Value {
    return DotGeneralOp::create(b, loc, RankedTensorType::get(outShape, elt), operands[0],
                                operands[1], nlb, nrb, nlc, nrc);
  };
  SmallVector<int64_t> batchedShape{batchSize};
  batchedShape.append(shape.begin(), shape.end());
  if (batched[0] && batched[1]) {
    // The vmapped dimension becomes the leading batch dimension of both.
    results.push_back(make(batchedShape, withBatchFirst(lb), withBatchFirst(rb), shifted(lc),
                           shifted(rc)));
    return success();
  }
  // One side batched: the batch dimension is a free dimension of that side;
  // dot_general puts it after the batch dimensions (lhs) or after the lhs
  // free dimensions (rhs), from where a transpose moves it to the front.
  int64_t nb = lb.size();
  int64_t lhsFree = lhsType.getRank() - nb - static_cast<int64_t>(lc.size());
  int64_t position = batched[0] ? nb : nb + lhsFree;
  SmallVector<int64_t> outShape(shape);
  outShape.insert(outShape.begin() + position, batchSize);
  Value product = batched[0] ? make(outShape, shifted(lb), rb, shifted(lc), rc)
                             : make(outShape, lb, shifted(rb), lc, shifted(rc));
  SmallVector<int64_t> perm{position};
  for (int64_t d = 0; d < static_cast<int64_t>(outShape.size()); ++d)
    if (d != position)
      perm.push_back(d);
  results.push_back(position == 0 ? product : TransposeOp::create(b, loc, product, perm));
  return success();
}

//===----------------------------------------------------------------------===//
// sort, cumsum: the same op one dimension further in
//===----------------------------------------------------------------------===//

LogicalResult SortOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool> batched,
                            int64_t batchSize, SmallVectorImpl<Value> &results) {
  SmallVector<Value> inputs;
  SmallVector<Type> types;
  for (auto [v, isBatched] : llvm::zip(operands, batched)) {
    inputs.push_back(ensureBatched(b, getLoc(), v, isBatched, batchSize));
    types.push_back(inputs.back().getType());
  }
  auto sorted = SortOp::create(b, getLoc(), types, inputs,
                               b.getI64IntegerAttr(getDimension() + 1), getIsStableAttr(),
                               getNumKeysAttr());
  results.append(sorted.getResults().begin(), sorted.getResults().end());
  return success();
}

LogicalResult CumsumOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>, int64_t,
                              SmallVectorImpl<Value> &results) {
  results.push_back(CumsumOp::create(b, getLoc(), operands[0],
                                     b.getI64IntegerAttr(getAxis() + 1), getReverseAttr()));
  return success();
}

//===----------------------------------------------------------------------===//
// Indexing: reverse and the slices shift their dimensions; per-example
// start indices turn dynamic_slice into a gather and dynamic_update_slice
// into a scatter; gather and scatter gain a batching dimension.
//===----------------------------------------------------------------------===//

namespace {

Value scalarIndexConstant(OpBuilder &b, Location loc, Type elt, int64_t value) {
  auto type = RankedTensorType::get({}, elt);
  return ConstantOp::create(
      b, loc, llvm::cast<ElementsAttr>(DenseElementsAttr::get(type, b.getIntegerAttr(elt, value))));
}

/// Per-example scalar start indices (each batched `[B]` or an unbatched
/// scalar) as one `[B, n]` tensor of index vectors, each clamped to
/// `[0, limits[i]]` when `limits` is given.
Value indexVectors(OpBuilder &b, Location loc, ValueRange indices, ArrayRef<bool> batched,
                   int64_t batchSize, ArrayRef<int64_t> limits) {
  SmallVector<Value> columns;
  for (auto [i, v] : llvm::enumerate(indices)) {
    auto type = llvm::cast<RankedTensorType>(v.getType());
    Type elt = type.getElementType();
    auto vecType = RankedTensorType::get({batchSize}, elt);
    Value column = batched[i] ? v
                              : BroadcastInDimOp::create(b, loc, vecType, v,
                                                         ArrayRef<int64_t>{});
    if (!limits.empty()) {
      auto splat = [&](int64_t value) -> Value {
        return ConstantOp::create(b, loc, llvm::cast<ElementsAttr>(DenseElementsAttr::get(
                                              vecType, b.getIntegerAttr(elt, value))));
      };
      column = MaxOp::create(b, loc, MinOp::create(b, loc, column, splat(limits[i])), splat(0));
    }
    columns.push_back(
        ReshapeOp::create(b, loc, RankedTensorType::get({batchSize, 1}, elt), column));
  }
  if (columns.size() == 1)
    return columns.front();
  return ConcatenateOp::create(b, loc, columns, 1);
}

SmallVector<int64_t> oneToN(int64_t n) {
  SmallVector<int64_t> dims;
  for (int64_t d = 1; d <= n; ++d)
    dims.push_back(d);
  return dims;
}

} // namespace

LogicalResult ReverseOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>, int64_t,
                               SmallVectorImpl<Value> &results) {
  results.push_back(ReverseOp::create(b, getLoc(), operands[0],
                                      b.getDenseI64ArrayAttr(shifted(getDimensions()))));
  return success();
}

LogicalResult DynamicSliceOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool> batched,
                                    int64_t batchSize, SmallVectorImpl<Value> &results) {
  Location loc = getLoc();
  ValueRange indices = operands.drop_front();
  ArrayRef<bool> indexBatched = batched.drop_front();
  RankedTensorType resultType = vec::batchedType(getType(), batchSize);
  SmallVector<int64_t> sizes{batchSize};
  sizes.append(getSliceSizes().begin(), getSliceSizes().end());
  bool startsBatched = llvm::any_of(indexBatched, [](bool v) { return v; });
  Value x = startsBatched && !batched[0]
                ? operands[0]
                : ensureBatched(b, loc, operands[0], batched[0], batchSize);
  if (!startsBatched) {
    Type elt = indices.empty() ? b.getI32Type()
                               : llvm::cast<RankedTensorType>(indices[0].getType())
                                     .getElementType();
    SmallVector<Value> starts{scalarIndexConstant(b, loc, elt, 0)};
    starts.append(indices.begin(), indices.end());
    results.push_back(DynamicSliceOp::create(b, loc, resultType, x, starts,
                                             b.getDenseI64ArrayAttr(sizes)));
    return success();
  }
  // Per-example starts: a gather of one slice per example, from the one
  // operand or, if it is batched too, from each example's own. The starts are
  // clamped here, as dynamic_slice clamps them: the gather would clamp too,
  // but its transpose (a scatter) drops out-of-range windows instead, so the
  // derivative of an out-of-range start would be lost.
  int64_t n = indices.size();
  auto inType = llvm::cast<RankedTensorType>(getOperand().getType());
  SmallVector<int64_t> limits;
  for (int64_t d = 0; d < n; ++d)
    limits.push_back(inType.getDimSize(d) - getSliceSizes()[d]);
  Value starts = indexVectors(b, loc, indices, indexBatched, batchSize, limits);
  if (!batched[0]) {
    SmallVector<int64_t> dims = oneToN(n);
    for (int64_t &d : dims)
      d -= 1;
    results.push_back(GatherOp::create(
        b, loc, resultType, operands[0], starts, b.getDenseI64ArrayAttr(oneToN(n)),
        b.getDenseI64ArrayAttr({}), b.getDenseI64ArrayAttr({}), b.getDenseI64ArrayAttr({}),
        b.getDenseI64ArrayAttr(dims), b.getI64IntegerAttr(1), getSliceSizesAttr(),
        UnitAttr()));
    return success();
  }
  sizes[0] = 1;
  results.push_back(GatherOp::create(
      b, loc, resultType, x, starts, b.getDenseI64ArrayAttr(oneToN(n)),
      b.getDenseI64ArrayAttr({}), b.getDenseI64ArrayAttr({0}), b.getDenseI64ArrayAttr({0}),
      b.getDenseI64ArrayAttr(oneToN(n)), b.getI64IntegerAttr(1), b.getDenseI64ArrayAttr(sizes),
      UnitAttr()));
  return success();
}

LogicalResult DynamicUpdateSliceOp::batch(OpBuilder &b, ValueRange operands,
                                          ArrayRef<bool> batched, int64_t batchSize,
                                          SmallVectorImpl<Value> &results) {
  Location loc = getLoc();
  Value x = ensureBatched(b, loc, operands[0], batched[0], batchSize);
  Value update = ensureBatched(b, loc, operands[1], batched[1], batchSize);
  ValueRange indices = operands.drop_front(2);
  ArrayRef<bool> indexBatched = batched.drop_front(2);
  RankedTensorType resultType = vec::batchedType(getType(), batchSize);
  if (llvm::none_of(indexBatched, [](bool v) { return v; })) {
    Type elt = indices.empty() ? b.getI32Type()
                               : llvm::cast<RankedTensorType>(indices[0].getType())
                                     .getElementType();
    SmallVector<Value> starts{scalarIndexConstant(b, loc, elt, 0)};
    starts.append(indices.begin(), indices.end());
    results.push_back(DynamicUpdateSliceOp::create(b, loc, resultType, x, update, starts));
    return success();
  }
  // Per-example starts: an overwriting scatter of one window per example,
  // with the starts clamped first as dynamic_update_slice clamps them.
  auto inType = llvm::cast<RankedTensorType>(getOperand().getType());
  auto updType = llvm::cast<RankedTensorType>(getUpdate().getType());
  SmallVector<int64_t> limits;
  for (int64_t d = 0; d < inType.getRank(); ++d)
    limits.push_back(inType.getDimSize(d) - updType.getDimSize(d));
  int64_t n = indices.size();
  Value starts = indexVectors(b, loc, indices, indexBatched, batchSize, limits);
  results.push_back(ScatterOp::create(
      b, loc, resultType, ScatterCombinerAttr::get(b.getContext(), ScatterCombiner::Set), x,
      starts, update, b.getDenseI64ArrayAttr(oneToN(n)), b.getDenseI64ArrayAttr({}),
      b.getDenseI64ArrayAttr({0}), b.getDenseI64ArrayAttr({0}),
      b.getDenseI64ArrayAttr(oneToN(n)), b.getI64IntegerAttr(1), UnitAttr(),
      b.getUnitAttr()));
  return success();
}

LogicalResult GatherOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool> batched,
                              int64_t batchSize, SmallVectorImpl<Value> &results) {
  Location loc = getLoc();
  RankedTensorType resultType = vec::batchedType(getType(), batchSize);
  if (!batched[0]) {
    // Only the indices: the example dimension is one more batch dimension
    // of the indices, which the result puts first.
    results.push_back(GatherOp::create(
        b, loc, resultType, operands[0], operands[1],
        b.getDenseI64ArrayAttr(shifted(getOffsetDims())), getCollapsedSliceDimsAttr(),
        getOperandBatchingDimsAttr(),
        b.getDenseI64ArrayAttr(shifted(getStartIndicesBatchingDims())), getStartIndexMapAttr(),
        b.getI64IntegerAttr(getIndexVectorDim() + 1), getSliceSizesAttr(),
        getIndicesAreSortedAttr()));
    return success();
  }
  Value indices = ensureBatched(b, loc, operands[1], batched[1], batchSize);
  SmallVector<int64_t> sizes{1};
  sizes.append(getSliceSizes().begin(), getSliceSizes().end());
  results.push_back(GatherOp::create(
      b, loc, resultType, operands[0], indices, b.getDenseI64ArrayAttr(shifted(getOffsetDims())),
      b.getDenseI64ArrayAttr(shifted(getCollapsedSliceDims())),
      b.getDenseI64ArrayAttr(withBatchFirst(getOperandBatchingDims())),
      b.getDenseI64ArrayAttr(withBatchFirst(getStartIndicesBatchingDims())),
      b.getDenseI64ArrayAttr(shifted(getStartIndexMap())),
      b.getI64IntegerAttr(getIndexVectorDim() + 1), b.getDenseI64ArrayAttr(sizes),
      getIndicesAreSortedAttr()));
  return success();
}

LogicalResult ScatterOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool> batched,
                               int64_t batchSize, SmallVectorImpl<Value> &results) {
  Location loc = getLoc();
  Value x = ensureBatched(b, loc, operands[0], batched[0], batchSize);
  Value indices = ensureBatched(b, loc, operands[1], batched[1], batchSize);
  Value updates = ensureBatched(b, loc, operands[2], batched[2], batchSize);
  results.push_back(ScatterOp::create(
      b, loc, x.getType(), getCombinerAttr(), x, indices, updates,
      b.getDenseI64ArrayAttr(shifted(getUpdateWindowDims())),
      b.getDenseI64ArrayAttr(shifted(getInsertedWindowDims())),
      b.getDenseI64ArrayAttr(withBatchFirst(getInputBatchingDims())),
      b.getDenseI64ArrayAttr(withBatchFirst(getScatterIndicesBatchingDims())),
      b.getDenseI64ArrayAttr(shifted(getScatterDimsToOperandDims())),
      b.getI64IntegerAttr(getIndexVectorDim() + 1), getIndicesAreSortedAttr(),
      getUniqueIndicesAttr()));
  return success();
}
