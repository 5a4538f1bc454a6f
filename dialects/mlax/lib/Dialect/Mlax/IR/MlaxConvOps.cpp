//===- MlaxConvOps.cpp - convolution and windowed reductions --------------===//
//
// Shape rules (`inferReturnTypes` of conv_general_dilated and reduce_window,
// the verifiers of select_and_gather_add and select_and_scatter_add),
// derivative rules and batching rules. The
// derivative and batching rules follow jax/_src/lax/convolution.py and
// windowed_reductions.py.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"
#include "MlaxRuleUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <optional>

using namespace mlir;
using namespace mlir::mlax;
using namespace mlir::mlax::detail;

namespace {

int64_t dilateDim(int64_t d, int64_t r) { return d == 0 ? 0 : 1 + r * (d - 1); }

/// The number of windows along one dimension (StableHLO's formula); -1 when
/// the padding removes more than the dilated input has.
int64_t windowCount(int64_t in, int64_t window, int64_t stride, int64_t lo, int64_t hi,
                    int64_t baseDilation, int64_t windowDilation) {
  int64_t padded = dilateDim(in, baseDilation) + lo + hi;
  if (padded < 0)
    return -1;
  int64_t w = dilateDim(window, windowDilation);
  if (padded < w)
    return 0;
  return (padded - w) / stride + 1;
}

/// Checks a window's attributes (`n` entries each, positive where they must
/// be) and computes the window count along each dimension; errors name
/// `opName` (a shape rule's, or a verifier's with the op's location).
LogicalResult windowShape(std::optional<Location> loc, StringRef opName, ArrayRef<int64_t> in,
                          ArrayRef<int64_t> window, ArrayRef<int64_t> strides,
                          ArrayRef<int64_t> padding, ArrayRef<int64_t> baseDil,
                          ArrayRef<int64_t> winDil, SmallVectorImpl<int64_t> &out,
                          StringRef what = "operand",
                          StringRef windowName = "window_dimensions",
                          StringRef baseName = "base_dilation",
                          StringRef winName = "window_dilation") {
  size_t n = in.size();
  auto count = [&](StringRef name, ArrayRef<int64_t> v, size_t want) -> LogicalResult {
    if (v.size() != want)
      return emitOptionalError(loc, "'", opName, "' op ", name, " needs ", want, " entries (",
                               what, " rank ", n,
                               want == 2 * n ? ", a (low, high) pair each" : "", "), got ",
                               v.size());
    return success();
  };
  auto positive = [&](StringRef name, ArrayRef<int64_t> v) -> LogicalResult {
    for (int64_t x : v)
      if (x < 1)
        return emitOptionalError(loc, "'", opName, "' op ", name, " must be positive, got ",
                                 shapeStr(v));
    return success();
  };
  if (failed(count(windowName, window, n)) || failed(count("window_strides", strides, n)) ||
      failed(count("padding", padding, 2 * n)) || failed(count(baseName, baseDil, n)) ||
      failed(count(winName, winDil, n)) || failed(positive(windowName, window)) ||
      failed(positive("window_strides", strides)) || failed(positive(baseName, baseDil)) ||
      failed(positive(winName, winDil)))
    return failure();
  for (size_t i = 0; i < n; ++i) {
    int64_t c = windowCount(in[i], window[i], strides[i], padding[2 * i], padding[2 * i + 1],
                            baseDil[i], winDil[i]);
    if (c < 0)
      return emitOptionalError(loc, "'", opName, "' op padding (", padding[2 * i], ", ",
                               padding[2 * i + 1], ") removes more than ", what, " dimension ",
                               i, " (size ", in[i], ") holds");
    out.push_back(c);
  }
  return success();
}

LogicalResult windowShape(Operation *op, ArrayRef<int64_t> in, ArrayRef<int64_t> window,
                          ArrayRef<int64_t> strides, ArrayRef<int64_t> padding,
                          ArrayRef<int64_t> baseDil, ArrayRef<int64_t> winDil,
                          SmallVectorImpl<int64_t> &out) {
  return windowShape(op->getLoc(), op->getName().getStringRef(), in, window, strides, padding,
                     baseDil, winDil, out);
}

LogicalResult checkResultShape(Operation *op, RankedTensorType result, ArrayRef<int64_t> shape) {
  if (result.getShape() != shape)
    return op->emitOpError() << "result shape " << shapeStr(result.getShape())
                             << " does not match the expected " << shapeStr(shape);
  return success();
}

/// The parameters of a convolution, for building new ones in rules.
struct ConvParams {
  SmallVector<int64_t> lhsSpec, rhsSpec, outSpec, strides, padding, lhsDil, rhsDil;
  int64_t featureGroups = 1, batchGroups = 1;

