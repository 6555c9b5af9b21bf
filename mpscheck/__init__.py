"""mpscheck: can PyTorch use the GPU of this Mac (MPS)? If not, why, and what to type to fix it."""

__version__ = "0.1.0"
