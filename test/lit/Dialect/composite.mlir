// Round trip of mlax.composite: a named call of its decomposition, with and
// without attributes and version.
//
// RUN: mlax-opt %s | mlax-opt | FileCheck %s
// RUN: mlax-opt %s --mlir-print-op-generic | mlax-opt | FileCheck %s
// RUN: mlax-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

func.func private @my.tangent(%x: tensor<3xf32>) -> tensor<3xf32> {
  %s = mlax.sin %x : tensor<3xf32>
  %c = mlax.cos %x : tensor<3xf32>
  %t = mlax.div %s, %c : tensor<3xf32>
  return %t : tensor<3xf32>
}

// CHECK-LABEL: func.func @plain(
// CHECK-SAME: %[[X:.*]]: tensor<3xf32>)
// CHECK: %[[R:.*]] = mlax.composite "my.tangent" @my.tangent(%[[X]]) : (tensor<3xf32>) -> tensor<3xf32>
// CHECK: return %[[R]]
// GENERIC-LABEL: sym_name = "plain"
// GENERIC: "mlax.composite"(%{{.*}}) <{decomposition = @my.tangent, name = "my.tangent"}> : (tensor<3xf32>) -> tensor<3xf32>
func.func @plain(%x: tensor<3xf32>) -> tensor<3xf32> {
  %r = mlax.composite "my.tangent" @my.tangent(%x) : (tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// CHECK-LABEL: func.func @attributes(
// CHECK: mlax.composite "my.tangent" @my.tangent(%{{.*}}) {composite_attributes = {axis = 1 : i64, kind = "fast", scale = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>}, version = 2 : i32} : (tensor<3xf32>) -> tensor<3xf32>
// GENERIC-LABEL: sym_name = "attributes"
// GENERIC: "mlax.composite"(%{{.*}}) <{composite_attributes = {axis = 1 : i64, kind = "fast", scale = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>}, decomposition = @my.tangent, name = "my.tangent", version = 2 : i32}>
func.func @attributes(%x: tensor<3xf32>) -> tensor<3xf32> {
  %r = mlax.composite "my.tangent" @my.tangent(%x)
      {composite_attributes = {axis = 1 : i64, kind = "fast", scale = dense<[1.0, 2.0]> : tensor<2xf32>},
       version = 2 : i32} : (tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// Several operands and results, of several dtypes; a decomposition with no
// operands.
func.func private @my.pair(%x: tensor<2xf32>, %n: tensor<i32>) -> (tensor<2xf32>, tensor<i32>) {
  return %x, %n : tensor<2xf32>, tensor<i32>
}
func.func private @my.nothing() -> tensor<f32> {
  %c = mlax.constant dense<1.0> : tensor<f32>
  return %c : tensor<f32>
}

// CHECK-LABEL: func.func @many(
// CHECK: %{{.*}}:2 = mlax.composite "my.pair" @my.pair(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<i32>) -> (tensor<2xf32>, tensor<i32>)
// CHECK: mlax.composite "my.nothing.v2" @my.nothing() : () -> tensor<f32>
func.func @many(%x: tensor<2xf32>, %n: tensor<i32>) -> (tensor<2xf32>, tensor<i32>, tensor<f32>) {
  %r:2 = mlax.composite "my.pair" @my.pair(%x, %n) : (tensor<2xf32>, tensor<i32>) -> (tensor<2xf32>, tensor<i32>)
  %c = mlax.composite "my.nothing.v2" @my.nothing() : () -> tensor<f32>
  return %r#0, %r#1, %c : tensor<2xf32>, tensor<i32>, tensor<f32>
}
