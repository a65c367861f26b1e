"""The edge service (surveillance): the exact house edge of every wager for the cards left,
recomputed after every round from the journal, with an alert when a wager turns in the
players' favour. `tablectl edge` runs it; services/edge/tracker.py holds the fold, follow.py
the loop over services.follow.JournalFollower."""
