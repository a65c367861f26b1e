"""Shoe integrity: unshuffled, replayed and slugged shoes, found card by card with a stated
false-alarm probability under a fair shuffle (docs/integrity.md).

  deck_index     cards as small numbers, the factory successor of each, exact sequence counts
  factory_order  unshuffled: a CUSUM of exact likelihood ratios, bounded by Ville's inequality
  openings       replayed: the index of past shoes' openings; exact probability of a match
  slug           a run of the previous shoe's cards again, bounded by the expected matches
  alarm          Alarm, CheckStatistic, the false-alarm rate and local ruling L7
  watch          ShoeWatch (what the table calls) and ShoeHistory (what it loads at start-up)
"""
from games.integrity.alarm import BLOCK, CLAUSE, DEFAULT_FALSE_ALARM_RATE, IRREGULARITY_KIND, Alarm, Check, CheckStatistic
from games.integrity.watch import ShoeHistory, ShoeWatch

__all__ = ["BLOCK", "CLAUSE", "DEFAULT_FALSE_ALARM_RATE", "IRREGULARITY_KIND", "Alarm", "Check", "CheckStatistic",
           "ShoeHistory", "ShoeWatch"]
