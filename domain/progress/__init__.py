"""The ProgressTracker aggregate: the progress protocol, pure and event-sourced."""
