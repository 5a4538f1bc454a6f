// Round trip of the transformation ops: mlax.vmap, then (after the first
// split) the differentiation ops: stop_gradient, mlax.jvp / mlax.vjp and the
// calls with user-defined derivatives.
//
// RUN: mlax-opt %s --split-input-file | mlax-opt --split-input-file | FileCheck %s
// RUN: mlax-opt %s --split-input-file --mlir-print-op-generic | mlax-opt --split-input-file | FileCheck %s

func.func private @f(%x: tensor<3xf32>, %w: tensor<3x3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
// CHECK-LABEL: func.func @round_trip(
// CHECK: mlax.vmap @f(%{{.*}}, %{{.*}}) in_axes = [1, -1] out_axes = [0] size = 10 : (tensor<3x10xf32>, tensor<3x3xf32>) -> tensor<10x3xf32>
func.func @round_trip(%xs: tensor<3x10xf32>, %w: tensor<3x3xf32>) -> tensor<10x3xf32> {
  %r = mlax.vmap @f(%xs, %w) in_axes = [1, -1] out_axes = [0] size = 10
      : (tensor<3x10xf32>, tensor<3x3xf32>) -> tensor<10x3xf32>
  return %r : tensor<10x3xf32>
}

// -----

// Round trip of the differentiation ops: stop_gradient, the transformation
// ops mlax.jvp / mlax.vjp, and the calls with user-defined derivatives.
//

func.func private @f(%x: tensor<3xf32>, %n: tensor<i32>) -> (tensor<3xf32>, tensor<i32>) {
  return %x, %n : tensor<3xf32>, tensor<i32>
}
func.func private @f_jvp(%x: tensor<3xf32>, %n: tensor<i32>, %tx: tensor<3xf32>, %tn: tensor<i32>)
    -> (tensor<3xf32>, tensor<i32>, tensor<3xf32>, tensor<i32>) {
  return %x, %n, %tx, %tn : tensor<3xf32>, tensor<i32>, tensor<3xf32>, tensor<i32>
}
func.func private @f_fwd(%x: tensor<3xf32>, %n: tensor<i32>) -> (tensor<3xf32>, tensor<i32>, tensor<3xf32>) {
  return %x, %n, %x : tensor<3xf32>, tensor<i32>, tensor<3xf32>
}
func.func private @f_bwd(%r: tensor<3xf32>, %cx: tensor<3xf32>, %cn: tensor<i32>) -> (tensor<3xf32>, tensor<i32>) {
  return %cx, %cn : tensor<3xf32>, tensor<i32>
}

// CHECK-LABEL: func.func @ops(
func.func @ops(%x: tensor<3xf32>, %n: tensor<i32>) -> tensor<3xf32> {
  // CHECK: mlax.stop_gradient %{{.*}} : tensor<3xf32>
  %s = mlax.stop_gradient %x : tensor<3xf32>
  // CHECK: mlax.jvp @f(%{{.*}}, %{{.*}}) tangents(%{{.*}}) wrt = [0] : (tensor<3xf32>, tensor<i32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<i32>, tensor<3xf32>, tensor<i32>)
  %j:4 = mlax.jvp @f(%x, %n) tangents(%s) wrt = [0]
      : (tensor<3xf32>, tensor<i32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<i32>, tensor<3xf32>, tensor<i32>)
  // CHECK: mlax.vjp @f(%{{.*}}, %{{.*}}) cotangents(%{{.*}}) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<i32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<i32>, tensor<3xf32>)
  %v:3 = mlax.vjp @f(%x, %n) cotangents(%x) wrt = [0] seeds = [0]
      : (tensor<3xf32>, tensor<i32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<i32>, tensor<3xf32>)
  // CHECK: mlax.custom_jvp_call @f(%{{.*}}, %{{.*}}) jvp_rule = @f_jvp : (tensor<3xf32>, tensor<i32>) -> (tensor<3xf32>, tensor<i32>)
  %c:2 = mlax.custom_jvp_call @f(%x, %n) jvp_rule = @f_jvp : (tensor<3xf32>, tensor<i32>) -> (tensor<3xf32>, tensor<i32>)
  // CHECK: mlax.custom_vjp_call @f(%{{.*}}, %{{.*}}) fwd = @f_fwd bwd = @f_bwd : (tensor<3xf32>, tensor<i32>) -> (tensor<3xf32>, tensor<i32>)
  %d:2 = mlax.custom_vjp_call @f(%x, %n) fwd = @f_fwd bwd = @f_bwd : (tensor<3xf32>, tensor<i32>) -> (tensor<3xf32>, tensor<i32>)
  // CHECK: mlax.remat_call @f(%{{.*}}, %{{.*}}) : (tensor<3xf32>, tensor<i32>) -> (tensor<3xf32>, tensor<i32>)
  %e:2 = mlax.remat_call @f(%x, %n) : (tensor<3xf32>, tensor<i32>) -> (tensor<3xf32>, tensor<i32>)
  // CHECK: mlax.optimization_barrier %{{.*}}, %{{.*}} : tensor<3xf32>, tensor<i32>
  %o:2 = mlax.optimization_barrier %x, %n : tensor<3xf32>, tensor<i32>
  return %v#2 : tensor<3xf32>
}
