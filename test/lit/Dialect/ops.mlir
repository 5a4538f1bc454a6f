// Round trip of every mlax op's custom assembly format: parse, print, parse
// the printed form again, print again. The CHECK lines show the printed form.
//
// RUN: mlax-opt %s | mlax-opt | FileCheck %s
//
// The generic form must parse back into the same ops:
// RUN: mlax-opt %s --mlir-print-op-generic | mlax-opt | FileCheck %s
// RUN: mlax-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

//===----------------------------------------------------------------------===//
// constant
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @constant_f32(
// CHECK: %[[C:.*]] = mlax.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK: return %[[C]] : tensor<2xf32>
// GENERIC-LABEL: sym_name = "constant_f32"
// GENERIC: "mlax.constant"() <{value = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>}> : () -> tensor<2xf32>
func.func @constant_f32() -> tensor<2xf32> {
  %0 = mlax.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func.func @constant_splat_i32(
// CHECK: mlax.constant dense<7> : tensor<2x3xi32>
func.func @constant_splat_i32() -> tensor<2x3xi32> {
  %0 = mlax.constant dense<7> : tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// CHECK-LABEL: func.func @constant_scalar_bool(
// CHECK: mlax.constant dense<true> : tensor<i1>
func.func @constant_scalar_bool() -> tensor<i1> {
  %0 = mlax.constant dense<true> : tensor<i1>
  return %0 : tensor<i1>
}

// CHECK-LABEL: func.func @constant_complex(
// CHECK: mlax.constant dense<(1.000000e+00,-2.000000e+00)> : tensor<complex<f32>>
func.func @constant_complex() -> tensor<complex<f32>> {
  %0 = mlax.constant dense<(1.0, -2.0)> : tensor<complex<f32>>
  return %0 : tensor<complex<f32>>
}

//===----------------------------------------------------------------------===//
// call
//===----------------------------------------------------------------------===//

func.func private @callee(%x: tensor<4xf32>, %y: tensor<i32>) -> (tensor<4xf32>, tensor<i32>)

// CHECK-LABEL: func.func @call(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<i32>)
// CHECK: %[[R:.*]]:2 = mlax.call @callee(%[[X]], %[[Y]]) : (tensor<4xf32>, tensor<i32>) -> (tensor<4xf32>, tensor<i32>)
// CHECK: return %[[R]]#0, %[[R]]#1 : tensor<4xf32>, tensor<i32>
// GENERIC-LABEL: sym_name = "call"
// GENERIC: "mlax.call"(%{{.*}}, %{{.*}}) <{callee = @callee}> : (tensor<4xf32>, tensor<i32>) -> (tensor<4xf32>, tensor<i32>)
func.func @call(%x: tensor<4xf32>, %y: tensor<i32>) -> (tensor<4xf32>, tensor<i32>) {
  %0:2 = mlax.call @callee(%x, %y) : (tensor<4xf32>, tensor<i32>) -> (tensor<4xf32>, tensor<i32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<i32>
}

func.func private @no_results()

// CHECK-LABEL: func.func @call_no_results(
// CHECK: mlax.call @no_results() : () -> ()
func.func @call_no_results() {
  mlax.call @no_results() : () -> ()
  return
}
