//===- MlaxShapeOps.cpp - the shape family ---------------------- ===//
//
// Verifiers, folders, canonicalization patterns, derivative rules and
// batching rules of MlaxShapeOps.td's ops (broadcast_in_dim, reshape,
// transpose, slice, concatenate, pad, iota), in that order.
//
//===----------------------------------------------------------------------===//

#include "MlaxRuleUtils.h"

using namespace mlir;
using namespace mlir::mlax;
using namespace mlir::mlax::detail;
//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

LogicalResult BroadcastInDimOp::verify() {
  auto in = tensorOf(getOperand());
  auto out = getType();
  ArrayRef<int64_t> dims = getBroadcastDimensions();
  if (in.getElementType() != out.getElementType())
    return emitOpError("keeps the element type; got ")
           << in.getElementType() << " -> " << out.getElementType();
  if ((int64_t)dims.size() != in.getRank())
    return emitOpError("needs one broadcast dimension per operand dimension: "
                       "operand rank ")
           << in.getRank() << ", got " << dims.size() << " dimensions";
  if (failed(checkDims(getLoc(), getOperationName(), "broadcast dimension",
                       dims, out.getRank())))
    return failure();
  for (auto [i, d] : llvm::enumerate(dims)) {
    if (i > 0 && d <= dims[i - 1])
      return emitOpError("broadcast dimensions must be increasing, got ")
             << shapeStr(dims);
    int64_t inSize = in.getDimSize(i), outSize = out.getDimSize(d);
    if (inSize != 1 && inSize != outSize)
      return emitOpError("cannot broadcast operand shape ")
             << shapeStr(in.getShape()) << " to " << shapeStr(out.getShape())
             << ": operand dimension " << i << " has size " << inSize
             << " but result dimension " << d << " has size " << outSize;
  }
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto in = tensorOf(getOperand());
  auto out = getType();
  if (in.getElementType() != out.getElementType())
    return emitOpError("keeps the element type; got ")
           << in.getElementType() << " -> " << out.getElementType();
  if (in.getNumElements() != out.getNumElements())
    return emitOpError("cannot reshape ")
           << shapeStr(in.getShape()) << " (" << in.getNumElements()
           << " elements) to " << shapeStr(out.getShape()) << " ("
           << out.getNumElements() << " elements)";
  return success();
}

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &results) {
  if (!allRanked(adaptor.getOperands()))
    return notTensors(loc, getOperationName());
  auto in = tensorOf(adaptor.getOperand());
  ArrayRef<int64_t> perm = adaptor.getPermutation();
  if ((int64_t)perm.size() != in.getRank())
    return emitOptionalError(loc, "'mlax.transpose' op permutation ",
                             shapeStr(perm), " does not match operand rank ",
                             in.getRank());
  if (failed(checkDims(loc, "mlax.transpose", "permutation entry", perm,
                       in.getRank())))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(in.getDimSize(p));
  results.push_back(RankedTensorType::get(shape, in.getElementType()));
  return success();
}

LogicalResult SliceOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &results) {
  if (!allRanked(adaptor.getOperands()))
    return notTensors(loc, getOperationName());
  auto in = tensorOf(adaptor.getOperand());
  ArrayRef<int64_t> start = adaptor.getStartIndices(),
                    limit = adaptor.getLimitIndices(),
                    strides = adaptor.getStrides();
  int64_t rank = in.getRank();
  if ((int64_t)start.size() != rank || (int64_t)limit.size() != rank ||
      (int64_t)strides.size() != rank)
    return emitOptionalError(loc, "'mlax.slice' op needs one start, limit and "
                                  "stride per dimension of the rank-",
                             rank, " operand");
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < rank; ++i) {
    if (start[i] < 0 || limit[i] > in.getDimSize(i) || start[i] > limit[i] ||
        strides[i] < 1)
      return emitOptionalError(
          loc, "'mlax.slice' op dimension ", i, ": need 0 <= start (",
          start[i], ") <= limit (", limit[i], ") <= size (", in.getDimSize(i),
          ") and stride (", strides[i], ") >= 1: out of bounds");
    shape.push_back((limit[i] - start[i] + strides[i] - 1) / strides[i]);
  }
  results.push_back(RankedTensorType::get(shape, in.getElementType()));
  return success();
}

