"""The money of a round: stakes settled exactly from the rules' pays (see docs/money.md)."""
from games.money.amounts import BadAmount, MoneyRules, Rounding, format_amount, parse_amount
from games.money.settle import BadWager, RoundMoney, Settled, Stake, check_stakes, returned, settle

__all__ = ["BadAmount", "BadWager", "MoneyRules", "RoundMoney", "Rounding", "Settled", "Stake", "check_stakes",
           "format_amount", "parse_amount", "returned", "settle"]
