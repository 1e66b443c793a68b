"""`domino-oracle infer`: one observer's exact belief from a JSONL log (inference.cli_infer)."""

from inference.cli_infer import register, run

__all__ = ["register", "run"]
