//===- MlaxIndexingOps.cpp - verifiers of the indexing ops ----------------===//
//
// reverse, dynamic_slice, dynamic_update_slice, gather and scatter. The
// gather and scatter rules are StableHLO's (dimension numbers, batching
// dimensions included), so whatever verifies here also verifies in jaxlib.
// Every message starts with the op's name.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::mlax;

namespace {

RankedTensorType rankedOf(Value v) { return llvm::cast<RankedTensorType>(v.getType()); }

std::string listStr(ArrayRef<int64_t> values) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleaveComma(values, os);
  os << "]";
  return s;
}

/// `dims` (named `what`) are distinct, in [0, rank) and, if `sorted`,
/// increasing.
LogicalResult checkDimList(Operation *op, StringRef what, ArrayRef<int64_t> dims,
                           int64_t rank, bool sorted) {
  llvm::SmallSet<int64_t, 8> seen;
  for (auto [i, d] : llvm::enumerate(dims)) {
    if (d < 0 || d >= rank)
      return op->emitOpError() << what << " " << listStr(dims) << ": " << d
                               << " is out of range for rank " << rank;
    if (!seen.insert(d).second)
      return op->emitOpError() << what << " " << listStr(dims) << ": " << d
                               << " appears twice";
    if (sorted && i > 0 && d < dims[i - 1])
      return op->emitOpError() << what << " must be sorted, got " << listStr(dims);
  }
  return success();
}

LogicalResult checkDisjoint(Operation *op, StringRef a, ArrayRef<int64_t> as, StringRef b,
                            ArrayRef<int64_t> bs) {
  for (int64_t d : as)
    if (llvm::is_contained(bs, d))
      return op->emitOpError() << "dimension " << d << " is in both " << a << " and " << b;
  return success();
}