  static ConvParams of(ConvGeneralDilatedOp op) {
    ConvParams p;
    p.lhsSpec.assign(op.getLhsSpec().begin(), op.getLhsSpec().end());
    p.rhsSpec.assign(op.getRhsSpec().begin(), op.getRhsSpec().end());
    p.outSpec.assign(op.getOutSpec().begin(), op.getOutSpec().end());
    p.strides.assign(op.getWindowStrides().begin(), op.getWindowStrides().end());
    p.padding.assign(op.getPadding().begin(), op.getPadding().end());
    p.lhsDil.assign(op.getLhsDilation().begin(), op.getLhsDilation().end());
    p.rhsDil.assign(op.getRhsDilation().begin(), op.getRhsDilation().end());
    p.featureGroups = op.getFeatureGroupCount();
    p.batchGroups = op.getBatchGroupCount();
    return p;
  }
};

/// The result shape of a convolution whose attributes verified.
SmallVector<int64_t> convShape(ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs, const ConvParams &p) {
  size_t n = lhs.size() - 2;
  SmallVector<int64_t> out(lhs.size());
  out[p.outSpec[0]] = lhs[p.lhsSpec[0]] / p.batchGroups;
  out[p.outSpec[1]] = rhs[p.rhsSpec[0]];
  for (size_t i = 0; i < n; ++i)
    out[p.outSpec[i + 2]] = std::max<int64_t>(
        0, windowCount(lhs[p.lhsSpec[i + 2]], rhs[p.rhsSpec[i + 2]], p.strides[i],
                       p.padding[2 * i], p.padding[2 * i + 1], p.lhsDil[i], p.rhsDil[i]));
  return out;
}

Value conv(OpBuilder &b, Location loc, Value lhs, Value rhs, const ConvParams &p,
           Type elementType) {
  auto shape = convShape(tensorOf(lhs).getShape(), tensorOf(rhs).getShape(), p);
  return ConvGeneralDilatedOp::create(
      b, loc, RankedTensorType::get(shape, elementType), lhs, rhs, p.lhsSpec, p.rhsSpec,
      p.outSpec, p.strides, p.padding, p.lhsDil, p.rhsDil, p.featureGroups, p.batchGroups);
}

/// `x` reshaped to `shape`, its element type kept.
Value reshape(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> shape) {
  return MlaxBuilder(b, loc).reshape(x, tensorOf(x).clone(shape));
}

/// jax's `_reshape_axis_into`: moves dimension `src` next to `dst` (an index
/// among the other dimensions) and merges it into it, `src` outermost.
Value reshapeAxisInto(OpBuilder &b, Location loc, int64_t src, int64_t dst, Value x) {
  auto shape = tensorOf(x).getShape();
  SmallVector<int64_t> perm, newShape;
  for (int64_t i = 0; i < static_cast<int64_t>(shape.size()); ++i)
    if (i != src) {
      perm.push_back(i);
      newShape.push_back(shape[i]);
    }
  perm.insert(perm.begin() + dst, src);
  newShape[dst] *= shape[src];
  return reshape(b, loc, MlaxBuilder(b, loc).transpose(x, perm), newShape);
}

/// jax's `_reshape_axis_out_of`: splits dimension `src` into (size1, rest).
Value reshapeAxisOutOf(OpBuilder &b, Location loc, int64_t src, int64_t size1, Value x) {
  SmallVector<int64_t> shape(tensorOf(x).getShape());
  int64_t size2 = shape[src] / size1;
  shape[src] = size2;
  shape.insert(shape.begin() + src, size1);
  return reshape(b, loc, x, shape);
}

/// Moves dimension `from` to the front.
Value moveToFront(OpBuilder &b, Location loc, Value x, int64_t from) {
  SmallVector<int64_t> perm{from};
  for (int64_t i = 0; i < tensorOf(x).getRank(); ++i)
    if (i != from)
      perm.push_back(i);
  return MlaxBuilder(b, loc).transpose(x, perm);
}

SmallVector<int64_t> swapFirstTwo(ArrayRef<int64_t> spec) {
  SmallVector<int64_t> s(spec);
  std::swap(s[0], s[1]);
  return s;
}

SmallVector<int64_t> take(ArrayRef<int64_t> shape, ArrayRef<int64_t> dims) {
  SmallVector<int64_t> out;
  for (int64_t d : dims)
    out.push_back(shape[d]);
  return out;
}

/// jax's `_conv_general_vjp_lhs_padding`, flattened.
SmallVector<int64_t> vjpLhsPadding(ArrayRef<int64_t> in, ArrayRef<int64_t> window,
                                   ArrayRef<int64_t> strides, ArrayRef<int64_t> out,
                                   ArrayRef<int64_t> padding, ArrayRef<int64_t> lhsDil,
                                   ArrayRef<int64_t> rhsDil) {
  SmallVector<int64_t> pads;
  for (size_t i = 0; i < in.size(); ++i) {
    int64_t lhsD = dilateDim(in[i], lhsDil[i]), rhsD = dilateDim(window[i], rhsDil[i]),
            outD = dilateDim(out[i], strides[i]);
    int64_t before = rhsD - padding[2 * i] - 1;
    pads.append({before, lhsD + rhsD - 1 - outD - before});
  }
  return pads;
}

/// jax's `_conv_general_vjp_rhs_padding`, flattened.
SmallVector<int64_t> vjpRhsPadding(ArrayRef<int64_t> in, ArrayRef<int64_t> window,
                                   ArrayRef<int64_t> strides, ArrayRef<int64_t> out,
                                   ArrayRef<int64_t> padding, ArrayRef<int64_t> lhsDil,
                                   ArrayRef<int64_t> rhsDil) {
  SmallVector<int64_t> pads;
  for (size_t i = 0; i < in.size(); ++i) {
    int64_t lhsD = dilateDim(in[i], lhsDil[i]), rhsD = dilateDim(window[i], rhsDil[i]),
            outD = dilateDim(out[i], strides[i]);
    int64_t lo = padding[2 * i];
    pads.append({lo, (outD - lhsD) + (rhsD - lo - 1)});
  }
  return pads;
}

bool isPermutation(ArrayRef<int64_t> spec, int64_t rank) {
  if (static_cast<int64_t>(spec.size()) != rank)
    return false;
  SmallVector<bool> seen(rank, false);
  for (int64_t d : spec) {
    if (d < 0 || d >= rank || seen[d])
      return false;
    seen[d] = true;
  }
  return true;
}


} // namespace

//===----------------------------------------------------------------------===//
// conv_general_dilated
//===----------------------------------------------------------------------===//

