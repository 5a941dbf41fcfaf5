"""SQLite adapters: the event store and the payload vault in one embedded database file."""
