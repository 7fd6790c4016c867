"""Views of a record: the replay model the engine produces (`model`), and what renders it (the
terminal's replay, `terminal`; the browser page, `page`). No rule of a game is stated here."""
