"""The presenters: games/presenters/base.py (what every presenter shares), one module per game."""
