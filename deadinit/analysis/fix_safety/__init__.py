"""Whether a fix may skip an allocation: the fix level, flag fixability, weight loaders, whether
a fix is worth it."""
