//===- MlaxElementwiseOps.cpp - the elementwise family -------------------===//
//
// Verifiers and shape rules of MlaxElementwiseOps.td's ops that need C++
// (bitcast_convert, is_finite, compare, select_n, convert, real, imag,
// complex; conj, the shifts, clz,
// erf, erf_inv and next_after need none: their types follow from ODS traits),
// then their folders, canonicalization patterns, derivative rules (`jvp`/
// `vjp`, and pow's `applyPartial`: the other elementwise ops declare their
// partials in the .td) and batching rules, in that order. Every message
// starts with the op's name.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"
#include "MlaxRuleUtils.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

#include <complex>

using namespace mlir;
using namespace mlir::mlax;
using namespace mlir::mlax::detail;

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
             << "-bit elements adds a last dimension of size "
             << inBits / outBits << "; got " << in << " -> " << out;
    return success();
  }
  if (outBits % inBits != 0 || inShape.size() != outShape.size() + 1 ||
      inShape.drop_back() != outShape ||
      inShape.back() != (int64_t)(outBits / inBits))
    return emitOpError("from ")
           << inBits << "-bit to " << outBits
           << "-bit elements consumes a last dimension of size "
           << outBits / inBits << "; got " << in << " -> " << out;
  return success();
}
// is_finite, compare, select_n, convert
//===----------------------------------------------------------------------===//

static Type predLike(Type t) {
  auto ranked = llvm::cast<RankedTensorType>(t);
  return RankedTensorType::get(ranked.getShape(),
                               IntegerType::get(t.getContext(), 1));
}

LogicalResult IsFiniteOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &results) {
  if (!allRanked(adaptor.getOperands()))
    return notTensors(loc, getOperationName());
  results.push_back(predLike(adaptor.getOperand().getType()));
  return success();
}

LogicalResult CompareOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &results) {
  if (!allRanked(adaptor.getOperands()))
    return notTensors(loc, getOperationName());
  // Also SameTypeOperands' rule, so that building the op checks it.
  Type lhs = adaptor.getLhs().getType(), rhs = adaptor.getRhs().getType();
  if (lhs != rhs)
    return emitOptionalError(loc, "'mlax.compare' op requires all operands to "
                                  "have the same type, got ",
                             lhs, " and ", rhs);
  results.push_back(predLike(lhs));
  return success();
}

LogicalResult SelectNOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &results) {
  ValueRange cases = adaptor.getCases();
  if (cases.empty())
    return emitOptionalError(loc, "'mlax.select_n' op needs at least one case");
  Type caseType = cases.front().getType();
  if (!allRanked(adaptor.getOperands())) {
    // Let the ODS type constraint name the bad operand.
    results.push_back(caseType);
    return success();
  }
  for (Value c : cases.drop_front())
    if (c.getType() != caseType)
      return emitOptionalError(loc, "'mlax.select_n' op cases must have one "
                                    "type, got ",
                               caseType, " and ", c.getType());
  auto which = tensorOf(adaptor.getWhich());
  auto caseShape = llvm::cast<RankedTensorType>(caseType).getShape();
  if (which.getRank() != 0 && which.getShape() != caseShape)
    return emitOptionalError(loc, "'mlax.select_n' op `which` must be a scalar "
                                  "or have the cases' shape ",
                             shapeStr(caseShape), ", got ",
                             shapeStr(which.getShape()));
  if (which.getElementType().isInteger(1) && cases.size() > 2)
    return emitOptionalError(loc, "'mlax.select_n' op a bool `which` selects "
                                  "between at most 2 cases, got ",
                             cases.size());
  results.push_back(caseType);
  return success();
}

LogicalResult ConvertOp::verify() {
  if (tensorOf(getOperand()).getShape() != getType().getShape())
    return emitOpError("changes only the element type; shapes differ: ")
           << getOperand().getType() << " vs " << getType();
  return success();
}

//===----------------------------------------------------------------------===//
// real, imag, complex
//===----------------------------------------------------------------------===//

/// real and imag: complex<f32|f64> -> f32|f64 of the same shape.
static LogicalResult inferComplexPart(std::optional<Location> loc, StringRef opName,
                                      Value operand, SmallVectorImpl<Type> &results) {
  if (!allRanked(operand))
    return notTensors(loc, opName);
  auto type = tensorOf(operand);
  auto complex = llvm::dyn_cast<ComplexType>(type.getElementType());
  if (!complex || !llvm::isa<Float32Type, Float64Type>(complex.getElementType()))
    return emitOptionalError(loc, "'", opName, "' op takes complex64 or complex128, got ",
                             type.getElementType());
  results.push_back(type.clone(complex.getElementType()));
  return success();
}

LogicalResult RealOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                       Adaptor adaptor, SmallVectorImpl<Type> &results) {
  return inferComplexPart(loc, getOperationName(), adaptor.getOperand(), results);
}

