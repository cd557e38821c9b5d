"""Council of Four: the pure rules of one game (no Django)."""
