"""Clue (Cluedo) on the game interface: suggestions, private refutations, exact beliefs."""
