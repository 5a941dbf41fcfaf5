"""The logs tool's pure logic: the raw format, redaction, stack folding, template mining,
budgeted selection and the projector that turns a backend's raw result into the bounded
observation the model sees."""
