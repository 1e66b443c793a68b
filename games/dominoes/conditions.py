"""Dominoes' disjunctions in words: "someone can follow" and "the leader holds the highest
double dealt". Their exact counting is game-free (inference.parts); the words are ours."""

from __future__ import annotations

from abc import abstractmethod

from games.dominoes.facts import Fact, join, name
from games.dominoes.tiles import Tile
from inference.classes import POOL, Position
from inference.parts import Condition, NotAllInPool


class WordedCondition(Condition[Tile]):
    """A disjunction with its words: every pending dominoes condition is also a fact shown."""

    @abstractmethod
    def fact(self, position: Position) -> Fact:
        """The condition in words, naming what is still unseen in `position`."""


class CanFollow(NotAllInPool[Tile], WordedCondition):
    """The hand went on after the last play: not every unseen tile of an end is in the pool."""

    kind = "can_follow"

    def fact(self, position: Position) -> Fact:
        tiles, who = self.listed(position)
        if not who or not tiles:  # only when no deal is left: the text of the error
            ends = f"{join([str(t) for t in tiles])}" if tiles else "no tile of the ends"
            text = f"some seat can follow, but no seat may hold {ends}"
        else:
            text = (f"{join([name(h) for h in who], 'or')} can follow: "
                    f"the pool cannot hold all of {join([str(t) for t in tiles])}")
        return Fact("either", tuple(who), tuple(tiles), (), text)


class LeadsHighest(WordedCondition):
    """Hand 1, before its first tile: the leader holds the lead tile of the deal, the highest
    double dealt (or, when every double sleeps, the heaviest tile dealt)."""

    kind = "leads_highest"

    def fact(self, position: Position) -> Fact:
        tiles, who = self.listed(position)
        pool_bit = 1 << position.holders.index(POOL)
        candidates = [t for t in tiles if position.allowed[t] & ~pool_bit]
        doubles = [t for t in candidates if t.is_double]
        subject = join([name(h) for h in who], "or") if who else "The leader"
        if doubles:
            text = (f"{subject} holds the highest double dealt, "
                    f"{join([str(t) for t in doubles], 'or')}, and every double above it "
                    "is in the pool")
            if len(doubles) < len(candidates):
                text += " (or, if every double is, the heaviest tile dealt)"
        elif candidates:
            text = (f"{subject} holds the heaviest tile dealt, "
                    f"{join([str(t) for t in candidates[:3]], 'or')}"
                    f"{' or a lighter one' if len(candidates) > 3 else ''}, "
                    "and every tile above it is in the pool")
        else:
            text = f"{subject} holds no tile that could lead"
        return Fact("either", tuple(who), tuple(tiles), (), text)

