"""One package per game, pure and I/O-free; each registers itself in `games.registry`."""
