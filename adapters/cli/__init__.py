"""The ``factledger`` command line: a driving adapter over the application layer."""
