/* test_twins.c - the twin pointers between the RTL and the C model hold.
 *
 * Every RTL module (rtl/<m>.sv) names its C twin in its header comment (the
 * // lines it starts with), in one sentence from "C twin" to the first
 * period that ends a sentence: the files (cmodel/<file>.c or .h), and
 * maybe functions, written name().  Checked:
 *   - each rtl/<m>.sv has such a sentence naming at least one C file;
 *   - every file it names exists, and its header comment (the comment it
 *     starts with) names the module back (<m>.sv);
 *   - every function it names is defined (or declared, in a header) in
 *     cmodel/, and when it names any, one at least in a file it names;
 *   - every <x>.sv that a header comment of cmodel/ names exists and
 *     declares module <x>;
 *   - every unit bench tb/unit/<m>_tb.cpp names rtl/<m>.sv first, and the
 *     cmodel/ files and the functions name() its header names exist.
 * Usage: test_twins DATA_DIR (cmodel/tests/data: the repository is three
 * levels up).  Prints one line per failed check and ends with "N passed,
 * N failed". */
#define _POSIX_C_SOURCE 200809L   /* opendir, regcomp */
#include <ctype.h>
#include <dirent.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

#define MAX_FILES 512
#define MAX_NAMES 64
#define NAME_LEN 128

static char root[1024];

/* The whole of root/rel, NUL-terminated; NULL when it cannot be read. */
static char *slurp(const char *rel)
{
  char path[2048];
  FILE *f;
  char *buf;
  long n;
  snprintf(path, sizeof path, "%s/%s", root, rel);
  f = fopen(path, "rb");
  if (!f) return NULL;
  if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    return NULL;
  }
  buf = malloc((size_t)n + 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  if (buf) buf[n] = '\0';
  fclose(f);
  return buf;
}

static int exists(const char *rel)
{
  char *t = slurp(rel);
  free(t);
  return t != NULL;
}

/* The names in directory root/dir ending in suffix, sorted; their count. */
static int list(const char *dir, const char *suffix, char names[][NAME_LEN])
{
  char path[2048];
  DIR *d;
  struct dirent *e;
  int n = 0, i, j;
  snprintf(path, sizeof path, "%s/%s", root, dir);
  d = opendir(path);
  if (!d) return 0;
  while ((e = readdir(d)) && n < MAX_FILES) {
    const size_t l = strlen(e->d_name), s = strlen(suffix);
    if (l > s && l < NAME_LEN && !strcmp(e->d_name + l - s, suffix)) strcpy(names[n++], e->d_name);
  }
  closedir(d);
  for (i = 1; i < n; i++)
    for (j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
      char t[NAME_LEN];
      strcpy(t, names[j]);
      strcpy(names[j], names[j - 1]);
      strcpy(names[j - 1], t);
    }
  return n;
}

/* The header comment of a file's text, its markers dropped: the // lines
 * it starts with (SystemVerilog, C++), or its first comment block (C). */
static char *header(const char *text)
{
  char *out = malloc(strlen(text) + 1), *o = out;
  const char *p = text;
  if (!out) return NULL;
  if (!strncmp(p, "/*", 2)) {
    const char *end = strstr(p + 2, "*/");
    p += 2;
    if (!end) end = p + strlen(p);
    while (p < end) *o++ = *p++;
  } else {
    while (!strncmp(p, "//", 2)) {
      const char *nl = strchr(p, '\n');
      if (!nl) nl = p + strlen(p);
      p += 2;
      while (p < nl) *o++ = *p++;
      *o++ = ' ';
      p = *nl ? nl + 1 : nl;
    }
  }
  *o = '\0';
  return out;
}

/* The sentence from "C twin" to the first period followed by a blank (or
 * the end), in a fresh string; NULL when there is none. */
static char *twin_sentence(const char *hdr)
{
  const char *a = strstr(hdr, "C twin"), *b;
  char *s;
  if (!a) return NULL;
  for (b = a; *b; b++)
    if (*b == '.' && (!b[1] || isspace((unsigned char)b[1]))) break;
  s = malloc((size_t)(b - a) + 1);
  if (!s) return NULL;
  memcpy(s, a, (size_t)(b - a));
  s[b - a] = '\0';
  return s;
}

