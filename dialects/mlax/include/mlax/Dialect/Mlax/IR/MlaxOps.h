//===- MlaxOps.h - mlax dialect operations ----------------------*- C++ -*-===//
#ifndef MLAX_DIALECT_MLAXOPS_H
#define MLAX_DIALECT_MLAXOPS_H

#include "mlax/Dialect/Mlax/IR/MlaxDialect.h"
#include "mlax/Dialect/Mlax/IR/MlaxInterfaces.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "mlax/Dialect/Mlax/IR/MlaxEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "mlax/Dialect/Mlax/IR/MlaxAttributes.h.inc"

#define GET_OP_CLASSES
#include "mlax/Dialect/Mlax/IR/MlaxOps.h.inc"

#endif // MLAX_DIALECT_MLAXOPS_H
