"""simulation/kill_soak.py's verdict: what it calls a lost, doubled or invented card and a hold
for an unheard card. The journal is a stand-in list of records here (the check reads only
kind, payload and round, and the chain's verdict); the slow HIL test
(tests/hil/test_hil_kill_while_dealing.py) runs it on the real daemon's journal."""
from types import SimpleNamespace

from simulation.kill_soak import SoakResult, check


class JournalStandIn:
    def __init__(self, records, chain_ok=True):
        self._records, self.chain_ok = records, chain_ok

    def records(self, since=0):
        return self._records

    def verify(self):
        return SimpleNamespace(ok=self.chain_ok)


def card(counter, code=0x0101, event="CardDrawn"):
    return SimpleNamespace(kind="device", round=None, payload={"event": event, "draw_counter": counter, "code": code})


def verdict(records, drawn, chain_ok=True) -> SoakResult:
    result = SoakResult("fortune6", drawn=list(drawn))
    check(JournalStandIn(records, chain_ok), result)
    return result


def test_every_card_once_with_a_repeat_dropped_is_clean():
    result = verdict([card(1), card(2), card(2, event="DrawRepeated"), card(3)], [(1, 0x0101), (2, 0x0101), (3, 0x0101)])
    assert result.problems == [] and result.repeats == 1


def test_a_lost_a_doubled_and_an_invented_card_are_each_named():
    result = verdict([card(1), card(1), card(4)], [(1, 0x0101), (2, 0x0101)])
    assert result.problems == ["card 1 (code 0x0101) drawn 1x, journaled 2x",
                               "card 2 (code 0x0101) drawn 1x, journaled 0x",
                               "card 4 (code 0x0101) journaled but never drawn"]


def test_a_hold_for_an_unheard_card_and_a_broken_chain_are_problems():
    hold = SimpleNamespace(kind="irregularity", round=7,
                           payload={"detail": "draw counter 5 shows 1 card(s) left unheard", "evidence": {"unheard": 1}})
    result = verdict([card(1), hold], [(1, 0x0101)], chain_ok=False)
    assert result.problems == ["round 7 held for an unheard card: draw counter 5 shows 1 card(s) left unheard",
                               "the journal's chain does not verify"]