LogicalResult ConvGeneralDilatedOp::inferReturnTypes(MLIRContext *,
                                                     std::optional<Location> loc,
                                                     Adaptor adaptor,
                                                     SmallVectorImpl<Type> &results) {
  StringRef name = getOperationName();
  if (!allRanked(adaptor.getOperands()))
    return notTensors(loc, name);
  auto lhs = tensorOf(adaptor.getLhs()), rhs = tensorOf(adaptor.getRhs());
  int64_t rank = lhs.getRank();
  if (rank < 2 || rhs.getRank() != rank)
    return emitOptionalError(loc, "'", name, "' op needs lhs and rhs of one rank of at least 2, "
                             "got ranks ", lhs.getRank(), " and ", rhs.getRank());
  ArrayRef<int64_t> lhsSpec = adaptor.getLhsSpec(), rhsSpec = adaptor.getRhsSpec(),
                    outSpec = adaptor.getOutSpec();
  for (auto [what, spec] : {std::pair<StringRef, ArrayRef<int64_t>>{"lhs_spec", lhsSpec},
                            {"rhs_spec", rhsSpec},
                            {"out_spec", outSpec}})
    if (!isPermutation(spec, rank))
      return emitOptionalError(loc, "'", name, "' op ", what, " must be a permutation of the ",
                               rank, " dimensions, got ", shapeStr(spec));
  Type le = lhs.getElementType(), re = rhs.getElementType();
  if (le != re)
    return emitOptionalError(loc, "'", name, "' op requires operands of one dtype, got ", le,
                             " and ", re);
  int64_t fg = adaptor.getFeatureGroupCount(), bg = adaptor.getBatchGroupCount();
  if (fg < 1 || bg < 1)
    return emitOptionalError(loc, "'", name, "' op feature_group_count and batch_group_count "
                             "must be positive, got ", fg, " and ", bg);
  if (fg > 1 && bg > 1)
    return emitOptionalError(loc, "'", name, "' op feature_group_count (", fg,
                             ") and batch_group_count (", bg, ") cannot both exceed 1");
  int64_t lhsBatch = lhs.getDimSize(lhsSpec[0]), lhsFeat = lhs.getDimSize(lhsSpec[1]);
  int64_t rhsOut = rhs.getDimSize(rhsSpec[0]), rhsIn = rhs.getDimSize(rhsSpec[1]);
  if (lhsFeat % fg != 0)
    return emitOptionalError(loc, "'", name, "' op lhs feature dimension (size ", lhsFeat,
                             ") is not a multiple of feature_group_count ", fg);
  if (lhsFeat / fg != rhsIn)
    return emitOptionalError(loc, "'", name, "' op lhs feature dimension size divided by "
                             "feature_group_count (", lhsFeat, " / ", fg, ") must equal the rhs "
                             "input feature dimension size (", rhsIn, ")");
  if (rhsOut % fg != 0)
    return emitOptionalError(loc, "'", name, "' op rhs output feature dimension (size ", rhsOut,
                             ") is not a multiple of feature_group_count ", fg);
  if (lhsBatch % bg != 0)
    return emitOptionalError(loc, "'", name, "' op lhs batch dimension (size ", lhsBatch,
                             ") is not a multiple of batch_group_count ", bg);
  if (rhsOut % bg != 0)
    return emitOptionalError(loc, "'", name, "' op rhs output feature dimension (size ", rhsOut,
                             ") is not a multiple of batch_group_count ", bg);
  auto lhsSpatial = take(lhs.getShape(), lhsSpec.drop_front(2));
  auto rhsSpatial = take(rhs.getShape(), rhsSpec.drop_front(2));
  ArrayRef<int64_t> strides = adaptor.getWindowStrides(), padding = adaptor.getPadding(),
                    lhsDil = adaptor.getLhsDilation(), rhsDil = adaptor.getRhsDilation();
  SmallVector<int64_t> counts;
  if (failed(windowShape(loc, name, lhsSpatial, rhsSpatial, strides, padding, lhsDil, rhsDil,
                         counts, "lhs spatial", "rhs spatial size", "lhs_dilation",
                         "rhs_dilation")))
    return failure();
  SmallVector<int64_t> shape(rank);
  shape[outSpec[0]] = lhsBatch / bg;
  shape[outSpec[1]] = rhsOut;
  for (int64_t i = 0; i + 2 < rank; ++i)
    shape[outSpec[i + 2]] = counts[i];
  // The element type is the operands' unless the op is built with a wider
  // one (preferred_element_type): see isCompatibleReturnTypes and verify.
  results.push_back(RankedTensorType::get(shape, le));
  return success();
}

bool ConvGeneralDilatedOp::isCompatibleReturnTypes(TypeRange inferred, TypeRange actual) {
  // The caller picks the result's element type (preferred_element_type;
  // `verify` checks its kind); the shape is the inferred one.
  if (inferred.size() != 1 || actual.size() != 1)
    return false;
  auto a = llvm::dyn_cast<RankedTensorType>(inferred.front());
  auto b = llvm::dyn_cast<RankedTensorType>(actual.front());
  return a && b && a.getShape() == b.getShape();
}

LogicalResult ConvGeneralDilatedOp::verify() {
  Type le = tensorOf(getLhs()).getElementType(), oe = getType().getElementType();
  if (oe != le && (llvm::isa<FloatType>(oe) != llvm::isa<FloatType>(le) ||
                   llvm::isa<ComplexType>(oe) != llvm::isa<ComplexType>(le)))
    return emitOpError() << "result element type " << oe << " is not of the kind of " << le;
  return success();
}

