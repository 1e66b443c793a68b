"""Frozen slotted dataclasses built at half the cost, for the few made once per event.

A frozen dataclass's __init__ sets every field through `object.__setattr__`, looked up anew
for each; the store builds several such records per event (its input, its answer), so on
the write path that was a visible share of the commit. `maker(cls)` returns a function that
takes the fields in order and sets the slots through their descriptors: the same object
(equal, hashable and frozen afterwards), without the __init__ (so without __post_init__:
only for classes that have none).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def maker(cls: type[T]) -> Callable[..., T]:
    names = [field.name for field in dataclasses.fields(cls)]  # type: ignore[arg-type]
    assert not hasattr(cls, "__post_init__") and all(
        type(getattr(cls, name)).__name__ == "member_descriptor" for name in names
    ), f"{cls.__name__} needs slots and no __post_init__"
    args = ", ".join(f"a{i}" for i in range(len(names)))
    body = "; ".join(f"s{i}(made, a{i})" for i in range(len(names)))
    source = f"def make({args}):\n    made = new(cls); {body}\n    return made\n"
    scope: dict[str, Any] = {"new": object.__new__, "cls": cls}
    scope.update({f"s{i}": getattr(cls, name).__set__ for i, name in enumerate(names)})
    exec(source, scope)  # unrolled, as dataclasses writes its own __init__: no loop, no zip
    make: Callable[..., T] = scope["make"]
    return make
