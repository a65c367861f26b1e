"""Collection fee schedules 1-26, checked against the rule text as printed."""
from fractions import Fraction

import pytest

from games.baccarat.california.fees import (
    SCHEDULES,
    ActionSchedule,
    SpotSchedule,
    check_limits,
    collection_fees,
    schedule,
)
from games.baccarat.california.stakes import Stake, WagerError

# fortune7-baccarat.txt, Wagering Limits and Collection Fees, as printed
PRINTED_1_20 = """
1	$5 - $10	$0.50	$1.00
2	$5 - $50	$0.50	$2.00
3	$5 - $100	$1.00	$2.00
4	$10 - $100	$1.00	$2.00
5	$25 - $100	$1.00	$2.00
6	$50 - $100	$1.00	$3.00
7	$100 - $100	$1.00	$3.00
8	$25 - $200	$2.00	$3.00
9	$25 - $200	$2.00	$4.00
10	$50 - $300	$2.00	$4.00
11	$100 - $300	$2.00	$4.00
12	$100 - $300	$3.00	$5.00
13	$100 - $500	$3.00	$5.00
14	$200 - $500	$3.00	$5.00
15	$300 - $500	$3.00	$5.00
16	$300 - $1,000	$5.00	$8.00
17	$300 - $1,000	$5.00	$10.00
18	$500 - $1,000	$5.00	$10.00
19	$500 - $2,000	$5.00	$10.00
20	$1,000 - $5,000	$10.00	$15.00
"""
PRINTED_21_26 = """
21	$1 - $100	$1 - $100	$0.00	$1.00
		$105 - $300	$0.00	$2.00
		$305 - $500	$0.00	$4.00
		$505 - $1,500	$0.00	$7.00
		$1,505+	$0.00	$11.00
22	$5 - $100	$5 - $100	$0.00	$1.00
		$105 - $300	$0.00	$2.00
		$305 - $500	$0.00	$4.00
		$505 - $1,500	$0.00	$7.00
		$1,505	$0.00	$11.00
23	$10 - $100	$10 - $300	$0.00	$2.00
		$305 - $500	$0.00	$4.00
		$505 - $1,500	$0.00	$7.00
		$1,505+	$0.00	$11.00
24	$25 - $100	$25 - $300	$0.00	$2.00
		$305 - $800	$0.00	$6.00
		$805 - $1,500	$0.00	$10.00
		$1,505 - $3,000	$0.00	$12.00
		$3,005+	$0.00	$30.00
25	$50 - $300	$50 - $300	$0.00	$4.00
		$305 - $1,000	$0.00	$8.00
		$1,005 - $2,000	$0.00	$15.00
		$2,005 - $5,000	$0.00	$20.00
		$5,005+	$0.00	$50.00
26	$50 - $300	$300 - $1,200	$0.00	$4.00
		$1,205 - $3,600	$0.00	$15.00
	$3,605 - $7,200	$0.00	$25.00
	$7,205 - $15,000	$0.00	$45.00
	$15,005+	$0.00	$65.00
"""


def usd(text):
    return Fraction(text.strip().rstrip("+").replace("$", "").replace(",", ""))


def test_schedules_1_to_20_as_printed():
    rows = [line.split("\t") for line in PRINTED_1_20.strip().splitlines()]
    assert len(rows) == 20
    for option, limit, player_fee, dealer_fee in rows:
        low, high = limit.split(" - ")
        assert SCHEDULES[int(option)] == SpotSchedule(int(option), usd(low), usd(high), usd(player_fee), usd(dealer_fee))


def test_schedules_21_to_26_as_printed():
    printed, option = {}, None
    for line in PRINTED_21_26.strip().splitlines():
        cells = line.split("\t")
        if cells[0]:
            option = int(cells[0])
            printed[option] = {"limit": cells[1], "rows": []}
        action, player_fee, dealer_fee = [c for c in cells if c][-3:]
        printed[option]["rows"].append((action, player_fee, dealer_fee))
    assert sorted(printed) == list(range(21, 27))
    for option, table in printed.items():
        data = SCHEDULES[option]
        assert isinstance(data, ActionSchedule) and data.player_fee == 0
        assert (data.minimum, data.maximum) == tuple(usd(x) for x in table["limit"].split(" - "))
        assert len(data.brackets) == len(table["rows"])
        for bracket, (action, player_fee, dealer_fee) in zip(data.brackets, table["rows"]):
            low, _, high = action.partition(" - ")
            assert bracket.lowest == usd(low)
            assert bracket.highest == (usd(high) if high else None)
            assert usd(player_fee) == 0 and bracket.player_dealer_fee == usd(dealer_fee)


def test_brackets_step_by_five_dollars():
    for option in range(21, 27):
        brackets = SCHEDULES[option].brackets
        for below, above in zip(brackets, brackets[1:]):
            assert above.lowest == below.highest + 5


