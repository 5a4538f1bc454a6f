// RUN: %PYTHON -m mlax.tools.opt %s --python-pass %examples/square_to_pow.py:square_to_pow --pass mlax-fold-constants | FileCheck %s --check-prefix=PY-THEN-FOLD
// RUN: %PYTHON -m mlax.tools.opt %s --pass mlax-fold-constants --python-pass %examples/square_to_pow.py:square_to_pow | FileCheck %s --check-prefix=FOLD-THEN-PY
// RUN: %PYTHON -m mlax.tools.opt %s --load %examples/square_to_pow.py --pass square-to-pow --pass 'builtin.module(func.func(cse))' | FileCheck %s --check-prefix=PY-THEN-FOLD

// C++ and Python passes run in the order given on the command line; a
// registered Python pass can be named like a C++ one (after --load).

// The constant square becomes pow(3, 2), which the folder evaluates...
// PY-THEN-FOLD-LABEL: func.func @const_square
// PY-THEN-FOLD: mlax.constant dense<9.000000e+00>
// ...but folding first leaves no square for the Python pass to see.
// FOLD-THEN-PY-LABEL: func.func @const_square
// FOLD-THEN-PY: mlax.constant dense<9.000000e+00>
func.func @const_square() -> tensor<f32> {
  %c = mlax.constant dense<3.0> : tensor<f32>
  %0 = mlax.mul %c, %c : tensor<f32>
  return %0 : tensor<f32>
}

// PY-THEN-FOLD-LABEL: func.func @arg_square
// PY-THEN-FOLD: mlax.pow
// FOLD-THEN-PY-LABEL: func.func @arg_square
// FOLD-THEN-PY: mlax.pow
func.func @arg_square(%x: tensor<f32>) -> tensor<f32> {
  %0 = mlax.mul %x, %x : tensor<f32>
  return %0 : tensor<f32>
}
