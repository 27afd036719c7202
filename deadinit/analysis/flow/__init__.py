"""The flattened ``__init__`` chain of a class and what holds along it: conditions, asserts,
a binding's fate, what project functions return."""
