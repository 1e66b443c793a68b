"""Dominoes' own strategy: the perfect-information solver, PIMC over the exact sampler,
the bots, the move advisor and the tournaments of its bots."""
