"""The read-only SQL tool's adapters: settings → policies, executors, the tool itself."""
