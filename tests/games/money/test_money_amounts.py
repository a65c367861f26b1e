"""games/money/amounts.py: amounts read and shown exactly, and the rounding rule (local ruling L9)."""
from fractions import Fraction

import pytest

from games.money import BadAmount, MoneyRules, Rounding, format_amount, parse_amount


@pytest.mark.parametrize("text, value", [
    ("25", Fraction(25)), ("2.50", Fraction(5, 2)), ("0.05", Fraction(1, 20)), ("007", Fraction(7)),
])
def test_decimal_strings_are_read_exactly(text, value):
    assert parse_amount(text) == value


@pytest.mark.parametrize("text, message", [
    ("-5", "is negative"), ("1e3", "not a decimal"), ("2.", "not a decimal"), ("", "not a decimal"),
    ("nan", "not a decimal"), ("1,000", "not a decimal"), ("+5", "not a decimal"), ("1" * 33, "longer than 32"),
])
def test_bad_amounts_are_named(text, message):
    with pytest.raises(BadAmount, match=message):
        parse_amount(text)


@pytest.mark.parametrize("value, text", [
    (Fraction(25), "25"), (Fraction(-25), "-25"), (Fraction(95, 4), "23.75"), (Fraction(1, 20), "0.05"),
    (Fraction(0), "0"), (Fraction(-1, 2), "-0.5"), (Fraction(1, 1000), "0.001"),
])
def test_amounts_are_shown_as_exact_decimals(value, text):
    assert format_amount(value) == text


def test_an_amount_without_a_terminating_decimal_is_never_shown():
    with pytest.raises(ValueError, match="no terminating decimal"):
        format_amount(Fraction(1, 3))


@pytest.mark.parametrize("rounding, exact, paid", [
    (Rounding.DOWN, Fraction(25, 2), 12), (Rounding.DOWN, Fraction(95, 4), 23), (Rounding.DOWN, Fraction(7), 7),
    (Rounding.HALF_DOWN, Fraction(25, 2), 12), (Rounding.HALF_DOWN, Fraction(95, 4), 24),
    (Rounding.HALF_DOWN, Fraction(93, 4), 23),
    (Rounding.HALF_UP, Fraction(25, 2), 13), (Rounding.HALF_UP, Fraction(93, 4), 23),
])
def test_a_win_is_rounded_to_a_whole_minor_unit(rounding, exact, paid):
    assert MoneyRules(Fraction(1), rounding).pay(exact) == paid


def test_a_finer_minor_unit_pays_the_exact_win_where_it_can():
    quarters = MoneyRules(Fraction(1, 4))
    assert quarters.pay(Fraction(95, 4)) == Fraction(95, 4)
    assert quarters.pay(Fraction(19, 20)) == Fraction(3, 4)  # 0.95 paid in quarters: 0.75
    assert MoneyRules(Fraction(5)).pay(Fraction(12)) == 10  # $5 chips only


def test_stakes_are_whole_minor_units_and_positive():
    rules = MoneyRules(Fraction(1, 4))
    rules.check_stake(Fraction(5, 4))
    with pytest.raises(BadAmount, match="minor unit 0.25"):
        rules.check_stake(Fraction(1, 10))
    with pytest.raises(BadAmount, match="more than 0"):
        rules.check_stake(Fraction(0))


def test_rules_from_a_money_table():
    assert MoneyRules.from_mapping({}) == MoneyRules(Fraction(1), Rounding.DOWN)
    assert MoneyRules.from_mapping({"minor_unit": "0.01", "rounding": "half_up"}) == \
        MoneyRules(Fraction(1, 100), Rounding.HALF_UP)
    with pytest.raises(BadAmount, match="money.minor_unit: expected a decimal string"):
        MoneyRules.from_mapping({"minor_unit": 0.01})
    with pytest.raises(BadAmount, match="money.rounding: expected one of down, half_down, half_up"):
        MoneyRules.from_mapping({"rounding": "up"})
    with pytest.raises(BadAmount, match="money.unit: unknown key"):
        MoneyRules.from_mapping({"unit": "1"})
    with pytest.raises(BadAmount, match="not positive"):
        MoneyRules.from_mapping({"minor_unit": "0"})
