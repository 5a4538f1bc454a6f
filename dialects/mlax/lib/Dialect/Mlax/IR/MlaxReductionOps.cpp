//===- MlaxReductionOps.cpp - the reduction family ------------------ ===//
//
// Shape rules, folders, derivative rules and batching rules of
// MlaxReductionOps.td's ops (reduce_sum, reduce_prod, reduce_max,
// reduce_min, reduce_and, reduce_or), in that order.
//
//===----------------------------------------------------------------------===//

#include "MlaxRuleUtils.h"

using namespace mlir;
using namespace mlir::mlax;
using namespace mlir::mlax::detail;
//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

static LogicalResult inferReduce(StringRef opName, std::optional<Location> loc,
                                 Value operand, ArrayRef<int64_t> axes,
                                 SmallVectorImpl<Type> &results) {
  if (!allRanked(operand))
    return notTensors(loc, opName);
  auto in = tensorOf(operand);
  if (failed(checkDims(loc, opName, "axis", axes, in.getRank())))
    return failure();
  if (!llvm::is_sorted(axes))
    return emitOptionalError(loc, "'", opName, "' op axes must be sorted, got ",
                             shapeStr(axes));
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < in.getRank(); ++i)
    if (!llvm::is_contained(axes, i))
      shape.push_back(in.getDimSize(i));
  results.push_back(RankedTensorType::get(shape, in.getElementType()));
  return success();
}

#define MLAX_REDUCE_INFER(OP)                                                  \
  LogicalResult OP::inferReturnTypes(MLIRContext *,                            \
                                     std::optional<Location> loc,              \
                                     Adaptor adaptor,                          \
                                     SmallVectorImpl<Type> &results) {         \
    return inferReduce(OP::getOperationName(), loc, adaptor.getOperand(),      \
                       adaptor.getAxes(), results);                            \
  }
MLAX_REDUCE_INFER(ReduceSumOp)
MLAX_REDUCE_INFER(ReduceProdOp)
MLAX_REDUCE_INFER(ReduceMaxOp)
MLAX_REDUCE_INFER(ReduceMinOp)
MLAX_REDUCE_INFER(ReduceAndOp)
MLAX_REDUCE_INFER(ReduceOrOp)
#undef MLAX_REDUCE_INFER

//======================================================================//
// Folders
//======================================================================//

// Reductions
//===----------------------------------------------------------------------===//

namespace {

/// Folds a reduction over `axes` of a constant: `combine` folds an element
/// into the accumulator, which starts at the first element reduced (so no
/// identity value is needed). Elements are combined in row-major order.
template <typename Elem, typename Combine>
Attribute reduceConstant(DenseElementsAttr in, ArrayRef<int64_t> axes,
                         ShapedType resultType, Combine combine) {
  auto inType = llvm::cast<ShapedType>(in.getType());
  if (inType.getNumElements() == 0 ||
      inType.getNumElements() > kMaxFoldedElements ||
      !mayMaterialise(resultType, false))
    return {};
  SmallVector<int64_t> outStrides(inType.getRank(), 0);
  {
    int64_t stride = 1;
    for (int64_t i = inType.getRank() - 1; i >= 0; --i)
      if (!llvm::is_contained(axes, i)) {
        outStrides[i] = stride;
        stride *= inType.getDimSize(i);
      }
  }
  SmallVector<std::optional<Elem>> acc(resultType.getNumElements());
  SmallVector<int64_t> index(inType.getRank(), 0);
  for (Elem v : in.getValues<Elem>()) {
    int64_t out = 0;
    for (int64_t i = 0; i < inType.getRank(); ++i)
      out += index[i] * outStrides[i];
    acc[out] = acc[out] ? combine(*acc[out], v) : v;
    for (int64_t d = inType.getRank() - 1; d >= 0; --d) {
      if (++index[d] < inType.getDimSize(d))
        break;
      index[d] = 0;
    }
  }
  SmallVector<Elem> values;
  for (auto &a : acc)
    values.push_back(*a);
  return DenseElementsAttr::get(resultType, ArrayRef<Elem>(values));
}

template <typename FloatCombine, typename IntCombine>
OpFoldResult foldReduce(Operation *op, Attribute operand, ArrayRef<int64_t> axes,
                        FloatCombine floatCombine, IntCombine intCombine) {
  if (axes.empty())
    return op->getOperand(0);
  auto in = dense(operand);
  auto type = llvm::cast<ShapedType>(op->getResult(0).getType());
  if (!in)
    return {};
  Type elem = in.getElementType();
  if (isFoldableFloat(elem))
    return reduceConstant<APFloat>(in, axes, type, floatCombine);
  if (isFoldableInt(elem)) {
    bool isUnsigned = isUnsignedInt(elem);
    return reduceConstant<APInt>(in, axes, type,
                                 [&](const APInt &a, const APInt &b) {
                                   return intCombine(a, b, isUnsigned);
                                 });
  }
  return {};
}

} // namespace

