"""recordkit's version: written into every archive it makes, and shown by `recordkit --version`."""

__version__ = "0.1.0"
