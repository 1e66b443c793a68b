"""The `belief` message carries what a game's belief says beyond the common fields: an
estimate's error and the game's own fields (Clue's envelope, Texas 42's trump), validated
by the protocol's own model."""

from __future__ import annotations

import json

from protocol import BeliefMessage
from protocol.frames import belief_frame


def test_an_estimate_keeps_its_error_and_a_game_keeps_its_own_fields() -> None:
    snapshot = {"seq": 7, "observer": "spectator", "model": "sampled: 2,000 draws",
                "status": "estimate", "consistent_deals": None, "entropy_bits": None,
                "marginals": {"P1": {"rope": 0.25}}, "facts": [], "error_95": 0.021,
                "envelope": {"rope": 0.5}, "method": "exact", "samples": None}
    frame = json.loads(belief_frame("t1", snapshot))
    message = BeliefMessage.model_validate(frame)
    assert message.error_95 == 0.021
    assert message.details == {"envelope": {"rope": 0.5}}  # dominoes' bookkeeping left out


def test_an_exact_dominoes_belief_sends_no_details() -> None:
    snapshot = {"seq": 3, "observer": "S", "model": "uniform", "status": "live",
                "consistent_deals": 2**60, "entropy_bits": 60.0, "marginals": {},
                "facts": [], "method": "exact", "samples": None,
                "marginal_entropy_bits": {"W": 1.0}}
    message = BeliefMessage.model_validate(json.loads(belief_frame("t1", snapshot)))
    assert message.details == {} and message.error_95 is None
    assert message.consistent_deals == str(2**60)  # beyond 2^53: a decimal string
