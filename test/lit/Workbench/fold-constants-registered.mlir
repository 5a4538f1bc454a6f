// RUN: mlax-opt --help | FileCheck %s

// C++ passes are visible in mlax-opt's help with their options.

// CHECK: --mlax-fold-constants
// CHECK-NEXT: --max-iterations
// CHECK: --mlax-simplify-pipeline
