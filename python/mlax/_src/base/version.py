"""mlax's version (mlax.__version__)."""
__version__ = "0.1.0"
