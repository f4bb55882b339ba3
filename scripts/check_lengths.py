#!/usr/bin/env python3
"""check_lengths.py: no function longer than a limit (120 lines).

A long unit reads better split into functions that read as a table of
contents.  This check reports every function or method of the C, C++ and
Python sources under cmodel/, tb/, scripts/ and synth/, and every always
block (always, always_comb, always_ff, always_latch) and function of
rtl/*.sv, that is longer than the limit, as

    PATH:LINE: NAME: N lines (limit 120)

and exits 1 if there is any, 0 if none.  Generated files are not scanned:
build/ (and __pycache__/) are skipped wherever they are.  A length counts the
lines from the first line of the definition to its last, both included.

C, C++ and Python definitions and their ends come from universal-ctags
(Debian package universal-ctags; scripts/install-deps.sh installs it):
`ctags-universal --fields=+ne` gives each definition's line: and end:, a
nested function (a Python closure, a C++ lambda) counted on its own as well
as inside its parent.  ctags does not give the end of a SystemVerilog block,
so rtl/*.sv is read here: comments and strings removed, a function runs to
its endfunction, an always block to the `end` that matches its `begin` (or,
without begin, to the end of its one statement: if/else, case/endcase, a
loop or an assignment).

    scripts/check_lengths.py [--limit N] [--root DIR]
    scripts/check_lengths.py --self-test

--self-test runs the check on a made-up tree with a function of each
language just over the limit and one at it, and with generated files that
are longer still, and fails unless exactly the long ones are reported (and
the exit status is 1); then on the same tree without them (exit status 0).
`make lengths` runs both; `make lint` calls it.  Bad arguments, a missing
ctags and an always block without its end exit 2 with a message.
"""

import argparse
import bisect
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

LIMIT = 120
SRC_DIRS = ("cmodel", "tb", "scripts", "synth")
SRC_EXTS = (".c", ".h", ".cc", ".cpp", ".hpp", ".py")
SKIP_DIRS = {"build", "__pycache__"}
# ctags's kinds of a function definition, by language
FUNCTION_KINDS = {"C": ("function",), "C++": ("function",), "Python": ("function", "member")}
ALWAYS = ("always", "always_comb", "always_ff", "always_latch")


class BadInput(Exception):
    """A problem with the input or the tools: exit status 2."""


# ------------------------------------------------------------ the sources ----

def source_files(root):
    """The C, C++ and Python files under SRC_DIRS, and rtl/*.sv, relative to
    root and sorted; build/ and hidden directories left out."""
    srcs = []
    for top in SRC_DIRS:
        for d, subdirs, files in os.walk(os.path.join(root, top)):
            subdirs[:] = sorted(s for s in subdirs if s not in SKIP_DIRS and not s.startswith("."))
            srcs += [os.path.relpath(os.path.join(d, f), root) for f in files if f.endswith(SRC_EXTS)]
    rtl = os.path.join(root, "rtl")
    sv = sorted(os.path.join("rtl", f) for f in os.listdir(rtl) if f.endswith(".sv")) \
        if os.path.isdir(rtl) else []
    return sorted(srcs), sv


def find_ctags():
    """universal-ctags: $CTAGS, else ctags-universal, else ctags if it is
    Universal Ctags."""
    for cand in ([os.environ["CTAGS"]] if os.environ.get("CTAGS") else ["ctags-universal", "ctags"]):
        path = shutil.which(cand)
        if not path:
            continue
        try:
            ver = subprocess.run([path, "--version"], stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, text=True).stdout
        except OSError:
            continue
        if "Universal Ctags" in ver:
            return path
    raise BadInput("universal-ctags not found (%s; Debian package universal-ctags, "
                   "scripts/install-deps.sh installs it)"
                   % ("CTAGS=" + os.environ["CTAGS"] if os.environ.get("CTAGS")
                      else "ctags-universal or ctags on PATH"))


def tag_name(tag):
    """A definition's name as a reader looks for it: Class.method,
    Class::method, and a lambda by where it is."""
    name, scope = tag["name"], tag.get("scope")
    if name.startswith("__anon"):
        return "lambda in %s" % (scope if scope and not scope.startswith("__anon") else "?")
    if scope and not scope.startswith("__anon"):
        return scope + ("." if tag.get("language") == "Python" else "::") + name
    return name


