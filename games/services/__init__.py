"""The only writers of game sessions (docs/architecture.md section 4), by domain.

A session's state is the fold of its action log over the engine's setup; the cached ``state`` is
that fold, kept so reads are cheap. Every change runs in one transaction with the session row
locked, bumps ``version`` and nudges the clients after the commit. Import each module by its own
name: this package re-exports nothing.
"""
