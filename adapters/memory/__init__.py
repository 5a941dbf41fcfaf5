"""In-process adapters: real code, used by unit tests and the embedded default."""
