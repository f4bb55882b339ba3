"""Checks of the make entry points that need no co-simulation: `make help`
names every target, and `make waves` (scripts/gtkw.py) lands its view where
it is asked to.  Part of make regress."""

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import gtkw  # noqa: E402

# Rules of a make file that are not targets a user runs.
SPECIAL = {"FORCE"}


def make_targets():
    """Every explicit target of the Makefile and of the fragments it
    includes: {target: file}."""
    files = [ROOT / "Makefile"]
    text = files[0].read_text()
    files += [ROOT / m for m in re.findall(r"^include\s+(\S+)", text, re.M)]
    found = {}
    for f in files:
        for line in f.read_text().splitlines():
            m = re.match(r"^([a-z][a-z0-9-]*)\s*:(?![=:])", line)
            if m and m.group(1) not in SPECIAL:
                found.setdefault(m.group(1), f.relative_to(ROOT).as_posix())
    return found


def help_words(target):
    out = subprocess.run(["make", "--no-print-directory", "-C", str(ROOT), target],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=True)
    return set(re.findall(r"[a-z][a-z0-9-]*", out.stdout))


def test_make_help_names_every_target():
    targets = make_targets()
    assert len(targets) >= 30, targets            # the parse found the rules
    words = help_words("help") | help_words("synth-help")
    missing = sorted("%s (%s)" % (t, f) for t, f in targets.items() if t not in words)
    assert not missing, "make help leaves out: " + ", ".join(missing)


