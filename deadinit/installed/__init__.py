"""Installed libraries, read as facts: what a class or function imported from another installed
package is, by the same semantic model and summaries as the project's own code, read-only and
never imported (see ``docs/architecture.md``)."""
