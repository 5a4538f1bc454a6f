//===- MlaxIndexingOps.cpp - the indexing family --------------------------===//
//
// Shape rules (`inferReturnTypes`), derivative rules and batching rules of
// reverse, dynamic_slice, dynamic_update_slice, gather, scatter and take, in
// that order. The shape rules are the ops' only ones: the tracer builds the
// ops through them without running the ODS constraints, so each checks
// every operand and attribute it reads. The gather and scatter rules are
// StableHLO's (dimension numbers, batching dimensions included), so
// whatever verifies here also verifies in jaxlib. Every message starts with
// the op's name.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"
#include "MlaxRuleUtils.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::mlax;
using namespace mlir::mlax::detail;

namespace {

/// An error of `opName`'s shape rule, prefixed as a verifier's would be.
template <typename... Args>
LogicalResult fail(std::optional<Location> loc, StringRef opName, const Args &...args) {
  return emitOptionalError(loc, "'", opName, "' op ", args...);
}

/// `dims` (named `what`) are distinct, in [0, rank) and, if `sorted`,
/// increasing.
LogicalResult checkDimList(std::optional<Location> loc, StringRef opName, StringRef what,
                           ArrayRef<int64_t> dims, int64_t rank, bool sorted) {
  llvm::SmallSet<int64_t, 8> seen;
  for (auto [i, d] : llvm::enumerate(dims)) {
    if (d < 0 || d >= rank)
      return fail(loc, opName, what, " ", shapeStr(dims), ": ", d,
                  " is out of range for rank ", rank);
    if (!seen.insert(d).second)
      return fail(loc, opName, what, " ", shapeStr(dims), ": ", d, " appears twice");
    if (sorted && i > 0 && d < dims[i - 1])
      return fail(loc, opName, what, " must be sorted, got ", shapeStr(dims));
  }
  return success();
}

LogicalResult checkDisjoint(std::optional<Location> loc, StringRef opName, StringRef a,
                            ArrayRef<int64_t> as, StringRef b, ArrayRef<int64_t> bs) {
  for (int64_t d : as)
    if (llvm::is_contained(bs, d))
      return fail(loc, opName, "dimension ", d, " is in both ", a, " and ", b);
  return success();
}

/// Element types of index operands (Mlax_IndicesTensor): signless 8- to
/// 64-bit integers or unsigned ones.
bool isIndexElement(Type t) {
  auto it = llvm::dyn_cast<IntegerType>(t);
  if (!it)
    return false;
  if (it.isUnsigned())
    return true;
  unsigned w = it.getWidth();
  return it.isSignless() && (w == 8 || w == 16 || w == 32 || w == 64);
}

/// Start indices of dynamic_slice / dynamic_update_slice: one integer
/// scalar per operand dimension, all of one type.
LogicalResult checkStartIndices(std::optional<Location> loc, StringRef opName,
                                ValueRange indices, int64_t rank) {
  if (static_cast<int64_t>(indices.size()) != rank)
    return fail(loc, opName, "needs one start index per operand dimension: rank ", rank,
                ", got ", indices.size(), " indices");
  for (Value v : indices) {
    auto t = tensorOf(v);
    if (t.getRank() != 0 || !isIndexElement(t.getElementType()))
      return fail(loc, opName, "start indices must be integer scalars, got ", t);
    if (t != indices.front().getType())
      return fail(loc, opName, "start indices must have one type, got ",
                  indices.front().getType(), " and ", t);
  }
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// reverse
//===----------------------------------------------------------------------===//

LogicalResult ReverseOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                          Adaptor adaptor, SmallVectorImpl<Type> &results) {
  StringRef name = getOperationName();
  if (!allRanked(adaptor.getOperands()))
    return notTensors(loc, name);
  auto in = tensorOf(adaptor.getOperand());
  ArrayRef<int64_t> dims = adaptor.getDimensions();
  llvm::SmallSet<int64_t, 8> seen;
  for (int64_t d : dims) {
    if (d < 0 || d >= in.getRank())
      return fail(loc, name, "dimensions ", shapeStr(dims), " must be distinct axes of the rank-",
                  in.getRank(), " operand: ", d, " is out of range");
    if (!seen.insert(d).second)
      return fail(loc, name, "dimensions ", shapeStr(dims), " must be distinct axes of the rank-",
                  in.getRank(), " operand: ", d, " appears twice");
  }
  results.push_back(in);
  return success();
}

//===----------------------------------------------------------------------===//
// dynamic_slice, dynamic_update_slice
//===----------------------------------------------------------------------===//

LogicalResult DynamicSliceOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                               Adaptor adaptor,
                                               SmallVectorImpl<Type> &results) {
  StringRef name = getOperationName();
  if (!allRanked(adaptor.getOperands()))
    return notTensors(loc, name);
  auto in = tensorOf(adaptor.getOperand());
  if (failed(checkStartIndices(loc, name, adaptor.getStartIndices(), in.getRank())))
    return failure();
  ArrayRef<int64_t> sizes = adaptor.getSliceSizes();
  if (static_cast<int64_t>(sizes.size()) != in.getRank())
    return fail(loc, name, "needs one slice size per operand dimension: rank ", in.getRank(),
                ", got slice_sizes ", shapeStr(sizes));
  for (auto [i, s] : llvm::enumerate(sizes))
    if (s < 0 || s > in.getDimSize(i))
      return fail(loc, name, "slice_sizes ", shapeStr(sizes), " do not fit operand shape ",
                  shapeStr(in.getShape()), ": slice size ", s, " in dimension ", i);
  results.push_back(RankedTensorType::get(sizes, in.getElementType()));
  return success();
}

