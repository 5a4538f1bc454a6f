//===- DropUnusedArguments.cpp - the mlax-drop-unused-arguments pass -------===//
//
// Erases the arguments of the public @main that nothing uses, as jax.jit does
// with keep_unused=False, and records the indices of the arguments kept in
// the `mlax.kept_arguments` attribute of @main, so that the caller passes
// only those buffers. It runs last in mlax-default-pipeline: the module it
// leaves is the one XLA compiles.
//
//===----------------------------------------------------------------------===//

#include "mlax/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/BitVector.h"

namespace mlir::mlax {
#define GEN_PASS_DEF_MLAXDROPUNUSEDARGUMENTS
#include "mlax/Transforms/Passes.h.inc"
} // namespace mlir::mlax

using namespace mlir;

namespace {

struct DropUnusedArguments
    : mlax::impl::MlaxDropUnusedArgumentsBase<DropUnusedArguments> {
  void runOnOperation() override {
    auto main = dyn_cast_or_null<func::FuncOp>(
        SymbolTable::lookupSymbolIn(getOperation(), "main"));
    // Argument attributes (donation, shardings) are positional: leave such
    // a signature alone, as the Python driver always did.
    if (!main || main.isExternal() || main.getArgAttrs())
      return;
    Block &entry = main.getBody().front();
    llvm::BitVector unused(entry.getNumArguments());
    SmallVector<int64_t> kept;
    for (BlockArgument arg : entry.getArguments()) {
      if (arg.use_empty())
        unused.set(arg.getArgNumber());
      else
        kept.push_back(arg.getArgNumber());
    }
    if (unused.none())
      return;
    if (failed(main.eraseArguments(unused)))
      return signalPassFailure();
    main->setAttr("mlax.kept_arguments",
                  Builder(main.getContext()).getDenseI64ArrayAttr(kept));
  }
};

} // namespace