LogicalResult ImagOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                       Adaptor adaptor, SmallVectorImpl<Type> &results) {
  return inferComplexPart(loc, getOperationName(), adaptor.getOperand(), results);
}

LogicalResult ComplexOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                          Adaptor adaptor, SmallVectorImpl<Type> &results) {
  if (!allRanked(adaptor.getOperands()))
    return notTensors(loc, getOperationName());
  Type lhs = adaptor.getLhs().getType(), rhs = adaptor.getRhs().getType();
  if (lhs != rhs)
    return emitOptionalError(loc, "'mlax.complex' op takes two operands of one type, got ",
                             lhs, " and ", rhs);
  auto type = tensorOf(adaptor.getLhs());
  if (!llvm::isa<Float32Type, Float64Type>(type.getElementType()))
    return emitOptionalError(loc, "'mlax.complex' op takes f32 or f64 parts, got ",
                             type.getElementType());
  results.push_back(type.clone(ComplexType::get(type.getElementType())));
  return success();
}

//======================================================================//
// Folders
//======================================================================//

//===----------------------------------------------------------------------===//
// Unary elementwise ops
//===----------------------------------------------------------------------===//

#define MLAX_FLOAT_FN(EXPR)                                                    \
  +[](const APFloat &x) -> std::optional<APFloat> { return EXPR; }
#define MLAX_INT_FN(EXPR)                                                      \
  +[](const APInt &x, bool isUnsigned) -> std::optional<APInt> {               \
    (void)isUnsigned;                                                          \
    return EXPR;                                                               \
  }
#define MLAX_LIBM(FN) MLAX_FLOAT_FN(viaDouble(x, [](double v) { return FN(v); }))

OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  if (auto inner = getOperand().getDefiningOp<NegOp>())
    return inner.getOperand(); // -(-x) = x, also for NaN, -0.0 and INT_MIN
  return foldUnary(adaptor.getOperand(), getType(), MLAX_FLOAT_FN(-x),
                   MLAX_INT_FN(-x));
}

OpFoldResult NotOp::fold(FoldAdaptor adaptor) {
  if (auto inner = getOperand().getDefiningOp<NotOp>())
    return inner.getOperand();
  return foldUnary(adaptor.getOperand(), getType(), nullptr, MLAX_INT_FN(~x));
}

OpFoldResult AbsOp::fold(FoldAdaptor adaptor) {
  return foldUnary(adaptor.getOperand(), getType(), MLAX_FLOAT_FN(abs(x)),
                   MLAX_INT_FN(isUnsigned ? x : x.abs()));
}

OpFoldResult SignOp::fold(FoldAdaptor adaptor) {
  // sign(±0) = ±0 and sign(NaN) = NaN, as in StableHLO.
  return foldUnary(
      adaptor.getOperand(), getType(),
      MLAX_FLOAT_FN(x.isZero() || x.isNaN()
                        ? x
                        : APFloat::getOne(x.getSemantics(), x.isNegative())),
      MLAX_INT_FN(x.isZero() ? x
                  : (!isUnsigned && x.isNegative())
                      ? APInt::getAllOnes(x.getBitWidth())
                      : APInt(x.getBitWidth(), 1)));
}

OpFoldResult FloorOp::fold(FoldAdaptor adaptor) {
  return foldUnary(adaptor.getOperand(), getType(),
                   MLAX_FLOAT_FN(rounded(x, APFloat::rmTowardNegative)), nullptr);
}
OpFoldResult CeilOp::fold(FoldAdaptor adaptor) {
  return foldUnary(adaptor.getOperand(), getType(),
                   MLAX_FLOAT_FN(rounded(x, APFloat::rmTowardPositive)), nullptr);
}
OpFoldResult RoundOp::fold(FoldAdaptor adaptor) {
  return foldUnary(adaptor.getOperand(), getType(),
                   MLAX_FLOAT_FN(rounded(x, APFloat::rmNearestTiesToAway)),
                   nullptr);
}
OpFoldResult RoundEvenOp::fold(FoldAdaptor adaptor) {
  return foldUnary(adaptor.getOperand(), getType(),
                   MLAX_FLOAT_FN(rounded(x, APFloat::rmNearestTiesToEven)),
                   nullptr);
}