LogicalResult DynamicUpdateSliceOp::inferReturnTypes(MLIRContext *,
                                                     std::optional<Location> loc,
                                                     Adaptor adaptor,
                                                     SmallVectorImpl<Type> &results) {
  StringRef name = getOperationName();
  if (!allRanked(adaptor.getOperands()))
    return notTensors(loc, name);
  auto in = tensorOf(adaptor.getOperand()), upd = tensorOf(adaptor.getUpdate());
  if (failed(checkStartIndices(loc, name, adaptor.getStartIndices(), in.getRank())))
    return failure();
  if (upd.getElementType() != in.getElementType())
    return fail(loc, name, "update dtype ", upd.getElementType(), " differs from the operand's ",
                in.getElementType());
  if (upd.getRank() != in.getRank())
    return fail(loc, name, "update rank ", upd.getRank(), " differs from operand rank ",
                in.getRank());
  for (int64_t i = 0; i < in.getRank(); ++i)
    if (upd.getDimSize(i) > in.getDimSize(i))
      return fail(loc, name, "update shape ", shapeStr(upd.getShape()),
                  " must fit operand shape ", shapeStr(in.getShape()));
  results.push_back(in);
  return success();
}

//===----------------------------------------------------------------------===//
// gather
//===----------------------------------------------------------------------===//