namespace {
/// jax's `_conv_general_dilated_transpose_lhs`.
Value convTransposeLhs(OpBuilder &b, ConvGeneralDilatedOp op, Value g) {
  Location loc = op.getLoc();
  ConvParams p = ConvParams::of(op);
  Value lhs = op.getLhs(), rhs = op.getRhs();
  auto lhsShape = tensorOf(lhs).getShape(), rhsShape = tensorOf(rhs).getShape();
  int64_t fg = p.featureGroups, bg = p.batchGroups;
  ConvParams t;
  t.lhsSpec = p.outSpec;
  t.rhsSpec = swapFirstTwo(p.rhsSpec);
  t.outSpec = p.lhsSpec;
  if (fg > 1 || bg > 1) {
    int64_t groups = fg > 1 ? fg : bg;
    rhs = reshapeAxisOutOf(b, loc, p.rhsSpec[0], groups, rhs);
    rhs = reshapeAxisInto(b, loc, p.rhsSpec[0], p.rhsSpec[1], rhs);
  }
  t.featureGroups = fg > 1 ? fg : bg;
  t.batchGroups = 1;
  ArrayRef<int64_t> lhsS = ArrayRef(p.lhsSpec).drop_front(2),
                    rhsS = ArrayRef(p.rhsSpec).drop_front(2),
                    outS = ArrayRef(p.outSpec).drop_front(2);
  t.padding = vjpLhsPadding(take(lhsShape, lhsS), take(rhsShape, rhsS), p.strides,
                            take(tensorOf(g).getShape(), outS), p.padding, p.lhsDil, p.rhsDil);
  t.strides = p.lhsDil;
  t.lhsDil = p.strides;
  t.rhsDil = p.rhsDil;
  Type gElem = tensorOf(g).getElementType();
  Value revd = ReverseOp::create(b, loc, rhs, SmallVector<int64_t>(rhsS));
  revd = MlaxBuilder(b, loc).convert(revd, gElem);
  Value out = conv(b, loc, g, revd, t, gElem);
  out = MlaxBuilder(b, loc).convert(out, tensorOf(lhs).getElementType());
  if (bg > 1) {
    out = reshapeAxisOutOf(b, loc, p.lhsSpec[1], bg, out);
    out = reshapeAxisInto(b, loc, p.lhsSpec[1], p.lhsSpec[0], out);
  }
  return out;
}

/// jax's `_conv_general_dilated_transpose_rhs`.
Value convTransposeRhs(OpBuilder &b, ConvGeneralDilatedOp op, Value g) {
  Location loc = op.getLoc();
  ConvParams p = ConvParams::of(op);
  Value lhs = op.getLhs(), rhs = op.getRhs();
  auto gType = tensorOf(g);
  if (gType.getNumElements() == 0)
    return MlaxBuilder(b, loc).zeros(rhs.getType());
  auto lhsShape = tensorOf(lhs).getShape(), rhsShape = tensorOf(rhs).getShape();
  ConvParams t;
  t.lhsSpec = swapFirstTwo(p.lhsSpec);
  t.rhsSpec = swapFirstTwo(p.outSpec);
  t.outSpec = swapFirstTwo(p.rhsSpec);
  t.featureGroups = p.batchGroups > 1 ? p.batchGroups : 1;
  t.batchGroups = p.featureGroups > 1 ? p.featureGroups : 1;
  ArrayRef<int64_t> lhsS = ArrayRef(p.lhsSpec).drop_front(2),
                    rhsS = ArrayRef(p.rhsSpec).drop_front(2),
                    outS = ArrayRef(p.outSpec).drop_front(2);
  t.padding = vjpRhsPadding(take(lhsShape, lhsS), take(rhsShape, rhsS), p.strides,
                            take(gType.getShape(), outS), p.padding, p.lhsDil, p.rhsDil);
  t.strides = p.rhsDil;
  t.lhsDil = p.lhsDil;
  t.rhsDil = p.strides;
  Value out = conv(b, loc, MlaxBuilder(b, loc).convert(lhs, gType.getElementType()), g, t,
                   gType.getElementType());
  return MlaxBuilder(b, loc).convert(out, tensorOf(rhs).getElementType());
}
} // namespace

LogicalResult ConvGeneralDilatedOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                                        SmallVectorImpl<Value> &resultTangents) {
  ConvParams p = ConvParams::of(*this);
  Type elem = getType().getElementType();
  Value sum;
  if (tangents[0])
    sum = conv(b, getLoc(), tangents[0], getRhs(), p, elem);
  if (tangents[1]) {
    Value t = conv(b, getLoc(), getLhs(), tangents[1], p, elem);
    sum = sum ? AddOp::create(b, getLoc(), sum, t).getResult() : t;
  }
  resultTangents.push_back(sum);
  return success();
}

LogicalResult ConvGeneralDilatedOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                                        SmallVectorImpl<Value> &operandCotangents) {
  Value g = cotangents[0];
  if (!g) {
    operandCotangents.append(2, Value());
    return success();
  }
  operandCotangents.push_back(convTransposeLhs(b, *this, g));
  operandCotangents.push_back(convTransposeRhs(b, *this, g));
  return success();
}

