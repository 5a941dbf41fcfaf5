"""The single release point: guards, repair, semantic check, fallback."""