LogicalResult GatherOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         Adaptor adaptor, SmallVectorImpl<Type> &results) {
  StringRef name = getOperationName();
  if (!allRanked(adaptor.getOperands()))
    return notTensors(loc, name);
  auto in = tensorOf(adaptor.getOperand()), idx = tensorOf(adaptor.getStartIndices());
  if (!isIndexElement(idx.getElementType()))
    return fail(loc, name, "start indices must be integers, got ", idx);
  int64_t rank = in.getRank(), idxRank = idx.getRank();
  int64_t ivd = adaptor.getIndexVectorDim();
  if (ivd < 0 || ivd > idxRank)
    return fail(loc, name, "index_vector_dim ", ivd,
                " is out of range for start indices of rank ", idxRank);
  int64_t vecSize = ivd == idxRank ? 1 : idx.getDimSize(ivd);
  ArrayRef<int64_t> offset = adaptor.getOffsetDims(),
                    collapsed = adaptor.getCollapsedSliceDims(),
                    opBatch = adaptor.getOperandBatchingDims(),
                    idxBatch = adaptor.getStartIndicesBatchingDims(),
                    map = adaptor.getStartIndexMap(), sizes = adaptor.getSliceSizes();
  if (static_cast<int64_t>(sizes.size()) != rank)
    return fail(loc, name, "needs one slice size per operand dimension: rank ", rank,
                ", got slice_sizes ", shapeStr(sizes));
  for (auto [i, s] : llvm::enumerate(sizes))
    if (s < 0 || s > in.getDimSize(i))
      return fail(loc, name, "slice size ", s, " in dimension ", i,
                  " does not fit operand shape ", shapeStr(in.getShape()));
  if (static_cast<int64_t>(map.size()) != vecSize)
    return fail(loc, name, "start_index_map ", shapeStr(map),
                " needs one entry per index vector element (", vecSize, ")");
  if (failed(checkDimList(loc, name, "start_index_map", map, rank, false)) ||
      failed(checkDimList(loc, name, "collapsed_slice_dims", collapsed, rank, true)) ||
      failed(checkDimList(loc, name, "operand_batching_dims", opBatch, rank, true)) ||
      failed(checkDisjoint(loc, name, "collapsed_slice_dims", collapsed,
                           "operand_batching_dims", opBatch)) ||
      failed(checkDisjoint(loc, name, "start_index_map", map, "operand_batching_dims",
                           opBatch)))
    return failure();
  for (int64_t d : collapsed)
    if (sizes[d] > 1)
      return fail(loc, name, "collapsed dimension ", d, " needs slice size 1, got ", sizes[d]);
  for (int64_t d : opBatch)
    if (sizes[d] > 1)
      return fail(loc, name, "batching dimension ", d, " needs slice size 1, got ", sizes[d]);
  if (idxBatch.size() != opBatch.size())
    return fail(loc, name, "operand_batching_dims ", shapeStr(opBatch),
                " and start_indices_batching_dims ", shapeStr(idxBatch), " differ in length");
  if (failed(checkDimList(loc, name, "start_indices_batching_dims", idxBatch, idxRank, false)))
    return failure();
  for (auto [o, i] : llvm::zip(opBatch, idxBatch)) {
    if (i == ivd)
      return fail(loc, name, "start_indices_batching_dims contains index_vector_dim ", ivd);
    if (in.getDimSize(o) != idx.getDimSize(i))
      return fail(loc, name, "operand batching dimension ", o, " (size ", in.getDimSize(o),
                  ") does not match start indices dimension ", i, " (size ",
                  idx.getDimSize(i), ")");
  }
  SmallVector<int64_t> batchSizes, offsetSizes;
  for (int64_t d = 0; d < idxRank; ++d)
    if (d != ivd)
      batchSizes.push_back(idx.getDimSize(d));
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(collapsed, d) && !llvm::is_contained(opBatch, d))
      offsetSizes.push_back(sizes[d]);
  int64_t outRank = batchSizes.size() + offsetSizes.size();
  if (offset.size() != offsetSizes.size())
    return fail(loc, name, "offset_dims ", shapeStr(offset),
                " needs one entry per slice dimension that is neither collapsed nor batching (",
                offsetSizes.size(), ")");
  if (failed(checkDimList(loc, name, "offset_dims", offset, outRank, true)))
    return failure();
  SmallVector<int64_t> shape;
  size_t nextBatch = 0, nextOffset = 0;
  for (int64_t d = 0; d < outRank; ++d)
    shape.push_back(llvm::is_contained(offset, d) ? offsetSizes[nextOffset++]
                                                  : batchSizes[nextBatch++]);
  results.push_back(RankedTensorType::get(shape, in.getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// scatter
//===----------------------------------------------------------------------===//

LogicalResult ScatterOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                          Adaptor adaptor, SmallVectorImpl<Type> &results) {
  StringRef name = getOperationName();
  if (!allRanked(adaptor.getOperands()))
    return notTensors(loc, name);
  auto in = tensorOf(adaptor.getOperand()), idx = tensorOf(adaptor.getScatterIndices()),
       upd = tensorOf(adaptor.getUpdates());
  if (!isIndexElement(idx.getElementType()))
    return fail(loc, name, "scatter indices must be integers, got ", idx);
  if (upd.getElementType() != in.getElementType())
    return fail(loc, name, "updates dtype ", upd.getElementType(),
                " differs from the operand's ", in.getElementType());
  int64_t rank = in.getRank(), idxRank = idx.getRank(), updRank = upd.getRank();
  int64_t ivd = adaptor.getIndexVectorDim();
  if (ivd < 0 || ivd > idxRank)
    return fail(loc, name, "index_vector_dim ", ivd,
                " is out of range for scatter indices of rank ", idxRank);
  int64_t vecSize = ivd == idxRank ? 1 : idx.getDimSize(ivd);
  ArrayRef<int64_t> window = adaptor.getUpdateWindowDims(),
                    inserted = adaptor.getInsertedWindowDims(),
                    opBatch = adaptor.getInputBatchingDims(),
                    idxBatch = adaptor.getScatterIndicesBatchingDims(),
                    map = adaptor.getScatterDimsToOperandDims();
  if (static_cast<int64_t>(map.size()) != vecSize)
    return fail(loc, name, "scatter_dims_to_operand_dims ", shapeStr(map),
                " needs one entry per index vector element (", vecSize, ")");
  if (failed(checkDimList(loc, name, "update_window_dims", window, updRank, true)) ||
      failed(checkDimList(loc, name, "inserted_window_dims", inserted, rank, true)) ||
      failed(checkDimList(loc, name, "input_batching_dims", opBatch, rank, true)) ||
      failed(checkDimList(loc, name, "scatter_dims_to_operand_dims", map, rank, false)) ||
      failed(checkDisjoint(loc, name, "inserted_window_dims", inserted, "input_batching_dims",
                           opBatch)) ||
      failed(checkDisjoint(loc, name, "scatter_dims_to_operand_dims", map,
                           "input_batching_dims", opBatch)))
    return failure();
  if (idxBatch.size() != opBatch.size())
    return fail(loc, name, "input_batching_dims ", shapeStr(opBatch),
                " and scatter_indices_batching_dims ", shapeStr(idxBatch), " differ in length");
  if (failed(checkDimList(loc, name, "scatter_indices_batching_dims", idxBatch, idxRank,
                          false)))
    return failure();
  for (auto [o, i] : llvm::zip(opBatch, idxBatch)) {
    if (i == ivd)
      return fail(loc, name, "scatter_indices_batching_dims contains index_vector_dim ", ivd);
    if (in.getDimSize(o) != idx.getDimSize(i))
      return fail(loc, name, "input batching dimension ", o, " (size ", in.getDimSize(o),
                  ") does not match scatter indices dimension ", i, " (size ",
                  idx.getDimSize(i), ")");
  }
  SmallVector<int64_t> windowOperandDims;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(inserted, d) && !llvm::is_contained(opBatch, d))
      windowOperandDims.push_back(d);
  if (window.size() != windowOperandDims.size())
    return fail(loc, name, "update_window_dims ", shapeStr(window),
                " needs one entry per operand dimension that is neither inserted nor batching (",
                windowOperandDims.size(), ")");
  SmallVector<int64_t> idxBatchSizes, updScatterSizes;
  for (int64_t d = 0; d < idxRank; ++d)
    if (d != ivd)
      idxBatchSizes.push_back(idx.getDimSize(d));
  for (int64_t d = 0; d < updRank; ++d)
    if (!llvm::is_contained(window, d))
      updScatterSizes.push_back(upd.getDimSize(d));
  if (idxBatchSizes != updScatterSizes)
    return fail(loc, name, "updates shape ", shapeStr(upd.getShape()), " has scatter dimensions ",
                shapeStr(updScatterSizes), " but the indices' batch dimensions are ",
                shapeStr(idxBatchSizes));
  for (auto [w, d] : llvm::zip(window, windowOperandDims))
    if (upd.getDimSize(w) > in.getDimSize(d))
      return fail(loc, name, "update window dimension ", w, " (size ", upd.getDimSize(w),
                  ") exceeds operand dimension ", d, " (size ", in.getDimSize(d), ")");
  results.push_back(in);
  return success();
}

