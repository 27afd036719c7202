"""The rules' VALID / INVALID and fix examples, by construct: each is a test (``deadinit.session.rule_examples``)
and part of its rule's documentation."""
