"""Every number transcribed from a paper (`vlconcepts/paper_numbers/<lens>/*.csv`) is printed in that paper's text
(`../shared/papers/<lens>_*.txt`), so no table prints a value beside ours that the paper does not print (the invented
'11.15 ± 2.03' of binding's Table 4, issue 18 item 8). Values read off a figure say so in `sources.json` and are left out."""
import re
from pathlib import Path

import pytest

from vlconcepts.core import paper_table, paper_tables

NUMBERS = Path(__file__).resolve().parents[1] / "vlconcepts" / "paper_numbers"
TABLES = [(lens, table) for lens, tables in paper_tables().items() for table in tables]


def printed(text: str) -> str:
    "`text` as a reader sees it: LaTeX emphasis and math dollars dropped, `\\pm` as ±, runs of white space as one space."
    text = re.sub(r"\\(?:textbf|underline|mathbf|textit|emph|text)\{([^{}]*)\}", r"\1", text)
    return re.sub(r"\s+", " ", text.replace("\\pm", "±").replace("$", ""))


def missing_numbers(cells, paper_text: str) -> list[str]:
    "The cells of `cells` that hold a number (they begin with a digit or a sign) and are not printed in `paper_text`."
    cells = [printed(c).strip() for c in cells]
    return [c for c in cells if re.match(r"[-−+<>~≈]?\s*\d", c) and c not in paper_text]


ROW_WINDOW = 250   # characters: every row of every transcribed table is printed within it (the LaTeX of one table row)


def printed_at(number: str, paper_text: str) -> list[int]:
    "Where `number` is printed in `paper_text` as a whole number (not the tail of 10.45 for 0.45, nor the head of 0.456)."
    return [m.start() for m in re.finditer(r"(?<![\d.])" + re.escape(number) + r"(?!\d)", paper_text)]


def row_not_printed_together(cells, paper_text: str, window: int = ROW_WINDOW) -> bool:
    """Whether the numbers among one transcribed row's `cells` are NOT all printed within `window` characters of one
    another: a single mistyped digit, or a value taken from another row or table, fails a row whose values are printed."""
    numbers = [c for c in (printed(c).strip() for c in cells) if re.match(r"[-−+<>~≈]?\s*\d", c)]
    places = [printed_at(n, paper_text) for n in numbers]
    if not numbers: return False
    if not all(places): return True
    return not any(all(any(abs(p - a) <= window for p in where) for where in places[1:]) for a in places[0])


def read_off_a_figure(lens: str, table: str) -> bool:
    "Whether the table's source (`sources.json`) says its values were read off a figure (no printed numbers to compare with)."
    return "read off" in paper_table(lens, table).attrs["source"]


def test_the_check_finds_an_invented_value():
    text = printed(r"CSP & $\textbf{11.15203}$ & 0.95 \pm 0.03")
    assert missing_numbers(["11.15203", "0.95 ± 0.03", "CSP", "—"], text) == []
    assert missing_numbers(["11.15 ± 2.03", "0.95 ± 0.04"], text) == ["11.15 ± 2.03", "0.95 ± 0.04"]


def test_the_row_check_finds_a_mistyped_digit_and_a_value_from_another_row():
    text = printed(r"CLIP & 0.45 & 10.2 \\ CSP & 30.45 & 11.3 \\" + " filler" * 60 + r" Add & 0.46 & 11.3 \\")
    assert not row_not_printed_together(["0.45", "10.2"], text)                      # as printed, in one row
    assert row_not_printed_together(["0.46", "10.2"], text)                          # 0.46 is printed, but rows away
    assert row_not_printed_together(["0.45", "10.3"], text)                          # 10.3 is not printed (and 0.45 != 30.45's tail)
    assert printed_at("0.45", text) == [text.index("0.45")]                           # once: not inside 30.45


def test_every_transcribed_file_is_a_table_with_a_source():
    files = sorted((f.parent.name, f.stem) for f in NUMBERS.glob("*/*.csv"))
    assert files == sorted(TABLES) and len(TABLES) > 30, "a CSV under paper_numbers/ without its sources.json entry, or the reverse"
    assert all(paper_table(lens, table).attrs["source"] for lens, table in TABLES)


@pytest.mark.parametrize("lens,table", TABLES)
def test_every_transcribed_number_is_printed_in_the_paper(lens, table, shared_dir):
    if read_off_a_figure(lens, table): pytest.skip(f"{lens}/{table}: values read off a figure, not printed")
    paper_text = printed(next((shared_dir / "papers").glob(f"{lens}_*.txt")).read_text())
    cells = [cell for cell in paper_table(lens, table).to_numpy().ravel() if isinstance(cell, str)]
    assert cells, f"{lens}/{table}: no cells read"
    assert missing_numbers(cells, paper_text) == [], f"{lens}/{table}.csv holds numbers the paper does not print"
    rows = [(index, list(row)) for index, row in paper_table(lens, table).iterrows()]
    scattered = [index for index, row in rows if row_not_printed_together([c for c in row if isinstance(c, str)], paper_text)]
    assert not scattered, f"{lens}/{table}.csv: the numbers of rows {scattered} are not printed together in the paper (a mistyped digit?)"
