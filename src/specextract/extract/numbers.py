"""Numbers as written: Arabic with separators, Chinese numerals, magnitude words.

Every parse keeps its written precision: ``precision_exp`` is the power of ten of the
last significant digit ("19.5" -> -1, "540" -> 1, "540亿" -> 9; an integer's trailing
zeros are not significant).
"""
from __future__ import annotations

from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import NamedTuple

CJK_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5,
              "六": 6, "七": 7, "八": 8, "九": 9}
CJK_UNITS = {"十": 10, "百": 100, "千": 1000}
CJK_SECTIONS = {"万": 10**4, "亿": 10**8}
MAGNITUDES = {  # magnitude words after a number
    "万": 4, "亿": 8, "万亿": 12, "千万亿": 15, "千亿": 11, "百亿": 10, "千万": 7, "百万": 6,
    "兆": 12, "千": 3, "thousand": 3, "million": 6, "billion": 9, "trillion": 12,
    "k": 3, "K": 3, "M": 6, "B": 9, "bn": 9,
}
WORD_NUMBERS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "twenty": 20, "thirty": 30,
    "twice": 2, "double": 2, "doubled": 2, "triple": 3, "tripled": 3, "quadruple": 4,
}
ORDINAL_WORDS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
                 "1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5, "6th": 6}


class Number(NamedTuple):
    value: Decimal
    precision_exp: int


def significant_exp(digits: str) -> int:
    """Place of the last significant digit of a plain decimal string ("540" -> 1)."""
    if "." in digits:
        return -len(digits.split(".", 1)[1])
    stripped = digits.rstrip("0")
    return len(digits) - len(stripped) if stripped else 0


@lru_cache(maxsize=4096)
def parse_arabic(text: str) -> Number | None:
    """'6,912' -> 6912 (exp 0); '19.5' -> 19.5 (exp -1); '540' -> 540 (exp 1).

    Cached: the same figures recur throughout a corpus, and a Number is immutable."""
    plain = text.replace(",", "").replace(" ", "")
    try:
        value = Decimal(plain)
    except InvalidOperation:
        return None
    return Number(value, significant_exp(plain))


def parse_cjk(text: str) -> Number | None:
    """'七' -> 7; '一百零八' -> 108; '两' -> 2; '五千' -> 5000; '九一零' -> 910."""
    if not text or any(c not in CJK_DIGITS and c not in CJK_UNITS and c not in CJK_SECTIONS
                       for c in text):
        return None
    if all(c in CJK_DIGITS for c in text):  # digit by digit: 九一零
        digits = "".join(str(CJK_DIGITS[c]) for c in text)
        return Number(Decimal(digits), significant_exp(digits))
    total = section = digit = 0
    for c in text:
        if c in CJK_DIGITS:
            digit = CJK_DIGITS[c]
        elif c in CJK_UNITS:
            section += (digit or 1) * CJK_UNITS[c]
            digit = 0
        else:
            total = (total + section + digit) * CJK_SECTIONS[c]
            section = digit = 0
    value = total + section + digit
    return Number(Decimal(value), significant_exp(str(value)))


def scale(number: Number, exp10: int) -> Number:
    """Multiply by 10**exp10, moving the precision with it."""
    return Number(number.value.scaleb(exp10), number.precision_exp + exp10)


def times(number: Number, factor: Decimal) -> Number:
    """Multiply by a unit factor; the precision moves by the factor's power of ten."""
    if factor == 1:
        return number
    shift = factor.adjusted()  # 1000 -> 3, 0.001 -> -3, 0.125 -> -1
    return Number(number.value * factor, number.precision_exp + shift)
