//===- MlaxFolders.cpp - mlax op folders ----------------------------------===//
//
// `fold()` hooks: constant folding and exact algebraic identities. They run
// inside `canonicalize` and `mlax-fold-constants`.
//
// Rules every folder here keeps:
//  * Float semantics are IEEE: no `x * 0 -> 0` or `x + 0.0 -> x` for floats
//    (NaN, infinities and -0.0 would change); NaN-producing folds produce NaN.
//  * Integer division or remainder by zero, and INT_MIN / -1, fold to what
//    XLA computes at run time (x / 0 = -1, all bits set; x % 0 = x;
//    INT_MIN / -1 = INT_MIN; INT_MIN % -1 = 0; checked by
//    test/py/test_folding.py against unfolded programs). Leaving them
//    unfolded is not an option: XLA's own constant folding crashes the
//    process (SIGFPE) on them.
//  * A folder never materialises a non-splat constant of more than
//    `kMaxFoldedElements` elements (splats are always cheap).
//  * Element types we cannot evaluate (complex, 8-bit floats, ...) make a
//    folder decline; it never asserts on odd input.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APSInt.h"

#include <cmath>
#include <optional>

using namespace mlir;
using namespace mlir::mlax;

namespace {

/// The largest non-splat constant a folder may create, in elements.
constexpr int64_t kMaxFoldedElements = 1 << 16;

using llvm::APFloat;
using llvm::APInt;
using llvm::APSInt;

/// Float types whose arithmetic APFloat (and, via double, libm) evaluates.
bool isFoldableFloat(Type t) {
  return llvm::isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(t);
}

/// Integers up to 64 bits: signless ones are signed, `ui*` and `i1` (bool)
/// unsigned.
bool isFoldableInt(Type t) {
  auto it = llvm::dyn_cast<IntegerType>(t);
  return it && it.getWidth() <= 64;
}

bool isUnsignedInt(Type t) {
  auto it = llvm::cast<IntegerType>(t);
  return it.isUnsigned() || it.getWidth() == 1;
}

/// A constant operand as dense elements (resource-backed constants decline).
DenseElementsAttr dense(Attribute a) {
  return llvm::dyn_cast_or_null<DenseElementsAttr>(a);
}

/// Whether a result of `type` may be materialised from operands that are all
/// splats (`allSplat`) or not.
bool mayMaterialise(ShapedType type, bool allSplat) {
  return allSplat || type.getNumElements() <= kMaxFoldedElements;
}

/// The value of a splat constant operand, if it is one.
std::optional<APFloat> splatFloat(Attribute a) {
  auto d = dense(a);
  if (!d || !d.isSplat() || !isFoldableFloat(d.getElementType()))
    return std::nullopt;
  return d.getSplatValue<APFloat>();
}

std::optional<APInt> splatInt(Attribute a) {
  auto d = dense(a);
  if (!d || !d.isSplat() || !isFoldableInt(d.getElementType()))
    return std::nullopt;
  return d.getSplatValue<APInt>();
}

/// Evaluates `f` in double precision and rounds back to `x`'s format.
APFloat viaDouble(const APFloat &x, double (*f)(double)) {
  bool loses;
  APFloat d = x;
  d.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &loses);
  APFloat r(f(d.convertToDouble()));
  r.convert(x.getSemantics(), APFloat::rmNearestTiesToEven, &loses);
  return r;
}

APFloat viaDouble2(const APFloat &x, const APFloat &y,
                   double (*f)(double, double)) {
  bool loses;
  APFloat dx = x, dy = y;
  dx.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &loses);
  dy.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &loses);
  APFloat r(f(dx.convertToDouble(), dy.convertToDouble()));
  r.convert(x.getSemantics(), APFloat::rmNearestTiesToEven, &loses);
  return r;
}

//===----------------------------------------------------------------------===//
// Elementwise evaluation over constants
//===----------------------------------------------------------------------===//

/// Maps each element of the dense constants `ins` (all of `inType`'s element
/// kind) through `fn`; `fn` returns nullopt to decline. `Elem` is APFloat or
/// APInt; `Out` is what the result holds (APFloat, APInt).
template <typename Elem, typename Out, typename Fn>
Attribute mapElements(ArrayRef<DenseElementsAttr> ins, ShapedType resultType,
                      Fn fn) {
  bool allSplat = llvm::all_of(ins, [](DenseElementsAttr d) { return d.isSplat(); });
  if (!mayMaterialise(resultType, allSplat))
    return {};
  int64_t n = allSplat ? 1 : resultType.getNumElements();
  SmallVector<SmallVector<Elem>> values;
  for (DenseElementsAttr d : ins) {
    if (d.isSplat())
      values.push_back(SmallVector<Elem>(n, d.getSplatValue<Elem>()));
    else
      values.push_back(llvm::to_vector(d.getValues<Elem>()));
    if ((int64_t)values.back().size() != n)
      return {};
  }
  SmallVector<Out> out;
  out.reserve(n);
  SmallVector<Elem> args;
  for (int64_t i = 0; i < n; ++i) {
    args.clear();
    for (auto &v : values)
      args.push_back(v[i]);
    std::optional<Out> r = fn(ArrayRef<Elem>(args));
    if (!r)
      return {};
    out.push_back(*r);
  }
  if (allSplat)
    return DenseElementsAttr::get(resultType, out.front());
  return DenseElementsAttr::get(resultType, ArrayRef<Out>(out));
}

