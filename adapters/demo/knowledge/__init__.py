"""Demo runbooks (package data: the ``.md`` files beside this module)."""