def test_fees_per_betting_space_for_options_1_to_20():
    stakes = [Stake(1, "player", 20), Stake(1, "tie", 5), Stake(1, "one_up", 5),
              Stake(1, "banker", 10, bettor="backline"), Stake(4, "banker", 50)]
    fees = collection_fees(3, stakes)
    # ruling 25: once per bettor per betting space holding a wager of theirs
    assert fees.players == {(1, "seat", "player"): 1, (1, "seat", "tie"): 1, (1, "seat", "one_up"): 1,
                            (1, "backline", "banker"): 1, (4, "seat", "banker"): 1}
    assert fees.by_bettor() == {(1, "seat"): 3, (1, "backline"): 1, (4, "seat"): 1}
    assert fees.player_dealer == 2 and fees.total == 7 and fees.table_action == 90
    assert fees.of(stakes[3]) == 1


def test_the_player_dealer_pays_once_per_hand_whatever_the_action():
    many = [Stake(seat, space, 10) for seat in (1, 2, 3, 5, 6) for space in ("player", "tie")]
    fees = collection_fees(1, many)  # option 1: $0.50 per space, $1.00 per hand
    assert fees.player_dealer == 1 and fees.total == 1 + 10 * Fraction(1, 2)


def test_fee_lines_are_journaled_per_bettor_and_space_then_the_player_dealer():
    stakes = [Stake(2, "player", 20), Stake(2, "player", 10, bettor="ann"), Stake(2, "one_up", 5, bettor="ann")]
    lines = [line.to_json() for line in collection_fees(20, [Stake(2, "player", 1000)]).lines(player_dealer=6)]
    assert lines == [{"seat": 2, "bettor": "seat", "space": "player", "fee": "10"},
                     {"seat": 6, "bettor": "player_dealer", "space": None, "fee": "15"}]
    lines = [line.to_json() for line in collection_fees(2, stakes).lines(player_dealer=6)]
    assert lines == [{"seat": 2, "bettor": "seat", "space": "player", "fee": "0.5"},
                     {"seat": 2, "bettor": "ann", "space": "player", "fee": "0.5"},
                     {"seat": 2, "bettor": "ann", "space": "one_up", "fee": "0.5"},
                     {"seat": 6, "bettor": "player_dealer", "space": None, "fee": "2"}]
    # options 21-26: the player-dealer's line alone
    assert [line.bettor for line in collection_fees(24, stakes).lines(6)] == ["player_dealer"]
    assert collection_fees(24, stakes).to_json(player_dealer=6) == {
        "option": 24, "table_action": "35", "total": "2",
        "lines": [{"seat": 6, "bettor": "player_dealer", "space": None, "fee": "2"}]}


@pytest.mark.parametrize("option,action,fee", [
    (21, 1, 1), (21, 100, 1), (21, 104, 1), (21, 105, 2), (21, 300, 2), (21, 1500, 7), (21, 1505, 11),
    (21, 100000, 11), (22, 1505, 11), (24, 3000, 12), (24, 3005, 30), (25, 5005, 50),
    (26, 50, 4), (26, 1200, 4), (26, 1205, 15), (26, 15000, 45), (26, 15005, 65),
    # below the first printed bottom: the first bracket (ruling 25)
    (23, 5, 2), (24, 10, 2), (25, 25, 4), (26, 299, 4),
    # option 22's last row, printed "$1,505", reads "$1,505+" (ruling 25)
    (22, 1504, 7), (22, 3000, 11), (22, 250000, 11),
])
def test_table_action_brackets(option, action, fee):
    fees = collection_fees(option, [Stake(2, "player", action)])
    assert fees.lines(player_dealer=1)[0].fee == fee
    assert fees.player_dealer == fee and fees.players == {}


def test_table_action_is_every_wager_of_every_bettor():
    stakes = [Stake(1, "player", 100), Stake(1, "player", 100, bettor="ann"), Stake(3, "tie", 50),
              Stake(5, "banker", 60), Stake(5, "fortune7", 10)]
    fees = collection_fees(24, stakes)  # $320 of action: the $305 - $800 bracket
    assert fees.table_action == 320 and fees.player_dealer == 6 and fees.players == {}


def test_no_wagers_no_hand_no_fee():
    assert collection_fees(5, []).total == 0 and collection_fees(24, []).total == 0


def test_unknown_option():
    with pytest.raises(ValueError, match="option 27"):
        schedule(27)


def test_limits():
    check_limits(3, [Stake(1, "player", 60), Stake(1, "player", 40, bettor="backline")])
    with pytest.raises(WagerError, match=r"seat 1 \(backline\) player \$41: seat 1 player would total \$101"):
        check_limits(3, [Stake(1, "player", 60), Stake(1, "player", 41, bettor="backline")])
    with pytest.raises(WagerError, match=r"seat 2 tie \$4: below the \$5 minimum of option 3"):
        check_limits(3, [Stake(2, "tie", 4)])
