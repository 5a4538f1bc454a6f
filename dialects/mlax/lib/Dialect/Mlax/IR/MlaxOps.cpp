//===- MlaxOps.cpp - the ops outside the families: constant, call ---------===//
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

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto fn = symbolTable.lookupNearestSymbolFrom<func::FuncOp>(*this,
                                                               getCalleeAttr());
  if (!fn)
    return emitOpError("'") << getCallee() << "' does not name a func.func";
  FunctionType type = fn.getFunctionType();
  if (TypeRange(type.getInputs()) != TypeRange(getOperandTypes()))
    return emitOpError("operand types do not match the callee's inputs ")
           << type;
  if (TypeRange(type.getResults()) != TypeRange(getResultTypes()))
    return emitOpError("result types do not match the callee's results ")
           << type;
  return success();
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
