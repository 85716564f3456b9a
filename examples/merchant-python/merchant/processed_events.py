"""The ids of the events handled, so that a redelivery is answered without being handled twice."""

from __future__ import annotations

import threading


class ProcessedEvents:
    """In memory; in a real shop, a table keyed by the event id (a unique key), written with the order's change."""

    def __init__(self) -> None:
        self._ids: set[str] = set()
        self._lock = threading.Lock()

    def __contains__(self, event_id: str) -> bool:
        with self._lock:
            return event_id in self._ids

    def add(self, event_id: str) -> None:
        with self._lock:
            self._ids.add(event_id)
