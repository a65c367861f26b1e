"""The dealer page: the round in play's wagers, payouts and mispays, beside the table (docs/dealer.md)."""