// Transcendentals go through libm in double and round once to the result
// format; libm keeps NaN, infinities and signed zeros as IEEE says.
OpFoldResult ExpOp::fold(FoldAdaptor a) { return foldUnary(a.getOperand(), getType(), MLAX_LIBM(std::exp), nullptr); }
OpFoldResult LogOp::fold(FoldAdaptor a) { return foldUnary(a.getOperand(), getType(), MLAX_LIBM(std::log), nullptr); }
OpFoldResult SinOp::fold(FoldAdaptor a) { return foldUnary(a.getOperand(), getType(), MLAX_LIBM(std::sin), nullptr); }
OpFoldResult CosOp::fold(FoldAdaptor a) { return foldUnary(a.getOperand(), getType(), MLAX_LIBM(std::cos), nullptr); }
OpFoldResult TanOp::fold(FoldAdaptor a) { return foldUnary(a.getOperand(), getType(), MLAX_LIBM(std::tan), nullptr); }
OpFoldResult TanhOp::fold(FoldAdaptor a) { return foldUnary(a.getOperand(), getType(), MLAX_LIBM(std::tanh), nullptr); }
OpFoldResult SqrtOp::fold(FoldAdaptor a) { return foldUnary(a.getOperand(), getType(), MLAX_LIBM(std::sqrt), nullptr); }
OpFoldResult RsqrtOp::fold(FoldAdaptor a) { return foldUnary(a.getOperand(), getType(), MLAX_LIBM(1.0 / std::sqrt), nullptr); }
static double logistic(double v) { return 1.0 / (1.0 + std::exp(-v)); }
OpFoldResult LogisticOp::fold(FoldAdaptor a) { return foldUnary(a.getOperand(), getType(), MLAX_LIBM(logistic), nullptr); }
OpFoldResult Log1pOp::fold(FoldAdaptor a) { return foldUnary(a.getOperand(), getType(), MLAX_LIBM(std::log1p), nullptr); }
OpFoldResult Expm1Op::fold(FoldAdaptor a) { return foldUnary(a.getOperand(), getType(), MLAX_LIBM(std::expm1), nullptr); }

OpFoldResult IsFiniteOp::fold(FoldAdaptor adaptor) {
  auto ins = denseOperands({adaptor.getOperand()}, isFoldableFloat);
  if (ins.empty())
    return {};
  return mapElements<APFloat, APInt>(
      ins, llvm::cast<ShapedType>(getType()),
      [](ArrayRef<APFloat> a) -> std::optional<APInt> {
        return APInt(1, a[0].isFinite());
      });
}

#undef MLAX_LIBM

//===----------------------------------------------------------------------===//
// Binary elementwise ops
//===----------------------------------------------------------------------===//

#define MLAX_FLOAT_FN2(EXPR)                                                   \
  +[](const APFloat &x, const APFloat &y) -> std::optional<APFloat> {          \
    return EXPR;                                                               \
  }
#define MLAX_INT_FN2(...)                                                      \
  +[](const APInt &x, const APInt &y, bool isUnsigned) -> std::optional<APInt> { \
    (void)isUnsigned;                                                          \
    __VA_ARGS__;                                                               \
  }

/// Whether `rhs` is the float splat `value` (sign included).
static bool isFloatSplat(Attribute rhs, double value) {
  std::optional<APFloat> v = splatFloat(rhs);
  if (!v)
    return false;
  APFloat want(value);
  bool loses;
  want.convert(v->getSemantics(), APFloat::rmNearestTiesToEven, &loses);
  return v->bitwiseIsEqual(want);
}

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  // Commutative: the folding driver has moved a constant to the rhs.
  // Only x + (-0.0) is an identity for floats: -0.0 + 0.0 = +0.0.
  if (isZero(splatInt(adaptor.getRhs())) || isFloatSplat(adaptor.getRhs(), -0.0))
    return getLhs();
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(),
                    MLAX_FLOAT_FN2(x + y), MLAX_INT_FN2(return x + y));
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  // x - (+0.0) = x exactly (-0.0 - 0.0 = -0.0).
  if (isZero(splatInt(adaptor.getRhs())) || isFloatSplat(adaptor.getRhs(), 0.0))
    return getLhs();
  if (getLhs() == getRhs()) // not for floats: inf - inf and NaN - NaN are NaN
    if (Attribute z = zerosLike(getType()))
      return z;
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(),
                    MLAX_FLOAT_FN2(x - y), MLAX_INT_FN2(return x - y));
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  // x * 1 = x for floats too (NaN, infinities and -0.0 survive); x * 0 = 0
  // only for integers.
  if (isOne(splatInt(adaptor.getRhs())) || isFloatSplat(adaptor.getRhs(), 1.0))
    return getLhs();
  if (isZero(splatInt(adaptor.getRhs())))
    return adaptor.getRhs();
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(),
                    MLAX_FLOAT_FN2(x * y), MLAX_INT_FN2(return x * y));
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  if (isOne(splatInt(adaptor.getRhs())) || isFloatSplat(adaptor.getRhs(), 1.0))
    return getLhs();
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(),
                    MLAX_FLOAT_FN2(x / y),
                    MLAX_INT_FN2(
                        if (y.isZero()) return APInt::getAllOnes(x.getBitWidth());
                        if (isUnsigned) return x.udiv(y);
                        if (x.isMinSignedValue() && y.isAllOnes()) return x;
                        return x.sdiv(y)));
}

OpFoldResult RemOp::fold(FoldAdaptor adaptor) {
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(),
                    MLAX_FLOAT_FN2(fmod(x, y)),
                    MLAX_INT_FN2(
                        if (y.isZero()) return x;
                        if (isUnsigned) return x.urem(y);
                        if (x.isMinSignedValue() && y.isAllOnes())
                          return APInt::getZero(x.getBitWidth());
                        return x.srem(y)));
}

