"""Rule systems: one package each, all behind the interface of :mod:`domain.rules.base`."""
