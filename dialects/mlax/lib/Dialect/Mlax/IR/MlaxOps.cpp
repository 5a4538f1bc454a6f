//===- MlaxOps.cpp - constant, call, composite ----------------------------===//
//
// The ops of MlaxOps.td (every op family has its own Mlax<Family>Ops.cpp).
// Shape rules are written once, as `inferReturnTypes` where the result type
// follows from the operands (the verifier then compares against it) and as
// `verify` where the result type is chosen by the producer. Every message
// starts with the op's name so a user can tell which op is wrong.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"
// The elementwise ops' declared partials (ODS `partials`) build with it.
#include "mlax/Dialect/Mlax/IR/MlaxBuilder.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/Support/Regex.h"

using namespace mlir;
using namespace mlir::mlax;

#include "mlax/Dialect/Mlax/IR/MlaxEnums.cpp.inc"


//===----------------------------------------------------------------------===//
// constant
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &results) {
  if (!adaptor.getValue())
    return emitOptionalError(loc, "'mlax.constant' op needs an elements attribute `value`");
  results.push_back(adaptor.getValue().getType());
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }


//===----------------------------------------------------------------------===//
// call
//===----------------------------------------------------------------------===//

/// That `callee` names a func.func whose signature is `op`'s operands to
/// its results (`role` names the function in the messages).
static LogicalResult verifyCallee(Operation *op, StringRef role, FlatSymbolRefAttr callee,
                                  SymbolTableCollection &symbolTable) {
  auto fn = symbolTable.lookupNearestSymbolFrom<func::FuncOp>(op, callee);
  if (!fn)
    return op->emitOpError("'") << callee.getValue() << "' does not name a func.func";
  FunctionType type = fn.getFunctionType();
  if (TypeRange(type.getInputs()) != TypeRange(op->getOperandTypes()))
    return op->emitOpError("operand types do not match the ")
           << role << "'s inputs " << type;
  if (TypeRange(type.getResults()) != TypeRange(op->getResultTypes()))
    return op->emitOpError("result types do not match the ")
           << role << "'s results " << type;
  return success();
}

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyCallee(*this, "callee", getCalleeAttr(), symbolTable);
}


//===----------------------------------------------------------------------===//
// composite
//===----------------------------------------------------------------------===//

LogicalResult CompositeOp::verify() {
  // StableHLO's rule for a composite's name (its CompositeOp verifier).
  static const llvm::Regex namespaced("^[a-zA-Z][a-zA-Z0-9_]*([.][a-zA-Z0-9_$]+)+$");
  if (!namespaced.match(getName()))
    return emitOpError() << "name must be a valid namespaced op name, i.e. it must match the "
                            "regular expression ^[a-zA-Z][a-zA-Z0-9_]*([.][a-zA-Z0-9_$]+)+$ "
                            "(e.g. \"my_namespace.my_op\"), got \""
                         << getName() << "\"";
  return success();
}

LogicalResult CompositeOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyCallee(*this, "decomposition", getDecompositionAttr(), symbolTable);
}

// JAX defines no JVP, transpose or batching rule for composite_p (its rules
// raise): a composite is not differentiated or batched through its
// decomposition. The rules run only where a nonzero (co)tangent or a batch
// reaches the op, as JAX's do.
static bool anyValue(ArrayRef<Value> values) {
  return llvm::any_of(values, [](Value v) { return static_cast<bool>(v); });
}

static InFlightDiagnostic noDerivative(CompositeOp op) {
  return op.emitOpError("JVP rule for composite not implemented. You can use `jax.custom_jvp` "
                        "to add support. See "
                        "https://docs.jax.dev/en/latest/_autosummary/jax.custom_jvp.html");
}

LogicalResult CompositeOp::jvp(OpBuilder &, ArrayRef<Value> tangents,
                               SmallVectorImpl<Value> &resultTangents) {
  if (anyValue(tangents))
    return noDerivative(*this);
  resultTangents.append(getNumResults(), Value());
  return success();
}

LogicalResult CompositeOp::vjp(OpBuilder &, ArrayRef<Value> cotangents,
                               SmallVectorImpl<Value> &operandCotangents) {
  if (anyValue(cotangents))
    return noDerivative(*this);
  operandCotangents.append(getNumOperands(), Value());
  return success();
}

LogicalResult CompositeOp::batch(OpBuilder &, ValueRange, ArrayRef<bool>, int64_t,
                                 SmallVectorImpl<Value> &) {
  return emitOpError("Batching rule for 'composite' not implemented");
}

// Custom assembly directives of the regions of mlax.cond, mlax.while and
// mlax.scan (MlaxControlFlowOps.cpp).
namespace mlir::mlax {
ParseResult parseBranches(OpAsmParser &parser,
                          SmallVectorImpl<std::unique_ptr<Region>> &branches);
void printBranches(OpAsmPrinter &printer, Operation *op, MutableArrayRef<Region> branches);
ParseResult parseLoopRegions(OpAsmParser &parser, Region &cond, Region &body);
void printLoopRegions(OpAsmPrinter &printer, Operation *op, Region &cond, Region &body);
ParseResult parseBody(OpAsmParser &parser, Region &body);
void printBody(OpAsmPrinter &printer, Operation *op, Region &body);
} // namespace mlir::mlax

// The types of mlax.dot_general's custom form (MlaxLinalgOps.cpp).
namespace mlir::mlax {
ParseResult parseDotTypes(OpAsmParser &parser, Type &lhs, Type &rhs, Type &result,
                          TypeAttr &preferred);
void printDotTypes(OpAsmPrinter &printer, Operation *op, Type lhs, Type rhs, Type result,
                   TypeAttr preferred);
} // namespace mlir::mlax

#define GET_OP_CLASSES
#include "mlax/Dialect/Mlax/IR/MlaxOps.cpp.inc"
