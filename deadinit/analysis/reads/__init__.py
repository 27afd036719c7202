"""What can read an attribute and from where: reachable methods, the project's ``obj.x`` reads,
outside bases, unsure reads, exports.  The bottom layer of the analysis."""
