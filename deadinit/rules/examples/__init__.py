"""The rules' VALID / INVALID and fix examples, by construct: each is a test (``deadinit.rules.run_examples``)
and part of its rule's documentation."""