OpFoldResult PowOp::fold(FoldAdaptor adaptor) {
  if (isFloatSplat(adaptor.getRhs(), 1.0)) // pow(x, 1) = x, NaN and -0.0 too
    return getLhs();
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(),
                    MLAX_FLOAT_FN2(viaDouble2(x, y, [](double a, double b) {
                      return std::pow(a, b);
                    })),
                    nullptr);
}

OpFoldResult Atan2Op::fold(FoldAdaptor adaptor) {
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(),
                    MLAX_FLOAT_FN2(viaDouble2(x, y, [](double a, double b) {
                      return std::atan2(a, b);
                    })),
                    nullptr);
}

OpFoldResult MaxOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs())
    return getLhs();
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(),
                    MLAX_FLOAT_FN2(maximum(x, y)), // NaN-propagating
                    MLAX_INT_FN2(return isUnsigned ? llvm::APIntOps::umax(x, y)
                                                   : llvm::APIntOps::smax(x, y)));
}

OpFoldResult MinOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs())
    return getLhs();
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(),
                    MLAX_FLOAT_FN2(minimum(x, y)),
                    MLAX_INT_FN2(return isUnsigned ? llvm::APIntOps::umin(x, y)
                                                   : llvm::APIntOps::smin(x, y)));
}

OpFoldResult AndOp::fold(FoldAdaptor adaptor) {
  auto rhs = splatInt(adaptor.getRhs());
  if (getLhs() == getRhs() || isAllOnes(rhs))
    return getLhs();
  if (isZero(rhs))
    return adaptor.getRhs();
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(), nullptr,
                    MLAX_INT_FN2(return x & y));
}

OpFoldResult OrOp::fold(FoldAdaptor adaptor) {
  auto rhs = splatInt(adaptor.getRhs());
  if (getLhs() == getRhs() || isZero(rhs))
    return getLhs();
  if (isAllOnes(rhs))
    return adaptor.getRhs();
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(), nullptr,
                    MLAX_INT_FN2(return x | y));
}

OpFoldResult XorOp::fold(FoldAdaptor adaptor) {
  if (isZero(splatInt(adaptor.getRhs())))
    return getLhs();
  if (getLhs() == getRhs())
    return zerosLike(getType());
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(), nullptr,
                    MLAX_INT_FN2(return x ^ y));
}

#undef MLAX_FLOAT_FN
#undef MLAX_INT_FN
#undef MLAX_FLOAT_FN2
#undef MLAX_INT_FN2

//===----------------------------------------------------------------------===//
// compare, select_n, convert
//===----------------------------------------------------------------------===//

static bool compareResult(ComparisonDirection dir, int cmp /* -1, 0, 1 */) {
  switch (dir) {
  case ComparisonDirection::EQ: return cmp == 0;
  case ComparisonDirection::NE: return cmp != 0;
  case ComparisonDirection::LT: return cmp < 0;
  case ComparisonDirection::LE: return cmp <= 0;
  case ComparisonDirection::GT: return cmp > 0;
  case ComparisonDirection::GE: return cmp >= 0;
  }
  return false;
}

OpFoldResult CompareOp::fold(FoldAdaptor adaptor) {
  auto type = llvm::cast<ShapedType>(getType());
  ComparisonDirection dir = getComparisonDirection();
  Type elem = llvm::cast<ShapedType>(getLhs().getType()).getElementType();
  // x ? x is known for integers only (NaN != NaN).
  if (getLhs() == getRhs() && isFoldableInt(elem))
    return DenseElementsAttr::get(type, compareResult(dir, 0));
  if (auto ins = denseOperands({adaptor.getLhs(), adaptor.getRhs()},
                               isFoldableFloat);
      !ins.empty())
    return mapElements<APFloat, APInt>(
        ins, type, [dir](ArrayRef<APFloat> a) -> std::optional<APInt> {
          APFloat::cmpResult c = a[0].compare(a[1]);
          // Unordered (NaN): only NE holds.
          if (c == APFloat::cmpUnordered)
            return APInt(1, dir == ComparisonDirection::NE);
          int cmp = c == APFloat::cmpLessThan ? -1 : c == APFloat::cmpEqual ? 0 : 1;
          return APInt(1, compareResult(dir, cmp));
        });
  if (auto ins = denseOperands({adaptor.getLhs(), adaptor.getRhs()},
                               isFoldableInt);
      !ins.empty()) {
    bool isUnsigned = isUnsignedInt(elem);
    return mapElements<APInt, APInt>(
        ins, type, [=](ArrayRef<APInt> a) -> std::optional<APInt> {
          int cmp = isUnsigned ? (a[0].ult(a[1]) ? -1 : a[0] == a[1] ? 0 : 1)
                               : (a[0].slt(a[1]) ? -1 : a[0] == a[1] ? 0 : 1);
          return APInt(1, compareResult(dir, cmp));
        });
  }
  return {};
}