OpFoldResult ReduceSumOp::fold(FoldAdaptor a) {
  return foldReduce(*this, a.getOperand(), getAxes(),
                    [](const APFloat &x, const APFloat &y) { return x + y; },
                    [](const APInt &x, const APInt &y, bool) { return x + y; });
}
OpFoldResult ReduceProdOp::fold(FoldAdaptor a) {
  return foldReduce(*this, a.getOperand(), getAxes(),
                    [](const APFloat &x, const APFloat &y) { return x * y; },
                    [](const APInt &x, const APInt &y, bool) { return x * y; });
}
OpFoldResult ReduceMaxOp::fold(FoldAdaptor a) {
  return foldReduce(*this, a.getOperand(), getAxes(),
                    [](const APFloat &x, const APFloat &y) { return maximum(x, y); },
                    [](const APInt &x, const APInt &y, bool u) {
                      return u ? llvm::APIntOps::umax(x, y) : llvm::APIntOps::smax(x, y);
                    });
}
OpFoldResult ReduceMinOp::fold(FoldAdaptor a) {
  return foldReduce(*this, a.getOperand(), getAxes(),
                    [](const APFloat &x, const APFloat &y) { return minimum(x, y); },
                    [](const APInt &x, const APInt &y, bool u) {
                      return u ? llvm::APIntOps::umin(x, y) : llvm::APIntOps::smin(x, y);
                    });
}
OpFoldResult ReduceAndOp::fold(FoldAdaptor a) {
  return foldReduce(*this, a.getOperand(), getAxes(),
                    [](const APFloat &x, const APFloat &) { return x; },
                    [](const APInt &x, const APInt &y, bool) { return x & y; });
}
OpFoldResult ReduceOrOp::fold(FoldAdaptor a) {
  return foldReduce(*this, a.getOperand(), getAxes(),
                    [](const APFloat &x, const APFloat &) { return x; },
                    [](const APInt &x, const APInt &y, bool) { return x | y; });
}


//======================================================================//
// Derivative rules
//======================================================================//

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

LogicalResult ReduceSumOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                               SmallVectorImpl<Value> &resultTangents) {
  resultTangents.push_back(tangents[0] ? MlaxBuilder(b, *this).reduceSum(tangents[0], getAxes())
                                       : Value());
  return success();
}

LogicalResult ReduceSumOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                               SmallVectorImpl<Value> &operandCotangents) {
  Value ct = cotangents[0];
  RankedTensorType inType = tensorOf(getOperand());
  operandCotangents.push_back(
      ct ? MlaxBuilder(b, *this).broadcast(ct, inType, keptDims(inType.getRank(), getAxes()))
         : Value());
  return success();
}

