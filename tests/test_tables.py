"""Every committed table (`tables/*.md`) and report page (`reports/`) is read by people on another machine: no caption or cell names a temporary or
personal path (issue 18 item 8): /tmp/, a tmp* folder, a user's home, a cache folder. And every markdown table keeps its
columns on every row: a `|` inside a cell is escaped (`core.markdown_table`)."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TABLES = sorted((ROOT / "tables").glob("*.md"))
TEMPORARY_PATH = re.compile(
    r"/tmp/|/var/tmp/|/var/folders/|/private/var/"          # system temporary folders
    r"|(?<![\w$.-])tmp[\w.-]*/"                            # a tmp*/ folder (tempfile's tmpab12cd/, tmp_path)
    r"|/home/[^/\s]+/|/Users/[^/\s]+/|/root/|(?<![\w$])~/|[A-Za-z]:\\\\Users\\\\"  # a user's home
    r"|/\.cache/|(?<=/)[\w.-]*cache[\w.-]*/",              # a cache folder given by its path ($VLCONCEPTS_CACHE/… is fine)
    re.IGNORECASE)


def temporary_paths(text: str) -> list[str]:
    "The temporary or personal paths named in `text`."
    return [m.group(0) for m in TEMPORARY_PATH.finditer(text)]


def test_the_checker_finds_temporary_paths():
    bad = ["models {'w8': 'toyclip:/tmp/fullcache/compmap/w8/last.pt'}", "run in tmpk2x9z1/out", "toyclip:/home/ana/ckpt.pt",
           "saved under ~/.cache/vlconcepts/cache/x", "/root/work/model.pt", "/Users/bob/ckpt.pt", "openclip:RN50@/data/my_cache/rn50.pt",
           "/var/folders/xy/T/a.pt"]
    good = ["toyclip:$VLCONCEPTS_CACHE/compmap/toyclip-widths/w8-t32-steps60-b64-seed0/last.pt", "openclip:ViT-B-32@openai",
            "profile tiny: mit-states (synthetic, 1500 images)", "hf-vilt:dandelin/vilt-b32-finetuned-coco", "a cached model",
            "openclip:RN50@…/rn50/model.pt", "the attempt/retry split"]
    assert [s for s in bad if not temporary_paths(s)] == []
    assert [s for s in good if temporary_paths(s)] == []


def test_there_are_committed_tables():
    assert len(TABLES) > 10


@pytest.mark.parametrize("table", TABLES, ids=lambda p: p.stem)
def test_no_temporary_path_in_a_table(table):
    found = temporary_paths(table.read_text())
    assert not found, (f"tables/{table.name} names temporary or personal paths {found}: write the model or folder so that it "
                       "means the same on another machine (e.g. vlconcepts.compmap.caption_spec) and rebuild the table.")


def broken_rows(text: str) -> list[str]:
    "Rows of the markdown tables in `text` with more or fewer cell separators (unescaped `|`) than their table's header."
    broken, header = [], None
    for line in text.splitlines():
        if not line.startswith("|"): header = None; continue
        count = len(re.findall(r"(?<!\\)\|", line))
        if header is None: header = count
        elif count != header: broken.append(line[:120])
    return broken


def test_the_checker_finds_broken_rows():
    good = "# t\n\n| a | mean \\|corr\\| |\n|:--|--:|\n| x | 0.1 |\n\n| b |\n|--|\n| y |\n"
    assert broken_rows(good) == []
    assert broken_rows("| a | mean |corr| |\n|:--|--:|\n| x | 0.1 |\n") == ["|:--|--:|", "| x | 0.1 |"]


@pytest.mark.parametrize("table", TABLES, ids=lambda p: p.stem)
def test_every_row_keeps_its_columns(table):
    broken = broken_rows(table.read_text())
    assert not broken, (f"tables/{table.name}: rows {broken} have more or fewer cells than their header, an unescaped `|` "
                        "inside a cell: write tables with core.save_table (it escapes them) and rebuild the table.")


REPORTS = sorted(p for p in (ROOT / "reports").glob("*") if p.suffix in (".md", ".html"))


@pytest.mark.parametrize("page", REPORTS, ids=lambda p: p.name)
def test_no_temporary_path_in_a_report(page):
    "The committed report pages too: the HTML page carries the executed notebook's log lines (`cli.portable_paths`)."
    found = temporary_paths(page.read_text())
    assert not found, (f"reports/{page.name} names temporary or personal paths {found}: `vlconcepts report` writes them "
                       "through cli.portable_paths; rebuild the report.")


PROFILE_STATED = re.compile(r"\bprofile\W{0,2}(tiny|smoke|paper|dry-small|dry)\b|\b(tiny|smoke|paper|dry-small|dry) profile\b", re.IGNORECASE)


def caption(text: str) -> str:
    "What a table written by `core.save_table` says before its own numbers (the heading, the dry-run label and the caption)."
    return text.split("\n## Ours", 1)[0]


def test_the_profile_checker():
    assert PROFILE_STATED.search(caption("# t\n\nProfile tiny. Table 1 re-run\n\n## Ours\n"))
    assert PROFILE_STATED.search(caption("# t\n\nProfile `paper`: 8 scenes\n\n## Ours\n"))
    assert PROFILE_STATED.search(caption("# t\n\n29 of 54 hold in the tiny profile\n\n## Ours\n"))
    assert not PROFILE_STATED.search(caption("# t\n\nNIS over 20 draws\n\n## Ours\n\n| profile tiny |\n"))   # only the caption counts


@pytest.mark.parametrize("table", TABLES, ids=lambda p: p.stem)
def test_every_table_names_its_profile(table):
    "Issue 18 item 7: every committed table's caption says which profile produced it (with its models and departures)."
    assert PROFILE_STATED.search(caption(table.read_text())), (
        f"tables/{table.name}: its caption does not say which profile produced it; give save_table a caption that starts "
        "'Profile {profile}.' (the parameters cell's `profile`) and rebuild the table.")


PAPER_IN_ITS_ROWS = {"findings"}   # prints the paper's value on every row, beside ours


@pytest.mark.parametrize("table", [t for t in TABLES if t.stem not in PAPER_IN_ITS_ROWS], ids=lambda p: p.stem)
def test_every_table_prints_the_paper_or_says_why_not(table):
    "A reader of any table finds, under '## Paper', the paper's numbers as the paper prints them or why there are none."
    assert "\n## Paper" in table.read_text(), (
        f"tables/{table.name} has no '## Paper' section: pass save_table the paper's numbers (`paper=`) or say why there are "
        "none (`no_paper=`), and rebuild the table.")
