func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.mul %x : tensor<4xf32>
}
