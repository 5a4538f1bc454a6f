// A collective still naming a vmap axis at the lowering is outside the
// vmap(axis_name=...) that binds the name (mlax-vectorize rewrites those it
// reaches): an error at the op.
//
// RUN: mlax-opt %s --split-input-file --convert-mlax-to-stablehlo --verify-diagnostics

func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'mlax.all_reduce' op names the vmap axis "i", which no enclosing mlax.vmap binds}}
  %0 = mlax.all_reduce sum %x vmap #mlax.mesh<["i"=4]> over ["i"] : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @main() -> tensor<i32> {
  // expected-error @+1 {{'mlax.axis_index' op names the vmap axis "i", which no enclosing mlax.vmap binds}}
  %0 = mlax.axis_index in #mlax.mesh<["data"=2]> vmap #mlax.mesh<["i"=4]> over ["data", "i"]
  return %0 : tensor<i32>
}
