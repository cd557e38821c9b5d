"""Hang guards for tests that wait on threads, processes or services.

Correctness tests have no deadlines: a wait ends as soon as what it waits for happens, and only a
generous guard stops a test that would otherwise hang for ever. Speed is measured in make bench.
"""

HANG_GUARD_SECONDS = 600.0  # ten minutes: far beyond any healthy wait, even on a loaded machine