/// jax's `_conv_general_dilated_batch_rule`, with the batch dimension of
/// every batched value in front; the result's batch dimension is then moved
/// to the front.
LogicalResult ConvGeneralDilatedOp::batch(OpBuilder &b, ValueRange operands,
                                          ArrayRef<bool> batched, int64_t batchSize,
                                          SmallVectorImpl<Value> &results) {
  Location loc = getLoc();
  ConvParams p = ConvParams::of(*this);
  Type elem = getType().getElementType();
  Value lhs = operands[0], rhs = operands[1];
  if (batchSize == 0) {
    results.push_back(MlaxBuilder(b, loc).zeros(vec::batchedType(getType(), 0)));
    return success();
  }
  int64_t fg = p.featureGroups, bg = p.batchGroups;
  Value out;
  int64_t outDim;
  if (batched[0] && batched[1]) {
    ConvParams q = p;
    Value newLhs;
    if (bg > 1) {
      newLhs = reshapeAxisInto(b, loc, 0, p.lhsSpec[0], lhs);
      q.batchGroups *= batchSize;
    } else {
      newLhs = reshapeAxisInto(b, loc, 0, p.lhsSpec[1], lhs);
      q.featureGroups *= batchSize;
    }
    Value newRhs = reshapeAxisInto(b, loc, 0, p.rhsSpec[0], rhs);
    out = conv(b, loc, newLhs, newRhs, q, elem);
    out = reshapeAxisOutOf(b, loc, p.outSpec[1], batchSize, out);
    outDim = p.outSpec[1];
  } else if (batched[0]) {
    Value newLhs;
    if (bg == 1) {
      newLhs = reshapeAxisInto(b, loc, 0, p.lhsSpec[0], lhs);
    } else {
      newLhs = reshapeAxisOutOf(b, loc, p.lhsSpec[0] + 1, bg, lhs);
      newLhs = reshapeAxisInto(b, loc, 0, p.lhsSpec[0] + 1, newLhs);
      newLhs = reshapeAxisInto(b, loc, p.lhsSpec[0], p.lhsSpec[0], newLhs);
    }
    out = conv(b, loc, newLhs, rhs, p, elem);
    out = reshapeAxisOutOf(b, loc, p.outSpec[0], batchSize, out);
    outDim = p.outSpec[0];
  } else {
    if (fg == 1 && bg == 1) {
      Value newRhs = reshapeAxisInto(b, loc, 0, p.rhsSpec[0], rhs);
      out = conv(b, loc, lhs, newRhs, p, elem);
      out = reshapeAxisOutOf(b, loc, p.outSpec[1], batchSize, out);
    } else {
      int64_t groups = fg > 1 ? fg : bg;
      Value newRhs = reshapeAxisOutOf(b, loc, p.rhsSpec[0] + 1, groups, rhs);
      newRhs = reshapeAxisInto(b, loc, 0, p.rhsSpec[0] + 1, newRhs);
      newRhs = reshapeAxisInto(b, loc, p.rhsSpec[0], p.rhsSpec[0], newRhs);
      out = conv(b, loc, lhs, newRhs, p, elem);
      out = reshapeAxisOutOf(b, loc, p.outSpec[1], groups, out);
      out = reshapeAxisOutOf(b, loc, p.outSpec[1] + 1, batchSize, out);
      out = reshapeAxisInto(b, loc, p.outSpec[1], p.outSpec[1] + 1, out);
    }
    outDim = p.outSpec[1];
  }
  results.push_back(moveToFront(b, loc, out, outDim));
  return success();
}

//===----------------------------------------------------------------------===//
// reduce_window
//===----------------------------------------------------------------------===//

namespace {
/// The window attributes shared by the window ops, with helpers to extend
/// them by a leading batch dimension of window 1.
struct Window {
  SmallVector<int64_t> dims, strides, padding, baseDil, winDil;

