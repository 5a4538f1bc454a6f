// Lowering of every mlax op to (generic-form, unregistered) StableHLO.
//
// RUN: mlax-opt %s --convert-mlax-to-stablehlo | FileCheck %s
// RUN: mlax-opt %s --convert-mlax-to-stablehlo | FileCheck %s --check-prefix=NOMLAX
// RUN: mlax-opt %s --convert-mlax-to-stablehlo | %PYTHON -m mlax.tools.compile_stablehlo --verify-only -
//
// NOMLAX-NOT: mlax.

//===----------------------------------------------------------------------===//
// constant
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @constant(
// CHECK: %[[C:.*]] = "stablehlo.constant"() {value = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>} : () -> tensor<2xf32>
// CHECK: return %[[C]] : tensor<2xf32>
func.func @constant() -> tensor<2xf32> {
  %0 = mlax.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// A non-splat bool constant goes to jaxlib as i8 plus a convert (see
// constants.mlir).
// CHECK-LABEL: func.func @constant_bool(
// CHECK: %[[C:.*]] = "stablehlo.constant"() {value = dense<[1, 0]> : tensor<2xi8>} : () -> tensor<2xi8>
// CHECK: "stablehlo.convert"(%[[C]]) : (tensor<2xi8>) -> tensor<2xi1>
func.func @constant_bool() -> tensor<2xi1> {
  %0 = mlax.constant dense<[true, false]> : tensor<2xi1>
  return %0 : tensor<2xi1>
}

//===----------------------------------------------------------------------===//
// call
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func private @callee(tensor<4xf32>, tensor<i32>) -> tensor<4xf32>
func.func private @callee(%x: tensor<4xf32>, %y: tensor<i32>) -> tensor<4xf32>

// CHECK-LABEL: func.func @call(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<i32>)
// CHECK: %[[R:.*]] = call @callee(%[[X]], %[[Y]]) : (tensor<4xf32>, tensor<i32>) -> tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xf32>
func.func @call(%x: tensor<4xf32>, %y: tensor<i32>) -> tensor<4xf32> {
  %0 = mlax.call @callee(%x, %y) : (tensor<4xf32>, tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// The callee's body is lowered too.
// CHECK-LABEL: func.func private @square(
// CHECK: "stablehlo.multiply"
func.func private @square(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.mul %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @call_defined(
// CHECK: call @square(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
func.func @call_defined(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.call @square(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

//===----------------------------------------------------------------------===//
// Chains of ops lower together, with the values wired through
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @chain(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[E:.*]] = "stablehlo.exponential"(%[[X]])
// CHECK: %[[B:.*]] = "stablehlo.broadcast_in_dim"(%[[E]]) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<2x4xf32>
// CHECK: %[[S:.*]] = "stablehlo.reduce"(%[[B]], %{{.*}})
// CHECK: return %[[S]] : tensor<4xf32>
func.func @chain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.exp %x : tensor<4xf32>
  %1 = mlax.broadcast_in_dim %0, dims = [1] : tensor<4xf32> -> tensor<2x4xf32>
  %2 = mlax.reduce_sum %1, axes = [0] : tensor<2x4xf32> -> tensor<4xf32>
  return %2 : tensor<4xf32>
}
