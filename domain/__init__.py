"""Herald's pure rules: verifiable randomness, the rule-system interface, the rule systems
and the Game aggregate. Nothing here does I/O beyond reading its own data files."""
