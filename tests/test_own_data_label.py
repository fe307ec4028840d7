"""End to end: your own images in a real dataset's layout → a loader → `save_table` with the paper's numbers. The table
must say that the data are your own and that the paper's numbers are on the published release; a synthetic export
(the tiny and dry profiles' data) and the published release itself must get no such note."""
import shutil
import warnings

import numpy as np
import pandas as pd
import pytest
import torch

from vlconcepts.attribute_object_data import MAC_SPLIT_DIR, MIT_METADATA, MIT_SPLIT_DIR, export_mac, export_mit_states, load_mac, load_mit_states
from vlconcepts.core import OwnDataWarning, own_data, paper_table, save_table, tables_dir
from vlconcepts.datasets import write_lines, write_png

OURS = pd.DataFrame({"Val AUC k=1": [1.23]}, index=pd.Index(["CLIP-Prim"], name="method"))
PAPER_HEADING = "## Paper (on the published MIT-States (TMN split) release, not on these data)\n\n"


def write_own_mit_states(root, images=(("wet", "cat", "train"), ("dry", "dog", "train"), ("wet", "dog", "val"), ("dry", "cat", "test"))):
    "Images of your own (default: four) in the MIT-States (TMN) layout: split files, the torch-saved metadata, the images."
    pairs = {"train": ["wet cat", "dry dog"], "val": ["wet cat", "wet dog"], "test": ["dry dog", "dry cat"]}
    for split, lines in pairs.items(): write_lines(root / MIT_SPLIT_DIR / f"{split}_pairs.txt", lines)
    metadata = [{"image": f"{a} {o}/{k}.png", "attr": a, "obj": o, "set": s} for k, (a, o, s) in enumerate(images)]
    for record in metadata: write_png(np.zeros((8, 8, 3), np.uint8), root / "images" / record["image"])
    torch.save(metadata, root / MIT_METADATA)
    return root


def table1_text(name="compmap_table1") -> str:
    "CompMap's Table 1 as the MIT-States experiment writes it: ours beside the paper's numbers."
    return save_table(OURS, name, paper=paper_table("compmap", "table1"), caption="CompMap Table 1 (MIT-States, closed world).").read_text()


def test_own_data_in_the_mit_states_layout_labels_the_table(tmp_path):
    with pytest.warns(OwnDataWarning, match=r"MIT-States \(TMN split\) at .* is not the published release \(4 images, the published "
                                            r"release has 53,753; 2 train images, .*1 test image, the published release has 12,995"):
        load_mit_states(write_own_mit_states(tmp_path / "mine"))
    text = table1_text()
    assert (tables_dir() / "compmap_table1.md").read_text() == text
    assert ("CompMap Table 1 (MIT-States, closed world).\n\n**Your own data.** This run read your own data in the MIT-States (TMN "
            "split) layout (4 images, the published release has 53,753;") in text
    assert "not its published release. The paper's numbers below are on the published release, not on these data.\n" in text
    assert PAPER_HEADING + "| method" in text                                     # the paper's column is still there, labelled
    assert text.index("## Ours") < text.index(PAPER_HEADING)
    diagnostic = save_table(OURS, "diagnostic", no_paper="a diagnostic.").read_text()
    assert "Your own data" not in diagnostic                                      # no paper numbers: nothing to label


def test_synthetic_export_is_not_your_own_data_until_its_mark_is_gone(tmp_path):
    export = export_mit_states(tmp_path / "synthetic", n=12, seed=0, size=8)
    with warnings.catch_warnings():
        warnings.simplefilter("error", OwnDataWarning)                            # the tiny profile's data: no warning
        load_mit_states(export)
        mac = export_mac(tmp_path / "mac", n=12, seed=0, size=8)
        from vlconcepts.dry_worlds import mac_release_metadata
        mac_release_metadata(mac)                                                 # as the dry profiles write MAC
        load_mac(mac)
    assert own_data() == []
    text = table1_text()
    assert "Your own data" not in text and "## Paper\n\n| method" in text
    copy = tmp_path / "copied"                                                    # the same files without the exporter's scene file
    shutil.copytree(export, copy, ignore=shutil.ignore_patterns("scenes.json"))
    with pytest.warns(OwnDataWarning, match="12 images, the published release has 53,753"):
        load_mit_states(copy)
    assert [r.root for r in own_data()] == [str(copy)]
    assert PAPER_HEADING in table1_text()


def test_the_published_mac_split_files_are_the_release(shared_dir, tmp_path):
    release = shared_dir / "data" / "mac"
    if not (release / MAC_SPLIT_DIR / "train_pairs.txt").is_file(): pytest.skip(f"MAC split files not found under {release}")
    with warnings.catch_warnings():
        warnings.simplefilter("error", OwnDataWarning)
        load_mac(release, split_files_only=True)
    assert own_data() == []
    edited = tmp_path / "mac"
    shutil.copytree(release / MAC_SPLIT_DIR, edited / MAC_SPLIT_DIR)
    test_pairs = edited / MAC_SPLIT_DIR / "test_pairs.txt"
    test_pairs.write_text("\n".join(test_pairs.read_text().splitlines()[:-1]))    # one composition fewer
    with pytest.warns(OwnDataWarning, match="3,904 test compositions, the published release has 3,905"):
        load_mac(edited, split_files_only=True)
    mac_table = save_table(OURS, "mac_table2", paper=paper_table("mac", "table2")).read_text()
    assert "## Paper (on the published MAC (multi-attribute compositions) release, not on these data)" in mac_table


def test_the_czsl_curves_experiment_names_your_own_data(tmp_path):
    "06_czsl_curves on your own data (`source='real'`): its caption says so, where it said 'the real MIT-States'."
    from vlconcepts.cli import experiments_dir, run_experiment
    images = [("wet", "cat", "train"), ("dry", "dog", "train"), ("wet", "dog", "val"), ("dry", "dog", "test"), ("dry", "cat", "test")]
    own = write_own_mit_states(tmp_path / "mine", images)
    result = run_experiment(experiments_dir() / "06_czsl_curves.ipynb", profile="smoke", device="cpu", runs_dir=tmp_path / "runs",
                            publish_to=tmp_path / "out", parameters={"source": "real", "data_root": str(own)}, threads=1)
    assert result.status == "ok", result.error
    captions = " ".join(p.read_text() for p in result.outputs if p.suffix == ".md")
    assert "your own data in the MIT-States (TMN split) layout (5 images, the published release has 53,753;" in captions
    assert "the real MIT-States" not in captions
