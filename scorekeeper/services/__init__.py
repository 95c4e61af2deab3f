"""Every change the app makes, one transaction each: the checks and the scoring of the core, applied
to what storage holds."""
