"""MariaDB fixtures for the integration tests (a throwaway server or the running one)."""
