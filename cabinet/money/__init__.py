"""The operator's money: coin pulses, pricing, the credit ledger, the meter and the
lockout, and the keeper that commits each coin before it is credited.

Pure parts (no clock, no I/O): :mod:`.pricing` (what a credit and a game cost),
:mod:`.ledger` (the counts and their invariants), :mod:`.coins` (which pulses are coins),
:mod:`.meter` (the meter's pulse queue). :mod:`.keeper` puts them together over the
cabinet's database; :mod:`.outputs` drives the meter and lockout lines. The invariants
and what an operator sees are in ``docs/pricing.md``.

>>> from cabinet.money.pricing import Pricing, credits_text, money_text
>>> pricing = Pricing(free_play=False, units_per_credit=2)
>>> pricing.cost(humans=2, cpu=False), credits_text(1, 1, 2), money_text(250, "EUR")
(2, '1 1/2', 'EUR 2.50')
"""

__all__ = [
    "coins",
    "keeper",
    "ledger",
    "meter",
    "outputs",
    "pricing",
    "shown",
]
