"""Command implementations behind ``deadinit.cli``: the CLI only wires options to these."""