OpFoldResult SelectNOp::fold(FoldAdaptor adaptor) {
  OperandRange cases = getCases();
  if (llvm::all_equal(cases))
    return cases.front();
  auto which = dense(adaptor.getWhich());
  if (!which || !isFoldableInt(which.getElementType()))
    return {};
  auto pick = [&](const APInt &w) -> std::optional<unsigned> {
    if (w.getBitWidth() > 1 && w.isNegative())
      return std::nullopt;
    if (w.uge(cases.size()))
      return std::nullopt; // out of range: left to the runtime
    return (unsigned)w.getZExtValue();
  };
  if (which.isSplat()) {
    if (auto i = pick(which.getSplatValue<APInt>()))
      return cases[*i];
    return {};
  }
  // A non-splat `which` over constant cases: pick elementwise.
  auto type = llvm::cast<ShapedType>(getType());
  if (!mayMaterialise(type, false) || !isa<IntegerType, FloatType>(type.getElementType()))
    return {};
  SmallVector<DenseElementsAttr> values;
  for (Attribute a : adaptor.getCases()) {
    auto d = dense(a);
    if (!d)
      return {};
    values.push_back(d);
  }
  SmallVector<Attribute> out;
  int64_t i = 0;
  for (APInt w : which.getValues<APInt>()) {
    auto c = pick(w);
    if (!c)
      return {};
    out.push_back(values[*c].getValues<Attribute>()[i++]);
  }
  return DenseElementsAttr::get(type, out);
}

/// Converts one element; nullopt where the result is not defined by value
/// alone (float -> int of NaN or out of range: XLA chooses).
static std::optional<Attribute> convertElement(Attribute in, Type to) {
  Type from = llvm::cast<TypedAttr>(in).getType();
  if (auto toInt = llvm::dyn_cast<IntegerType>(to)) {
    unsigned width = toInt.getWidth();
    if (auto f = llvm::dyn_cast<FloatAttr>(in)) {
      APFloat v = f.getValue();
      if (width == 1) // anything to bool is x != 0 (NaN is true)
        return IntegerAttr::get(to, APInt(1, !v.isZero()));
      APSInt r(width, isUnsignedInt(to));
      bool exact;
      if (v.convertToInteger(r, APFloat::rmTowardZero, &exact) &
          APFloat::opInvalidOp)
        return std::nullopt;
      return IntegerAttr::get(to, r);
    }
    APInt v = llvm::cast<IntegerAttr>(in).getValue();
    if (width == 1)
      return IntegerAttr::get(to, APInt(1, !v.isZero()));
    return IntegerAttr::get(to, isUnsignedInt(from) ? v.zextOrTrunc(width)
                                                    : v.sextOrTrunc(width));
  }
  auto toFloat = llvm::cast<FloatType>(to);
  bool loses;
  if (auto f = llvm::dyn_cast<FloatAttr>(in)) {
    APFloat v = f.getValue();
    v.convert(toFloat.getFloatSemantics(), APFloat::rmNearestTiesToEven, &loses);
    return FloatAttr::get(to, v);
  }
  APFloat v(toFloat.getFloatSemantics());
  v.convertFromAPInt(llvm::cast<IntegerAttr>(in).getValue(), !isUnsignedInt(from),
                     APFloat::rmNearestTiesToEven);
  return FloatAttr::get(to, v);
}

OpFoldResult ConvertOp::fold(FoldAdaptor adaptor) {
  if (getOperand().getType() == getType())
    return getOperand();
  auto in = dense(adaptor.getOperand());
  auto type = llvm::cast<ShapedType>(getType());
  auto foldable = [](Type t) { return isFoldableFloat(t) || isFoldableInt(t); };
  if (!in || !foldable(in.getElementType()) || !foldable(type.getElementType()) ||
      !mayMaterialise(type, in.isSplat()))
    return {};
  if (in.isSplat()) {
    auto r = convertElement(in.getSplatValue<Attribute>(), type.getElementType());
    return r ? DenseElementsAttr::get(type, *r) : Attribute();
  }
  SmallVector<Attribute> out;
  for (Attribute a : in.getValues<Attribute>()) {
    auto r = convertElement(a, type.getElementType());
    if (!r)
      return {};
    out.push_back(*r);
  }
  return DenseElementsAttr::get(type, out);
}


//===----------------------------------------------------------------------===//
// real, imag, conj, complex: exact, so any constant folds (either part of a
// NaN or an infinity included)
//===----------------------------------------------------------------------===//

using ComplexAP = std::complex<APFloat>;

static bool isComplexElement(Type t) { return llvm::isa<ComplexType>(t); }

OpFoldResult RealOp::fold(FoldAdaptor adaptor) {
  if (auto parts = getOperand().getDefiningOp<ComplexOp>())
    return parts.getLhs();
  auto ins = denseOperands({adaptor.getOperand()}, isComplexElement);
  if (ins.empty())
    return {};
  return mapElements<ComplexAP, APFloat>(
      ins, getType(), [](ArrayRef<ComplexAP> a) -> std::optional<APFloat> { return a[0].real(); });
}

