"""Recording a game live: the `Recorder` API, its journal, and the interactive `recordkit record`."""

from __future__ import annotations

from recordkit.recorder.journal import JournalError
from recordkit.recorder.recorder import Recorder
from recordkit.recorder.refusal import RefusedError

__all__ = ["JournalError", "Recorder", "RefusedError"]
