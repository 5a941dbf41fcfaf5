"""Verifying a run: its hash chain against the head kept outside the stream, its vault bodies
against the digests its events recorded."""
