//===- MlaxDialect.h - the mlax dialect -------------------------*- C++ -*-===//
#ifndef MLAX_DIALECT_MLAXDIALECT_H
#define MLAX_DIALECT_MLAXDIALECT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Dialect.h"

#include "mlax/Dialect/Mlax/IR/MlaxDialect.h.inc"

#endif // MLAX_DIALECT_MLAXDIALECT_H
