"""The table: round state machine, irregularities, journal, lamps, panel, daemon, CLI."""
