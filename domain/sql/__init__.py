"""The read-only SQL tool's pure logic: the validator, the plan, the projector."""