//===----------------------------------------------------------------------===//
// take
//===----------------------------------------------------------------------===//

LogicalResult TakeOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                       Adaptor adaptor, SmallVectorImpl<Type> &results) {
  StringRef name = getOperationName();
  if (!allRanked(adaptor.getOperands()))
    return notTensors(loc, name);
  auto in = tensorOf(adaptor.getOperand()), idx = tensorOf(adaptor.getIndices());
  if (!idx.getElementType().isSignlessInteger(32) && !idx.getElementType().isSignlessInteger(64))
    return fail(loc, name, "indices must be int32 or int64, got ", idx);
  int64_t axis = adaptor.getAxis();
  if (axis < 0 || axis >= in.getRank())
    return fail(loc, name, "axis ", axis, " is out of range for rank ", in.getRank());
  SmallVector<int64_t> shape(in.getShape().take_front(axis));
  llvm::append_range(shape, idx.getShape());
  llvm::append_range(shape, in.getShape().drop_front(axis + 1));
  // Clamping into an empty axis has no answer (and no valid gather).
  if (in.getDimSize(axis) == 0 && llvm::all_of(shape, [](int64_t s) { return s != 0; }))
    return fail(loc, name, "takes ", idx.getNumElements(), " indices from axis ", axis,
                " of size 0");
  results.push_back(RankedTensorType::get(shape, in.getElementType()));
  return success();
}

//======================================================================//
// Derivative rules
//======================================================================//

//===----------------------------------------------------------------------===//
// Indexing: reverse, dynamic_slice, dynamic_update_slice, gather, scatter.
// As jax.lax: reverse is its own transpose, dynamic_slice transposes to a
// dynamic_update_slice into zeros, gather to a scatter-add; an overwriting
// scatter masks out what it overwrote, found by scattering ids.
//===----------------------------------------------------------------------===//

