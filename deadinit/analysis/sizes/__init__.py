"""How much an allocation holds: symbolic sizes, the values that bind them, layers' parameters."""
