//===- mlax-opt.cpp - the mlax optimizer driver ---------------------------===//
//
// MlirOptMain with the mlax dialect and passes, the func dialect, and the
// upstream transforms (canonicalize, cse, inline, symbol-dce, ...).
// Unregistered dialects are allowed by default because the StableHLO that
// convert-mlax-to-stablehlo emits is unregistered here.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxDialect.h"
#include "mlax/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringRef.h"

#include <vector>

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::mlax::MlaxDialect, mlir::func::FuncDialect>();
  mlir::func::registerInlinerExtension(registry);
  mlir::registerTransformsPasses();
  mlir::mlax::registerAllMlaxPasses();

  std::vector<char *> args(argv, argv + argc);
  bool userChose = false;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = llvm::StringRef(argv[i]).ltrim('-');
    userChose |= arg == "allow-unregistered-dialect" ||
                 arg.starts_with("allow-unregistered-dialect=");
  }
  static char allow[] = "--allow-unregistered-dialect";
  if (!userChose)
    args.insert(args.begin() + 1, allow);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      static_cast<int>(args.size()), args.data(), "mlax optimizer driver\n",
      registry));
}