LogicalResult ConcatenateOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &results) {
  ValueRange inputs = adaptor.getInputs();
  if (inputs.empty())
    return emitOptionalError(loc, "'mlax.concatenate' op needs at least one input");
  if (!allRanked(inputs))
    return notTensors(loc, getOperationName());
  auto first = tensorOf(inputs.front());
  int64_t dim = adaptor.getDimension();
  if (dim < 0 || dim >= first.getRank())
    return emitOptionalError(loc, "'mlax.concatenate' op dimension ", dim,
                             " is out of range for rank ", first.getRank());
  SmallVector<int64_t> shape(first.getShape());
  for (Value v : inputs.drop_front()) {
    auto t = tensorOf(v);
    bool ok = t.getElementType() == first.getElementType() &&
              t.getRank() == first.getRank();
    for (int64_t i = 0; ok && i < t.getRank(); ++i)
      ok = i == dim || t.getDimSize(i) == first.getDimSize(i);
    if (!ok)
      return emitOptionalError(loc, "'mlax.concatenate' op inputs must agree "
                                    "except in dimension ",
                               dim, ", got ", first, " and ", t);
    shape[dim] += t.getDimSize(dim);
  }
  results.push_back(RankedTensorType::get(shape, first.getElementType()));
  return success();
}

LogicalResult PadOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &results) {
  if (!allRanked(adaptor.getOperands()))
    return notTensors(loc, getOperationName());
  auto in = tensorOf(adaptor.getOperand());
  auto padValue = tensorOf(adaptor.getPaddingValue());
  if (padValue.getRank() != 0 ||
      padValue.getElementType() != in.getElementType())
    return emitOptionalError(loc, "'mlax.pad' op padding value must be a "
                                  "scalar of the operand's element type, got ",
                             padValue);
  ArrayRef<int64_t> lo = adaptor.getEdgePaddingLow(),
                    hi = adaptor.getEdgePaddingHigh(),
                    interior = adaptor.getInteriorPadding();
  int64_t rank = in.getRank();
  if ((int64_t)lo.size() != rank || (int64_t)hi.size() != rank ||
      (int64_t)interior.size() != rank)
    return emitOptionalError(loc, "'mlax.pad' op needs one low, high and "
                                  "interior padding per dimension of the rank-",
                             rank, " operand");
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t n = in.getDimSize(i);
    if (interior[i] < 0)
      return emitOptionalError(loc, "'mlax.pad' op interior padding must be "
                                    "non-negative, got ",
                             interior[i], " in dimension ", i);
    int64_t size = lo[i] + hi[i] + n + std::max<int64_t>(n - 1, 0) * interior[i];
    if (size < 0)
      return emitOptionalError(loc, "'mlax.pad' op negative padding removes "
                                    "more than dimension ",
                               i, " holds");
    shape.push_back(size);
  }
  results.push_back(RankedTensorType::get(shape, in.getElementType()));
  return success();
}

LogicalResult IotaOp::verify() {
  int64_t dim = getIotaDimension();
  if (dim < 0 || dim >= getType().getRank())
    return emitOpError("dimension ")
           << dim << " is out of range for result rank " << getType().getRank();
  return success();
}

//======================================================================//
// Folders
//======================================================================//

// Shape ops
//===----------------------------------------------------------------------===//

namespace {

/// Builds a constant of `type` whose element at each multi-index is
/// `source(index)`, an element of one of the dense `inputs` (as
/// {input, flat index}) or nullopt for `fill`. Declines above the size limit
/// and for element types `getValues<Attribute>` cannot read.
template <typename Fn>
Attribute gather(ShapedType type, ArrayRef<DenseElementsAttr> inputs, Fn source,
                 Attribute fill = {}) {
  if (!mayMaterialise(type, false) ||
      !llvm::isa<IntegerType, FloatType>(type.getElementType()))
    return {};
  // Reading a huge input element by element costs more than folding saves.
  SmallVector<SmallVector<Attribute>> values;
  for (DenseElementsAttr d : inputs) {
    if (d.isSplat()) {
      values.push_back({d.getSplatValue<Attribute>()});
      continue;
    }
    if (d.getNumElements() > 16 * kMaxFoldedElements)
      return {};
    values.push_back(llvm::to_vector(d.getValues<Attribute>()));
  }
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<int64_t> index(shape.size(), 0);
  SmallVector<Attribute> out;
  out.reserve(type.getNumElements());
  for (int64_t n = 0; n < type.getNumElements(); ++n) {
    std::optional<std::pair<unsigned, int64_t>> src = source(ArrayRef<int64_t>(index));
    if (!src) {
      if (!fill)
        return {};
      out.push_back(fill);
    } else {
      auto &v = values[src->first];
      out.push_back(v.size() == 1 ? v.front() : v[src->second]);
    }
    for (int64_t d = (int64_t)shape.size() - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
  return DenseElementsAttr::get(type, out);
}

} // namespace

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getOperand().getType() == getType())
    return getOperand();
  auto in = dense(adaptor.getOperand());
  if (!in || !mayMaterialise(getType(), in.isSplat()))
    return {};
  return in.reshape(getType());
}

