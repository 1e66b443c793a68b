"""Clue's advisor (games.advice): which suggestion teaches most, when to accuse, which card to
show.

Pure functions of the asking seat's own view. Budgets are work, never time: `SAMPLES` deals
drawn uniformly from the seat's belief (the exact sampler, rejection on the open
disjunctions, at most `DRAW_LIMIT` proposals), with the sampler seeded from the position (a
hash of the seat's view), so the same position gives the same advice at a table, in a replay
and on any machine. The server's wall clock only decides when it gives up with `busy`.

- Its turn (suggest or accuse): when the exact count (else the sound rules) pins the
  envelope, the accusation, probability 1; otherwise every suggestion ranked by the
  expected information its outcome carries about the envelope, in bits: the `infomax`
  bot's own scoring (games.clue.information), the top few with a bootstrap error.
- After its suggestion (accuse or end the turn): the accusation when pinned, else end the
  turn, with the likeliest envelopes and their shares of the deals.
- Refuting (it must show one of the suggested cards it holds): each such card with what
  seeing it tells the suggester, as far as this seat can know the suggester's knowledge
  (everything public plus the cards this seat has shown them): a card already shown to
  them tells nothing new.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from games.advice import AdviceRefused
from games.clue.belief import MODEL, solve
from games.clue.bots import fold, pinned
from games.clue.events import (
    Accused,
    CardShown,
    ClueEvent,
    Dealt,
    Suggested,
    TurnPassed,
    parse_event,
)
from games.clue.information import (
    Drawn,
    Triple,
    conditional_entropy,
    draw_deals,
    envelope_entropy,
    prepare,
    suggestion_entropies,
)
from games.clue.knowledge import ENVELOPE, Knowledge
from games.clue.rules import to_act
from games.clue.state import ClueState
from games.interface import JSON

SAMPLES = 400
"""Deals per suggestion ranking (the bot uses 120 per move)."""
DRAW_LIMIT = 6000
"""Proposals of the exact sampler at most (rejection on the open disjunctions)."""
TOP = 5
"""Suggestions shown with their figures (every one is ranked, for the verdicts)."""
BOOTSTRAP = 40
"""Resamples of the deals for the shown suggestions' error."""
ENVELOPES = 3
"""Likeliest envelopes shown."""
Z95 = 1.959963984540054
SUGGEST_EVALUATOR = ("expected information about the envelope, I(outcome; envelope) in bits, "
                     "where the outcome is who refutes and the card shown (the refuter's "
                     "choice taken as uniform): plug-in over the deals, the infomax bot's own "
                     "scoring; ± is a 95% bootstrap spread over the deals (the plug-in reads "
                     "high when the deals are few against the envelopes still possible, and "
                     "that bias is not in the ±)")
SHOW_MODEL = ("the suggester's knowledge as far as this seat can be sure of it, simplified: "
              "the public passes and hand sizes, the cards this seat has shown them and the "
              "suggestion being answered (their own hand, the cards others showed them and "
              "the earlier 'showed one of three' clues are left out); " + MODEL)
SHOW_WORK_BUDGET = 250_000
"""The exact count's work (transitions, games.clue.belief) for the suggester's knowledge (one
open disjunction, besides any wrong accusations: a small count), past which it is a labelled
estimate."""
SHOW_EVALUATOR = ("bits = -log2 P(the card is not in the envelope), what seeing it tells "
                  "them about the envelope; where_bits = -log2 P(this seat holds it), what it "
                  "tells them about the deal")
ADVICE_RULES_BASIS = {"exact": "the exact count of consistent deals gives it probability 1",
                      "rules": "the sound deduction rules prove it (the exact count is over "
                               "its budget)"}


class ClueAdvisor:
    """games.advice.Advisor for Clue (plain object: pickles by class)."""

    seconds = 60.0
    """Only the server's give-up bound: the ranking takes about a second of CPU."""
    replay_seconds = 60.0

    def check(self, state: ClueState | None, seat: str) -> None:
        if state is None or state.phase in ("deal", "over"):
            raise AdviceRefused("wrong_phase", "no match in play")
        if seat not in to_act(state):
            raise AdviceRefused("not_your_turn", f"advice is for the seat to act "
                                                 f"({', '.join(to_act(state))})")

    def advise(self, view: Sequence[JSON], seat: str, seed: int, seconds: float) -> JSON:
        return advise(view, seat)

    def decision(self, event: Any) -> str | None:
        if isinstance(event, Suggested | CardShown | Accused | TurnPassed):
            return str(event.seat)
        return None

    def verdict(self, advice: JSON, event: Any) -> JSON:
        return verdict(advice, event)


