/* text.c - see text.h. */
#include <errno.h>
#include <string.h>
#include "text.h"

size_t text_utf8_len(const unsigned char *s, size_t n)
{
  size_t len, i;
  unsigned long cp;
  if (n == 0 || s[0] < 0xc2 || s[0] > 0xf4) return 0;   /* ASCII, continuation, overlong */
  len = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
  if (n < len) return 0;
  cp = s[0] & (0x7fu >> len);
  for (i = 1; i < len; i++) {
    if ((s[i] & 0xc0) != 0x80) return 0;
    cp = cp << 6 | (s[i] & 0x3fu);
  }
  if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
      (cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x80 && cp <= 0x9f))
    return 0;   /* overlong, out of range, surrogate, C1 control */
  return len;
}

char *text_escape(char *dst, size_t dstlen, const char *src)
{
  static const char hex[] = "0123456789abcdef";
  size_t n = strlen(src), i = 0, o = 0;
  char tmp[4096];
  char *out = dst;
  if (dstlen == 0) return dst;
  /* escaping in place: read from a copy (a message longer than the copy is
   * cut, which escaping would do to it anyway in a buffer this size) */
  if (dst == src) {
    if (n >= sizeof tmp) n = sizeof tmp - 1;
    memcpy(tmp, src, n);
    tmp[n] = '\0';
    src = tmp;
  }
  while (i < n) {
    const unsigned char c = (unsigned char)src[i];
    size_t k = c >= 0x20 && c < 0x7f ? 1 : text_utf8_len((const unsigned char *)src + i, n - i);
    if (k) {
      if (o + k >= dstlen) break;
      memcpy(out + o, src + i, k);
      o += k;
      i += k;
    } else {
      if (o + 4 >= dstlen) break;
      out[o++] = '\\';
      out[o++] = 'x';
      out[o++] = hex[c >> 4];
      out[o++] = hex[c & 15];
      i++;
    }
  }
  out[o] = '\0';
  return dst;
}

int text_read_line(FILE *f, char *buf, size_t max, int *line, char *why, size_t whylen)
{
  size_t len = 0;
  int ch;
  while ((ch = getc(f)) != EOF && ch != '\n') {
    if (len == 0)
      (*line)++;
    if (ch == '\0') {
      snprintf(why, whylen, "line contains a NUL character");
      return -1;
    }
    if (len == max + 1) {   /* room for a '\r' before the '\n' */
      snprintf(why, whylen, "line longer than %zu characters", max);
      return -1;
    }
    buf[len++] = (char)ch;
  }
  if (ferror(f)) {
    if (len == 0)
      (*line)++;
    snprintf(why, whylen, "read error: %s", strerror(errno));
    return -1;
  }
  if (ch == EOF && len == 0)
    return 0;
  if (len == 0)
    (*line)++;   /* an empty line */
  if (len > 0 && buf[len - 1] == '\r')
    len--;
  if (len > max) {
    snprintf(why, whylen, "line longer than %zu characters", max);
    return -1;
  }
  buf[len] = '\0';
  return 1;
}

int text_tokenize(char *s, char **tok, int max)
{
  static const char blanks[] = " \t\r\v\f";
  int n = 0;
  for (;;) {
    s += strspn(s, blanks);
    if (*s == '\0')
      return n;
    if (n < max)
      tok[n] = s;
    n++;
    s += strcspn(s, blanks);
    if (*s != '\0')
      *s++ = '\0';
  }
}
