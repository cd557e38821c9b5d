import random


def seeded_rng(seed: int, step: int) -> random.Random:
    """The only source of randomness: derived from the session seed and the action count,
    so replaying the log reproduces the game exactly."""
    return random.Random(f"{seed}:{step}")
