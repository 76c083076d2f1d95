"""The rule sets: the :class:`~settle.rules.registry.Region` interface, the registry, the shared
checks, and one package per region."""
