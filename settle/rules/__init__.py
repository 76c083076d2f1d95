"""The rule sets: the :class:`~settle.rules.registry.Region` interface, the registry, the shared checks, one package per region."""