namespace {

/// The largest in-bounds start of each element of the index vectors of
/// `indices` (index vectors along `ivd`, element k addressing operand
/// dimension `map[k]`) for windows of `windowSizes` in `operandShape`,
/// broadcast to the indices' shape. Null when the index vectors are empty.
Value largestStarts(MlaxBuilder &e, Value indices, int64_t ivd, ArrayRef<int64_t> map,
                    ArrayRef<int64_t> operandShape, ArrayRef<int64_t> windowSizes) {
  if (map.empty())
    return {};
  auto idx = tensorOf(indices);
  auto elt = llvm::cast<IntegerType>(idx.getElementType());
  unsigned width = elt.getWidth();
  // Starts beyond what the index type holds are never reached: cap there.
  APInt typeMax = elt.isUnsigned() ? APInt::getMaxValue(width) : APInt::getSignedMaxValue(width);
  SmallVector<Attribute> bounds;
  for (int64_t d : map) {
    int64_t bound = operandShape[d] - windowSizes[d];
    APInt value(std::max(width, 64u), bound, /*isSigned=*/true);
    APInt cap = elt.isUnsigned() ? typeMax.zext(value.getBitWidth())
                                 : typeMax.sext(value.getBitWidth());
    if (value.sgt(cap))
      value = cap;
    bounds.push_back(IntegerAttr::get(elt, value.trunc(width)));
  }
  if (ivd == idx.getRank()) // one index per vector, the trailing dimension implicit
    return ConstantOp::create(e.b, e.loc, DenseElementsAttr::get(idx, bounds[0]));
  auto vecType = RankedTensorType::get({static_cast<int64_t>(map.size())}, elt);
  Value vec = ConstantOp::create(e.b, e.loc, DenseElementsAttr::get(vecType, bounds));
  return e.broadcast(vec, idx, {ivd});
}

/// The gather that reads back, for each update of `scatter`, the window of
/// `source` (shaped like the scatter's operand) it was written to, or zero
/// for an update the scatter dropped because its window did not fit
/// (jax.lax transposes a scatter with a FILL_OR_DROP gather, fill value 0).
Value gatherForScatter(OpBuilder &b, Location loc, ScatterOp scatter, Value source) {
  MlaxBuilder e(b, loc);
  auto upd = tensorOf(scatter.getUpdates());
  auto src = tensorOf(source);
  auto resultType = upd.clone(src.getElementType());
  ArrayRef<int64_t> window = scatter.getUpdateWindowDims();
  SmallVector<int64_t> sizes;
  size_t pos = 0;
  for (int64_t d = 0; d < src.getRank(); ++d) {
    if (llvm::is_contained(scatter.getInsertedWindowDims(), d) ||
        llvm::is_contained(scatter.getInputBatchingDims(), d))
      sizes.push_back(1);
    else
      sizes.push_back(upd.getDimSize(window[pos++]));
  }
  // No updates, or windows that fit nowhere (an inserted dimension of size
  // 0): every update was dropped, and no gather with these slice sizes is valid.
  if (upd.getNumElements() == 0)
    return e.zeros(resultType);
  for (auto [size, dim] : llvm::zip(sizes, src.getShape()))
    if (size > dim)
      return e.zeros(resultType);
  Value indices = scatter.getScatterIndices();
  Value gathered = GatherOp::create(b, loc, resultType, source, indices,
                                    scatter.getUpdateWindowDimsAttr(),
                                    scatter.getInsertedWindowDimsAttr(),
                                    scatter.getInputBatchingDimsAttr(),
                                    scatter.getScatterIndicesBatchingDimsAttr(),
                                    scatter.getScatterDimsToOperandDimsAttr(),
                                    scatter.getIndexVectorDimAttr(),
                                    b.getDenseI64ArrayAttr(sizes),
                                    scatter.getIndicesAreSortedAttr());
  // The gather clamps its starts where the scatter dropped the update: mask those.
  int64_t ivd = scatter.getIndexVectorDim();
  Value largest = largestStarts(e, indices, ivd, scatter.getScatterDimsToOperandDims(),
                                src.getShape(), sizes);
  if (!largest)
    return gathered;
  auto idx = tensorOf(indices);
  Value fits = AndOp::create(
      b, loc, CompareOp::create(b, loc, ComparisonDirection::GE, indices, e.zeros(idx)),
      CompareOp::create(b, loc, ComparisonDirection::LE, indices, largest));
  if (ivd < idx.getRank())
    fits = ReduceAndOp::create(b, loc, fits, ArrayRef<int64_t>{ivd});
  SmallVector<int64_t> scatterDims = keptDims(upd.getRank(), window);
  Value mask = e.broadcast(fits, upd.clone(b.getI1Type()), scatterDims);
  return e.select(mask, gathered, e.zeros(resultType));
}

/// A scatter with `like`'s indices and dimension numbers.
Value scatterLike(OpBuilder &b, Location loc, ScatterCombiner combiner, ScatterOp like,
                  Value operand, Value updates) {
  return ScatterOp::create(b, loc, operand.getType(),
                           ScatterCombinerAttr::get(b.getContext(), combiner), operand,
                           like.getScatterIndices(), updates, like.getUpdateWindowDimsAttr(),
                           like.getInsertedWindowDimsAttr(), like.getInputBatchingDimsAttr(),
                           like.getScatterIndicesBatchingDimsAttr(),
                           like.getScatterDimsToOperandDimsAttr(),
                           like.getIndexVectorDimAttr(), like.getIndicesAreSortedAttr(),
                           like.getUniqueIndicesAttr());
}

/// The scatter-add that is the transpose of `gather`. Where a start was out
/// of bounds the gather clamped it and the scatter drops the window, as
/// jax.lax's transpose in mode PROMISE_IN_BOUNDS; mode 'clip' clamps the
/// starts before the gather (mlax.lax.gather), so both agree with JAX.
Value scatterAddForGather(OpBuilder &b, Location loc, GatherOp gather, Value operand,
                          Value updates) {
  return ScatterOp::create(b, loc, operand.getType(),
                           ScatterCombinerAttr::get(b.getContext(), ScatterCombiner::Add),
                           operand, gather.getStartIndices(), updates,
                           gather.getOffsetDimsAttr(), gather.getCollapsedSliceDimsAttr(),
                           gather.getOperandBatchingDimsAttr(),
                           gather.getStartIndicesBatchingDimsAttr(),
                           gather.getStartIndexMapAttr(), gather.getIndexVectorDimAttr(),
                           gather.getIndicesAreSortedAttr(), UnitAttr());
}

SmallVector<int64_t> allDims(int64_t rank) {
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d)
    dims.push_back(d);
  return dims;
}

