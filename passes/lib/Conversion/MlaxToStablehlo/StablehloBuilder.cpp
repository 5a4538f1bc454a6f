//===- StablehloBuilder.cpp -----------------------------------------------===//

#include "mlax/Conversion/MlaxToStablehlo/StablehloBuilder.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::mlax;

Operation *StablehloBuilder::create(StringRef name, ValueRange operands,
                                    TypeRange results,
                                    ArrayRef<NamedAttribute> attrs,
                                    unsigned regions) {
  // CHLO ops (erf, erf_inv, next_after) are spelled in full; XLA expands
  // them exactly as it does for JAX.
  std::string full = name.starts_with("stablehlo.") || name.starts_with("chlo.")
                         ? name.str()
                         : ("stablehlo." + name).str();
  OperationState state(loc, full);
  state.addOperands(operands);
  state.addTypes(results);
  state.addAttributes(attrs);
  for (unsigned i = 0; i < regions; ++i)
    state.addRegion();
  return b.create(state);
}

Attribute StablehloBuilder::attr(StringRef text) {
  Attribute parsed = parseAttribute(text, b.getContext());
  if (!parsed)
    emitError(loc) << "internal error: cannot parse StableHLO attribute `"
                   << text << "`";
  return parsed;
}

Attribute StablehloBuilder::resultAccuracy(ResultAccuracyAttr accuracy) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "#stablehlo.result_accuracy<";
  auto tolerance = [&](StringRef name, const APFloat &value) {
    if (value.isZero())
      return;
    os << name << " = ";
    FloatAttr::get(b.getF64Type(), value).print(os, /*elideType=*/true);
    os << ", ";
  };
  tolerance("atol", accuracy.getAtol());
  tolerance("rtol", accuracy.getRtol());
  if (accuracy.getUlps() != 0)
    os << "ulps = " << accuracy.getUlps() << ", ";
  os << "mode = #stablehlo.result_accuracy_mode<"
     << stringifyResultAccuracyMode(accuracy.getMode()) << ">>";
  return attr(text);
}

Value StablehloBuilder::constant(ElementsAttr value) {
  return op("constant", {}, value.getType(), {named("value", value)});
}

Value StablehloBuilder::compare(StringRef direction, Value lhs, Value rhs) {
  auto type = llvm::cast<RankedTensorType>(lhs.getType());
  Type elem = type.getElementType();
  StringRef kind = llvm::isa<FloatType>(elem) ? "FLOAT"
                   : (elem.isUnsignedInteger() || elem.isInteger(1))
                       ? "UNSIGNED"
                       : "SIGNED";
  auto predType = RankedTensorType::get(type.getShape(), b.getI1Type());
  SmallVector<NamedAttribute> attrs = {
      named("comparison_direction",
            attr(("#stablehlo<comparison_direction " + direction + ">").str()))};
  if (!llvm::isa<ComplexType>(elem))
    attrs.push_back(named("compare_type",
                          attr(("#stablehlo<comparison_type " + kind + ">").str())));
  return op("compare", {lhs, rhs}, predType, attrs);
}

Value StablehloBuilder::select(Value pred, Value onTrue, Value onFalse) {
  return op("select", {pred, onTrue, onFalse}, onTrue.getType());
}

Value StablehloBuilder::reduce(Value operand, ElementsAttr init,
                               ArrayRef<int64_t> dims, StringRef bodyOp,
                               RankedTensorType resultType) {
  Type elem = resultType.getElementType();
  auto scalar = RankedTensorType::get({}, elem);
  Value initValue = constant(init);
  Operation *reduce = create("reduce", {operand, initValue}, resultType,
                             {i64Array("dimensions", dims)}, /*regions=*/1);
  OpBuilder::InsertionGuard guard(b);
  Block *body = b.createBlock(&reduce->getRegion(0), {}, {scalar, scalar},
                              {loc, loc});
  Value combined =
      op(bodyOp, {body->getArgument(0), body->getArgument(1)}, scalar);
  create("return", {combined}, {});
  return reduce->getResult(0);
}
