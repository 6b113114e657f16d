"""Keep Python's cyclic garbage collector off the objects a server process loads once.

A Django process holds a few hundred thousand objects that live as long as it does (modules,
models, URL patterns, compiled statements). Python's collector scans all of them at each
full collection: about 100 ms in which every thread of the process stands still, which the
dealer's next tap waits out. ``gc.freeze()`` moves what is loaded at startup to a generation
the collector never scans; what a request makes is still collected as before.
"""

from __future__ import annotations

import gc


def freeze_loaded() -> None:
    """Load what a request would load first (the URL patterns and their views), collect once,
    and freeze everything alive: called by each server process once the application is up."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - imports every app's urls and views
    gc.collect()
    gc.freeze()