/// The operands as dense constants of one foldable element kind, or empty.
SmallVector<DenseElementsAttr> denseOperands(ArrayRef<Attribute> operands,
                                             bool (*kind)(Type)) {
  SmallVector<DenseElementsAttr> out;
  for (Attribute a : operands) {
    auto d = dense(a);
    if (!d || !kind(d.getElementType()))
      return {};
    out.push_back(d);
  }
  return out;
}

using FloatFn1 = std::optional<APFloat> (*)(const APFloat &);
using IntFn1 = std::optional<APInt> (*)(const APInt &, bool isUnsigned);

Attribute foldUnary(Attribute operand, Type resultType, FloatFn1 floatFn,
                    IntFn1 intFn) {
  auto type = llvm::dyn_cast<ShapedType>(resultType);
  if (!type)
    return {};
  if (floatFn) {
    auto ins = denseOperands({operand}, isFoldableFloat);
    if (!ins.empty())
      return mapElements<APFloat, APFloat>(
          ins, type, [&](ArrayRef<APFloat> a) { return floatFn(a[0]); });
  }
  if (intFn) {
    auto ins = denseOperands({operand}, isFoldableInt);
    if (!ins.empty()) {
      bool isUnsigned = isUnsignedInt(ins[0].getElementType());
      return mapElements<APInt, APInt>(
          ins, type, [&](ArrayRef<APInt> a) { return intFn(a[0], isUnsigned); });
    }
  }
  return {};
}

using FloatFn2 = std::optional<APFloat> (*)(const APFloat &, const APFloat &);
using IntFn2 = std::optional<APInt> (*)(const APInt &, const APInt &,
                                        bool isUnsigned);

Attribute foldBinary(Attribute lhs, Attribute rhs, Type resultType,
                     FloatFn2 floatFn, IntFn2 intFn) {
  auto type = llvm::dyn_cast<ShapedType>(resultType);
  if (!type)
    return {};
  if (floatFn) {
    auto ins = denseOperands({lhs, rhs}, isFoldableFloat);
    if (!ins.empty())
      return mapElements<APFloat, APFloat>(
          ins, type, [&](ArrayRef<APFloat> a) { return floatFn(a[0], a[1]); });
  }
  if (intFn) {
    auto ins = denseOperands({lhs, rhs}, isFoldableInt);
    if (!ins.empty()) {
      bool isUnsigned = isUnsignedInt(ins[0].getElementType());
      return mapElements<APInt, APInt>(ins, type, [&](ArrayRef<APInt> a) {
        return intFn(a[0], a[1], isUnsigned);
      });
    }
  }
  return {};
}

APFloat rounded(APFloat x, APFloat::roundingMode mode) {
  x.roundToIntegral(mode);
  return x;
}

/// C fmod: the remainder with the sign of the dividend.
APFloat fmod(APFloat x, const APFloat &y) {
  x.mod(y);
  return x;
}

bool isAllOnes(const std::optional<APInt> &v) { return v && v->isAllOnes(); }
bool isZero(const std::optional<APInt> &v) { return v && v->isZero(); }
bool isOne(const std::optional<APInt> &v) { return v && v->isOne(); }

/// A splat of `value` with `type`'s shape (used for identities like x - x).
Attribute zerosLike(Type type) {
  auto shaped = llvm::dyn_cast<ShapedType>(type);
  if (!shaped || !isFoldableInt(shaped.getElementType()))
    return {};
  return DenseElementsAttr::get(
      shaped, APInt::getZero(shaped.getElementType().getIntOrFloatBitWidth()));
}

} // namespace

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
// Shape ops
//===----------------------------------------------------------------------===//