def code_lengths(root, files):
    """(path, line, name, length) of every function and method in files
    (C, C++, Python), from ctags."""
    if not files:
        return []
    ctags = find_ctags()
    # no option files (--options=NONE); every kind on, so that a method keeps
    # its class as scope; the file names on stdin (-L -)
    r = subprocess.run([ctags, "--options=NONE", "--output-format=json", "--fields=+neKl",
                        "-o", "-", "-L", "-"], input="\n".join(files) + "\n",
                       cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise BadInput("%s failed (exit %d): %s" % (ctags, r.returncode, r.stderr.strip()[-500:]))
    out = []
    for line in r.stdout.splitlines():
        tag = json.loads(line)
        if tag.get("_type") != "tag" or "end" not in tag or "line" not in tag \
                or tag.get("kind") not in FUNCTION_KINDS.get(tag.get("language"), ()):
            continue
        out.append((tag["path"], tag["line"], tag_name(tag), tag["end"] - tag["line"] + 1))
    return out


# --------------------------------------------------------- SystemVerilog ----

def sv_strip(text):
    """Comments and strings blanked out, newlines kept (line numbers hold)."""
    def blank(m):
        return re.sub(r"[^\n]", " ", m.group(0))
    return re.sub(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"', blank, text, flags=re.S)


class SvBlocks:
    """The always blocks and functions of one SystemVerilog file."""

    TOKEN = re.compile(r"[A-Za-z_][\w$]*|[();@*]")

    def __init__(self, path, text):
        self.path = path
        self.raw = text = sv_strip(text)
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.tok = [(m.group(0), m.start()) for m in self.TOKEN.finditer(text)]

    def line(self, i):
        """Line of token i (1-based)."""
        pos = self.tok[min(i, len(self.tok) - 1)][1]
        return bisect.bisect_right(self.starts, pos)

    def word(self, i):
        return self.tok[i][0] if i < len(self.tok) else None

    def fail(self, i, what):
        raise BadInput("%s:%d: %s" % (self.path, self.line(i), what))

    def skip_parens(self, i):
        """From '(' at i to the token after its ')'."""
        depth = 0
        while i < len(self.tok):
            w = self.word(i)
            depth += (w == "(") - (w == ")")
            i += 1
            if depth == 0:
                return i
        self.fail(i - 1, "no ')' to close a '('")

    def until(self, i, close, opens):
        """From the token after an opening keyword to the token after the
        `close` that matches it (`opens` nest)."""
        start, depth = i, 1
        while i < len(self.tok):
            w = self.word(i)
            if w in opens:
                depth += 1
            elif w == close:
                depth -= 1
                if depth == 0:
                    return i + 1
            i += 1
        self.fail(start - 1, "'%s' without its '%s'" % (self.word(start - 1), close))

    def statement(self, i):
        """From the first token of a statement to the token after it."""
        w = self.word(i)
        if w is None:
            self.fail(i - 1, "a statement is missing")
        if w == "begin":
            return self.until(i + 1, "end", ("begin",))
        if w in ("unique", "unique0", "priority"):
            return self.statement(i + 1)
        if w in ("case", "casez", "casex"):
            return self.until(i + 1, "endcase", ("case", "casez", "casex"))
        if w in ("if", "for", "while", "foreach", "repeat"):
            i = self.statement(self.skip_parens(i + 1))
            if w == "if" and self.word(i) == "else":
                i = self.statement(i + 1)
            return i
        while i < len(self.tok) and self.word(i) != ";":
            i = self.skip_parens(i) if self.word(i) == "(" else i + 1
        if i >= len(self.tok):
            self.fail(i - 1, "no ';' ends the statement")
        return i + 1

    def always(self, i):
        """The always block at token i: (name, index of its last token)."""
        kw, j = self.word(i), i + 1
        if self.word(j) == "@":
            j = self.skip_parens(j + 1) if self.word(j + 1) == "(" else j + 2
        label = None
        if self.word(j) == "begin" and self.word(j + 1) is not None \
                and self.tok[j + 1][0] not in ("begin", "end") \
                and re.match(r"\s*:", self.text_after(j)):
            label = self.word(j + 1)
        end = self.statement(j)
        return ("%s %s" % (kw, label) if label else kw), end - 1

    def text_after(self, j):
        """A few characters after token j (for `begin : label`)."""
        pos = self.tok[j][1] + len(self.tok[j][0])
        return self.raw[pos:pos + 8]

    def function(self, i):
        """The function at token i: (name, index of its endfunction)."""
        pos = self.tok[i][1] + len("function")
        head = re.sub(r"\[[^\]]*\]", " ", self.raw[pos:self.raw.find(";", pos)])  # no [ranges]
        m = re.match(r"[^(]*?([A-Za-z_][\w$]*)\s*(?:\(|$)", head, re.S)
        end = self.until(i + 1, "endfunction", ())
        return "function %s" % (m.group(1) if m else "?"), end - 1

    def blocks(self):
        """(path, line, name, length) of every always block and function."""
        out, i = [], 0
        while i < len(self.tok):
            w = self.word(i)
            if w in ALWAYS or w == "function":
                name, last = self.always(i) if w in ALWAYS else self.function(i)
                first_line, last_line = self.line(i), self.line(last)
                out.append((self.path, first_line, name, last_line - first_line + 1))
                i = last + 1
            else:
                i += 1
        return out


def sv_lengths(root, files):
    out = []
    for path in files:
        with open(os.path.join(root, path), errors="replace") as f:
            raw = f.read()
        out += SvBlocks(path, raw).blocks()
    return out


# ----------------------------------------------------------------- check ----

def check(root, limit, quiet=False):
    """Prints each definition over limit; returns (exit status, report)."""
    code, sv = source_files(root)
    lengths = code_lengths(root, code) + sv_lengths(root, sv)
    over = sorted(x for x in lengths if x[3] > limit)
    lines = ["%s:%d: %s: %d lines (limit %d)" % (p, ln, name, n, limit) for p, ln, name, n in over]
    if over:
        lines.append("check_lengths: %d function%s over %d lines (split each into functions "
                     "that read as a table of contents)" % (len(over), "s" if len(over) > 1 else "",
                                                           limit))
    else:
        lines.append("check_lengths: no function over %d lines (%d files, %d functions and "
                     "always blocks)" % (limit, len(code) + len(sv), len(lengths)))
    if not quiet:
        print("\n".join(lines))
    return (1 if over else 0), over


# ------------------------------------------------------------- self-test ----

def body(n, fmt):
    """n lines of filler, each made by fmt % k."""
    return "".join(fmt % k for k in range(n))


def self_test_tree(root, limit, long_ones):
    """Writes the made-up sources: in each language a definition of exactly
    `limit` lines, and with long_ones also some of limit + 1 lines (or more).
    Returns the expected report: {(path, name, length)}."""
    want = set()
    L = limit

    def write(path, text):
        os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
        with open(os.path.join(root, path), "w") as f:
            f.write(text)

    # C: braces in strings and comments
    c = ("/* a C file */\nstatic int at_limit(void)\n{\n" + body(L - 4, "  x += %d; /* } */\n")
         + "  return 0;\n}\n")
    if long_ones:
        c += ("int too_long(int x)\n{\n  const char *s = \"}}}\";\n" + body(L - 4, "  x += %d;\n")
              + "  return x + (s[0] == '}');\n}\n")
        want.add(("cmodel/t.c", "too_long", L + 1))
    write("cmodel/t.c", c)
    # C++: methods inside their class, a lambda
    cpp = "class Bench {\n public:\n  void at_limit() {\n" + body(L - 2, "    y_ += %d;\n") + "  }\n"
    if long_ones:
        cpp += "  int too_long() {\n" + body(L - 2, "    y_ -= %d;\n") + "    return y_;\n  }\n"
        want.add(("tb/t.cpp", "Bench::too_long", L + 1))
    cpp += " private:\n  int y_ = 0;\n};\n"
    if long_ones:
        cpp += ("int use() {\n  auto f = [&](int a) {\n" + body(L - 2, "    a += %d;\n")
                + "    return a;\n  };\n  return f(1);\n}\n")
        want.add(("tb/t.cpp", "lambda in use", L + 1))
        want.add(("tb/t.cpp", "use", L + 4))
    write("tb/t.cpp", cpp)
    # Python: a function, a method, a closure
    py = "def at_limit():\n" + body(L - 2, "    x = %d\n") + "    return x\n"
    if long_ones:
        py += ("\n\nclass Report:\n    def too_long(self):\n" + body(L - 1, "        y = %d\n")
               + "        return y\n\n\ndef outer():\n    def inner():\n"
               + body(L - 1, "        z = %d\n") + "        return z\n    return inner\n")
        want.add(("scripts/t.py", "Report.too_long", L + 1))
        want.add(("scripts/t.py", "outer.inner", L + 1))
        want.add(("scripts/t.py", "outer", L + 3))
    write("scripts/t.py", py)
    write("synth/t.py", "def short():\n    return 1\n")
    # generated: longer than any, never reported
    for gen in ("build/cmodel/gen.c", "cmodel/build/gen.c"):
        write(gen, "int gen(void)\n{\n" + body(3 * L, "  (void)%d;\n") + "  return 0;\n}\n")
    write("scripts/__pycache__/gen.py", "def gen():\n" + body(3 * L, "    pass  # %d\n"))
    # SystemVerilog: nested begin/end, case/endcase, "begin" and "end" in
    # comments and strings, a single-statement always_ff with if/else
    sv = ("module t (input logic clk_i, rst_ni, output logic [7:0] q_o);\n"
          "  logic [7:0] d, q_q;\n"
          "  always_ff @(posedge clk_i) if (!rst_ni) q_q <= '0; else q_q <= d;\n"
          "  always_comb begin : at_limit\n    d = q_q;\n"
          + body(L - 3, "    if (d == 8'd%d) begin d = d + 1; end  // end end\n")
          + "  end\n")
    if long_ones:
        sv += ("  always_comb begin\n    q_o = '0;\n    unique case (q_q)\n"
               + body(L - 5, "      8'd%d: begin q_o = 8'd1; $display(\"end begin\"); end\n")
               + "      default: q_o = d;\n    endcase\n  end\n"
               + "  function automatic logic [$clog2(256)-1:0] too_long(input logic [7:0] a);\n"
               + "    /* begin\n       begin */\n"
               + body(L - 4, "    a = a + 8'd%d;\n") + "    too_long = a;\n  endfunction\n")
        want.add(("rtl/t.sv", "always_comb", L + 1))
        want.add(("rtl/t.sv", "function too_long", L + 1))
    sv += "endmodule\n"
    write("rtl/t.sv", sv)
    return want


def self_test(limit):
    """0 if the check reports exactly the long definitions of a made-up tree
    and exits 1, and exits 0 on the tree without them; else 1."""
    errors = []
    for long_ones in (True, False):
        with tempfile.TemporaryDirectory(prefix="check_lengths.") as root:
            want = self_test_tree(root, limit, long_ones)
            rc, over = check(root, limit, quiet=True)
            got = set((p, name, n) for p, _, name, n in over)
            tree = "with" if long_ones else "without"
            if want - got:
                errors.append("%s long definitions: not reported: %s" % (tree, sorted(want - got)))
            if got - want:
                errors.append("%s long definitions: reported wrongly: %s" % (tree, sorted(got - want)))
            if rc != (1 if long_ones else 0):
                errors.append("%s long definitions: exit status %d" % (tree, rc))
            if long_ones:
                n_long = len(want)
    for e in errors:
        print("check_lengths self-test: FAILED: " + e)
    if errors:
        return 1
    print("check_lengths self-test: the %d long definitions of a made-up tree (C, C++, Python, "
          "SystemVerilog) reported, none at the limit, none generated" % n_long)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--limit", type=int, default=LIMIT, help="longest allowed, in lines (%d)" % LIMIT)
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                    help="the source tree (this script's)")
    ap.add_argument("--self-test", action="store_true",
                    help="check the check on a made-up tree")
    a = ap.parse_args()
    if a.limit < 10:
        ap.error("--limit %d: at least 10 lines" % a.limit)
    if not os.path.isdir(a.root):
        ap.error("--root %s: no such directory" % a.root)
    try:
        if a.self_test:
            return self_test(a.limit)
        return check(a.root, a.limit)[0]
    except BadInput as e:
        print("check_lengths: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
