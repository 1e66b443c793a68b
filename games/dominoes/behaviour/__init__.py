"""Dominoes' behaviour model of its players (behaviour:greedy): the likelihood of the plays
seen, its fitted inverse temperatures, the odds it gives and its calibration."""