/// For an overwriting scatter: the operand elements no update overwrote, and
/// the updates that were written (the last writer of each element), found
/// by scattering one id per update and reading the ids back (jax.lax's
/// scatter JVP).
std::pair<Value, Value> scatterSetMasks(MlaxBuilder &e, ScatterOp op) {
  auto upd = tensorOf(op.getUpdates());
  auto in = tensorOf(op.getOperand());
  Type i32 = e.b.getI32Type();
  SmallVector<int64_t> idsShape(upd.getShape());
  for (int64_t w : op.getUpdateWindowDims())
    idsShape[w] = 1;
  int64_t n = 1;
  for (int64_t s : idsShape)
    n *= s;
  Value ids = IotaOp::create(e.b, e.loc, RankedTensorType::get({n}, i32),
                             e.b.getI64IntegerAttr(0));
  ids = e.add(ids, e.splat(ids.getType(), 1.0));
  ids = e.reshape(ids, RankedTensorType::get(idsShape, i32));
  ids = e.broadcast(ids, upd.clone(i32), allDims(upd.getRank()));
  Value zeroIds = e.zeros(in.clone(i32));
  Value scattered = scatterLike(e.b, e.loc, ScatterCombiner::Set, op, zeroIds, ids);
  Value readBack = gatherForScatter(e.b, e.loc, op, scattered);
  return {e.eq(scattered, zeroIds), e.eq(ids, readBack)};
}

/// For a multiplying scatter: d(result)/d(update k) at the element the
/// update went to, i.e. the operand element times the other updates that
/// went there, exact with zeros (counted apart) and with repeated indices.
Value scatterMulOthers(MlaxBuilder &e, ScatterOp op) {
  Value x = op.getOperand(), y = op.getUpdates();
  Type elt = tensorOf(y).getElementType();
  Value yZero = e.eq(y, e.zeros(y.getType()));
  Value yNonzero = e.select(yZero, e.like(y, 1.0), y);
  Value product = scatterLike(e.b, e.loc, ScatterCombiner::Mul, op, x, yNonzero);
  Value zeros = scatterLike(e.b, e.loc, ScatterCombiner::Add, op, e.zeros(x.getType()),
                            e.convert(yZero, elt));
  Value productAt = gatherForScatter(e.b, e.loc, op, product);
  Value zerosAt = gatherForScatter(e.b, e.loc, op, zeros);
  Value zero = e.zeros(y.getType());
  Value ifZero = e.select(e.eq(zerosAt, e.like(y, 1.0)), productAt, zero);
  Value ifNonzero = e.select(e.eq(zerosAt, zero), e.div(productAt, yNonzero), zero);
  return e.select(yZero, ifZero, ifNonzero);
}

