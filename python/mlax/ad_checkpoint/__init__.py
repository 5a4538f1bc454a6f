"""mlax.ad_checkpoint: rematerialisation, as jax.ad_checkpoint (`checkpoint`,
its policies and `checkpoint_name`)."""
from mlax._src.transforms.ad_checkpoint import (  # noqa: F401
    Offloadable, Recompute, Saveable, checkpoint_name, checkpoint_policies)
from mlax._src.transforms.autodiff import checkpoint  # noqa: F401
