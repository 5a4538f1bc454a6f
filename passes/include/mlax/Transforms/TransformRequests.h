//===- TransformRequests.h - expanding mlax.jvp / vjp / vmap -----*- C++ -*-===//
//
// The transformation ops (`mlax.jvp`, `mlax.vjp`, `mlax.vmap`) name a callee.
// A request can be expanded once its callee, and everything the callee
// references, contains no request of any kind; expanding innermost first is
// what makes every composition (grad of vmap, vmap of grad, grad of grad...)
// correct. The passes share that ordering: each expands its own kind of
// request, and `mlax-expand-transforms` (what jit runs) expands all kinds.
//
//===----------------------------------------------------------------------===//

#ifndef MLAX_PASSES_TRANSFORMREQUESTS_H
#define MLAX_PASSES_TRANSFORMREQUESTS_H

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

#include <memory>

namespace mlir::mlax {

/// Expands one kind of request.
class RequestExpander {
public:
  virtual ~RequestExpander();
  virtual bool handles(Operation *op) const = 0;
  virtual LogicalResult expand(Operation *op) = 0;
  /// Runs once every request this expander handles is gone.
  virtual void finish() {}
  /// How many functions it generated.
  virtual int64_t numGenerated() const = 0;
};

/// Whether `op` is a transformation request (jvp, vjp, vmap).
bool isTransformRequest(Operation *op);

/// Expands, innermost first, every request one of `expanders` handles.
/// Requests blocked by a kind no expander handles are reported as errors.
/// Returns how many requests were expanded.
FailureOr<int64_t> expandRequests(ModuleOp module, SymbolTable &symbols,
                                  ArrayRef<RequestExpander *> expanders);

/// `mlax.call @callee(operands)` with result types `results`.
CallOp makeCall(OpBuilder &b, Location loc, TypeRange results, FlatSymbolRefAttr callee,
                ValueRange operands);

/// Replaces `op` with a call of `callee` taking the same operands and giving
/// the same results (how an expanded request or a custom call ends).
void replaceWithCall(Operation *op, FlatSymbolRefAttr callee);

/// The private functions a transformation generates. Each goes right after
/// the function it was generated from and the ones generated from that
/// function before, so the module reads in the order things were generated.
class GeneratedFunctions {
public:
  explicit GeneratedFunctions(SymbolTable &symbols) : symbols(symbols) {}
  /// `from`'s name + `suffix` (uniqued), of `type`, with an empty entry block.
  func::FuncOp create(func::FuncOp from, StringRef suffix, FunctionType type);
  int64_t count() const { return created; }

private:
  SymbolTable &symbols;
  DenseMap<Operation *, Operation *> lastGenerated;
  int64_t created = 0;
};

/// A private function (named `from` + `suffix`) with `region`'s block as
/// its body: the block's arguments are its arguments, what the region yields
/// it returns. Control-flow regions are isolated from above, so this is a
/// plain copy; transformations then differentiate or batch the function.
func::FuncOp outlineRegion(Region &region, func::FuncOp from, StringRef suffix,
                           GeneratedFunctions &generated);

/// Gives `region` one block taking `argTypes`, whose body `build` emits; the
/// block ends with `mlax.yield` of what `build` returns. How the passes build
/// the regions of the control-flow ops they generate.
void fillRegion(OpBuilder &b, Location loc, Region &region, TypeRange argTypes,
                function_ref<SmallVector<Value>(OpBuilder &, Block *)> build);

/// The results of `mlax.call @callee(args)`.
SmallVector<Value> callFunction(OpBuilder &b, Location loc, func::FuncOp callee,
                                ValueRange args);

/// The block argument types of an `mlax.scan` body over these operands:
/// the carry, one slice (leading axis dropped) of each xs, the consts.
SmallVector<Type> scanBodyTypes(ValueRange init, ValueRange xs, ValueRange consts);

/// Which values a region's block yields depend on the block arguments
/// marked in `inputs` (through any chain of ops; an op with a dependent
/// operand makes all its results dependent). With `floatOnly`, only values
/// of a real-float type carry dependence (what differentiation needs).
SmallVector<bool> dependentResults(Block &block, ArrayRef<bool> inputs, bool floatOnly);

/// The loop-state fixed point: starting from `state` (one flag per carried
/// value), adds every carried value whose next value depends on a marked
/// input (`state` for the carries, `other` for the rest of the block's
/// arguments, which follow the carries at offset `otherOffset`).
SmallVector<bool> loopFixedPoint(Block &body, ArrayRef<bool> state, ArrayRef<bool> other,
                                 unsigned otherOffset, bool floatOnly);

std::unique_ptr<RequestExpander> createAutodiffExpander(ModuleOp module,
                                                        SymbolTable &symbols);
std::unique_ptr<RequestExpander> createVectorizeExpander(ModuleOp module,
                                                         SymbolTable &symbols);

} // namespace mlir::mlax

#endif // MLAX_PASSES_TRANSFORMREQUESTS_H