/* Every match of group 1 of pattern in text, into names; their count. */
static int matches(const char *pattern, const char *text, char names[][NAME_LEN])
{
  regex_t re;
  regmatch_t m[2];
  const char *p = text;
  int n = 0;
  if (regcomp(&re, pattern, REG_EXTENDED) != 0) return 0;
  while (n < MAX_NAMES && regexec(&re, p, 2, m, p == text ? 0 : REG_NOTBOL) == 0) {
    const int len = (int)(m[1].rm_eo - m[1].rm_so);
    if (len > 0 && len < NAME_LEN) {
      memcpy(names[n], p + m[1].rm_so, (size_t)len);
      names[n++][len] = '\0';
    }
    p += m[0].rm_eo;
  }
  regfree(&re);
  return n;
}

/* The C files (cmodel/x.c, cmodel/x.h) a text names. */
static int c_files(const char *text, char names[][NAME_LEN])
{
  return matches("(cmodel/[A-Za-z0-9_/]+\\.[ch])([^A-Za-z0-9_]|$)", text, names);
}

/* The functions name() a text names. */
static int functions(const char *text, char names[][NAME_LEN])
{
  return matches("([A-Za-z_][A-Za-z0-9_]*)\\(\\)", text, names);
}

/* A C text defines (or, a header, declares) name: a line starting in
 * column 0 with no ';', '=', '(' or '{' before "name(", or
 * "#define name(". */
