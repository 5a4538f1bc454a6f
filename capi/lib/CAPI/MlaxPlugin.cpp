//===- MlaxPlugin.cpp - C entry points for the Python bindings ------------===//
//
// Loaded with ctypes (RTLD_GLOBAL) into a process that already holds the
// upstream MLIR Python bindings; it links their libMLIRPythonCAPI.so so the
// dialect and passes share one MLIR with them.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxDialect.h"
#include "mlax/Dialect/Mlax/IR/MlaxInterfaces.h"
#include "mlax/Pipelines/Pipelines.h"

#include "mlir-c/IR.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Mlax, mlax, mlir::mlax::MlaxDialect)

extern "C" {

/// Loads the mlax (and func) dialects into `ctx`.
MLIR_CAPI_EXPORTED void mlaxRegisterDialects(MlirContext ctx) {
  mlir::MLIRContext *context = unwrap(ctx);
  mlir::DialectRegistry registry;
  registry.insert<mlir::mlax::MlaxDialect, mlir::func::FuncDialect>();
  mlir::func::registerInlinerExtension(registry);
  context->appendDialectRegistry(registry);
  context->loadDialect<mlir::mlax::MlaxDialect, mlir::func::FuncDialect>();
}

/// Registers the mlax passes and pipelines so PassManager.parse sees them.
/// Idempotent.
MLIR_CAPI_EXPORTED void mlaxRegisterPasses() {
  static bool once = [] {
    mlir::mlax::registerAllMlaxPasses();
    return true;
  }();
  (void)once;
}

/// Calls `callback(name, differentiable, batchable, user)` for every op of the
/// mlax dialect registered in `ctx`: whether it implements the
/// differentiation and batching interfaces (the op-coverage test reads it).
MLIR_CAPI_EXPORTED void
mlaxForEachOpRules(MlirContext ctx,
                   void (*callback)(const char *, int, int, void *), void *user) {
  for (mlir::RegisteredOperationName op :
       unwrap(ctx)->getRegisteredOperations()) {
    if (op.getDialectNamespace() != "mlax")
      continue;
    std::string name = op.getStringRef().str();
    callback(name.c_str(),
             op.hasInterface<mlir::mlax::DifferentiableOpInterface>(),
             op.hasInterface<mlir::mlax::BatchableOpInterface>(), user);
  }
}

} // extern "C"