OpFoldResult ImagOp::fold(FoldAdaptor adaptor) {
  if (auto parts = getOperand().getDefiningOp<ComplexOp>())
    return parts.getRhs();
  auto ins = denseOperands({adaptor.getOperand()}, isComplexElement);
  if (ins.empty())
    return {};
  return mapElements<ComplexAP, APFloat>(
      ins, getType(), [](ArrayRef<ComplexAP> a) -> std::optional<APFloat> { return a[0].imag(); });
}

OpFoldResult ConjOp::fold(FoldAdaptor adaptor) {
  if (auto inner = getOperand().getDefiningOp<ConjOp>())
    return inner.getOperand();
  auto ins = denseOperands({adaptor.getOperand()}, isComplexElement);
  if (ins.empty())
    return {};
  return mapElements<ComplexAP, ComplexAP>(
      ins, getType(), [](ArrayRef<ComplexAP> a) -> std::optional<ComplexAP> {
        return ComplexAP(a[0].real(), -a[0].imag());
      });
}

OpFoldResult ComplexOp::fold(FoldAdaptor adaptor) {
  auto ins = denseOperands({adaptor.getLhs(), adaptor.getRhs()}, isFoldableFloat);
  if (ins.empty())
    return {};
  return mapElements<APFloat, ComplexAP>(
      ins, getType(), [](ArrayRef<APFloat> a) -> std::optional<ComplexAP> {
        return ComplexAP(a[0], a[1]);
      });
}

//======================================================================//
// Canonicalization patterns
//======================================================================//

namespace {

/// Whether converting any value of `from` to `to` is exact (the value
/// survives). Bools (i1) are 0/1; signless integers are signed.
bool isExactConversion(Type from, Type to) {
  if (from == to)
    return true;
  auto fi = llvm::dyn_cast<IntegerType>(from);
  auto ti = llvm::dyn_cast<IntegerType>(to);
  auto ff = llvm::dyn_cast<FloatType>(from);
  auto tf = llvm::dyn_cast<FloatType>(to);
  // Value bits of an integer type and whether it has negative values.
  auto bits = [](IntegerType t) {
    unsigned w = t.getWidth();
    return (t.isUnsigned() || w == 1) ? w : w - 1;
  };
  auto isSigned = [](IntegerType t) { return !t.isUnsigned() && t.getWidth() > 1; };
  if (fi && ti) {
    if (ti.getWidth() == 1)
      return fi.getWidth() == 1;
    return bits(ti) >= bits(fi) && (isSigned(ti) || !isSigned(fi));
  }
  auto ieee = [](Type t) {
    return llvm::isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(t);
  };
  if (fi && tf) // every integer of the source fits the mantissa
    return ieee(tf) && tf.getFPMantissaWidth() >= (int)bits(fi);
  if (ff && tf) {
    if (!ieee(ff) || !ieee(tf))
      return false;
    using llvm::APFloat;
    const llvm::fltSemantics &a = ff.getFloatSemantics(),
                             &b = tf.getFloatSemantics();
    int pa = APFloat::semanticsPrecision(a), pb = APFloat::semanticsPrecision(b);
    // More precision, more range, and the smallest denormal of `a` in `b`.
    return pb >= pa &&
           APFloat::semanticsMaxExponent(b) >= APFloat::semanticsMaxExponent(a) &&
           APFloat::semanticsMinExponent(b) - pb <=
               APFloat::semanticsMinExponent(a) - pa;
  }
  return false;
}

/// convert(convert(x : A -> B) : B -> C) -> convert(x : A -> C) when A -> B
/// is exact: every conversion depends only on the value converted, so an
/// exact first step changes nothing.
struct ComposeExactConverts : OpRewritePattern<ConvertOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getOperand().getDefiningOp<ConvertOp>();
    if (!inner)
      return failure();
    Type a = getElementTypeOrSelf(inner.getOperand().getType());
    Type b = getElementTypeOrSelf(inner.getType());
    if (!isExactConversion(a, b))
      return rewriter.notifyMatchFailure(op, "the inner conversion rounds");
    if (inner.getOperand().getType() == op.getType())
      rewriter.replaceOp(op, inner.getOperand());
    else
      rewriter.replaceOpWithNewOp<ConvertOp>(op, op.getType(),
                                             inner.getOperand());
    return success();
  }
};


} // namespace

void ConvertOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<ComposeExactConverts>(context);
}

