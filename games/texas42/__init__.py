"""Texas 42: the partnership trick-taking game of double-six dominoes (docs/games/texas42.md)."""
