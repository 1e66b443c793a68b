"""Uno for two (seed 004): rules, per-audience views and an exact belief over card kinds."""
