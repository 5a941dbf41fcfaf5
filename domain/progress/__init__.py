"""The ProgressTracker aggregate: the progress protocol of SPEC §7, pure and event-sourced."""