def gtkw_header(tmp_path, *args):
    out = tmp_path / "gtkw"
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "gtkw.py"), "--out-dir", str(out)]
                       + list(args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert r.returncode == 0, r.stdout
    lines = (out / "spin.gtkw").read_text().splitlines()
    start = next(int(l.split()[1]) for l in lines if l.startswith("[timestart]"))
    star = next(l for l in lines if l.startswith("*"))
    zoom, marker = float(star[1:].split()[0]), int(star.split()[1])
    router = next(int(m) for l in lines for m in re.findall(r"^\[\*\] SPIN view of router_(\d+)", l))
    return r.stdout, start, zoom, marker, router


def shown_cycles(zoom):
    """Cycles the wave pane shows at this zoom (2**-zoom ps a pixel)."""
    return 2 ** -zoom * gtkw.WAVE_PANE_PX / gtkw.CYCLE_PS


def test_waves_window_from_to(tmp_path):
    _, start, zoom, marker, router = gtkw_header(tmp_path, "--from", "1000", "--to", "1400")
    assert start == 1000 * gtkw.CYCLE_PS
    assert abs(shown_cycles(zoom) - 400) < 1
    assert marker == -1 and router == 5


def test_waves_land_on_first_recovery(tmp_path):
    rec = {"topo": "mesh4x4", "routers": 16, "cycles": 5000, "deadlocks": [
        {"source": 9, "detected": 2300, "first_spin": 2340, "last_spin": 2345, "spins": 2,
         "adopted": False, "loop": [{"router": r, "out_port": 1, "in_port": 2} for r in (9, 10, 14, 13)]},
        {"source": 3, "detected": 4000, "first_spin": 4040, "last_spin": 4040, "spins": 1,
         "adopted": False, "loop": []}]}
    path = tmp_path / "deadlocks.json"
    path.write_text(json.dumps(rec))
    out, start, zoom, marker, router = gtkw_header(tmp_path, "--deadlocks", str(path))
    assert router == 9, out                       # the first recovery's source router
    assert start == (2300 - gtkw.LAND_BEFORE) * gtkw.CYCLE_PS
    assert abs(shown_cycles(zoom) - (2345 + gtkw.LAND_AFTER - 2300 + gtkw.LAND_BEFORE)) < 1
    assert marker == 2340 * gtkw.CYCLE_PS + gtkw.REG_OFFSET_PS
    # A window and a router given by hand win over the record.
    out, start, zoom, marker, router = gtkw_header(tmp_path, "--deadlocks", str(path),
                                                   "--router", "2", "--from", "100", "--to", "300")
    assert (router, start, marker) == (2, 100 * gtkw.CYCLE_PS, 2340 * gtkw.CYCLE_PS + gtkw.REG_OFFSET_PS)
    assert abs(shown_cycles(zoom) - 200) < 1


def test_waves_record_without_deadlock_or_broken(tmp_path):
    path = tmp_path / "deadlocks.json"
    path.write_text(json.dumps({"topo": "mesh4x4", "routers": 16, "cycles": 10, "deadlocks": []}))
    out, start, _, marker, router = gtkw_header(tmp_path, "--deadlocks", str(path))
    assert "no deadlock resolved" in out and (start, marker, router) == (0, -1, 5)
    path.write_text("{not json")
    out, start, _, _, _ = gtkw_header(tmp_path, "--deadlocks", str(path))
    assert "not a deadlock record" in out and start == 0


def array_widths():
    """IdW, CycW of the co-simulation routers: the -G flags of ARRAY_SM."""
    m = re.search(r"^ARRAY_SM\s*:=(.*)$", (ROOT / "Makefile").read_text(), re.M)
    flags = dict(re.findall(r"-G(\w+)=(\d+)", m.group(1)))
    return int(flags["IdW"]), int(flags["CycW"])


def picked_bits(view_text, label):
    """The bits (numbered from 0, the LSB) of the one signal a #{label}
    trace picks: GTKWave numbers (i) from the MSB of name[msb:0]."""
    line = next(l for l in view_text.splitlines() if l.startswith("#{%s} " % label))
    bits = []
    for pos, name in re.findall(r"\((\d+)\)(\S+)", line.split("} ", 1)[1]):
        msb = int(re.search(r"\[(\d+):0\]$", name).group(1))
        bits.append(msb - int(pos))
    return sorted(bits)


def test_waves_cut_special_messages_at_the_build_widths(tmp_path):
    """Without a waveform the views take IdW and CycW from ARRAY_SM and cut
    a special message as sender, t, x (and with 2 VCs fk, then the fork
    entries) from bit 0 of the link's data word (contract 12.1)."""
    idw, cycw = array_widths()
    link_w = 128 + 7
    for vcs in (1, 2):
        out = tmp_path / ("v%d" % vcs)
        r = subprocess.run([sys.executable, str(ROOT / "scripts" / "gtkw.py"), "--out-dir", str(out),
                            "--vcs", str(vcs)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert r.returncode == 0, r.stdout
        for view in ("router.gtkw", "spin.gtkw"):
            text = (out / view).read_text()
            assert "IdW %d, CycW %d" % (idw, cycw) in text and "ARRAY_SM" in text
            base = 2 * link_w                     # input 2 (west) of flit_i
            want = {"sender": (0, idw), "t": (idw, cycw), "x": (idw + cycw, cycw)}
            if vcs > 1:
                want.update({"fk": (idw + 2 * cycw, 6), "fork[0]": (idw + 2 * cycw + 6, 1),
                             "fork[1]": (idw + 2 * cycw + 7, 1)})
            for field, (lo, w) in want.items():
                assert picked_bits(text, "%s in 2 west" % field) == list(range(base + lo, base + lo + w)), \
                    (view, field)
            assert ("#{fk in 2 west}" in text) == (vcs > 1)
        spin = (out / "spin.gtkw").read_text()
        for reg in ("u_fsm.state_q[2:0]", "u_fsm.top_q[%d:0]" % (idw - 1), "u_loop_buf.cyc_q[%d:0]" % (cycw - 1),
                    "u_loop_buf.port0_q[2:0]", "u_sm_in.kind_q[2:0]", "u_sm_out.src_q[9:0]",
                    "u_probe_mgr.mk_sender_q["):
            assert reg in spin, reg


def test_waves_refuse_a_missing_waveform(tmp_path):
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "gtkw.py"), "--out-dir", str(tmp_path),
                        "--fst", str(tmp_path / "none.fst")], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    assert r.returncode == 2 and "none.fst: no such waveform" in r.stdout, r.stdout


def test_make_refuses_bad_wave_knobs():
    for knob, want in (("WAVE_FROM=x", "WAVE_FROM=x: expected a cycle number"),
                       ("WAVE_TO=-3", "WAVE_TO=-3: expected a cycle number"),
                       ("WAVE_FROM=50 WAVE_TO=40", "WAVE_TO=40: expected a cycle after WAVE_FROM=50")):
        r = subprocess.run(["make", "--no-print-directory", "-n", "-C", str(ROOT), "waves"] + knob.split(),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert r.returncode == 2 and want in r.stdout, r.stdout
