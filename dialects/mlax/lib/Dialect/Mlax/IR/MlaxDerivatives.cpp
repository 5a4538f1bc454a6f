//===- MlaxDerivatives.cpp - derivative rules of the mlax ops -------------===//
//
// Each op's `DifferentiableOpInterface` implementation (grep the op's name):
// elementwise ops give `applyPartial`, the others `jvp` and `vjp`. The rules
// follow jax.lax's JVP and transpose rules, written directly as reverse-mode
// rules. A null Value is a zero (co)tangent.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

#include <complex>

using namespace mlir;
using namespace mlir::mlax;

//===----------------------------------------------------------------------===//
// Building blocks
//===----------------------------------------------------------------------===//

bool ad::isDifferentiableType(Type type) {
  auto tensor = llvm::dyn_cast<RankedTensorType>(type);
  return tensor && llvm::isa<FloatType>(tensor.getElementType());
}

namespace {

/// Emits mlax ops at one location; null operands are zeros where the
/// arithmetic allows it (`add(null, x)` is `x`).
struct Emitter {
  OpBuilder &b;
  Location loc;

  Value splat(Type type, double value) {
    auto tensor = llvm::cast<RankedTensorType>(type);
    Type elt = tensor.getElementType();
    Attribute scalar;
    if (auto complex = llvm::dyn_cast<ComplexType>(elt)) {
      // (value + 0i): a complex zero is what a complex value's missing
      // tangent or cotangent is.
      auto part = llvm::cast<FloatType>(complex.getElementType());
      bool lost = false;
      APFloat re(value);
      re.convert(part.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
      std::complex<APFloat> c(re, APFloat::getZero(part.getFloatSemantics()));
      return ConstantOp::create(b, loc, DenseElementsAttr::get(tensor, ArrayRef(c)));
    }
    if (llvm::isa<FloatType>(elt))
      scalar = b.getFloatAttr(elt, value);
    else
      scalar = b.getIntegerAttr(elt, static_cast<int64_t>(value));
    return ConstantOp::create(b, loc, DenseElementsAttr::get(tensor, scalar));
  }
  Value zeros(Type type) { return splat(type, 0.0); }
  Value like(Value v, double value) { return splat(v.getType(), value); }
  Value orZeros(Value v, Type type) { return v ? v : zeros(type); }

  Value add(Value x, Value y) {
    if (!x)
      return y;
    if (!y)
      return x;
    return AddOp::create(b, loc, x, y);
  }
  Value sub(Value x, Value y) { return SubOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return MulOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return DivOp::create(b, loc, x, y); }
  Value neg(Value x) { return NegOp::create(b, loc, x); }
  Value sign(Value x) { return SignOp::create(b, loc, x); }
  Value eq(Value x, Value y) {
    return CompareOp::create(b, loc, ComparisonDirection::EQ, x, y);
  }
  /// `pred ? onTrue : onFalse`, elementwise.
  Value select(Value pred, Value onTrue, Value onFalse) {
    return SelectNOp::create(b, loc, pred, ValueRange{onFalse, onTrue});
  }
  Value convert(Value x, Type elementType) {
    auto type = llvm::cast<RankedTensorType>(x.getType());
    if (type.getElementType() == elementType)
      return x;
    return ConvertOp::create(b, loc, type.clone(elementType), x);
  }
  Value reduceSum(Value x, ArrayRef<int64_t> axes) {
    if (axes.empty())
      return x;
    return ReduceSumOp::create(b, loc, x, axes);
  }
  Value broadcast(Value x, Type resultType, ArrayRef<int64_t> dims) {
    if (x.getType() == resultType)
      return x;
    return BroadcastInDimOp::create(b, loc, resultType, x, dims);
  }
  Value reshape(Value x, Type resultType) {
    if (x.getType() == resultType)
      return x;
    return ReshapeOp::create(b, loc, resultType, x);
  }
  Value transpose(Value x, ArrayRef<int64_t> perm) {
    bool identity = true;
    for (auto [i, p] : llvm::enumerate(perm))
      identity &= static_cast<int64_t>(i) == p;
    if (identity)
      return x;
    return TransposeOp::create(b, loc, x, perm);
  }
};

Emitter emitterFor(OpBuilder &b, Operation *op) { return Emitter{b, op->getLoc()}; }

RankedTensorType tensorOf(Value v) { return llvm::cast<RankedTensorType>(v.getType()); }

/// The dimensions of a rank-`rank` tensor that are not in `axes`.
SmallVector<int64_t> keptDims(int64_t rank, ArrayRef<int64_t> axes) {
  SmallVector<int64_t> kept;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(axes, d))
      kept.push_back(d);
  return kept;
}

SmallVector<int64_t> invertPermutation(ArrayRef<int64_t> perm) {
  SmallVector<int64_t> inverse(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    inverse[p] = i;
  return inverse;
}

} // namespace

Value ad::zeros(OpBuilder &b, Location loc, Type type) { return Emitter{b, loc}.zeros(type); }

LogicalResult ad::elementwiseJvp(Operation *op, OpBuilder &b, ArrayRef<Value> tangents,
                                 SmallVectorImpl<Value> &resultTangents) {
  auto iface = llvm::cast<DifferentiableOpInterface>(op);
  Value sum;
  if (isDifferentiableType(op->getResult(0).getType())) {
    Emitter e = emitterFor(b, op);
    for (auto [i, t] : llvm::enumerate(tangents))
      if (t)
        sum = e.add(sum, iface.applyPartial(b, i, t));
  }
  resultTangents.push_back(sum);
  return success();
}

LogicalResult ad::elementwiseVjp(Operation *op, OpBuilder &b, ArrayRef<Value> cotangents,
                                 SmallVectorImpl<Value> &operandCotangents) {
  auto iface = llvm::cast<DifferentiableOpInterface>(op);
  for (unsigned i = 0, e = op->getNumOperands(); i < e; ++i) {
    bool active = cotangents[0] && isDifferentiableType(op->getOperand(i).getType());
    operandCotangents.push_back(active ? iface.applyPartial(b, i, cotangents[0]) : Value());
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Elementwise unary ops: t * f'(x)
//===----------------------------------------------------------------------===//

Value NegOp::applyPartial(OpBuilder &b, unsigned, Value t) {
  return emitterFor(b, *this).neg(t);
}
Value ExpOp::applyPartial(OpBuilder &b, unsigned, Value t) {
  return emitterFor(b, *this).mul(t, getResult());
}
Value LogOp::applyPartial(OpBuilder &b, unsigned, Value t) {
  return emitterFor(b, *this).div(t, getOperand());
}
Value SinOp::applyPartial(OpBuilder &b, unsigned, Value t) {
  Emitter e = emitterFor(b, *this);
  return e.mul(t, CosOp::create(b, getLoc(), getOperand()));
}
Value CosOp::applyPartial(OpBuilder &b, unsigned, Value t) {
  Emitter e = emitterFor(b, *this);
  return e.neg(e.mul(t, SinOp::create(b, getLoc(), getOperand())));
}
Value TanOp::applyPartial(OpBuilder &b, unsigned, Value t) {
  // tan' = 1 + tan^2
  Emitter e = emitterFor(b, *this);
  Value r = getResult();
  return e.mul(t, e.add(e.like(r, 1.0), e.mul(r, r)));
}
Value TanhOp::applyPartial(OpBuilder &b, unsigned, Value t) {
  // tanh' = 1 - tanh^2, as (t + t*tanh) * (1 - tanh) like jax.lax: 1 - r*r
  // cancels catastrophically as |tanh| -> 1 (0.9% off at x = 6 in f32).
  Emitter e = emitterFor(b, *this);
  Value r = getResult();
  return e.mul(e.add(t, e.mul(t, r)), e.sub(e.like(r, 1.0), r));
}
Value SqrtOp::applyPartial(OpBuilder &b, unsigned, Value t) {
  // sqrt' = 0.5 / sqrt(x)
  Emitter e = emitterFor(b, *this);
  return e.mul(t, e.div(e.like(getResult(), 0.5), getResult()));
}
Value RsqrtOp::applyPartial(OpBuilder &b, unsigned, Value t) {
  // rsqrt' = -0.5 * rsqrt(x) / x
  Emitter e = emitterFor(b, *this);
  return e.mul(t, e.mul(e.like(getResult(), -0.5), e.div(getResult(), getOperand())));
}
Value AbsOp::applyPartial(OpBuilder &b, unsigned, Value t) {
  Emitter e = emitterFor(b, *this);
  return e.mul(t, e.sign(getOperand()));
}
Value LogisticOp::applyPartial(OpBuilder &b, unsigned, Value t) {
  // logistic' = logistic * (1 - logistic)
  Emitter e = emitterFor(b, *this);
  Value r = getResult();
  return e.mul(t, e.mul(r, e.sub(e.like(r, 1.0), r)));
}
Value Log1pOp::applyPartial(OpBuilder &b, unsigned, Value t) {
  Emitter e = emitterFor(b, *this);
  return e.div(t, e.add(e.like(getOperand(), 1.0), getOperand()));
}
Value Expm1Op::applyPartial(OpBuilder &b, unsigned, Value t) {
  Emitter e = emitterFor(b, *this);
  return e.mul(t, e.add(getResult(), e.like(getResult(), 1.0)));
}

// Piecewise constant (or integer-only) ops: zero derivative.
Value SignOp::applyPartial(OpBuilder &, unsigned, Value) { return {}; }
Value FloorOp::applyPartial(OpBuilder &, unsigned, Value) { return {}; }
Value CeilOp::applyPartial(OpBuilder &, unsigned, Value) { return {}; }
Value RoundOp::applyPartial(OpBuilder &, unsigned, Value) { return {}; }
Value RoundEvenOp::applyPartial(OpBuilder &, unsigned, Value) { return {}; }
Value NotOp::applyPartial(OpBuilder &, unsigned, Value) { return {}; }
Value AndOp::applyPartial(OpBuilder &, unsigned, Value) { return {}; }
Value OrOp::applyPartial(OpBuilder &, unsigned, Value) { return {}; }
Value XorOp::applyPartial(OpBuilder &, unsigned, Value) { return {}; }
Value ShiftLeftOp::applyPartial(OpBuilder &, unsigned, Value) { return {}; }
Value ShiftRightLogicalOp::applyPartial(OpBuilder &, unsigned, Value) { return {}; }
Value ShiftRightArithmeticOp::applyPartial(OpBuilder &, unsigned, Value) { return {}; }

Value ClzOp::applyPartial(OpBuilder &, unsigned, Value) { return {}; }
Value NextAfterOp::applyPartial(OpBuilder &, unsigned, Value) { return {}; }

Value ErfOp::applyPartial(OpBuilder &b, unsigned, Value t) {
  // erf'(x) = 2 / sqrt(pi) * exp(-x^2)
  Emitter e = emitterFor(b, *this);
  Value x = getOperand();
  Value g = ExpOp::create(b, getLoc(), e.neg(e.mul(x, x)));
  return e.mul(t, e.mul(e.like(x, 1.1283791670955126), g));
}
Value ErfInvOp::applyPartial(OpBuilder &b, unsigned, Value t) {
  // erf_inv'(x) = sqrt(pi) / 2 * exp(erf_inv(x)^2)
  Emitter e = emitterFor(b, *this);
  Value r = getResult();
  Value g = ExpOp::create(b, getLoc(), e.mul(r, r));
  return e.mul(t, e.mul(e.like(r, 0.886226925452758), g));
}

// stop_gradient: the identity whose derivative is zero.
Value StopGradientOp::applyPartial(OpBuilder &, unsigned, Value) { return {}; }

//===----------------------------------------------------------------------===//
// Elementwise binary ops
//===----------------------------------------------------------------------===//

Value AddOp::applyPartial(OpBuilder &, unsigned, Value t) { return t; }
Value SubOp::applyPartial(OpBuilder &b, unsigned i, Value t) {
  return i == 0 ? t : emitterFor(b, *this).neg(t);
}
Value MulOp::applyPartial(OpBuilder &b, unsigned i, Value t) {
  Emitter e = emitterFor(b, *this);
  return i == 0 ? e.mul(t, getRhs()) : e.mul(getLhs(), t);
}
Value DivOp::applyPartial(OpBuilder &b, unsigned i, Value t) {
  // d(x/y)/dy = -x / y^2, written -(t * (x/y)) / y: differentiating it again
  // adds one power of y per order, where x / (y*y) would square the
  // denominator each time (y^64 at the 6th order overflows float32).
  Emitter e = emitterFor(b, *this);
  if (i == 0)
    return e.div(t, getRhs());
  return e.div(e.mul(e.neg(t), getResult()), getRhs());
}
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
Value integerExponentMinusOne(Emitter &e, Value y) {
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
  Emitter e = emitterFor(b, *this);
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

namespace {
/// max/min: the derivative goes to the operand equal to the result, split
/// evenly on ties (jax.lax's `_balanced_eq`).
Value chooserPartial(Emitter &e, Value mine, Value other, Value result, Value t) {
  Value half = e.like(result, 0.5), one = e.like(result, 1.0), zero = e.like(result, 0.0);
  Value weight = e.select(e.eq(mine, result), e.select(e.eq(other, result), half, one), zero);
  return e.mul(t, weight);
}
} // namespace

Value MaxOp::applyPartial(OpBuilder &b, unsigned i, Value t) {
  Emitter e = emitterFor(b, *this);
  return i == 0 ? chooserPartial(e, getLhs(), getRhs(), getResult(), t)
                : chooserPartial(e, getRhs(), getLhs(), getResult(), t);
}
Value MinOp::applyPartial(OpBuilder &b, unsigned i, Value t) {
  Emitter e = emitterFor(b, *this);
  return i == 0 ? chooserPartial(e, getLhs(), getRhs(), getResult(), t)
                : chooserPartial(e, getRhs(), getLhs(), getResult(), t);
}
Value RemOp::applyPartial(OpBuilder &b, unsigned i, Value t) {
  // rem(x, y) = x - y * trunc(x / y)
  if (i == 0)
    return t;
  Emitter e = emitterFor(b, *this);
  Value q = e.div(getLhs(), getRhs());
  Value trunc = e.mul(e.sign(q), FloorOp::create(b, getLoc(), AbsOp::create(b, getLoc(), q)));
  return e.mul(e.neg(t), trunc);
}
Value Atan2Op::applyPartial(OpBuilder &b, unsigned i, Value t) {
  // atan2(x, y): d/dx = y / (x^2 + y^2), d/dy = -x / (x^2 + y^2)
  Emitter e = emitterFor(b, *this);
  Value x = getLhs(), y = getRhs();
  Value denom = e.add(e.mul(x, x), e.mul(y, y));
  return i == 0 ? e.mul(t, e.div(y, denom)) : e.mul(t, e.div(e.neg(x), denom));
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
  Emitter e = emitterFor(b, *this);
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
  Emitter e = emitterFor(b, *this);
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
  resultTangents.push_back(linear ? emitterFor(b, *this).convert(tangents[0], out) : Value());
  return success();
}

LogicalResult ConvertOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                             SmallVectorImpl<Value> &operandCotangents) {
  Type in = tensorOf(getOperand()).getElementType();
  bool linear = cotangents[0] && ad::isDifferentiableType(getOperand().getType());
  operandCotangents.push_back(linear ? emitterFor(b, *this).convert(cotangents[0], in)
                                     : Value());
  return success();
}

//===----------------------------------------------------------------------===//
// Shape ops (linear: the tangent rule is the op itself, the cotangent rule
// its transpose)
//===----------------------------------------------------------------------===//

LogicalResult BroadcastInDimOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                                    SmallVectorImpl<Value> &resultTangents) {
  resultTangents.push_back(tangents[0] ? emitterFor(b, *this).broadcast(
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
  Emitter e = emitterFor(b, *this);
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
  resultTangents.push_back(tangents[0] ? emitterFor(b, *this).reshape(tangents[0], getType())
                                       : Value());
  return success();
}

LogicalResult ReshapeOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                             SmallVectorImpl<Value> &operandCotangents) {
  operandCotangents.push_back(
      cotangents[0] ? emitterFor(b, *this).reshape(cotangents[0], getOperand().getType())
                    : Value());
  return success();
}

LogicalResult TransposeOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                               SmallVectorImpl<Value> &resultTangents) {
  resultTangents.push_back(
      tangents[0] ? emitterFor(b, *this).transpose(tangents[0], getPermutation()) : Value());
  return success();
}

LogicalResult TransposeOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                               SmallVectorImpl<Value> &operandCotangents) {
  operandCotangents.push_back(
      cotangents[0]
          ? emitterFor(b, *this).transpose(cotangents[0], invertPermutation(getPermutation()))
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
  Emitter e = emitterFor(b, *this);
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
  Emitter e = emitterFor(b, *this);
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
  Emitter e = emitterFor(b, *this);
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
  Emitter e = emitterFor(b, *this);
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

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

LogicalResult ReduceSumOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                               SmallVectorImpl<Value> &resultTangents) {
  resultTangents.push_back(tangents[0] ? emitterFor(b, *this).reduceSum(tangents[0], getAxes())
                                       : Value());
  return success();
}

LogicalResult ReduceSumOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                               SmallVectorImpl<Value> &operandCotangents) {
  Value ct = cotangents[0];
  RankedTensorType inType = tensorOf(getOperand());
  operandCotangents.push_back(
      ct ? emitterFor(b, *this).broadcast(ct, inType, keptDims(inType.getRank(), getAxes()))
         : Value());
  return success();
}

namespace {
/// max/min reductions: the derivative is shared evenly among the elements
/// equal to the result (jax.lax's `_reduce_chooser_jvp_rule`). Returns the
/// 0/1 indicator of those elements and how many there are per result.
std::pair<Value, Value> chooserLocations(Emitter &e, Value operand, Value result,
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
  Emitter e = emitterFor(b, op);
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
  Emitter e = emitterFor(b, op);
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
Value productOfOthers(Emitter &e, Value x, ArrayRef<int64_t> axes) {
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
  Emitter e = emitterFor(b, *this);
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
  Emitter e = emitterFor(b, *this);
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

//===----------------------------------------------------------------------===//
// dot_general (bilinear)
//===----------------------------------------------------------------------===//

namespace {
struct DotDims {
  SmallVector<int64_t> lhsBatch, rhsBatch, lhsContract, rhsContract;
};

SmallVector<int64_t> freeDims(int64_t rank, ArrayRef<int64_t> contract,
                              ArrayRef<int64_t> batch) {
  SmallVector<int64_t> free;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(contract, d) && !llvm::is_contained(batch, d))
      free.push_back(d);
  return free;
}

Value dotGeneral(OpBuilder &b, Location loc, Value lhs, Value rhs, const DotDims &dims,
                 Type elementType) {
  RankedTensorType l = tensorOf(lhs), r = tensorOf(rhs);
  SmallVector<int64_t> shape;
  for (int64_t d : dims.lhsBatch)
    shape.push_back(l.getDimSize(d));
  for (int64_t d : freeDims(l.getRank(), dims.lhsContract, dims.lhsBatch))
    shape.push_back(l.getDimSize(d));
  for (int64_t d : freeDims(r.getRank(), dims.rhsContract, dims.rhsBatch))
    shape.push_back(r.getDimSize(d));
  return DotGeneralOp::create(b, loc, RankedTensorType::get(shape, elementType), lhs, rhs,
                              dims.lhsBatch, dims.rhsBatch, dims.lhsContract,
                              dims.rhsContract);
}

/// The cotangent of the lhs `x` of `dot_general(x, y)` given the result's
/// cotangent `g` (jax.lax's `_dot_general_transpose_lhs`). With `swapAns`
/// the product was `dot_general(y, x)`, i.e. this computes the rhs's.
Value transposeLhs(Emitter &e, Value g, Value x, Value y, const DotDims &dims, bool swapAns) {
  int64_t xRank = tensorOf(x).getRank(), yRank = tensorOf(y).getRank();
  SmallVector<int64_t> xKept = freeDims(xRank, dims.lhsContract, dims.lhsBatch);
  SmallVector<int64_t> yKept = freeDims(yRank, dims.rhsContract, dims.rhsBatch);
  int64_t nb = dims.lhsBatch.size();
  // Positions in g: batch dims, then the first operand's free dims, then the
  // second's.
  SmallVector<int64_t> ansBatch, ansY;
  for (int64_t i = 0; i < nb; ++i)
    ansBatch.push_back(i);
  int64_t yStart = swapAns ? nb : nb + static_cast<int64_t>(xKept.size());
  for (int64_t i = 0; i < static_cast<int64_t>(yKept.size()); ++i)
    ansY.push_back(yStart + i);
  DotDims gy{ansBatch, dims.rhsBatch, ansY, yKept};
  Type elt = tensorOf(x).getElementType();
  Value gx = e.convert(g, tensorOf(y).getElementType());
  Value prod = dotGeneral(e.b, e.loc, gx, y, gy, tensorOf(y).getElementType());
  prod = e.convert(prod, elt);
  // prod's dims are x's batch dims, x's kept dims, then x's contracting dims
  // ordered as y's contracting dims are sorted.
  SmallVector<int64_t> order(dims.rhsContract.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  llvm::sort(order, [&](int64_t a, int64_t c) {
    return dims.rhsContract[a] < dims.rhsContract[c];
  });
  SmallVector<int64_t> layout(dims.lhsBatch);
  layout.append(xKept.begin(), xKept.end());
  for (int64_t i : order)
    layout.push_back(dims.lhsContract[i]);
  // out_axes = argsort(layout)
  SmallVector<int64_t> outAxes(layout.size());
  for (size_t i = 0; i < layout.size(); ++i)
    outAxes[layout[i]] = i;
  return e.transpose(prod, outAxes);
}
} // namespace

LogicalResult DotGeneralOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                                SmallVectorImpl<Value> &resultTangents) {
  Emitter e = emitterFor(b, *this);
  DotDims dims{SmallVector<int64_t>(getLhsBatchingDimensions()),
               SmallVector<int64_t>(getRhsBatchingDimensions()),
               SmallVector<int64_t>(getLhsContractingDimensions()),
               SmallVector<int64_t>(getRhsContractingDimensions())};
  Type elt = getType().getElementType();
  Value t;
  if (tangents[0])
    t = e.add(t, dotGeneral(b, getLoc(), tangents[0], getRhs(), dims, elt));
  if (tangents[1])
    t = e.add(t, dotGeneral(b, getLoc(), getLhs(), tangents[1], dims, elt));
  resultTangents.push_back(ad::isDifferentiableType(getType()) ? t : Value());
  return success();
}

LogicalResult DotGeneralOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                                SmallVectorImpl<Value> &operandCotangents) {
  Value g = cotangents[0];
  if (!g) {
    operandCotangents.append(2, Value());
    return success();
  }
  Emitter e = emitterFor(b, *this);
  DotDims dims{SmallVector<int64_t>(getLhsBatchingDimensions()),
               SmallVector<int64_t>(getRhsBatchingDimensions()),
               SmallVector<int64_t>(getLhsContractingDimensions()),
               SmallVector<int64_t>(getRhsContractingDimensions())};
  DotDims swapped{dims.rhsBatch, dims.lhsBatch, dims.rhsContract, dims.lhsContract};
  Value lhs = getLhs(), rhs = getRhs();
  operandCotangents.push_back(ad::isDifferentiableType(lhs.getType())
                                  ? transposeLhs(e, g, lhs, rhs, dims, false)
                                  : Value());
  operandCotangents.push_back(ad::isDifferentiableType(rhs.getType())
                                  ? transposeLhs(e, g, rhs, lhs, swapped, true)
                                  : Value());
  return success();
}
//===----------------------------------------------------------------------===//
// cumsum (linear; its transpose is the cumulative sum the other way)
//===----------------------------------------------------------------------===//

LogicalResult CumsumOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                            SmallVectorImpl<Value> &resultTangents) {
  resultTangents.push_back(tangents[0] ? CumsumOp::create(b, getLoc(), tangents[0],
                                                          getAxisAttr(), getReverseAttr())
                                       : Value());
  return success();
}

LogicalResult CumsumOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                            SmallVectorImpl<Value> &operandCotangents) {
  UnitAttr flipped = getReverse() ? UnitAttr() : b.getUnitAttr();
  operandCotangents.push_back(cotangents[0] ? CumsumOp::create(b, getLoc(), cotangents[0],
                                                               getAxisAttr(), flipped)
                                            : Value());
  return success();
}

