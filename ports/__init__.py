"""The protocols the application needs from the outside world."""
