"""Benchmarks that print figures (`domino-oracle bench TARGET`); none asserts a time."""