/// Start indices of dynamic_slice / dynamic_update_slice: one scalar per
/// operand dimension, all of one type.
LogicalResult checkStartIndices(Operation *op, ValueRange indices, int64_t rank) {
  if (static_cast<int64_t>(indices.size()) != rank)
    return op->emitOpError() << "needs one start index per operand dimension: rank " << rank
                             << ", got " << indices.size() << " indices";
  for (Value v : indices) {
    auto t = rankedOf(v);
    if (t.getRank() != 0)
      return op->emitOpError() << "start indices must be scalars, got " << t;
    if (t != indices.front().getType())
      return op->emitOpError() << "start indices must have one type, got "
                               << indices.front().getType() << " and " << t;
  }
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// reverse
//===----------------------------------------------------------------------===//

LogicalResult ReverseOp::verify() {
  return checkDimList(*this, "dimensions", getDimensions(), getType().getRank(),
                      /*sorted=*/false);
}

//===----------------------------------------------------------------------===//
// dynamic_slice, dynamic_update_slice
//===----------------------------------------------------------------------===//

LogicalResult DynamicSliceOp::verify() {
  auto in = rankedOf(getOperand());
  if (failed(checkStartIndices(*this, getStartIndices(), in.getRank())))
    return failure();
  ArrayRef<int64_t> sizes = getSliceSizes();
  if (static_cast<int64_t>(sizes.size()) != in.getRank())
    return emitOpError("needs one slice size per operand dimension: rank ")
           << in.getRank() << ", got slice_sizes " << listStr(sizes);
  for (auto [i, s] : llvm::enumerate(sizes))
    if (s < 0 || s > in.getDimSize(i))
      return emitOpError("slice size ")
             << s << " in dimension " << i << " does not fit operand shape "
             << listStr(in.getShape());
  if (getType().getShape() != sizes || getType().getElementType() != in.getElementType())
    return emitOpError("result type should be ")
           << RankedTensorType::get(sizes, in.getElementType()) << ", got " << getType();
  return success();
}

LogicalResult DynamicUpdateSliceOp::verify() {
  auto in = rankedOf(getOperand()), upd = rankedOf(getUpdate());
  if (failed(checkStartIndices(*this, getStartIndices(), in.getRank())))
    return failure();
  if (upd.getElementType() != in.getElementType())
    return emitOpError("update element type ")
           << upd.getElementType() << " differs from the operand's " << in.getElementType();
  if (upd.getRank() != in.getRank())
    return emitOpError("update rank ") << upd.getRank() << " differs from operand rank "
                                       << in.getRank();
  for (int64_t i = 0; i < in.getRank(); ++i)
    if (upd.getDimSize(i) > in.getDimSize(i))
      return emitOpError("update shape ")
             << listStr(upd.getShape()) << " does not fit operand shape "
             << listStr(in.getShape());
  return success();
}

//===----------------------------------------------------------------------===//
// gather
//===----------------------------------------------------------------------===//

LogicalResult GatherOp::verify() {
  Operation *op = *this;
  auto in = rankedOf(getOperand()), idx = rankedOf(getStartIndices());
  int64_t rank = in.getRank(), idxRank = idx.getRank();
  int64_t ivd = getIndexVectorDim();
  if (ivd < 0 || ivd > idxRank)
    return emitOpError("index_vector_dim ")
           << ivd << " is out of range for start indices of rank " << idxRank;
  int64_t vecSize = ivd == idxRank ? 1 : idx.getDimSize(ivd);
  ArrayRef<int64_t> offset = getOffsetDims(), collapsed = getCollapsedSliceDims(),
                    opBatch = getOperandBatchingDims(),
                    idxBatch = getStartIndicesBatchingDims(), map = getStartIndexMap(),
                    sizes = getSliceSizes();
  if (static_cast<int64_t>(sizes.size()) != rank)
    return emitOpError("needs one slice size per operand dimension: rank ")
           << rank << ", got slice_sizes " << listStr(sizes);
  for (auto [i, s] : llvm::enumerate(sizes))
    if (s < 0 || s > in.getDimSize(i))
      return emitOpError("slice size ")
             << s << " in dimension " << i << " does not fit operand shape "
             << listStr(in.getShape());
  if (static_cast<int64_t>(map.size()) != vecSize)
    return emitOpError("start_index_map ")
           << listStr(map) << " needs one entry per index vector element (" << vecSize << ")";
  if (failed(checkDimList(op, "start_index_map", map, rank, false)) ||
      failed(checkDimList(op, "collapsed_slice_dims", collapsed, rank, true)) ||
      failed(checkDimList(op, "operand_batching_dims", opBatch, rank, true)) ||
      failed(checkDisjoint(op, "collapsed_slice_dims", collapsed, "operand_batching_dims",
                           opBatch)) ||
      failed(checkDisjoint(op, "start_index_map", map, "operand_batching_dims", opBatch)))
    return failure();
  for (int64_t d : collapsed)
    if (sizes[d] > 1)
      return emitOpError("collapsed dimension ") << d << " needs slice size 1, got " << sizes[d];
  for (int64_t d : opBatch)
    if (sizes[d] > 1)
      return emitOpError("batching dimension ") << d << " needs slice size 1, got " << sizes[d];
  if (idxBatch.size() != opBatch.size())
    return emitOpError("operand_batching_dims ")
           << listStr(opBatch) << " and start_indices_batching_dims " << listStr(idxBatch)
           << " differ in length";
  if (failed(checkDimList(op, "start_indices_batching_dims", idxBatch, idxRank, false)))
    return failure();
  for (auto [o, i] : llvm::zip(opBatch, idxBatch)) {
    if (i == ivd)
      return emitOpError("start_indices_batching_dims contains index_vector_dim ") << ivd;
    if (in.getDimSize(o) != idx.getDimSize(i))
      return emitOpError("operand batching dimension ")
             << o << " (size " << in.getDimSize(o) << ") does not match start indices dimension "
             << i << " (size " << idx.getDimSize(i) << ")";
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
    return emitOpError("offset_dims ")
           << listStr(offset) << " needs one entry per slice dimension that is neither "
           << "collapsed nor batching (" << offsetSizes.size() << ")";
  if (failed(checkDimList(op, "offset_dims", offset, outRank, true)))
    return failure();
  SmallVector<int64_t> shape;
  size_t nextBatch = 0, nextOffset = 0;
  for (int64_t d = 0; d < outRank; ++d)
    shape.push_back(llvm::is_contained(offset, d) ? offsetSizes[nextOffset++]
                                                  : batchSizes[nextBatch++]);
  auto expected = RankedTensorType::get(shape, in.getElementType());
  if (getType() != expected)
    return emitOpError("result type should be ") << expected << ", got " << getType();
  return success();
}

//===----------------------------------------------------------------------===//
// scatter
//===----------------------------------------------------------------------===//

LogicalResult ScatterOp::verify() {
  Operation *op = *this;
  auto in = rankedOf(getOperand()), idx = rankedOf(getScatterIndices()),
       upd = rankedOf(getUpdates());
  if (getType() != in)
    return emitOpError("result type ") << getType() << " differs from the operand's " << in;
  if (upd.getElementType() != in.getElementType())
    return emitOpError("updates element type ")
           << upd.getElementType() << " differs from the operand's " << in.getElementType();
  int64_t rank = in.getRank(), idxRank = idx.getRank(), updRank = upd.getRank();
  int64_t ivd = getIndexVectorDim();
  if (ivd < 0 || ivd > idxRank)
    return emitOpError("index_vector_dim ")
           << ivd << " is out of range for scatter indices of rank " << idxRank;
  int64_t vecSize = ivd == idxRank ? 1 : idx.getDimSize(ivd);
  ArrayRef<int64_t> window = getUpdateWindowDims(), inserted = getInsertedWindowDims(),
                    opBatch = getInputBatchingDims(),
                    idxBatch = getScatterIndicesBatchingDims(),
                    map = getScatterDimsToOperandDims();
  if (static_cast<int64_t>(map.size()) != vecSize)
    return emitOpError("scatter_dims_to_operand_dims ")
           << listStr(map) << " needs one entry per index vector element (" << vecSize << ")";
  if (failed(checkDimList(op, "update_window_dims", window, updRank, true)) ||
      failed(checkDimList(op, "inserted_window_dims", inserted, rank, true)) ||
      failed(checkDimList(op, "input_batching_dims", opBatch, rank, true)) ||
      failed(checkDimList(op, "scatter_dims_to_operand_dims", map, rank, false)) ||
      failed(checkDisjoint(op, "inserted_window_dims", inserted, "input_batching_dims",
                           opBatch)) ||
      failed(checkDisjoint(op, "scatter_dims_to_operand_dims", map, "input_batching_dims",
                           opBatch)))
    return failure();
  if (idxBatch.size() != opBatch.size())
    return emitOpError("input_batching_dims ")
           << listStr(opBatch) << " and scatter_indices_batching_dims " << listStr(idxBatch)
           << " differ in length";
  if (failed(checkDimList(op, "scatter_indices_batching_dims", idxBatch, idxRank, false)))
    return failure();
  for (auto [o, i] : llvm::zip(opBatch, idxBatch)) {
    if (i == ivd)
      return emitOpError("scatter_indices_batching_dims contains index_vector_dim ") << ivd;
    if (in.getDimSize(o) != idx.getDimSize(i))
      return emitOpError("input batching dimension ")
             << o << " (size " << in.getDimSize(o)
             << ") does not match scatter indices dimension " << i << " (size "
             << idx.getDimSize(i) << ")";
  }
  SmallVector<int64_t> windowOperandDims;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(inserted, d) && !llvm::is_contained(opBatch, d))
      windowOperandDims.push_back(d);
  if (window.size() != windowOperandDims.size())
    return emitOpError("update_window_dims ")
           << listStr(window) << " needs one entry per operand dimension that is neither "
           << "inserted nor batching (" << windowOperandDims.size() << ")";
  SmallVector<int64_t> idxBatchSizes, updScatterSizes;
  for (int64_t d = 0; d < idxRank; ++d)
    if (d != ivd)
      idxBatchSizes.push_back(idx.getDimSize(d));
  for (int64_t d = 0; d < updRank; ++d)
    if (!llvm::is_contained(window, d))
      updScatterSizes.push_back(upd.getDimSize(d));
  if (idxBatchSizes != updScatterSizes)
    return emitOpError("updates shape ")
           << listStr(upd.getShape()) << " has scatter dimensions "
           << listStr(updScatterSizes) << " but the indices' batch dimensions are "
           << listStr(idxBatchSizes);
  for (auto [w, d] : llvm::zip(window, windowOperandDims))
    if (upd.getDimSize(w) > in.getDimSize(d))
      return emitOpError("update window dimension ")
             << w << " (size " << upd.getDimSize(w) << ") exceeds operand dimension " << d
             << " (size " << in.getDimSize(d) << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// take
//===----------------------------------------------------------------------===//

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