ADVISOR = ClueAdvisor()


def position_seed(view: Sequence[JSON], seat: str, samples: int) -> int:
    """The sampler's seed: the seat's view itself, never the clock or the request."""
    text = json.dumps([seat, samples, list(view)], sort_keys=True, separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def advise(view: Sequence[JSON], seat: str, samples: int = SAMPLES) -> JSON:
    """The advice for `seat` now (see the module docstring)."""
    events = [parse_event(data) for data in view]
    if not events:
        raise AdviceRefused("wrong_phase", "no match in play")
    state, knowledge = fold(events, seat)
    if state.phase in ("deal", "over"):
        raise AdviceRefused("wrong_phase", "no match in play")
    if seat not in to_act(state):
        raise AdviceRefused("not_your_turn", "advice is for the seat to act")
    if state.phase == "refute":
        return show_advice(events, state, seat)
    found = pinned(knowledge)
    if found is not None:
        triple, basis = found
        return {"kind": "accuse", "seat": seat, "basis": basis, "exact": True,
                "moves": [{"kind": "accuse", **_named(triple), "probability": 1.0}],
                "label": f"certain: {ADVICE_RULES_BASIS[basis]}; {MODEL}"}
    rng = random.Random(position_seed(view, seat, samples))
    deals = draw_deals(knowledge, rng, samples, DRAW_LIMIT)
    if not deals:
        return {"kind": "suggest" if state.phase == "turn" else "end_turn", "seat": seat,
                "moves": [], "samples": 0,
                "note": f"no consistent deal was drawn in {DRAW_LIMIT} proposals",
                "label": f"no figures: {MODEL}"}
    drawn = prepare(state, knowledge, seat, deals)
    sampled = (f"{len(deals)} deals drawn uniformly from those consistent with this seat's "
               f"view (exact sampler, rejection on the open disjunctions; seeded from the "
               f"position); {MODEL}")
    likely = _likely_envelopes(drawn)
    if state.phase == "after":
        return {"kind": "end_turn", "seat": seat, "samples": len(deals),
                "moves": [{"kind": "end_turn"}], "likely_envelopes": likely,
                "note": "no accusation is certain yet, and a wrong one puts you out",
                "label": f"envelope shares over {sampled}"}
    return {**suggest_advice(state, drawn, rng), "seat": seat, "samples": len(deals),
            "likely_envelopes": likely,
            "label": f"{SUGGEST_EVALUATOR}; over {sampled}", "evaluator": SUGGEST_EVALUATOR}


def _named(triple: Triple) -> JSON:
    return {"suspect": triple[0], "weapon": triple[1], "room": triple[2]}


def suggest_advice(state: ClueState, drawn: Drawn, rng: random.Random) -> JSON:
    """Every suggestion's expected information in bits, best first: the top `TOP` with a
    bootstrap error, all of them in `ranking` as [suspect, weapon, room, bits]."""
    before = envelope_entropy(drawn)
    scored = [(t, before - h) for t, h in suggestion_entropies(state, drawn)]
    order = sorted(range(len(scored)), key=lambda i: -scored[i][1])  # stable: deck order ties
    n = len(drawn.wheres)
    resamples = [[rng.randrange(n) for _ in range(n)] for _ in range(BOOTSTRAP)]
    moves: list[JSON] = []
    for i in order[:TOP]:
        triple, bits = scored[i]
        spread = [envelope_entropy(drawn, picks) - conditional_entropy(triple, drawn, picks)
                  for picks in resamples]
        mean = sum(spread) / len(spread)
        sd = math.sqrt(sum((x - mean) ** 2 for x in spread) / (len(spread) - 1))
        moves.append({"kind": "suggest", **_named(triple), "bits": round(bits, 4),
                      "error_95": round(Z95 * sd, 4)})
    return {"kind": "suggest", "moves": moves, "envelope_bits": round(before, 4),
            "ranking": [[*scored[i][0], round(scored[i][1], 4)] for i in order]}


def _likely_envelopes(drawn: Drawn) -> list[JSON]:
    n = len(drawn.envelopes)
    out: list[JSON] = []
    for env, count in Counter(drawn.envelopes).most_common(ENVELOPES):
        if len(env) != 3:
            continue
        share = count / n
        out.append({**_named((env[0], env[1], env[2])), "share": round(share, 4),
                    "error_95": round(_wilson_half(share, n), 4)})
    return out


def _wilson_half(p: float, n: int) -> float:
    z2 = Z95 * Z95
    return Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)


