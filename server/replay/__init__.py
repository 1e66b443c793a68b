"""Replays of stored matches: building one, advice on a past move, the HTTP routes."""
