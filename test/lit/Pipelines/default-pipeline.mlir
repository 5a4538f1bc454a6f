// mlax-default-pipeline: inline, canonicalize, cse, symbol-dce, then lower to
// StableHLO.
//
// RUN: mlax-opt %s --split-input-file --mlax-default-pipeline | FileCheck %s
// RUN: mlax-opt %s --split-input-file --mlax-default-pipeline | FileCheck %s --check-prefix=NOMLAX
//
// Nothing of mlax is left anywhere in the output.
// NOMLAX-NOT: mlax.

// A private callee reached through mlax.call is inlined, then removed.
// CHECK-NOT: @square
// CHECK-LABEL: func.func @inline_private_callee(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %[[M:.*]] = "stablehlo.multiply"(%[[X]], %[[X]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: return %[[M]] : tensor<4xf32>
// CHECK-NOT: call
// CHECK-NOT: @square
func.func private @square(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.mul %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func @inline_private_callee(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.call @square(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Identical pure ops are merged.
// CHECK-LABEL: func.func @cse_duplicates(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[E:.*]] = "stablehlo.exponential"(%[[X]])
// CHECK-NEXT: %[[S:.*]] = "stablehlo.add"(%[[E]], %[[E]])
// CHECK-NEXT: return %[[S]]
func.func @cse_duplicates(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.exp %x : tensor<4xf32>
  %1 = mlax.exp %x : tensor<4xf32>
  %2 = mlax.add %0, %1 : tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// Identical constants are merged too.
// CHECK-LABEL: func.func @cse_constants(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[C:.*]] = "stablehlo.constant"() {value = dense<2.000000e+00> : tensor<4xf32>}
// CHECK-NOT: "stablehlo.constant"
// CHECK: %[[A:.*]] = "stablehlo.add"(%[[X]], %[[C]])
// CHECK: "stablehlo.add"(%[[A]], %[[C]])
func.func @cse_constants(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.constant dense<2.0> : tensor<4xf32>
  %1 = mlax.constant dense<2.0> : tensor<4xf32>
  %2 = mlax.add %x, %0 : tensor<4xf32>
  %3 = mlax.add %2, %1 : tensor<4xf32>
  return %3 : tensor<4xf32>
}

// -----

// Arithmetic on constants is folded before XLA sees it.
// CHECK-LABEL: func.func @fold_constants(
// CHECK-NEXT: %[[C:.*]] = "stablehlo.constant"() {value = dense<4.000000e+00> : tensor<4xf32>}
// CHECK-NEXT: return %[[C]]
func.func @fold_constants() -> tensor<4xf32> {
  %0 = mlax.constant dense<2.0> : tensor<4xf32>
  %1 = mlax.add %0, %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Calls are inlined transitively, and the copies of the callee's body that
// inlining makes are CSE'd.
// CHECK-NOT: @inner
// CHECK-NOT: @middle
// CHECK-LABEL: func.func @nested_calls(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[T:.*]] = "stablehlo.tanh"(%[[X]])
// CHECK-NEXT: %[[N:.*]] = "stablehlo.negate"(%[[T]])
// CHECK-NEXT: %[[S:.*]] = "stablehlo.add"(%[[N]], %[[N]])
// CHECK-NEXT: return %[[S]]
// CHECK-NOT: @inner
// CHECK-NOT: @middle
func.func private @inner(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.tanh %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func private @middle(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.call @inner(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = mlax.neg %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

func.func @nested_calls(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.call @middle(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = mlax.call @middle(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = mlax.add %0, %1 : tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// A public callee is inlined but kept; an unused private function is removed.
// CHECK-NOT: @unused
// CHECK-LABEL: func.func @public_callee(
// CHECK-NEXT: "stablehlo.sqrt"
// CHECK-LABEL: func.func @calls_public(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[R:.*]] = "stablehlo.sqrt"(%[[X]])
// CHECK-NEXT: return %[[R]]
// CHECK-NOT: @unused
func.func @public_callee(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.sqrt %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func @calls_public(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.call @public_callee(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func private @unused(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A call to an external declaration cannot be inlined: it becomes func.call,
// and the declaration stays.
// CHECK-LABEL: func.func private @external(tensor<4xf32>) -> tensor<4xf32>
// CHECK-LABEL: func.func @calls_external(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[R:.*]] = call @external(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: return %[[R]]
func.func private @external(%x: tensor<4xf32>) -> tensor<4xf32>

func.func @calls_external(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.call @external(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Dead pure ops are removed.
// CHECK-LABEL: func.func @dead_code(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @dead_code(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.exp %x : tensor<4xf32>
  %1 = mlax.reduce_sum %0, axes = [0] : tensor<4xf32> -> tensor<f32>
  return %x : tensor<4xf32>
}
