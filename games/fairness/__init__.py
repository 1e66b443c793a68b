"""Fair deals for every game: commit before the deal, reveal after, one documented shuffle.

- `shuffle`: the shuffle, the commitment and derived seeds (docs/fairness.md spells them out);
- `scheme`: the scheme a log names in `match_started.fairness` (none: the game's old one);
- `dealing`: what a game declares about where its log commits and reveals each seed;
- `proof`: any audience's log re-decided from the revealed seeds (`verify` of an export).
"""