  Window batched() const {
    Window w;
    w.dims = {1};
    w.strides = {1};
    w.padding = {0, 0};
    w.baseDil = {1};
    w.winDil = {1};
    w.dims.append(dims);
    w.strides.append(strides);
    w.padding.append(padding);
    w.baseDil.append(baseDil);
    w.winDil.append(winDil);
    return w;
  }
  SmallVector<int64_t> outShape(ArrayRef<int64_t> in) const {
    SmallVector<int64_t> out;
    for (size_t i = 0; i < in.size(); ++i)
      out.push_back(std::max<int64_t>(0, windowCount(in[i], dims[i], strides[i], padding[2 * i],
                                                     padding[2 * i + 1], baseDil[i], winDil[i])));
    return out;
  }
  bool hasWindowDilation() const {
    return llvm::any_of(winDil, [](int64_t d) { return d != 1; });
  }
  bool hasBaseDilation() const {
    return llvm::any_of(baseDil, [](int64_t d) { return d != 1; });
  }
};

template <typename OpTy>
Window windowOf(OpTy op) {
  Window w;
  w.dims.assign(op.getWindowDimensions().begin(), op.getWindowDimensions().end());
  w.strides.assign(op.getWindowStrides().begin(), op.getWindowStrides().end());
  w.padding.assign(op.getPadding().begin(), op.getPadding().end());
  size_t n = w.dims.size();
  if constexpr (std::is_same_v<OpTy, SelectAndScatterAddOp>) {
    w.baseDil.assign(n, 1);
    w.winDil.assign(n, 1);
  } else {
    w.baseDil.assign(op.getBaseDilation().begin(), op.getBaseDilation().end());
    w.winDil.assign(op.getWindowDilation().begin(), op.getWindowDilation().end());
  }
  return w;
}

Value reduceWindow(OpBuilder &b, Location loc, WindowReduction kind, Value x, const Window &w) {
  auto type = tensorOf(x);
  auto result = RankedTensorType::get(w.outShape(type.getShape()), type.getElementType());
  return ReduceWindowOp::create(b, loc, result, kind, x, w.dims, w.strides, w.padding,
                                w.baseDil, w.winDil);
}

Value selectAndGatherAdd(OpBuilder &b, Location loc, ComparisonDirection dir, Value t, Value x,
                         const Window &w) {
  auto type = tensorOf(x);
  auto result = RankedTensorType::get(w.outShape(type.getShape()), type.getElementType());
  return SelectAndGatherAddOp::create(b, loc, result, dir, t, x, w.dims, w.strides, w.padding,
                                      w.baseDil, w.winDil);
}

/// The transpose of `selectAndGatherAdd` in `t` (jax's
/// `_select_and_gather_add_transpose`): select_and_scatter_add over the
/// operand with base-dilation holes filled with the identity, then the
/// holes sliced away. Window dilation is not supported (as in JAX).
Value selectAndGatherTranspose(OpBuilder &b, Operation *op, ComparisonDirection dir, Value ct,
                               Value x, const Window &w) {
  Location loc = op->getLoc();
  if (w.hasWindowDilation()) {
    op->emitOpError() << "reverse-mode derivative with window_dilation "
                      << shapeStr(w.winDil) << " is not implemented (as in JAX)";
    return {};
  }
  auto type = tensorOf(x);
  int64_t rank = type.getRank();
  Value operand = x;
  if (w.hasBaseDilation()) {
    auto scalar = RankedTensorType::get({}, type.getElementType());
    auto ft = llvm::cast<FloatType>(type.getElementType());
    auto identity = llvm::APFloat::getInf(ft.getFloatSemantics(),
                                          /*Negative=*/dir == ComparisonDirection::GE);
    Value fill = ConstantOp::create(b, loc, DenseElementsAttr::get(scalar, identity));
    SmallVector<int64_t> zeros(rank, 0), interior;
    for (int64_t d : w.baseDil)
      interior.push_back(d - 1);
    SmallVector<int64_t> shape;
    for (int64_t i = 0; i < rank; ++i)
      shape.push_back(dilateDim(type.getDimSize(i), w.baseDil[i]));
    operand = PadOp::create(b, loc, RankedTensorType::get(shape, type.getElementType()), x,
                            fill, zeros, zeros, interior);
  }
  Value result = SelectAndScatterAddOp::create(b, loc, operand.getType(), dir, ct, operand,
                                               w.dims, w.strides, w.padding);
  if (w.hasBaseDilation()) {
    SmallVector<int64_t> zeros(rank, 0);
    result = SliceOp::create(b, loc, type, result, zeros, tensorOf(result).getShape(),
                             w.baseDil);
  }
  return result;
}

ComparisonDirection directionOf(WindowReduction kind) {
  return kind == WindowReduction::Max ? ComparisonDirection::GE : ComparisonDirection::LE;
}

/// The windows of a window reduction laid out as patches: the operand padded
/// with `padValue` (edge padding and base-dilation holes), one strided slice
/// per window offset (row-major over the window), each of the reduction's
/// result shape, stacked along a new trailing axis. A `mul` window reduction
/// is `reduce_prod` of its patches over that axis; the ops are kept so that
/// their derivative rules give the transpose.
struct WindowPatches {
  PadOp pad;
  SmallVector<SliceOp> slices;
  Value patches; // result shape + [window size]
};

/// Null when the window has no element or a result dimension is 0.
std::optional<WindowPatches> windowPatches(OpBuilder &b, Location loc, Value x, Value padValue,
                                           const Window &w) {
  auto type = tensorOf(x);
  int64_t rank = type.getRank();
  SmallVector<int64_t> out = w.outShape(type.getShape());
  int64_t count = 1;
  for (int64_t d : w.dims)
    count *= d;
  if (count == 0 || llvm::is_contained(out, 0))
    return std::nullopt;
  WindowPatches p;
  SmallVector<int64_t> lo, hi, interior;
  for (int64_t i = 0; i < rank; ++i) {
    lo.push_back(w.padding[2 * i]);
    hi.push_back(w.padding[2 * i + 1]);
    interior.push_back(w.baseDil[i] - 1);
  }
  p.pad = PadOp::create(b, loc, x, padValue, lo, hi, interior);
  SmallVector<int64_t> offset(rank, 0), outPlusOne(out);
  outPlusOne.push_back(1);
  SmallVector<Value> parts;
  for (int64_t k = 0; k < count; ++k) {
    SmallVector<int64_t> start, limit;
    for (int64_t i = 0; i < rank; ++i) {
      start.push_back(offset[i] * w.winDil[i]);
      limit.push_back(start.back() + (out[i] - 1) * w.strides[i] + 1);
    }
    SliceOp slice = SliceOp::create(b, loc, p.pad.getResult(), start, limit, w.strides);
    p.slices.push_back(slice);
    parts.push_back(reshape(b, loc, slice.getResult(), outPlusOne));
    // The next window offset, the last dimension fastest.
    for (int64_t i = rank - 1; i >= 0; --i) {
      if (++offset[i] < w.dims[i])
        break;
      offset[i] = 0;
    }
  }
  p.patches = parts.size() == 1 ? parts[0]
                                : ConcatenateOp::create(b, loc, parts, rank).getResult();
  return p;
}

LogicalResult productWindowUnsupported(Operation *op) {
  auto elem = tensorOf(op->getOperand(0)).getElementType();
  if (llvm::isa<FloatType>(elem))
    return success();
  return op->emitOpError() << "the derivative of a `mul` window reduction is implemented for "
                           << "real floating-point operands, got " << elem;
}
} // namespace

LogicalResult ReduceWindowOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                               Adaptor adaptor,
                                               SmallVectorImpl<Type> &results) {
  StringRef name = getOperationName();
  if (!allRanked(adaptor.getOperands()))
    return notTensors(loc, name);
  auto in = tensorOf(adaptor.getOperand());
  Type elem = in.getElementType();
  auto kind = adaptor.getReduction();
  if (llvm::isa<ComplexType>(elem) &&
      (kind == WindowReduction::Max || kind == WindowReduction::Min))
    return emitOptionalError(loc, "'", name, "' op ", stringifyWindowReduction(kind),
                             " is not defined on complex numbers");
  SmallVector<int64_t> out;
  if (failed(windowShape(loc, name, in.getShape(), adaptor.getWindowDimensions(),
                         adaptor.getWindowStrides(), adaptor.getPadding(),
                         adaptor.getBaseDilation(), adaptor.getWindowDilation(), out)))
    return failure();
  results.push_back(RankedTensorType::get(out, elem));
  return success();
}