OpFoldResult BroadcastInDimOp::fold(FoldAdaptor adaptor) {
  auto type = getType();
  ArrayRef<int64_t> dims = getBroadcastDimensions();
  if (getOperand().getType() == type &&
      llvm::equal(dims, llvm::seq<int64_t>(0, type.getRank())))
    return getOperand();
  auto in = dense(adaptor.getOperand());
  if (!in)
    return {};
  if (in.isSplat())
    return in.resizeSplat(type);
  auto inType = llvm::cast<ShapedType>(in.getType());
  SmallVector<int64_t> inStrides = stridesOf(inType.getShape());
  return gather(type, {in}, [&](ArrayRef<int64_t> idx) {
    int64_t flat = 0;
    for (auto [i, d] : llvm::enumerate(dims))
      if (inType.getDimSize(i) != 1)
        flat += idx[d] * inStrides[i];
    return std::optional(std::make_pair(0u, flat));
  });
}

OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  ArrayRef<int64_t> perm = getPermutation();
  if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
    return getOperand();
  auto in = dense(adaptor.getOperand());
  if (!in)
    return {};
  if (in.isSplat())
    return in.resizeSplat(getType());
  SmallVector<int64_t> inStrides =
      stridesOf(llvm::cast<ShapedType>(in.getType()).getShape());
  return gather(getType(), {in}, [&](ArrayRef<int64_t> idx) {
    int64_t flat = 0;
    for (auto [i, p] : llvm::enumerate(perm))
      flat += idx[i] * inStrides[p];
    return std::optional(std::make_pair(0u, flat));
  });
}

OpFoldResult SliceOp::fold(FoldAdaptor adaptor) {
  if (getOperand().getType() == getType())
    return getOperand(); // same shape means start 0, stride 1 everywhere
  auto in = dense(adaptor.getOperand());
  if (!in)
    return {};
  if (in.isSplat())
    return in.resizeSplat(getType());
  ArrayRef<int64_t> start = getStartIndices(), strides = getStrides();
  SmallVector<int64_t> inStrides =
      stridesOf(llvm::cast<ShapedType>(in.getType()).getShape());
  return gather(getType(), {in}, [&](ArrayRef<int64_t> idx) {
    int64_t flat = 0;
    for (size_t i = 0; i < idx.size(); ++i)
      flat += (start[i] + idx[i] * strides[i]) * inStrides[i];
    return std::optional(std::make_pair(0u, flat));
  });
}

OpFoldResult ConcatenateOp::fold(FoldAdaptor adaptor) {
  if (getInputs().size() == 1)
    return getInputs().front();
  SmallVector<DenseElementsAttr> ins;
  for (Attribute a : adaptor.getInputs()) {
    auto d = dense(a);
    if (!d)
      return {};
    ins.push_back(d);
  }
  auto type = llvm::cast<ShapedType>(getType());
  if (llvm::all_of(ins, [&](DenseElementsAttr d) {
        return d.isSplat() && d.getSplatValue<Attribute>() ==
                                  ins.front().getSplatValue<Attribute>();
      }))
    return ins.front().resizeSplat(type);
  int64_t dim = getDimension();
  SmallVector<int64_t> offsets;
  SmallVector<SmallVector<int64_t>> strides;
  int64_t offset = 0;
  for (DenseElementsAttr d : ins) {
    auto t = llvm::cast<ShapedType>(d.getType());
    offsets.push_back(offset);
    offset += t.getDimSize(dim);
    strides.push_back(stridesOf(t.getShape()));
  }
  return gather(type, ins, [&](ArrayRef<int64_t> idx) {
    unsigned k = 0;
    while (k + 1 < offsets.size() && idx[dim] >= offsets[k + 1])
      ++k;
    int64_t flat = 0;
    for (size_t i = 0; i < idx.size(); ++i)
      flat += (i == (size_t)dim ? idx[i] - offsets[k] : idx[i]) * strides[k][i];
    return std::optional(std::make_pair(k, flat));
  });
}

