"""The campaign's only writers, one module per domain: import the module you need."""
