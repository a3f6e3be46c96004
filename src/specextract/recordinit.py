"""``@one_update_init``: a frozen dataclass made for every figure, cheaper to build.

A frozen dataclass's own ``__init__`` sets each field through ``object.__setattr__``;
the one made here takes the same parameters (names, order, defaults), fills the instance
dict in one ``update`` and then runs ``__post_init__`` if the class has one. Equality,
hashing, ``dataclasses.replace``, pickling and the frozen guard are unchanged. Put it
above ``@dataclass(frozen=True)``; fields with a ``default_factory`` are refused.
"""
from __future__ import annotations

import dataclasses


def one_update_init(cls: type) -> type:
    params, defaults = [], {}
    for f in dataclasses.fields(cls):
        if f.default_factory is not dataclasses.MISSING or not f.init:
            raise TypeError(f"{cls.__name__}.{f.name}: one_update_init takes plain fields only")
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            defaults[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
    names = [f.name for f in dataclasses.fields(cls)]
    body = [f"    self.__dict__.update({', '.join(f'{n}={n}' for n in names)})"]
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    source = f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body) + "\n"
    namespace: dict = {}
    exec(source, defaults, namespace)  # noqa: S102 - source built from the field names only
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    cls.__init__ = init
    return cls
