"""CSV lines (output/csvtext): the bytes the standard csv writer writes, formula cells
neutralised."""
from __future__ import annotations

import csv
import io

from hypothesis import given, settings, strategies as st

from specextract.output.csvtext import csv_line, neutral_line, neutralise

FIELD = st.text(alphabet=st.sampled_from(list('a1,"\r\n =+-@\t\'.中 ')), max_size=8)
VALUE = st.one_of(st.none(), st.integers(-10**6, 10**6), FIELD, st.floats(allow_nan=False))


def written(row: list) -> str:
    out = io.StringIO()
    csv.writer(out).writerow(row)
    return out.getvalue()


@settings(max_examples=400, deadline=None)
@given(st.lists(FIELD, max_size=6))
def test_a_line_is_what_the_csv_writer_writes(fields) -> None:
    assert csv_line(fields) == written(fields)


@settings(max_examples=400, deadline=None)
@given(st.lists(VALUE, max_size=6))
def test_a_neutral_line_is_the_csv_writers_line_of_neutralised_cells(values) -> None:
    """None an empty cell, integers as they are, anything else neutralise(str(value))."""
    cells = [v if v is None or type(v) is int else neutralise(str(v)) for v in values]
    assert neutral_line(values) == written(cells)


def test_quoting_and_neutralising_examples() -> None:
    assert neutral_line(["=HYPERLINK(1)", "-5", "x,y", 'say "hi"', None, 7]) == \
        '\'=HYPERLINK(1),-5,"x,y","say ""hi""",,7\r\n'
    assert csv_line([""]) == '""\r\n' and csv_line([]) == "\r\n"