def suggester_knowledge(events: Sequence[ClueEvent], seat: str, suggester: str) -> Knowledge:
    """What `seat` can be sure `suggester` knows, simplified to what counts exactly at once:
    the public passes and hand sizes, the cards `seat` showed them and the suggestion being
    refuted now (folded as an observer holding no seat; the earlier "showed one of three"
    clues between others are left out)."""
    knowledge = Knowledge(f"{suggester}-as-known-to-{seat}")
    for event in events:
        if isinstance(event, Dealt):
            event = event.model_copy(update={
                "hands": dict.fromkeys(event.hands), "envelope": None, "secret": None})
        elif isinstance(event, CardShown) and not (event.seat == seat
                                                   and event.to == suggester):
            event = event.model_copy(update={"card": None})
        elif isinstance(event, Accused) and not event.correct:
            event = event.model_copy(update={"envelope": None})
        knowledge.apply(event)
    knowledge.refutations = knowledge.refutations[-1:]  # the one being answered now
    return knowledge


def show_advice(events: Sequence[ClueEvent], state: ClueState, seat: str) -> JSON:
    """Each card `seat` may show, least telling first (see the module docstring)."""
    pending = state.pending
    assert pending is not None
    hand = state.hands.get(seat) or frozenset()
    cards = [c for c in pending.cards if c in hand]
    knowledge = suggester_knowledge(events, seat, pending.seat)
    shown = {c for c, h in knowledge.seen.items() if h == seat}
    solved = solve(knowledge, SHOW_WORK_BUDGET)
    moves: list[JSON] = []
    for card in cards:
        known = card in shown
        row = solved.probabilities[card]
        p_env = 0.0 if known else float(row[ENVELOPE])
        p_mine = 1.0 if known else float(row[seat])
        moves.append({"kind": "show", "card": card, "already_shown": known,
                      "p_envelope": round(p_env, 4), "bits": _bits(1.0 - p_env),
                      "where_bits": _bits(p_mine)})
    moves.sort(key=lambda m: (m["bits"], m["where_bits"]))
    how = ("exact count" if solved.exact
           else f"estimate, each probability ±{solved.half_width:.3f} (95%)")
    out: JSON = {"kind": "show", "seat": seat, "suggester": pending.seat, "moves": moves,
                 "exact": solved.exact, "label": f"{SHOW_EVALUATOR}; {how}; model: {SHOW_MODEL}"}
    if not solved.exact:
        out["error_95"] = round(solved.half_width, 4)
    return out


def _bits(p: float) -> float:
    """-log2 p, rounded (0 for a certainty, never -0.0; p > 0: a card this seat holds is
    never impossible for the suggester, nor certain to be in the envelope)."""
    return round(-math.log2(p), 4) + 0.0 if p > 0 else 99.0


def verdict(advice: JSON, event: Any) -> JSON:
    """Where the move `event` made stands in `advice` (games.advice.Advisor.verdict)."""
    kind = advice.get("kind")
    best = (advice.get("moves") or [None])[0]
    if isinstance(event, Suggested):
        triple = [event.suspect, event.weapon, event.room]
        played: JSON = {"kind": "suggest", **_named((triple[0], triple[1], triple[2]))}
        ranking = advice.get("ranking") or []
        bits = next((r[3] for r in ranking if r[:3] == triple), None)
        rank = (1 + sum(1 for r in ranking if r[3] > bits + 1e-9)
                if bits is not None else None)
        return {"played": played, "rank": rank, "bits": bits, "best": best}
    if isinstance(event, CardShown):
        moves = advice.get("moves") or []
        rank = next((i + 1 for i, m in enumerate(moves) if m.get("card") == event.card), None)
        return {"played": {"kind": "show", "card": event.card}, "rank": rank, "best": best}
    if isinstance(event, Accused):
        played = {"kind": "accuse", **_named((event.suspect, event.weapon, event.room))}
        if kind == "accuse" and best is not None:
            same = all(best[k] == played[k] for k in ("suspect", "weapon", "room"))
            return {"played": played, "rank": 1 if same else None, "best": best}
        share = next((e["share"] for e in advice.get("likely_envelopes") or []
                      if all(e[k] == played[k] for k in ("suspect", "weapon", "room"))), None)
        return {"played": played, "rank": None, "share": share, "best": best}
    if isinstance(event, TurnPassed):
        return {"played": {"kind": "end_turn"}, "rank": 1 if kind == "end_turn" else 2,
                "best": best}
    return {"played": None, "rank": None}
