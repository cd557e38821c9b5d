"""The game engines: pure Python, nothing of Django or of the rest of the project (docs/architecture.md).

``kernel/`` holds what every game shares (actions, refusals, seeded randomness, the rules protocol,
declared guards, choices, the registry); each other package is one game, named by its slug."""
