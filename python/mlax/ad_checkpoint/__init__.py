"""mlax.ad_checkpoint: rematerialisation, as jax.ad_checkpoint (`checkpoint`,
its policies and `checkpoint_name`; `print_saved_residuals` lists what a
vjp saves for its backward pass)."""
from mlax._src.transforms.ad_checkpoint import (  # noqa: F401
    Offloadable, Recompute, Saveable, checkpoint_name, checkpoint_policies)
from mlax._src.transforms.autodiff import (  # noqa: F401
    checkpoint, print_saved_residuals)
