"""Bids and what a hand is worth: made or set, marks or points.

Bids: 0 passes; 30..41 are points; 42 is one mark and 84 two marks, and both need every one
of the 42 points (all seven tricks). A made bid scores its marks for the bidders; a set bid
gives the same marks to the other team. In a points game (a table option) a made hand scores
each team the points it took, a set hand scores the bidders nothing and the defenders their
points plus the bid.
"""

from __future__ import annotations

from games.texas42.dominoes import TOTAL_POINTS, other_team, team_of

PASS = 0
POINT_BIDS = tuple(range(30, 42))
MARK_BIDS = (42, 84)
BIDS = (*POINT_BIDS, *MARK_BIDS)


def marks_of(bid: int) -> int:
    return 2 if bid == 84 else 1


def needed(bid: int) -> int:
    """Points the bidders must take to make `bid`."""
    return min(bid, TOTAL_POINTS)


def made(bid: int, bidder_points: int) -> bool:
    return bidder_points >= needed(bid)


def award(bidder: str, bid: int, points: dict[str, int], in_points: bool) -> dict[str, int]:
    """What each team scores for the hand."""
    ours, theirs = team_of(bidder), other_team(team_of(bidder))
    if made(bid, points[ours]):
        if in_points:
            return {ours: points[ours], theirs: points[theirs]}
        return {ours: marks_of(bid), theirs: 0}
    if in_points:
        return {ours: 0, theirs: points[theirs] + bid}
    return {ours: 0, theirs: marks_of(bid)}


def award_nello(bidder: str, bid: int, success: bool, in_points: bool) -> dict[str, int]:
    """A nello hand: the bidder lost every trick (success) or caught one. Marks: the bid's
    marks to the bidders or to the defenders, as for any mark bid. Points (our reading, as no
    source scores nello for points): the bid (42 or 84) to whichever team wins the hand."""
    ours, theirs = team_of(bidder), other_team(team_of(bidder))
    value = bid if in_points else marks_of(bid)
    return {ours: value, theirs: 0} if success else {ours: 0, theirs: value}


def legal_bids(high: int, forced: bool) -> list[int]:
    """The bids a seat may make over `high`; pass first unless `forced` (the dealer must bid)."""
    raises = [b for b in BIDS if b > high]
    return raises if forced else [PASS, *raises]