LogicalResult ReduceWindowOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                                  SmallVectorImpl<Value> &resultTangents) {
  Value t = tangents[0];
  if (!t) {
    resultTangents.push_back({});
    return success();
  }
  Window w = windowOf(*this);
  switch (getReduction()) {
  case WindowReduction::Add:
    resultTangents.push_back(reduceWindow(b, getLoc(), WindowReduction::Add, t, w));
    return success();
  case WindowReduction::Max:
  case WindowReduction::Min:
    resultTangents.push_back(
        selectAndGatherAdd(b, getLoc(), directionOf(getReduction()), t, getOperand(), w));
    return success();
  case WindowReduction::Mul: {
    // Exact, zeros included (jax has a forward rule only, a variadic
    // reduce_window): the patches' reduce_prod rule, from exclusive
    // prefix/suffix products, with the tangent laid out as patches too.
    if (failed(productWindowUnsupported(*this)))
      return failure();
    Location loc = getLoc();
    auto inType = tensorOf(getOperand());
    auto xs = windowPatches(b, loc, getOperand(), MlaxBuilder(b, loc).scalar(inType.getElementType(), 1.0), w);
    if (!xs) {
      resultTangents.push_back(MlaxBuilder(b, loc).zeros(getType()));
      return success();
    }
    auto ts = windowPatches(b, loc, t, MlaxBuilder(b, loc).scalar(inType.getElementType(), 0.0), w);
    int64_t axis = inType.getRank();
    auto prod = ReduceProdOp::create(b, loc, xs->patches, ArrayRef<int64_t>{axis});
    SmallVector<Value> tangent;
    if (failed(llvm::cast<DifferentiableOpInterface>(prod.getOperation())
                   .jvp(b, {ts->patches}, tangent)))
      return failure();
    prod.erase();
    resultTangents.push_back(tangent[0]);
    return success();
  }
  }
  return emitOpError("unknown window reduction");
}

LogicalResult ReduceWindowOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                                  SmallVectorImpl<Value> &operandCotangents) {
  Value ct = cotangents[0];
  if (!ct) {
    operandCotangents.push_back({});
    return success();
  }
  Location loc = getLoc();
  Window w = windowOf(*this);
  auto inType = tensorOf(getOperand());
  int64_t rank = inType.getRank();
  switch (getReduction()) {
  case WindowReduction::Add: {
    // jax's `_reduce_window_sum_transpose_rule`: pad the cotangent (strides
    // become interior padding), then sum windows strided by the base dilation.
    SmallVector<int64_t> pads =
        vjpLhsPadding(inType.getShape(), w.dims, w.strides, tensorOf(ct).getShape(), w.padding,
                      w.baseDil, w.winDil);
    SmallVector<int64_t> lo, hi, interior, shape;
    auto ctShape = tensorOf(ct).getShape();
    for (int64_t i = 0; i < rank; ++i) {
      lo.push_back(pads[2 * i]);
      hi.push_back(pads[2 * i + 1]);
      interior.push_back(w.strides[i] - 1);
      shape.push_back(dilateDim(ctShape[i], w.strides[i]) + lo.back() + hi.back());
    }
    auto scalar = RankedTensorType::get({}, inType.getElementType());
    Value zero = MlaxBuilder(b, loc).zeros(scalar);
    Value padded = PadOp::create(b, loc, RankedTensorType::get(shape, inType.getElementType()),
                                 ct, zero, lo, hi, interior);
    Window t;
    t.dims = w.dims;
    t.strides = w.baseDil;
    t.padding.assign(2 * rank, 0);
    t.baseDil.assign(rank, 1);
    t.winDil = w.winDil;
    operandCotangents.push_back(reduceWindow(b, loc, WindowReduction::Add, padded, t));
    return success();
  }
  case WindowReduction::Max:
  case WindowReduction::Min: {
    Value r = selectAndGatherTranspose(b, *this, directionOf(getReduction()), ct, getOperand(), w);
    if (!r)
      return failure();
    operandCotangents.push_back(r);
    return success();
  }
  case WindowReduction::Mul: {
    // The transpose of the forward rule: the patches' reduce_prod rule gives
    // the patches' cotangent; each slice's and the pad's rules carry it back.
    if (failed(productWindowUnsupported(*this)))
      return failure();
    auto xs = windowPatches(b, loc, getOperand(), MlaxBuilder(b, loc).scalar(inType.getElementType(), 1.0), w);
    if (!xs) {
      operandCotangents.push_back(MlaxBuilder(b, loc).zeros(inType));
      return success();
    }
    auto prod = ReduceProdOp::create(b, loc, xs->patches, ArrayRef<int64_t>{rank});
    auto diff = [](Operation *op) { return llvm::cast<DifferentiableOpInterface>(op); };
    SmallVector<Value> ctPatches;
    if (failed(diff(prod).vjp(b, {ct}, ctPatches)))
      return failure();
    prod.erase();
    auto outShape = tensorOf(ct).getShape();
    Value ctPadded;
    for (auto [k, slice] : llvm::enumerate(xs->slices)) {
      SmallVector<int64_t> start(rank + 1, 0), limit(outShape), strides(rank + 1, 1);
      start[rank] = k;
      limit.push_back(k + 1);
      Value part = SliceOp::create(b, loc, ctPatches[0], start, limit, strides);
      SmallVector<Value> back;
      if (failed(diff(slice).vjp(b, {reshape(b, loc, part, outShape)}, back)))
        return failure();
      ctPadded = ctPadded ? AddOp::create(b, loc, ctPadded, back[0]).getResult() : back[0];
    }
    SmallVector<Value> unpadded;
    if (failed(diff(xs->pad).vjp(b, {ctPadded}, unpadded)))
      return failure();
    operandCotangents.push_back(unpadded[0]);
    return success();
  }
  }
  return emitOpError("unknown window reduction");
}

