"""Log stores behind the ``LogBackend`` port."""