/// For a min/max scatter: which operand elements and which updates equal
/// the result, and how many contenders tie at each element (the tangent
/// is their average, as jax.lax's scatter_min/max JVP).
struct ExtremalParts {
  Value retained, successful, count;
};

ExtremalParts scatterExtremalParts(MlaxBuilder &e, ScatterOp op) {
  Value x = op.getOperand(), y = op.getUpdates(), r = op.getResult();
  Type elt = tensorOf(x).getElementType();
  Value retained = e.eq(x, r);
  Value successful = e.eq(y, gatherForScatter(e.b, e.loc, op, r));
  Value count = scatterLike(e.b, e.loc, ScatterCombiner::Add, op, e.convert(retained, elt),
                            e.convert(successful, elt));
  return {retained, successful, count};
}

} // namespace

LogicalResult ReverseOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                             SmallVectorImpl<Value> &resultTangents) {
  resultTangents.push_back(
      tangents[0] ? ReverseOp::create(b, getLoc(), tangents[0], getDimensionsAttr()) : Value());
  return success();
}

LogicalResult ReverseOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                             SmallVectorImpl<Value> &operandCotangents) {
  operandCotangents.push_back(
      cotangents[0] ? ReverseOp::create(b, getLoc(), cotangents[0], getDimensionsAttr())
                    : Value());
  return success();
}

LogicalResult DynamicSliceOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                                  SmallVectorImpl<Value> &resultTangents) {
  resultTangents.push_back(tangents[0] ? DynamicSliceOp::create(b, getLoc(), getType(),
                                                                tangents[0], getStartIndices(),
                                                                getSliceSizesAttr())
                                       : Value());
  return success();
}

LogicalResult DynamicSliceOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                                  SmallVectorImpl<Value> &operandCotangents) {
  Value ct = cotangents[0];
  if (ct) {
    MlaxBuilder e(b, *this);
    Type inType = getOperand().getType();
    operandCotangents.push_back(DynamicUpdateSliceOp::create(
        b, getLoc(), inType, e.zeros(inType), ct, getStartIndices()));
  } else {
    operandCotangents.push_back({});
  }
  operandCotangents.append(getStartIndices().size(), Value());
  return success();
}

LogicalResult DynamicUpdateSliceOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                                        SmallVectorImpl<Value> &resultTangents) {
  if (!tangents[0] && !tangents[1]) {
    resultTangents.push_back({});
    return success();
  }
  MlaxBuilder e(b, *this);
  resultTangents.push_back(DynamicUpdateSliceOp::create(
      b, getLoc(), getType(), e.orZeros(tangents[0], getType()),
      e.orZeros(tangents[1], getUpdate().getType()), getStartIndices()));
  return success();
}

LogicalResult DynamicUpdateSliceOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                                        SmallVectorImpl<Value> &operandCotangents) {
  Value ct = cotangents[0];
  if (!ct) {
    operandCotangents.append(getNumOperands(), Value());
    return success();
  }
  MlaxBuilder e(b, *this);
  auto updType = tensorOf(getUpdate());
  operandCotangents.push_back(DynamicUpdateSliceOp::create(
      b, getLoc(), getType(), ct, e.zeros(updType), getStartIndices()));
  operandCotangents.push_back(DynamicSliceOp::create(b, getLoc(), updType, ct,
                                                     getStartIndices(),
                                                     b.getDenseI64ArrayAttr(updType.getShape())));
  operandCotangents.append(getStartIndices().size(), Value());
  return success();
}

LogicalResult GatherOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                            SmallVectorImpl<Value> &resultTangents) {
  if (!tangents[0]) {
    resultTangents.push_back({});
    return success();
  }
  Operation *clone = b.clone(*getOperation());
  clone->setOperand(0, tangents[0]);
  resultTangents.push_back(clone->getResult(0));
  return success();
}

LogicalResult GatherOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                            SmallVectorImpl<Value> &operandCotangents) {
  Value ct = cotangents[0];
  if (ct) {
    MlaxBuilder e(b, *this);
    operandCotangents.push_back(
        scatterAddForGather(b, getLoc(), *this, e.zeros(getOperand().getType()), ct));
  } else {
    operandCotangents.push_back({});
  }
  operandCotangents.push_back({}); // the indices
  return success();
}