OpFoldResult PadOp::fold(FoldAdaptor adaptor) {
  auto noPad = [](ArrayRef<int64_t> p) { return llvm::all_of(p, [](int64_t v) { return v == 0; }); };
  if (noPad(getEdgePaddingLow()) && noPad(getEdgePaddingHigh()) &&
      noPad(getInteriorPadding()))
    return getOperand();
  auto in = dense(adaptor.getOperand());
  auto pad = dense(adaptor.getPaddingValue());
  if (!in || !pad)
    return {};
  Attribute padValue = pad.getSplatValue<Attribute>();
  if (in.isSplat() && in.getSplatValue<Attribute>() == padValue)
    return in.resizeSplat(getType());
  auto inType = llvm::cast<ShapedType>(in.getType());
  SmallVector<int64_t> inStrides = stridesOf(inType.getShape());
  ArrayRef<int64_t> lo = getEdgePaddingLow(), interior = getInteriorPadding();
  return gather(
      getType(), {in},
      [&](ArrayRef<int64_t> idx) -> std::optional<std::pair<unsigned, int64_t>> {
        int64_t flat = 0;
        for (size_t i = 0; i < idx.size(); ++i) {
          int64_t pos = idx[i] - lo[i], step = interior[i] + 1;
          if (pos < 0 || pos % step != 0 || pos / step >= inType.getDimSize(i))
            return std::nullopt;
          flat += (pos / step) * inStrides[i];
        }
        return std::make_pair(0u, flat);
      },
      padValue);
}

OpFoldResult IotaOp::fold(FoldAdaptor) {
  // Only the trivial case: a length-1 iota dimension is all zeros. A general
  // iota would materialise a constant as large as its result.
  auto type = getType();
  if (type.getDimSize(getIotaDimension()) != 1)
    return {};
  Type elem = type.getElementType();
  if (isFoldableInt(elem))
    return DenseElementsAttr::get(type, APInt::getZero(elem.getIntOrFloatBitWidth()));
  if (auto f = llvm::dyn_cast<FloatType>(elem))
    return DenseElementsAttr::get(type, APFloat::getZero(f.getFloatSemantics()));
  return {};
}


//======================================================================//
// Canonicalization patterns
//======================================================================//

namespace {

/// transpose(transpose(x, p1), p2) -> transpose(x, p1[p2[i]]).
struct ComposeTransposes : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getOperand().getDefiningOp<TransposeOp>();
    if (!inner)
      return failure();
    SmallVector<int64_t> perm;
    for (int64_t p : op.getPermutation())
      perm.push_back(inner.getPermutation()[p]);
    rewriter.replaceOpWithNewOp<TransposeOp>(op, op.getType(),
                                             inner.getOperand(), perm);
    return success();
  }
};

/// reshape(reshape(x)) -> reshape(x).
struct ComposeReshapes : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getOperand().getDefiningOp<ReshapeOp>();
    if (!inner)
      return failure();
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), inner.getOperand());
    return success();
  }
};

/// broadcast_in_dim(broadcast_in_dim(x, d1), d2) -> broadcast_in_dim(x,
/// d2[d1[i]]). Valid because each step's size-1 rule composes: an operand
/// dimension that is not 1 keeps its size through both.
struct ComposeBroadcasts : OpRewritePattern<BroadcastInDimOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastInDimOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getOperand().getDefiningOp<BroadcastInDimOp>();
    if (!inner)
      return failure();
    SmallVector<int64_t> dims;
    for (int64_t d : inner.getBroadcastDimensions())
      dims.push_back(op.getBroadcastDimensions()[d]);
    rewriter.replaceOpWithNewOp<BroadcastInDimOp>(op, op.getType(),
                                                  inner.getOperand(), dims);
    return success();
  }
};

/// slice(slice(x)) -> one slice: element j of the outer slice is element
/// s2 + j*st2 of the inner, which is element s1 + (s2 + j*st2)*st1 of x.
struct ComposeSlices : OpRewritePattern<SliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SliceOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getOperand().getDefiningOp<SliceOp>();
    if (!inner)
      return failure();
    SmallVector<int64_t> start, limit, strides;
    for (int64_t i = 0, e = op.getType().getRank(); i < e; ++i) {
      int64_t s1 = inner.getStartIndices()[i], st1 = inner.getStrides()[i];
      int64_t s2 = op.getStartIndices()[i], st2 = op.getStrides()[i];
      int64_t n = op.getType().getDimSize(i);
      start.push_back(s1 + s2 * st1);
      strides.push_back(st1 * st2);
      limit.push_back(n == 0 ? start.back() : start.back() + (n - 1) * strides.back() + 1);
    }
    rewriter.replaceOpWithNewOp<SliceOp>(op, op.getType(), inner.getOperand(),
                                         start, limit, strides);
    return success();
  }
};

} // namespace

void TransposeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<ComposeTransposes>(context);
}
void ReshapeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<ComposeReshapes>(context);
}
void BroadcastInDimOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                   MLIRContext *context) {
  results.add<ComposeBroadcasts>(context);
}
void SliceOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<ComposeSlices>(context);
}

//======================================================================//
// Derivative rules
//======================================================================//

//===----------------------------------------------------------------------===//
// Shape ops (linear: the tangent rule is the op itself, the cotangent rule
// its transpose)
//===----------------------------------------------------------------------===//

LogicalResult BroadcastInDimOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                                    SmallVectorImpl<Value> &resultTangents) {
  resultTangents.push_back(tangents[0] ? MlaxBuilder(b, *this).broadcast(
                                             tangents[0], getType(), getBroadcastDimensions())
                                       : Value());
  return success();
}

LogicalResult BroadcastInDimOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                                    SmallVectorImpl<Value> &operandCotangents) {
  Value ct = cotangents[0];
  if (!ct) {
    operandCotangents.push_back({});
    return success();
  }
  // Sum over the result dimensions the broadcast created (new dimensions and
  // size-1 dimensions it stretched), then restore the operand's layout.
  MlaxBuilder e(b, *this);
  RankedTensorType inType = tensorOf(getOperand()), outType = getType();
  ArrayRef<int64_t> dims = getBroadcastDimensions();
  SmallVector<int64_t> summed;
  for (int64_t d = 0; d < outType.getRank(); ++d) {
    const int64_t *it = llvm::find(dims, d);
    if (it == dims.end()) {
      summed.push_back(d);
      continue;
    }
    int64_t i = it - dims.begin();
    if (inType.getDimSize(i) == 1 && outType.getDimSize(d) != 1)
      summed.push_back(d);
  }
  Value reduced = e.reduceSum(ct, summed);
  // The surviving result dimensions, in increasing order, are the operand's
  // non-stretched dimensions; `dims` need not be increasing.
  SmallVector<int64_t> kept = keptDims(outType.getRank(), summed);
  SmallVector<int64_t> operandOrder; // operand dims, ordered by result position
  for (int64_t d : kept)
    operandOrder.push_back(llvm::find(dims, d) - dims.begin());
  SmallVector<int64_t> sortedOrder(operandOrder);
  llvm::sort(sortedOrder);
  SmallVector<int64_t> perm;
  for (int64_t i : sortedOrder)
    perm.push_back(llvm::find(operandOrder, i) - operandOrder.begin());
  Value transposed = e.transpose(reduced, perm);
  operandCotangents.push_back(e.reshape(transposed, inType));
  return success();
}

LogicalResult ReshapeOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                             SmallVectorImpl<Value> &resultTangents) {
  resultTangents.push_back(tangents[0] ? MlaxBuilder(b, *this).reshape(tangents[0], getType())
                                       : Value());
  return success();
}

LogicalResult ReshapeOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                             SmallVectorImpl<Value> &operandCotangents) {
  operandCotangents.push_back(
      cotangents[0] ? MlaxBuilder(b, *this).reshape(cotangents[0], getOperand().getType())
                    : Value());
  return success();
}

LogicalResult TransposeOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                               SmallVectorImpl<Value> &resultTangents) {
  resultTangents.push_back(
      tangents[0] ? MlaxBuilder(b, *this).transpose(tangents[0], getPermutation()) : Value());
  return success();
}

LogicalResult TransposeOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                               SmallVectorImpl<Value> &operandCotangents) {
  operandCotangents.push_back(
      cotangents[0]
          ? MlaxBuilder(b, *this).transpose(cotangents[0], invertPermutation(getPermutation()))
          : Value());
  return success();
}

LogicalResult SliceOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                           SmallVectorImpl<Value> &resultTangents) {
  if (!tangents[0]) {
    resultTangents.push_back({});
    return success();
  }
  resultTangents.push_back(SliceOp::create(b, getLoc(), tangents[0], getStartIndices(),
                                           getLimitIndices(), getStrides()));
  return success();
}

