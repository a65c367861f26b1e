"""The money of a round: stakes settled exactly from the rules' pays (see docs/money.md)."""
from games.money.amounts import BadAmount, MoneyRules, Rounding, format_amount, parse_amount
from games.money.limits import Limit, TableLimits, limit_clause
from games.money.settle import BadWager, RoundMoney, Settled, Stake, check_stakes, returned, settle

__all__ = ["BadAmount", "BadWager", "Limit", "MoneyRules", "RoundMoney", "Rounding", "Settled", "Stake", "TableLimits",
           "check_stakes", "format_amount", "limit_clause", "parse_amount", "returned", "settle"]
