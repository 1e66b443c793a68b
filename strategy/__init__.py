"""Playing strength: a perfect-information solver, bots built on it, and the move advisor."""