LogicalResult SliceOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                           SmallVectorImpl<Value> &operandCotangents) {
  Value ct = cotangents[0];
  if (!ct) {
    operandCotangents.push_back({});
    return success();
  }
  // Scatter the cotangent back with a pad: zeros before, after and between.
  MlaxBuilder e(b, *this);
  RankedTensorType inType = tensorOf(getOperand()), outType = getType();
  SmallVector<int64_t> low, high, interior;
  for (int64_t d = 0; d < inType.getRank(); ++d) {
    int64_t start = getStartIndices()[d], stride = getStrides()[d];
    int64_t n = outType.getDimSize(d);
    int64_t realLimit = n == 0 ? start : start + (n - 1) * stride + 1;
    low.push_back(start);
    high.push_back(inType.getDimSize(d) - realLimit);
    interior.push_back(stride - 1);
  }
  Value zero = e.zeros(RankedTensorType::get({}, inType.getElementType()));
  operandCotangents.push_back(PadOp::create(b, getLoc(), ct, zero, low, high, interior));
  return success();
}

LogicalResult ConcatenateOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                                 SmallVectorImpl<Value> &resultTangents) {
  if (llvm::all_of(tangents, [](Value t) { return !t; })) {
    resultTangents.push_back({});
    return success();
  }
  MlaxBuilder e(b, *this);
  SmallVector<Value> parts;
  for (auto [t, x] : llvm::zip(tangents, getInputs()))
    parts.push_back(e.orZeros(t, x.getType()));
  resultTangents.push_back(ConcatenateOp::create(b, getLoc(), parts, getDimension()));
  return success();
}

LogicalResult ConcatenateOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                                 SmallVectorImpl<Value> &operandCotangents) {
  Value ct = cotangents[0];
  int64_t dim = getDimension(), offset = 0;
  RankedTensorType outType = getType();
  for (Value x : getInputs()) {
    RankedTensorType inType = tensorOf(x);
    int64_t size = inType.getDimSize(dim);
    if (ct && ad::isDifferentiableType(inType)) {
      SmallVector<int64_t> start(outType.getRank(), 0), limit(outType.getShape()),
          strides(outType.getRank(), 1);
      start[dim] = offset;
      limit[dim] = offset + size;
      operandCotangents.push_back(SliceOp::create(b, getLoc(), ct, start, limit, strides));
    } else {
      operandCotangents.push_back({});
    }
    offset += size;
  }
  return success();
}

LogicalResult PadOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                         SmallVectorImpl<Value> &resultTangents) {
  if (!tangents[0] && !tangents[1]) {
    resultTangents.push_back({});
    return success();
  }
  MlaxBuilder e(b, *this);
  resultTangents.push_back(PadOp::create(
      b, getLoc(), e.orZeros(tangents[0], getOperand().getType()),
      e.orZeros(tangents[1], getPaddingValue().getType()), getEdgePaddingLow(),
      getEdgePaddingHigh(), getInteriorPadding()));
  return success();
}

LogicalResult PadOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                         SmallVectorImpl<Value> &operandCotangents) {
  Value ct = cotangents[0];
  if (!ct) {
    operandCotangents.append(2, Value());
    return success();
  }
  // Undo the edge padding with a negative pad, then skip the interior.
  MlaxBuilder e(b, *this);
  RankedTensorType inType = tensorOf(getOperand());
  int64_t rank = inType.getRank();
  SmallVector<int64_t> low, high, zeros(rank, 0), strides;
  for (int64_t d = 0; d < rank; ++d) {
    low.push_back(-getEdgePaddingLow()[d]);
    high.push_back(-getEdgePaddingHigh()[d]);
    strides.push_back(getInteriorPadding()[d] + 1);
  }
  Value zero = e.zeros(getPaddingValue().getType());
  Value unpadded = PadOp::create(b, getLoc(), ct, zero, low, high, zeros);
  SmallVector<int64_t> limit(tensorOf(unpadded).getShape());
  Value ctOperand = SliceOp::create(b, getLoc(), unpadded, zeros, limit, strides);
  operandCotangents.push_back(ctOperand);
  // Every element the pad wrote is the padding value.
  auto all = [](Value v) {
    SmallVector<int64_t> axes;
    for (int64_t d = 0; d < tensorOf(v).getRank(); ++d)
      axes.push_back(d);
    return axes;
  };
  Value total = e.reduceSum(ct, all(ct));
  Value inner = e.reduceSum(ctOperand, all(ctOperand));
  operandCotangents.push_back(e.sub(total, inner));
  return success();
}

//======================================================================//
// Batching rules
//======================================================================//

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