namespace {
/// Whether `v` is a constant whose every element is the same NaN.
bool isNaNSplat(Value v) {
  DenseFPElementsAttr attr;
  return matchPattern(v, m_Constant(&attr)) && attr.isSplat() &&
         attr.getSplatValue<APFloat>().isNaN();
}

/// exp(select_n(p, a, NaN)) -> select_n(p, exp(a), NaN): exp(NaN) is NaN.
/// Besides sparing the exp of a constant, this keeps XLA's CPU backend from
/// a miscompile (jaxlib 0.10): a fused exp whose input it can prove is NaN
/// (as a select with a NaN case is, where it picks that case) stores LLVM
/// poison, so the result is uninitialized memory instead of NaN. The
/// pattern is how a NaN for invalid input is written (`where(ok, logpdf,
/// nan)`, then exp for the pdf).
struct ExpOfSelectWithNaN : OpRewritePattern<ExpOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ExpOp op, PatternRewriter &rewriter) const override {
    auto select = op.getOperand().getDefiningOp<SelectNOp>();
    if (!select || !select->hasOneUse() ||
        !llvm::any_of(select.getCases(), isNaNSplat))
      return failure();
    SmallVector<Value> cases;
    for (Value c : select.getCases())
      cases.push_back(isNaNSplat(c) ? c
                                    : rewriter.create<ExpOp>(op.getLoc(), c,
                                                             op.getResultAccuracyAttr())
                                          .getResult());
    rewriter.replaceOpWithNewOp<SelectNOp>(op, op.getType(), select.getWhich(), cases);
    return success();
  }
};
} // namespace

void ExpOp::getCanonicalizationPatterns(RewritePatternSet &results, MLIRContext *context) {
  results.add<ExpOfSelectWithNaN>(context);
}

//======================================================================//
// Derivative rules
//======================================================================//

// The elementwise ops declare their partials in MlaxElementwiseOps.td
// (`let partials`, generated into `applyPartial`); pow's is written here.

namespace {
/// Whether a pow exponent is an integer in the source program: converted from
/// an integer type, or a constant whose every element is integral.
bool isIntegerExponent(Value y) {
  if (auto convert = y.getDefiningOp<ConvertOp>())
    return llvm::isa<IntegerType>(getElementTypeOrSelf(convert.getOperand().getType()));
  auto constant = y.getDefiningOp<ConstantOp>();
  auto dense = constant ? llvm::dyn_cast<DenseFPElementsAttr>(constant.getValue()) : nullptr;
  return dense && llvm::all_of(dense.getValues<APFloat>(),
                               [](const APFloat &v) { return v.isInteger(); });
}

/// (y == 0 ? 1 : y) - 1 for an integer exponent y, kept in integer form (a
/// convert of integer arithmetic, or a constant) so that differentiating the
/// new pow again takes the integer rule too.
Value integerExponentMinusOne(MlaxBuilder &e, Value y) {
  if (auto convert = y.getDefiningOp<ConvertOp>()) {
    Value n = convert.getOperand();
    Value nSafe = e.select(e.eq(n, e.like(n, 0.0)), e.like(n, 1.0), n);
    return e.convert(e.sub(nSafe, e.like(n, 1.0)), getElementTypeOrSelf(y.getType()));
  }
  auto dense = llvm::cast<DenseFPElementsAttr>(y.getDefiningOp<ConstantOp>().getValue());
  SmallVector<APFloat> values;
  for (APFloat v : dense.getValues<APFloat>()) {
    if (!v.isZero())
      v.subtract(APFloat::getOne(v.getSemantics()), APFloat::rmNearestTiesToEven);
    values.push_back(v);
  }
  return ConstantOp::create(e.b, e.loc, DenseElementsAttr::get(dense.getType(), values));
}
} // namespace

Value PowOp::applyPartial(OpBuilder &b, unsigned i, Value t) {
  // As jax.lax: d/dx = y * x^(y-1); for an integer exponent (converted from
  // an integer, or an integral constant, which is JAX's integer_pow) 0 where
  // y = 0: x^0 is constant, and the formula gives 0 * 0^-1 = nan at x = 0, in
  // this and every higher-order derivative, so y = 0 is replaced by 1 inside
  // the unselected branch too. d/dy = log(x) * x^y, with log(0) read as
  // log(1) so that the derivative in y at x = 0 is 0.
  MlaxBuilder e(b, *this);
  Value x = getLhs(), y = getRhs(), r = getResult();
  if (i == 0 && !isIntegerExponent(y))
    return e.mul(t, e.mul(y, PowOp::create(b, getLoc(), x, e.sub(y, e.like(y, 1.0)))));
  if (i == 0) {
    Value yZero = e.eq(y, e.like(y, 0.0));
    Value ySafe = e.select(yZero, e.like(y, 1.0), y);
    Value dx = e.mul(ySafe, PowOp::create(b, getLoc(), x, integerExponentMinusOne(e, y)));
    return e.mul(t, e.select(yZero, e.like(y, 0.0), dx));
  }
  Value safeX = e.select(e.eq(x, e.like(x, 0.0)), e.like(x, 1.0), x);
  return e.mul(t, e.mul(LogOp::create(b, getLoc(), safeX), r));
}


//===----------------------------------------------------------------------===//
// select_n, convert
//===----------------------------------------------------------------------===//