namespace {

SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = (int64_t)shape.size() - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

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

//===----------------------------------------------------------------------===//
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

//===----------------------------------------------------------------------===//
// dot_general
//===----------------------------------------------------------------------===//

OpFoldResult DotGeneralOp::fold(FoldAdaptor adaptor) {
  auto lhs = dense(adaptor.getLhs()), rhs = dense(adaptor.getRhs());
  auto type = llvm::cast<ShapedType>(getType());
  if (!lhs || !rhs || !mayMaterialise(type, false))
    return {};
  Type inElem = lhs.getElementType(), outElem = type.getElementType();
  bool isFloat = isFoldableFloat(inElem) && isFoldableFloat(outElem);
  // Bool products (i1) are left to XLA.
  bool isInt = isFoldableInt(inElem) && isFoldableInt(outElem) &&
               inElem.getIntOrFloatBitWidth() > 1;
  if (!isFloat && !isInt)
    return {};
  auto lt = llvm::cast<ShapedType>(lhs.getType()),
       rt = llvm::cast<ShapedType>(rhs.getType());
  ArrayRef<int64_t> lb = getLhsBatchingDimensions(),
                    rb = getRhsBatchingDimensions(),
                    lc = getLhsContractingDimensions(),
                    rc = getRhsContractingDimensions();
  SmallVector<int64_t> lFree, rFree, contractShape;
  for (int64_t i = 0; i < lt.getRank(); ++i)
    if (!llvm::is_contained(lb, i) && !llvm::is_contained(lc, i))
      lFree.push_back(i);
  for (int64_t i = 0; i < rt.getRank(); ++i)
    if (!llvm::is_contained(rb, i) && !llvm::is_contained(rc, i))
      rFree.push_back(i);
  int64_t contractSize = 1;
  for (int64_t d : lc) {
    contractShape.push_back(lt.getDimSize(d));
    contractSize *= lt.getDimSize(d);
  }
  // Bound the work, not only the result: a small product of huge matrices
  // is left to XLA.
  if (type.getNumElements() * std::max<int64_t>(contractSize, 1) >
      16 * kMaxFoldedElements)
    return {};
  SmallVector<int64_t> ls = stridesOf(lt.getShape()), rs = stridesOf(rt.getShape());

  // Flat operand offsets of a result index (without the contraction).
  auto offsets = [&](ArrayRef<int64_t> idx) {
    int64_t l = 0, r = 0, k = 0;
    for (size_t i = 0; i < lb.size(); ++i, ++k) {
      l += idx[k] * ls[lb[i]];
      r += idx[k] * rs[rb[i]];
    }
    for (int64_t d : lFree)
      l += idx[k++] * ls[d];
    for (int64_t d : rFree)
      r += idx[k++] * rs[d];
    return std::make_pair(l, r);
  };
  // Flat offsets of every contraction index, for both operands.
  SmallVector<std::pair<int64_t, int64_t>> contract;
  SmallVector<int64_t> c(lc.size(), 0);
  for (int64_t n = 0; n < contractSize; ++n) {
    int64_t l = 0, r = 0;
    for (size_t j = 0; j < lc.size(); ++j) {
      l += c[j] * ls[lc[j]];
      r += c[j] * rs[rc[j]];
    }
    contract.push_back({l, r});
    for (int64_t j = (int64_t)c.size() - 1; j >= 0; --j) {
      if (++c[j] < contractShape[j])
        break;
      c[j] = 0;
    }
  }

  SmallVector<int64_t> idx(type.getRank(), 0);
  auto next = [&] {
    for (int64_t d = type.getRank() - 1; d >= 0; --d) {
      if (++idx[d] < type.getDimSize(d))
        return;
      idx[d] = 0;
    }
  };
  if (isFloat) {
    // Accumulate in double, round once to the result type.
    auto toDouble = [](const APFloat &v) {
      bool loses;
      APFloat d = v;
      d.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &loses);
      return d.convertToDouble();
    };
    SmallVector<double> lv, rv;
    for (const APFloat &v : lhs.getValues<APFloat>()) {
      lv.push_back(toDouble(v));
      if (lhs.isSplat())
        break;
    }
    for (const APFloat &v : rhs.getValues<APFloat>()) {
      rv.push_back(toDouble(v));
      if (rhs.isSplat())
        break;
    }
    const auto &sem = llvm::cast<FloatType>(outElem).getFloatSemantics();
    SmallVector<APFloat> out;
    for (int64_t n = 0; n < type.getNumElements(); ++n, next()) {
      auto [l0, r0] = offsets(idx);
      double acc = 0.0;
      for (auto [l, r] : contract)
        acc += lv[lhs.isSplat() ? 0 : l0 + l] * rv[rhs.isSplat() ? 0 : r0 + r];
      APFloat v(acc);
      bool loses;
      v.convert(sem, APFloat::rmNearestTiesToEven, &loses);
      out.push_back(v);
    }
    return DenseElementsAttr::get(type, ArrayRef<APFloat>(out));
  }
  // Integers: extend to the result width, then wrap.
  unsigned width = outElem.getIntOrFloatBitWidth();
  bool isUnsigned = isUnsignedInt(inElem);
  auto widen = [&](const APInt &v) {
    return isUnsigned ? v.zextOrTrunc(width) : v.sextOrTrunc(width);
  };
  SmallVector<APInt> lv, rv;
  for (const APInt &v : lhs.getValues<APInt>()) {
    lv.push_back(widen(v));
    if (lhs.isSplat())
      break;
  }
  for (const APInt &v : rhs.getValues<APInt>()) {
    rv.push_back(widen(v));
    if (rhs.isSplat())
      break;
  }
  SmallVector<APInt> out;
  for (int64_t n = 0; n < type.getNumElements(); ++n, next()) {
    auto [l0, r0] = offsets(idx);
    APInt acc(width, 0);
    for (auto [l, r] : contract)
      acc += lv[lhs.isSplat() ? 0 : l0 + l] * rv[rhs.isSplat() ? 0 : r0 + r];
    out.push_back(acc);
  }
  return DenseElementsAttr::get(type, ArrayRef<APInt>(out));
}
