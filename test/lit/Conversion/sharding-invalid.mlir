// Every sharding of a program must use one mesh (XLA partitions a program
// over one set of devices): convert-mlax-to-stablehlo reports the first
// sharding on another mesh where it is, and the first sharding's place.
//
// RUN: mlax-opt %s --split-input-file --convert-mlax-to-stablehlo --verify-diagnostics

// expected-note @+1 {{the first sharding on ["data"=4, "model"=2]}}
func.func @main(%x: tensor<8x8xf32> {mlax.sharding = #mlax.sharding<["data"=4, "model"=2], [{"data"}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{this sharding_constraint's value is sharded over the mesh ["data"=2, "model"=4], but the module's shardings use the mesh ["data"=4, "model"=2]; all shardings of one program must use the same mesh}}
  %0 = mlax.sharding_constraint %x {sharding = #mlax.sharding<["data"=2, "model"=4], [{"data"}]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// Same sizes, other names: another mesh.
// expected-note @+2 {{the first sharding on ["x"=8]}}
// expected-error @+1 {{result #0 of @main is sharded over the mesh ["y"=8], but the module's shardings use the mesh ["x"=8]}}
func.func @main(%x: tensor<8xf32> {mlax.sharding = #mlax.sharding<["x"=8], [{"x"}]>}) -> (tensor<8xf32> {mlax.sharding = #mlax.sharding<["y"=8], [{"y"}]>}) {
  return %x : tensor<8xf32>
}

// -----

// expected-note @+1 {{the first sharding on ["x"=2]}}
func.func private @callee(%x: tensor<8xf32> {mlax.sharding = #mlax.sharding<["x"=2], []>}) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}
// expected-error @+1 {{argument #0 of @main is sharded over the mesh ["x"=2, "y"=1], but the module's shardings use the mesh ["x"=2]}}
func.func @main(%x: tensor<8xf32> {mlax.sharding = #mlax.sharding<["x"=2, "y"=1], []>}) -> tensor<8xf32> {
  %0 = mlax.call @callee(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
