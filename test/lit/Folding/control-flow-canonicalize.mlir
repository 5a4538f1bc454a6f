// RUN: mlax-opt %s --split-input-file --canonicalize | FileCheck %s

// mlax.cond with a constant index (or with one branch) is its branch,
// inlined (InlineKnownBranch in dialects/Mlax/MlaxControlFlowOps.cpp). An
// index outside [0, n) picks the last branch, as stablehlo.case does.

// CHECK-LABEL: func.func @cond_constant_index
// CHECK-SAME: (%[[X:.*]]: tensor<f32>)
// CHECK-NEXT: %[[N:.*]] = mlax.neg %[[X]] : tensor<f32>
// CHECK-NEXT: return %[[N]] : tensor<f32>
func.func @cond_constant_index(%x: tensor<f32>) -> tensor<f32> {
  %i = mlax.constant dense<1> : tensor<i32>
  %r = mlax.cond %i (%x) : (tensor<i32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    %e = mlax.exp %a : tensor<f32>
    mlax.yield %e : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>):
    %n = mlax.neg %a : tensor<f32>
    mlax.yield %n : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>):
    mlax.yield %a : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @cond_index_too_large
// CHECK-SAME: (%[[X:.*]]: tensor<f32>)
// CHECK-NEXT: %[[N:.*]] = mlax.neg %[[X]] : tensor<f32>
// CHECK-NEXT: return %[[N]] : tensor<f32>
func.func @cond_index_too_large(%x: tensor<f32>) -> tensor<f32> {
  %i = mlax.constant dense<7> : tensor<i32>
  %r = mlax.cond %i (%x) : (tensor<i32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    %e = mlax.exp %a : tensor<f32>
    mlax.yield %e : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>):
    %n = mlax.neg %a : tensor<f32>
    mlax.yield %n : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @cond_index_negative
// CHECK-SAME: (%[[X:.*]]: tensor<f32>)
// CHECK-NEXT: %[[N:.*]] = mlax.neg %[[X]] : tensor<f32>
// CHECK-NEXT: return %[[N]] : tensor<f32>
func.func @cond_index_negative(%x: tensor<f32>) -> tensor<f32> {
  %i = mlax.constant dense<-1> : tensor<i32>
  %r = mlax.cond %i (%x) : (tensor<i32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    %e = mlax.exp %a : tensor<f32>
    mlax.yield %e : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>):
    %n = mlax.neg %a : tensor<f32>
    mlax.yield %n : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

// One branch: inlined whatever the index.
// CHECK-LABEL: func.func @cond_one_branch
// CHECK-SAME: (%[[I:.*]]: tensor<i32>, %[[X:.*]]: tensor<f32>, %[[Y:.*]]: tensor<f32>)
// CHECK-NEXT: %[[M:.*]] = mlax.mul %[[X]], %[[Y]] : tensor<f32>
// CHECK-NEXT: return %[[M]], %[[X]] : tensor<f32>, tensor<f32>
func.func @cond_one_branch(%i: tensor<i32>, %x: tensor<f32>, %y: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %r:2 = mlax.cond %i (%x, %y) : (tensor<i32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = mlax.mul %a, %b : tensor<f32>
    mlax.yield %m, %a : tensor<f32>, tensor<f32>
  }
  return %r#0, %r#1 : tensor<f32>, tensor<f32>
}

// -----

// A cond whose index is not known stays.
// CHECK-LABEL: func.func @cond_unknown_index
// CHECK: mlax.cond
func.func @cond_unknown_index(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  %r = mlax.cond %i (%x) : (tensor<i32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    mlax.yield %a : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>):
    %n = mlax.neg %a : tensor<f32>
    mlax.yield %n : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

// The index becomes constant after folding the ops that compute it; the
// inlined branch then folds too.
// CHECK-LABEL: func.func @cond_folded_index
// CHECK-NEXT: %[[C:.*]] = mlax.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT: return %[[C]] : tensor<f32>
func.func @cond_folded_index() -> tensor<f32> {
  %p = mlax.constant dense<true> : tensor<i1>
  %i = mlax.convert %p : tensor<i1> -> tensor<i32>
  %x = mlax.constant dense<2.0> : tensor<f32>
  %r = mlax.cond %i (%x) : (tensor<i32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    %n = mlax.neg %a : tensor<f32>
    mlax.yield %n : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>):
    mlax.yield %a : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

// Nested: the outer cond is inlined, then the inner one.
// CHECK-LABEL: func.func @cond_nested
// CHECK-SAME: (%[[X:.*]]: tensor<f32>)
// CHECK-NEXT: %[[E:.*]] = mlax.exp %[[X]] : tensor<f32>
// CHECK-NEXT: return %[[E]] : tensor<f32>
func.func @cond_nested(%x: tensor<f32>) -> tensor<f32> {
  %zero = mlax.constant dense<0> : tensor<i32>
  %r = mlax.cond %zero (%x) : (tensor<i32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    %one = mlax.constant dense<1> : tensor<i32>
    %s = mlax.cond %one (%a) : (tensor<i32>, tensor<f32>) -> tensor<f32> {
    ^bb0(%b: tensor<f32>):
      mlax.yield %b : tensor<f32>
    }, {
    ^bb0(%b: tensor<f32>):
      %e = mlax.exp %b : tensor<f32>
      mlax.yield %e : tensor<f32>
    }
    mlax.yield %s : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>):
    mlax.yield %a : tensor<f32>
  }
  return %r : tensor<f32>
}