LogicalResult ReduceWindowOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>,
                                    int64_t, SmallVectorImpl<Value> &results) {
  results.push_back(
      reduceWindow(b, getLoc(), getReduction(), operands[0], windowOf(*this).batched()));
  return success();
}

//===----------------------------------------------------------------------===//
// select_and_gather_add, select_and_scatter_add
//===----------------------------------------------------------------------===//

namespace {
LogicalResult checkSelect(Operation *op, ComparisonDirection dir) {
  if (dir != ComparisonDirection::GE && dir != ComparisonDirection::LE)
    return op->emitOpError() << "selects with GE (max) or LE (min), got "
                             << stringifyComparisonDirection(dir);
  return success();
}

Value batchOperand(OpBuilder &b, Location loc, Value v, bool batched, int64_t size) {
  return batched ? v : vec::broadcastToBatch(b, loc, v, size);
}
} // namespace

LogicalResult SelectAndGatherAddOp::verify() {
  if (failed(checkSelect(*this, getSelect())))
    return failure();
  auto in = tensorOf(getOperand());
  if (getTangents().getType() != in)
    return emitOpError() << "tangents type " << getTangents().getType()
                         << " differs from the operand type " << in;
  if (getType().getElementType() != in.getElementType())
    return emitOpError() << "result element type differs from the operand's";
  SmallVector<int64_t> out;
  if (failed(windowShape(*this, in.getShape(), getWindowDimensions(), getWindowStrides(),
                         getPadding(), getBaseDilation(), getWindowDilation(), out)))
    return failure();
  return checkResultShape(*this, getType(), out);
}

LogicalResult SelectAndGatherAddOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                                        SmallVectorImpl<Value> &resultTangents) {
  // Linear in the tangents; piecewise constant in the operand.
  resultTangents.push_back(tangents[0] ? selectAndGatherAdd(b, getLoc(), getSelect(), tangents[0],
                                                            getOperand(), windowOf(*this))
                                       : Value());
  return success();
}

LogicalResult SelectAndGatherAddOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                                        SmallVectorImpl<Value> &operandCotangents) {
  if (!cotangents[0]) {
    operandCotangents.append(2, Value());
    return success();
  }
  Value r = selectAndGatherTranspose(b, *this, getSelect(), cotangents[0], getOperand(),
                                     windowOf(*this));
  if (!r)
    return failure();
  operandCotangents.append({r, Value()});
  return success();
}

LogicalResult SelectAndGatherAddOp::batch(OpBuilder &b, ValueRange operands,
                                          ArrayRef<bool> batched, int64_t batchSize,
                                          SmallVectorImpl<Value> &results) {
  Location loc = getLoc();
  results.push_back(selectAndGatherAdd(
      b, loc, getSelect(), batchOperand(b, loc, operands[0], batched[0], batchSize),
      batchOperand(b, loc, operands[1], batched[1], batchSize), windowOf(*this).batched()));
  return success();
}

LogicalResult SelectAndScatterAddOp::verify() {
  if (failed(checkSelect(*this, getSelect())))
    return failure();
  auto in = tensorOf(getOperand());
  if (getType() != in)
    return emitOpError() << "result type " << getType() << " differs from the operand type "
                         << in;
  if (tensorOf(getSource()).getElementType() != in.getElementType())
    return emitOpError() << "source element type differs from the operand's";
  size_t n = in.getRank();
  SmallVector<int64_t> ones(n, 1), out;
  if (failed(windowShape(*this, in.getShape(), getWindowDimensions(), getWindowStrides(),
                         getPadding(), ones, ones, out)))
    return failure();
  if (tensorOf(getSource()).getShape() != ArrayRef(out))
    return emitOpError() << "source shape " << shapeStr(tensorOf(getSource()).getShape())
                         << " does not match the window count " << shapeStr(out);
  return success();
}

LogicalResult SelectAndScatterAddOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                                         SmallVectorImpl<Value> &resultTangents) {
  resultTangents.push_back(
      tangents[0] ? SelectAndScatterAddOp::create(b, getLoc(), getType(), getSelect(),
                                                  tangents[0], getOperand(),
                                                  getWindowDimensions(), getWindowStrides(),
                                                  getPadding())
                        .getResult()
                  : Value());
  return success();
}

LogicalResult SelectAndScatterAddOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                                         SmallVectorImpl<Value> &operandCotangents) {
  if (!cotangents[0]) {
    operandCotangents.append(2, Value());
    return success();
  }
  operandCotangents.push_back(selectAndGatherAdd(b, getLoc(), getSelect(), cotangents[0],
                                                 getOperand(), windowOf(*this)));
  operandCotangents.push_back({});
  return success();
}

LogicalResult SelectAndScatterAddOp::batch(OpBuilder &b, ValueRange operands,
                                           ArrayRef<bool> batched, int64_t batchSize,
                                           SmallVectorImpl<Value> &results) {
  Location loc = getLoc();
  Value source = batchOperand(b, loc, operands[0], batched[0], batchSize);
  Value operand = batchOperand(b, loc, operands[1], batched[1], batchSize);
  Window w = windowOf(*this).batched();
  results.push_back(SelectAndScatterAddOp::create(b, loc, operand.getType(), getSelect(), source,
                                                  operand, w.dims, w.strides, w.padding));
  return success();
}
