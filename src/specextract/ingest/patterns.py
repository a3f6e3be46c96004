r"""The ingest stage's structural patterns, in one place: the HTML tokenizer's constructs
(``html``) and the byte and character tests of decoding (``decode``).

``re.VERBOSE`` patterns: a literal space is ``\ `` (or ``[ ]``) and ``#`` is ``\#``.
"""
from __future__ import annotations

import re

from ..regex_screens import compile_pattern

# --- html: one markup construct at a "<" ------------------------------------------------
# Possessive quantifiers: no construct is scanned twice. A construct left open runs to the
# end of the page (\Z), as browsers read it.
MARKUP = compile_pattern(r"""
    (?P<comment> <!-- .*? (?: --!?> | \Z ) )                 # <!-- ... -->
  | (?P<cdata>   <!\[CDATA\[ .*? (?: \]\]> | \Z ) )          # <![CDATA[ ... ]]>
  | (?P<decl>    <[!?] [^>]*+ (?: > | \Z ) )                 # <!DOCTYPE ...>, <?xml ...?>
  | (?P<end>     </ (?P<end_name> [A-Za-z][^\s/>]*+ ) [^>]*+ (?: > | \Z ) )   # </p>
  | (?P<start>   < (?P<name> [A-Za-z][^\s/>]*+ )             # <td
                 (?: [^>"']++                                #   attributes, unquoted
                   | "[^"]*+ (?: " | \Z )                    #   "double quoted"
                   | '[^']*+ (?: ' | \Z ) )*+                #   'single quoted'
                 (?: > | \Z ) )                              # >
""", re.S | re.X)


def raw_text_end(name: str) -> re.Pattern:
    """The end tag of a raw-text element ``name`` (``</script``, any case, then a blank,
    "/" or ">"): where its content ends."""
    return re.compile(rf"</{name}(?=[\s/>]|\Z)[^>]*+(?:>|\Z)", re.I)


BLANK_LINES = compile_pattern(r"\n{3,}")            # more than one empty line in a row

# --- decode: bytes and characters -----------------------------------------------------
CONTROL = compile_pattern(r"[\x00-\x08\x0e-\x1f\x7f-\x9f]")   # C0 (not \t\n\v\f\r) and C1 controls
HIGH_BYTE = compile_pattern(rb"[\x80-\xff]")                    # a byte outside ASCII