LogicalResult ScatterOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                             SmallVectorImpl<Value> &resultTangents) {
  Value tOp = tangents[0], tUpd = tangents[2];
  if (!tOp && !tUpd) {
    resultTangents.push_back({});
    return success();
  }
  MlaxBuilder e(b, *this);
  Location loc = getLoc();
  Type type = getType(), updType = getUpdates().getType();
  Value result;
  switch (getCombiner()) {
  case ScatterCombiner::Add:
    result = scatterLike(b, loc, ScatterCombiner::Add, *this, e.orZeros(tOp, type),
                         e.orZeros(tUpd, updType));
    break;
  case ScatterCombiner::Set: {
    auto [kept, written] = scatterSetMasks(e, *this);
    Value fromOperand = tOp ? e.select(kept, tOp, e.zeros(type)) : e.zeros(type);
    result = tUpd ? scatterLike(b, loc, ScatterCombiner::Add, *this, fromOperand,
                                e.select(written, tUpd, e.zeros(updType)))
                  : fromOperand;
    break;
  }
  case ScatterCombiner::Mul: {
    if (tOp)
      result = scatterLike(b, loc, ScatterCombiner::Mul, *this, tOp, getUpdates());
    if (tUpd)
      result = e.add(result, scatterLike(b, loc, ScatterCombiner::Add, *this, e.zeros(type),
                                         e.mul(tUpd, scatterMulOthers(e, *this))));
    break;
  }
  case ScatterCombiner::Min:
  case ScatterCombiner::Max: {
    ExtremalParts p = scatterExtremalParts(e, *this);
    Value fromOperand = tOp ? e.select(p.retained, tOp, e.zeros(type)) : e.zeros(type);
    Value fromUpdates = tUpd ? e.select(p.successful, tUpd, e.zeros(updType))
                             : e.zeros(updType);
    result = e.div(scatterLike(b, loc, ScatterCombiner::Add, *this, fromOperand, fromUpdates),
                   p.count);
    break;
  }
  }
  resultTangents.push_back(result);
  return success();
}

LogicalResult ScatterOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                             SmallVectorImpl<Value> &operandCotangents) {
  Value ct = cotangents[0];
  if (!ct) {
    operandCotangents.append(3, Value());
    return success();
  }
  MlaxBuilder e(b, *this);
  Location loc = getLoc();
  Type type = getType(), updType = getUpdates().getType();
  Value opCt, updCt;
  switch (getCombiner()) {
  case ScatterCombiner::Add:
    opCt = ct;
    updCt = gatherForScatter(b, loc, *this, ct);
    break;
  case ScatterCombiner::Set: {
    auto [kept, written] = scatterSetMasks(e, *this);
    opCt = e.select(kept, ct, e.zeros(type));
    updCt = e.select(written, gatherForScatter(b, loc, *this, ct), e.zeros(updType));
    break;
  }
  case ScatterCombiner::Mul:
    opCt = scatterLike(b, loc, ScatterCombiner::Mul, *this, ct, getUpdates());
    updCt = e.mul(gatherForScatter(b, loc, *this, ct), scatterMulOthers(e, *this));
    break;
  case ScatterCombiner::Min:
  case ScatterCombiner::Max: {
    ExtremalParts p = scatterExtremalParts(e, *this);
    Value share = e.div(ct, p.count);
    opCt = e.select(p.retained, share, e.zeros(type));
    updCt = e.select(p.successful, gatherForScatter(b, loc, *this, share), e.zeros(updType));
    break;
  }
  }
  operandCotangents.push_back(opCt);
  operandCotangents.push_back({}); // the indices
  operandCotangents.push_back(updCt);
  return success();
}

//======================================================================//
// Batching rules
//======================================================================//

//===----------------------------------------------------------------------===//
// Indexing: reverse and the slices shift their dimensions; per-example
// start indices turn dynamic_slice into a gather and dynamic_update_slice
// into a scatter; gather and scatter gain a batching dimension.
//===----------------------------------------------------------------------===//

namespace {

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
      MlaxBuilder e(b, loc);
      column = MaxOp::create(b, loc, MinOp::create(b, loc, column, e.splat(vecType, limits[i])),
                             e.splat(vecType, 0));
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
    SmallVector<Value> starts{MlaxBuilder(b, loc).scalar(elt, 0)};
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
    SmallVector<Value> starts{MlaxBuilder(b, loc).scalar(elt, 0)};
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
