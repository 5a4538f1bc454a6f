// Errors of collectives over vmap axes: every axis is a mesh axis or a vmap
// axis (not both), every vmap axis is named, a collective has one of them.
//
// RUN: mlax-opt %s --split-input-file --verify-diagnostics

func.func @no_mesh_no_vmap(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{needs a #mlax.mesh 'mesh' or vmap axes 'vmap_axes'}}
  %0 = mlax.all_reduce sum %x over ["i"] : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @unknown_axis(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{axis "k" is neither a vmap axis (["i"=4]) nor a mesh axis (["data"=2])}}
  %0 = mlax.all_reduce sum %x in #mlax.mesh<["data"=2]> vmap #mlax.mesh<["i"=4]> over ["i", "k"] : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @both(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{axis "i" is both a mesh axis and a vmap axis}}
  %0 = mlax.all_reduce sum %x in #mlax.mesh<["i"=2]> vmap #mlax.mesh<["i"=4]> over ["i"] : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @unnamed_vmap_axis(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{vmap_axes lists "j", which axes does not name}}
  %0 = mlax.all_reduce sum %x vmap #mlax.mesh<["i"=4, "j"=2]> over ["i"] : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @repeated(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{axis "i" appears twice in axes}}
  %0 = mlax.all_reduce sum %x vmap #mlax.mesh<["i"=4]> over ["i", "i"] : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @gather_size(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{split dimension 0 has size 3, but not tiled it must be the group size 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = mlax.all_to_all %x vmap #mlax.mesh<["i"=4]> over ["i"] {concat_dimension = 0 : i64, split_dimension = 0 : i64} : tensor<3xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
