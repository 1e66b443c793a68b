"""Summarise a py-spy raw (collapsed-stack) profile recorded with `--threads`.

    python docs/profiles/summarise.py PROFILE.raw [TOP]

Prints the share of samples per thread, per stage of a move (the first of these found in a
sample's stack: beliefs, store writer, websockets, table actor, fan-out, session, asyncio),
and the top functions by inclusive and by self samples. py-spy samples every thread that
is not idle, 100 times a second; a thread blocked in a system call that py-spy does not
know as idle (SQLite's fsync in COMMIT) counts as busy, so the store writer's share is
wall time in commits, not all CPU.
"""

from __future__ import annotations

import re
import sys
from collections import Counter

STAGES = (
    ("beliefs", ("server/beliefs/", "belief", "inference/")),
    ("store writer", ("storage/", "sqlalchemy/")),
    ("websockets", ("websockets/",)),
    ("table actor", ("server/tables/",)),
    ("fan-out", ("server/feeds/",)),
    ("session", ("server/session.py",)),
    ("asyncio", ("asyncio/",)),
)


def summarise(path: str, top: int = 25) -> str:
    threads: Counter[str] = Counter()
    stages: Counter[tuple[str, str]] = Counter()
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    total = 0
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            stack, _, count_text = line.rstrip().rpartition(" ")
            count = int(count_text)
            thread, *frames = stack.split(";")
            thread = re.sub(r"\s*\(\d+\)", "", thread).replace("thread", "").strip(" :")
            threads[thread] += count
            total += count
            functions = [re.sub(r":\d+\)$", ")", frame) for frame in frames]
            if functions:
                own[functions[-1]] += count
            for function in set(functions):
                inclusive[function] += count
            joined = ";".join(frames)
            stage = next((name for name, keys in STAGES if any(k in joined for k in keys)),
                         "other")
            stages[(thread, stage)] += count
    out = [f"{total} samples (100 Hz, threads that were not idle)", "", "by thread:"]
    out += [f"  {100 * c / total:5.1f}%  {t}" for t, c in threads.most_common()]
    out += ["", "by thread and stage (the first stage named in the stack):"]
    out += [f"  {100 * c / total:5.1f}%  {t}: {s}" for (t, s), c in stages.most_common()]
    skip = {f for f, c in inclusive.items() if c >= 0.95 * max(threads.values())}
    out += ["", f"top {top} by inclusive samples (frames above the event loop left out):"]
    out += [f"  {100 * c / total:5.1f}%  {f}" for f, c in inclusive.most_common()
            if f not in skip][:top]
    out += ["", f"top {top} by self samples:"]
    out += [f"  {100 * c / total:5.1f}%  {f}" for f, c in own.most_common(top)]
    return "\n".join(out)


if __name__ == "__main__":
    print(summarise(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 25))
