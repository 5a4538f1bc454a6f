// Input for the generated Python op classes (mlax/_src/dialect/_mlax_ops_gen.py).
include "mlax/Dialect/Mlax/IR/MlaxOps.td"
