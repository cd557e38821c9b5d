"""The King's Dilemma: the pure rules of one game night (see ``rules.py``)."""
