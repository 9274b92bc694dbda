"""Build-time tools (never imported by torch at run time). Mirrors PyTorch's tools/ package."""