namespace {
/// max/min reductions: the derivative is shared evenly among the elements
/// equal to the result (jax.lax's `_reduce_chooser_jvp_rule`). Returns the
/// 0/1 indicator of those elements and how many there are per result.
std::pair<Value, Value> chooserLocations(MlaxBuilder &e, Value operand, Value result,
                                         ArrayRef<int64_t> axes) {
  RankedTensorType inType = tensorOf(operand);
  SmallVector<int64_t> kept = keptDims(inType.getRank(), axes);
  Value expanded = e.broadcast(result, inType, kept);
  Value indicator = e.convert(e.eq(operand, expanded), inType.getElementType());
  Value counts = e.reduceSum(indicator, axes);
  return {indicator, counts};
}

LogicalResult chooserJvp(Operation *op, OpBuilder &b, ArrayRef<int64_t> axes,
                         ArrayRef<Value> tangents, SmallVectorImpl<Value> &resultTangents) {
  if (!tangents[0]) {
    resultTangents.push_back({});
    return success();
  }
  MlaxBuilder e(b, op);
  auto [indicator, counts] = chooserLocations(e, op->getOperand(0), op->getResult(0), axes);
  resultTangents.push_back(e.div(e.reduceSum(e.mul(tangents[0], indicator), axes), counts));
  return success();
}

LogicalResult chooserVjp(Operation *op, OpBuilder &b, ArrayRef<int64_t> axes,
                         ArrayRef<Value> cotangents, SmallVectorImpl<Value> &operandCotangents) {
  if (!cotangents[0]) {
    operandCotangents.push_back({});
    return success();
  }
  MlaxBuilder e(b, op);
  Value operand = op->getOperand(0);
  auto [indicator, counts] = chooserLocations(e, operand, op->getResult(0), axes);
  RankedTensorType inType = tensorOf(operand);
  Value share = e.broadcast(e.div(cotangents[0], counts), inType,
                            keptDims(inType.getRank(), axes));
  operandCotangents.push_back(e.mul(share, indicator));
  return success();
}

/// For a product over `axes`: each element's "product of all the others"
/// in its reduction group, computed exactly (zeros included) from exclusive
/// prefix and suffix products by log-step doubling.
Value productOfOthers(MlaxBuilder &e, Value x, ArrayRef<int64_t> axes) {
  RankedTensorType type = tensorOf(x);
  int64_t rank = type.getRank();
  SmallVector<int64_t> kept = keptDims(rank, axes);
  SmallVector<int64_t> perm(kept);
  perm.append(axes.begin(), axes.end());
  int64_t groups = 1, n = 1;
  for (int64_t d : kept)
    groups *= type.getDimSize(d);
  for (int64_t d : axes)
    n *= type.getDimSize(d);
  Type elt = type.getElementType();
  auto matrixType = RankedTensorType::get({groups, n}, elt);
  Value m = e.reshape(e.transpose(x, perm), matrixType);
  Value one = e.splat(RankedTensorType::get({}, elt), 1.0);
  // shift(v, k, forward): v moved k places along the row, filled with 1.
  auto shift = [&](Value v, int64_t k, bool forward) -> Value {
    SmallVector<int64_t> low{0, forward ? k : -k}, high{0, forward ? -k : k}, interior{0, 0};
    return PadOp::create(e.b, e.loc, v, one, low, high, interior);
  };
  auto exclusiveScan = [&](bool forward) {
    Value acc = m;
    for (int64_t k = 1; k < n; k *= 2)
      acc = e.mul(acc, shift(acc, k, forward));
    return shift(acc, 1, forward);
  };
  Value others = n <= 1 ? e.like(m, 1.0) : e.mul(exclusiveScan(true), exclusiveScan(false));
  SmallVector<int64_t> permutedShape;
  for (int64_t d : perm)
    permutedShape.push_back(type.getDimSize(d));
  Value back = e.reshape(others, RankedTensorType::get(permutedShape, elt));
  return e.transpose(back, invertPermutation(perm));
}
} // namespace

LogicalResult ReduceProdOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                                SmallVectorImpl<Value> &resultTangents) {
  if (!tangents[0]) {
    resultTangents.push_back({});
    return success();
  }
  MlaxBuilder e(b, *this);
  Value others = productOfOthers(e, getOperand(), getAxes());
  resultTangents.push_back(e.reduceSum(e.mul(tangents[0], others), getAxes()));
  return success();
}

LogicalResult ReduceProdOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                                SmallVectorImpl<Value> &operandCotangents) {
  if (!cotangents[0]) {
    operandCotangents.push_back({});
    return success();
  }
  MlaxBuilder e(b, *this);
  RankedTensorType inType = tensorOf(getOperand());
  Value others = productOfOthers(e, getOperand(), getAxes());
  Value ct = e.broadcast(cotangents[0], inType, keptDims(inType.getRank(), getAxes()));
  operandCotangents.push_back(e.mul(ct, others));
  return success();
}

LogicalResult ReduceMaxOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                               SmallVectorImpl<Value> &resultTangents) {
  return chooserJvp(*this, b, getAxes(), tangents, resultTangents);
}
LogicalResult ReduceMaxOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                               SmallVectorImpl<Value> &operandCotangents) {
  return chooserVjp(*this, b, getAxes(), cotangents, operandCotangents);
}
LogicalResult ReduceMinOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                               SmallVectorImpl<Value> &resultTangents) {
  return chooserJvp(*this, b, getAxes(), tangents, resultTangents);
}
LogicalResult ReduceMinOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                               SmallVectorImpl<Value> &operandCotangents) {
  return chooserVjp(*this, b, getAxes(), cotangents, operandCotangents);
}

// Boolean reductions carry no tangents.
LogicalResult ReduceAndOp::jvp(OpBuilder &, ArrayRef<Value>, SmallVectorImpl<Value> &r) {
  r.push_back({});
  return success();
}
LogicalResult ReduceAndOp::vjp(OpBuilder &, ArrayRef<Value>, SmallVectorImpl<Value> &r) {
  r.push_back({});
  return success();
}
LogicalResult ReduceOrOp::jvp(OpBuilder &, ArrayRef<Value>, SmallVectorImpl<Value> &r) {
  r.push_back({});
  return success();
}
LogicalResult ReduceOrOp::vjp(OpBuilder &, ArrayRef<Value>, SmallVectorImpl<Value> &r) {
  r.push_back({});
  return success();
}

//======================================================================//
// Batching rules
//======================================================================//

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
