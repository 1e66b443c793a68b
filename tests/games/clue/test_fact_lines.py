"""The facts as a player reads them: a line per card, a line per reason, each said once, each
true in the exact belief (a card "in P2's hand" has probability 1 there, "not in" 0)."""

from __future__ import annotations

import random
import re

from games.clue.facts import deduce
from games.clue.game import CLUE
from games.play import play_match

PLACED = re.compile(r"^in (P\d|the envelope)(?:'s hand)?$")


def test_each_card_and_each_reason_is_said_once_and_agrees_with_the_numbers() -> None:
    seats = CLUE.variants()["clue"].seats
    events = play_match(CLUE, "clue", {s: CLUE.bots()["infomax"] for s in seats},
                        random.Random(7))
    raw = lines = checked = 0
    for observer in ("P1", "P3"):
        belief = CLUE.belief(observer, "clue")
        for event in events[:24]:
            belief.apply(CLUE.view(event, observer))
            snap = belief.snapshot_dict()
            if "fact_groups" not in snap:
                continue
            groups = snap["fact_groups"]
            cards = [c["card"] for c in groups["cards"]]
            assert len(cards) == len(set(cards))
            assert len(groups["rules"]) == len(set(groups["rules"]))
            assert snap["facts"] == [c["text"] for c in groups["cards"]] + groups["rules"]
            assert not any("disjointedness" in line for line in snap["facts"])
            marginals = snap["marginals"]
            for line in groups["cards"]:
                card, said = line["card"], line["text"].removeprefix(f"{line['card']}: ")
                placed = PLACED.match(said)
                if placed:
                    holder = "envelope" if placed.group(1) == "the envelope" else placed.group(1)
                    assert marginals[holder][card] == 1.0, line
                for part in said.split("; "):
                    if part.startswith("not in ") and part.endswith(" hand"):
                        for seat in re.findall(r"P\d", part):
                            assert marginals[seat][card] == 0.0, line
                    if part == "not in the envelope":
                        assert marginals["envelope"][card] == 0.0, line
                checked += 1
            raw += len(deduce(belief.knowledge))
            lines += len(snap["facts"])
    print(f"{raw} facts from the rules said in {lines} lines; {checked} card lines checked")
    assert checked > 20 and lines < raw
