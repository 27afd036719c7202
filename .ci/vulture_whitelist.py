"""Names vulture cannot see used; each line says who uses it.

vulture reads this file with the package (``[tool.vulture]`` in pyproject.toml): a
name that appears here counts as used everywhere.
"""

case_sensitive  # deadinit.cli.fix._Strategies: read by click.Choice