static int defines(const char *text, const char *name)
{
  const size_t n = strlen(name);
  const char *line = text;
  while (*line) {
    const char *nl = strchr(line, '\n'), *p;
    if (!nl) nl = line + strlen(line);
    if (isalpha((unsigned char)*line) || *line == '_' || !strncmp(line, "#define ", 8)) {
      for (p = line + (*line == '#' ? 8 : 0); p + n < nl; p++) {
        if (*p == ';' || *p == '=' || *p == '(' || *p == '{') break;
        if (!strncmp(p, name, n) && p[n] == '(' &&
            (p == line || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')))
          return 1;
      }
    }
    line = *nl ? nl + 1 : nl;
  }
  return 0;
}

/* name is defined in one of the files, or (*where = "elsewhere") in some
 * file of cmodel/. */
static int defined_in(const char *name, char files[][NAME_LEN], int nfiles, const char **where)
{
  static char all[MAX_FILES][NAME_LEN];
  char rel[NAME_LEN + 16];
  int i, n;
  *where = "";
  for (i = 0; i < nfiles; i++) {
    char *t = slurp(files[i]);
    const int ok = t && defines(t, name);
    free(t);
    if (ok) return 1;
  }
  *where = " (in no file it names, but elsewhere in cmodel/)";
  for (n = list("cmodel", ".c", all), i = 0; i < n; i++) {
    char *t;
    int ok;
    snprintf(rel, sizeof rel, "cmodel/%.127s", all[i]);
    t = slurp(rel);
    ok = t && defines(t, name);
    free(t);
    if (ok) return 1;
  }
  for (n = list("cmodel", ".h", all), i = 0; i < n; i++) {
    char *t;
    int ok;
    snprintf(rel, sizeof rel, "cmodel/%.127s", all[i]);
    t = slurp(rel);
    ok = t && defines(t, name);
    free(t);
    if (ok) return 1;
  }
  return 0;
}

/* rtl/<m>.sv exists and declares module (or package) m. */
static int rtl_module(const char *m)
{
  static const char *const kinds[] = {"module", "package"};
  static const char *const ends[] = {" ", ";", "\n"};
  char rel[NAME_LEN + 16], decl[NAME_LEN + 32];
  char *t;
  int ok = 0, k, e;
  snprintf(rel, sizeof rel, "rtl/%s.sv", m);
  t = slurp(rel);
  for (k = 0; t && k < 2; k++)
    for (e = 0; e < 3; e++) {
      snprintf(decl, sizeof decl, "\n%s %s%s", kinds[k], m, ends[e]);
      ok |= strstr(t, decl) != NULL;
    }
  free(t);
  return ok;
}

/* One RTL module's header: its twin sentence, the files and functions it
 * names, and the way back. */
static void check_rtl(const char *file)
{
  static char files[MAX_NAMES][NAME_LEN], fns[MAX_NAMES][NAME_LEN];
  char rel[NAME_LEN + 16], module[NAME_LEN], back[NAME_LEN + 8];
  char *text, *hdr, *twin;
  int nf, nfn, i, in_files = 0;
  snprintf(rel, sizeof rel, "rtl/%s", file);
  snprintf(module, sizeof module, "%.*s", (int)(strlen(file) - 3), file);
  snprintf(back, sizeof back, "%s.sv", module);
  text = slurp(rel);
  hdr = text ? header(text) : NULL;
  twin = hdr ? twin_sentence(hdr) : NULL;
  if (!CHECK(twin != NULL, "%s: no \"C twin\" in its header comment", rel)) goto out;
  nf = c_files(twin, files);
  CHECK(nf > 0, "%s: its twin sentence names no cmodel/ file: \"%s\"", rel, twin);
  for (i = 0; i < nf; i++) {
    char *ct = slurp(files[i]), *ch = ct ? header(ct) : NULL;
    if (CHECK(ct != NULL, "%s: its C twin %s does not exist", rel, files[i]))
      CHECK(ch && strstr(ch, back), "%s: its C twin %s does not name %s in its header comment",
            rel, files[i], back);
    free(ch);
    free(ct);
  }
  nfn = functions(twin, fns);
  for (i = 0; i < nfn; i++) {
    const char *where;
    const int ok = defined_in(fns[i], files, nf, &where);
    CHECK(ok, "%s: its twin sentence names %s(), defined nowhere in cmodel/", rel, fns[i]);
    in_files += ok && !*where;
  }
  CHECK(!nfn || in_files, "%s: none of the functions its twin sentence names is in the files "
        "it names: \"%s\"", rel, twin);
out:
  free(twin);
  free(hdr);
  free(text);
}

/* The RTL modules a C file's header names (x.sv) exist. */
static void check_c(const char *file)
{
  static char mods[MAX_NAMES][NAME_LEN];
  char rel[NAME_LEN + 16];
  char *text, *hdr;
  int n, i;
  snprintf(rel, sizeof rel, "cmodel/%s", file);
  text = slurp(rel);
  hdr = text ? header(text) : NULL;
  n = hdr ? matches("([A-Za-z0-9_]+)\\.sv([^A-Za-z0-9_]|$)", hdr, mods) : 0;
  for (i = 0; i < n; i++)
    CHECK(rtl_module(mods[i]), "%s: names %s.sv, which is no module of rtl/", rel, mods[i]);
  free(hdr);
  free(text);
}

/* A unit bench names its module first, and what else it names exists. */
static void check_bench(const char *file)
{
  static char files[MAX_NAMES][NAME_LEN], fns[MAX_NAMES][NAME_LEN], mods[MAX_NAMES][NAME_LEN];
  char rel[NAME_LEN + 16], module[NAME_LEN];
  char *text, *hdr;
  int n, i;
  snprintf(rel, sizeof rel, "tb/unit/%s", file);
  snprintf(module, sizeof module, "%.*s", (int)(strlen(file) - 7), file);   /* _tb.cpp */
  text = slurp(rel);
  hdr = text ? header(text) : NULL;
  if (!hdr) return;
  n = matches("rtl/([A-Za-z0-9_]+)\\.sv", hdr, mods);
  CHECK(n > 0 && !strcmp(mods[0], module) && rtl_module(module),
        "%s: its header does not name rtl/%s.sv first", rel, module);
  for (n = c_files(hdr, files), i = 0; i < n; i++)
    CHECK(exists(files[i]), "%s: names %s, which does not exist", rel, files[i]);
  for (n = functions(hdr, fns), i = 0; i < n; i++) {
    const char *where;
    CHECK(defined_in(fns[i], files, 0, &where), "%s: names %s(), defined nowhere in cmodel/", rel,
          fns[i]);
  }
  free(hdr);
  free(text);
}

int main(int argc, char **argv)
{
  static char names[MAX_FILES][NAME_LEN];
  int n, i;
  snprintf(root, sizeof root, "%s/../../..", check_data(argc, argv));
  n = list("rtl", ".sv", names);
  CHECK(n >= 15, "%s/rtl: %d modules found", root, n);
  for (i = 0; i < n; i++) check_rtl(names[i]);
  for (n = list("cmodel", ".c", names), i = 0; i < n; i++) check_c(names[i]);
  for (n = list("cmodel", ".h", names), i = 0; i < n; i++) check_c(names[i]);
  n = list("tb/unit", "_tb.cpp", names);
  CHECK(n >= 15, "%s/tb/unit: %d benches found", root, n);
  for (i = 0; i < n; i++) check_bench(names[i]);
  return check_done();
}
