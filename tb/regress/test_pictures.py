"""The run's record and its pictures (spinsim/Vcosim --deadlocks, --links;
scripts/pictures.py; make sim): the record agrees with the summary, the
co-simulation records what the C model alone records, and the pictures are
drawn.  Part of make regress."""

import json
import os
import struct
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / os.environ.get("BUILD", "build")
SPINSIM = BUILD / "cmodel" / "spinsim"
COSIM = BUILD / "rtl" / "p5-v1" / "Vcosim"
PICTURES = ROOT / "scripts" / "pictures.py"
# mesh4x4, the paper's router past its saturation: a handful of deadlocks.
RUN = ["--topo", "mesh4x4", "--routing", "favors_min", "--vcs", "1", "--spin", "1",
       "--mode", "paper", "--rate", "0.35", "--cycles", "3000"]


def record(binary, out, extra=()):
    out.mkdir(parents=True, exist_ok=True)
    r = subprocess.run([str(binary)] + RUN + list(extra) +
                       ["--json", str(out / "summary.json"), "--deadlocks", str(out / "deadlocks.json"),
                        "--links", str(out / "links.json")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stdout
    return tuple(json.loads((out / f).read_text()) for f in ("summary.json", "deadlocks.json", "links.json"))


def png_size(path):
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", head[16:24])


def test_record_agrees_with_summary_and_pictures(tmp_path):
    s, d, l = record(SPINSIM, tmp_path / "cmodel")
    assert s["deadlocks_resolved"] >= 3, s["deadlocks_resolved"]
    assert d["recorded"] == len(d["deadlocks"]) == s["deadlocks_resolved"] and d["truncated"] == 0
    assert sum(e["spins"] for e in d["deadlocks"]) == d["spins"] == s["spins"]
    for e in d["deadlocks"]:
        assert e["closed"] and e["detected"] <= e["first_spin"] <= e["last_spin"]
        hops = e["loop"]
        assert hops[0]["router"] == e["source"]
        # each hop leaves by out_port and the next one enters by in_port
        for h, nxt in zip(hops, hops[1:] + hops[:1]):
            link = [k for k in l["links"] if k["router"] == h["router"] and k["port"] == h["out_port"]]
            assert len(link) == 1 and link[0]["to"] == nxt["router"] and link[0]["to_port"] == nxt["in_port"]
    assert len(l["links"]) == 48                          # mesh4x4: 24 links, both ways
    assert sum(k["flits"] for k in l["links"]) > 0
    r = subprocess.run([sys.executable, str(PICTURES), str(tmp_path / "cmodel")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert r.returncode == 0, r.stdout
    for name in ("deadlocks.png", "links.png"):
        w, h = png_size(tmp_path / "cmodel" / name)
        assert w >= 600 and h >= 500, (name, w, h)


def test_cosim_records_what_the_c_model_records(tmp_path):
    s1, d1, l1 = record(SPINSIM, tmp_path / "cmodel")
    s2, d2, l2 = record(COSIM, tmp_path / "cosim", ["+verilator+seed+3"])
    assert s2["compared"] and s2["mismatches"] == 0
    assert d2 == d1 and l2 == l1


def test_pictures_refuses_a_bad_record(tmp_path):
    (tmp_path / "deadlocks.json").write_text("{broken")
    (tmp_path / "links.json").write_text(json.dumps({"routers": 4, "links": []}))
    r = subprocess.run([sys.executable, str(PICTURES), str(tmp_path)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert r.returncode == 2 and "deadlocks.json: not JSON" in r.stdout, r.stdout
    r = subprocess.run([sys.executable, str(PICTURES), str(tmp_path / "missing")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert r.returncode == 2 and "missing/links.json" in r.stdout, r.stdout
