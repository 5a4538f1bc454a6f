// mlax.host_callback parses, verifies and prints back; it has side effects,
// so canonicalize and cse neither erase an unused call nor merge two.
//
// RUN: mlax-opt %s | mlax-opt | FileCheck %s
// RUN: mlax-opt %s --canonicalize --cse | FileCheck %s --check-prefix=KEEP

// CHECK-LABEL: func.func @calls(
// CHECK: mlax.host_callback %{{.*}} {callback = 0 : i64, kind = "debug", ordered} : (tensor<3xf32>) -> ()
// CHECK: mlax.host_callback %{{.*}} {callback = 1 : i64, kind = "pure", vmap_method = "expand_dims"} : (tensor<3xf32>, tensor<i32>) -> tensor<3xf32>
// CHECK: mlax.host_callback {callback = 2 : i64, kind = "io"} : () -> tensor<2xi32>
// KEEP-LABEL: func.func @calls(
// KEEP-COUNT-2: kind = "debug"
// KEEP: kind = "pure"
// KEEP: kind = "pure"
// KEEP: kind = "io"
func.func @calls(%x: tensor<3xf32>, %n: tensor<i32>) -> tensor<3xf32> {
  mlax.host_callback %x {callback = 0 : i64, kind = "debug", ordered} : (tensor<3xf32>) -> ()
  mlax.host_callback %x {callback = 0 : i64, kind = "debug", ordered} : (tensor<3xf32>) -> ()
  %y = mlax.host_callback %x, %n {callback = 1 : i64, kind = "pure", vmap_method = "expand_dims"}
      : (tensor<3xf32>, tensor<i32>) -> tensor<3xf32>
  %unused = mlax.host_callback %x, %n {callback = 1 : i64, kind = "pure", vmap_method = "expand_dims"}
      : (tensor<3xf32>, tensor<i32>) -> tensor<3xf32>
  %z = mlax.host_callback {callback = 2 : i64, kind = "io"} : () -> tensor<2xi32>
  return %y : tensor<3xf32>
}
