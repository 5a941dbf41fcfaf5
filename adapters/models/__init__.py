"""Model clients: OpenAI-compatible chat over HTTP, and recorded transcripts."""