//===----------------------------------------------------------------------===//
// sort: tangents ride along as extra sorted operands; cotangents are put
// back by sorting them by the permutation
//===----------------------------------------------------------------------===//

LogicalResult SortOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                          SmallVectorImpl<Value> &resultTangents) {
  SmallVector<Value> operands(getOperands());
  SmallVector<unsigned> carried;
  for (auto [i, t] : llvm::enumerate(tangents))
    if (t && ad::isDifferentiableType(getResult(i).getType())) {
      operands.push_back(t);
      carried.push_back(i);
    }
  resultTangents.assign(getNumResults(), Value());
  if (carried.empty())
    return success();
  SmallVector<Type> types;
  for (Value v : operands)
    types.push_back(v.getType());
  auto sorted = SortOp::create(b, getLoc(), types, operands, getDimensionAttr(),
                               getIsStableAttr(), getNumKeysAttr());
  for (auto [k, i] : llvm::enumerate(carried))
    resultTangents[i] = sorted.getResult(getNumOperands() + k);
  return success();
}

LogicalResult SortOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                          SmallVectorImpl<Value> &operandCotangents) {
  operandCotangents.assign(getNumOperands(), Value());
  if (llvm::all_of(cotangents, [](Value c) { return !c; }))
    return success();
  // The permutation: the same sort, carrying the positions along.
  Location loc = getLoc();
  auto shapeType = llvm::cast<RankedTensorType>(getOperand(0).getType());
  auto indexType = shapeType.clone(b.getI32Type());
  Value positions = IotaOp::create(b, loc, indexType, getDimensionAttr());
  SmallVector<Value> operands(getOperands());
  operands.push_back(positions);
  SmallVector<Type> types;
  for (Value v : operands)
    types.push_back(v.getType());
  auto sorted = SortOp::create(b, loc, types, operands, getDimensionAttr(), getIsStableAttr(),
                               getNumKeysAttr());
  Value perm = sorted.getResults().back();
  // Sorting (perm, ct) by perm returns each cotangent to its source position.
  for (auto [i, c] : llvm::enumerate(cotangents)) {
    if (!c || !ad::isDifferentiableType(getOperand(i).getType()))
      continue;
    auto back = SortOp::create(b, loc, TypeRange{perm.getType(), c.getType()},
                               ValueRange{perm, c}, getDimensionAttr(), b.getBoolAttr(false),
                               b.getI64IntegerAttr(1));
    operandCotangents[i] = back.getResult(1);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// optimization_barrier (the identity, per operand)
//===----------------------------------------------------------------------===//

LogicalResult OptimizationBarrierOp::jvp(OpBuilder &, ArrayRef<Value> tangents,
                                         SmallVectorImpl<Value> &resultTangents) {
  resultTangents.append(tangents.begin(), tangents.end());
  return success();
}

LogicalResult OptimizationBarrierOp::vjp(OpBuilder &, ArrayRef<Value> cotangents,
                                         SmallVectorImpl<Value> &operandCotangents) {
  operandCotangents.append(cotangents.begin(), cotangents.end());
  return success();
}

#include "mlax/Dialect/Mlax/IR/MlaxInterfaces.cpp.inc"

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
Value largestStarts(Emitter &e, Value indices, int64_t ivd, ArrayRef<int64_t> map,
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
  Emitter e{b, loc};
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
std::pair<Value, Value> scatterSetMasks(Emitter &e, ScatterOp op) {
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
Value scatterMulOthers(Emitter &e, ScatterOp op) {
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

ExtremalParts scatterExtremalParts(Emitter &e, ScatterOp op) {
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
    Emitter e = emitterFor(b, *this);
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
  Emitter e = emitterFor(b, *this);
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
  Emitter e = emitterFor(b, *this);
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
    Emitter e = emitterFor(b, *this);
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
  Emitter e = emitterFor(b, *this);
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
  Emitter e = emitterFor(b, *this);
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