LogicalResult SelectNOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                             SmallVectorImpl<Value> &resultTangents) {
  ArrayRef<Value> caseTangents = tangents.drop_front();
  if (llvm::all_of(caseTangents, [](Value t) { return !t; })) {
    resultTangents.push_back({});
    return success();
  }
  MlaxBuilder e(b, *this);
  SmallVector<Value> cases;
  for (Value t : caseTangents)
    cases.push_back(e.orZeros(t, getType()));
  resultTangents.push_back(SelectNOp::create(b, getLoc(), getWhich(), cases));
  return success();
}

LogicalResult SelectNOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                             SmallVectorImpl<Value> &operandCotangents) {
  operandCotangents.push_back({}); // `which` is an index
  Value ct = cotangents[0];
  MlaxBuilder e(b, *this);
  Value zero = ct ? e.zeros(getType()) : Value();
  unsigned n = getCases().size();
  for (unsigned i = 0; i < n; ++i) {
    if (!ct) {
      operandCotangents.push_back({});
      continue;
    }
    SmallVector<Value> cases(n, zero);
    cases[i] = ct;
    operandCotangents.push_back(SelectNOp::create(b, getLoc(), getWhich(), cases));
  }
  return success();
}

LogicalResult ConvertOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                             SmallVectorImpl<Value> &resultTangents) {
  Type out = getType().getElementType();
  bool linear = tangents[0] && ad::isDifferentiableType(getType());
  resultTangents.push_back(linear ? MlaxBuilder(b, *this).convert(tangents[0], out) : Value());
  return success();
}

LogicalResult ConvertOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                             SmallVectorImpl<Value> &operandCotangents) {
  Type in = tensorOf(getOperand()).getElementType();
  bool linear = cotangents[0] && ad::isDifferentiableType(getOperand().getType());
  operandCotangents.push_back(linear ? MlaxBuilder(b, *this).convert(cotangents[0], in)
                                     : Value());
  return success();
}

//===----------------------------------------------------------------------===//
// real, imag, conj, complex: linear over the reals. Transposes are JAX's, for
// the pairing <a, b> = Re(sum a * b) (no conjugation), which makes
// grad of a real function of z its conjugate gradient, as in JAX:
//   real^T(c) = complex(c, 0)    imag^T(c) = complex(0, -c)
//   conj^T(c) = conj(c)          complex^T(c) = (real(c), -imag(c))
//===----------------------------------------------------------------------===//

LogicalResult RealOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                          SmallVectorImpl<Value> &resultTangents) {
  resultTangents.push_back(tangents[0] ? MlaxBuilder(b, *this).create<RealOp>(tangents[0])
                                       : Value());
  return success();
}

LogicalResult RealOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                          SmallVectorImpl<Value> &operandCotangents) {
  Value ct = cotangents[0];
  MlaxBuilder e(b, *this);
  operandCotangents.push_back(ct ? e.create<ComplexOp>(ct, e.zeros(ct.getType())) : Value());
  return success();
}

LogicalResult ImagOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                          SmallVectorImpl<Value> &resultTangents) {
  resultTangents.push_back(tangents[0] ? MlaxBuilder(b, *this).create<ImagOp>(tangents[0])
                                       : Value());
  return success();
}

LogicalResult ImagOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                          SmallVectorImpl<Value> &operandCotangents) {
  Value ct = cotangents[0];
  MlaxBuilder e(b, *this);
  operandCotangents.push_back(ct ? e.create<ComplexOp>(e.zeros(ct.getType()), e.neg(ct))
                                 : Value());
  return success();
}

LogicalResult ConjOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                          SmallVectorImpl<Value> &resultTangents) {
  resultTangents.push_back(tangents[0] ? MlaxBuilder(b, *this).create<ConjOp>(tangents[0])
                                       : Value());
  return success();
}

LogicalResult ConjOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                          SmallVectorImpl<Value> &operandCotangents) {
  operandCotangents.push_back(
      cotangents[0] ? MlaxBuilder(b, *this).create<ConjOp>(cotangents[0]) : Value());
  return success();
}

LogicalResult ComplexOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                             SmallVectorImpl<Value> &resultTangents) {
  if (!tangents[0] && !tangents[1]) {
    resultTangents.push_back({});
    return success();
  }
  MlaxBuilder e(b, *this);
  Type part = getLhs().getType();
  resultTangents.push_back(
      e.create<ComplexOp>(e.orZeros(tangents[0], part), e.orZeros(tangents[1], part)));
  return success();
}

LogicalResult ComplexOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                             SmallVectorImpl<Value> &operandCotangents) {
  Value ct = cotangents[0];
  if (!ct) {
    operandCotangents.append(2, Value());
    return success();
  }
  MlaxBuilder e(b, *this);
  operandCotangents.push_back(e.create<RealOp>(ct));
  operandCotangents.push_back(e.neg(e.create<ImagOp>(ct)));
  return success();
}

//======================================================================//
// Batching rules
//======================================================================//

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
