"""Partnership dominoes as pure rules: tiles, variants, events, decide/evolve, audiences.

Nothing here does I/O; the server, storage, inference and clients all build on it.
"""
