/* text.h - text from files and command lines, made safe to print.
 *
 * Error messages quote what a user gave: a token of a topology file or a
 * trace, a path, an option's value.  Such text can hold any byte.  Before a
 * message reaches a terminal, text_escape writes every byte that is not
 * printable as \xNN (two lower-case hex digits): the C0 controls 0x00-0x1f,
 * DEL 0x7f, the C1 controls U+0080-U+009F (UTF-8 0xc2 0x80-0x9f), and any
 * byte that is not part of well-formed UTF-8.  Printable ASCII and
 * well-formed UTF-8 characters are copied as they are, backslashes too, so
 * escaping is idempotent: escaped text escapes to itself.
 */
#ifndef SPIN_TEXT_H
#define SPIN_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* Writes the escaped form of the NUL-terminated src into dst (dstlen bytes,
 * NUL-terminated, cut at a character boundary when it does not fit).
 * dst and src may be the same buffer.  Returns dst. */
char *text_escape(char *dst, size_t dstlen, const char *src);

/* Length of the well-formed UTF-8 character at s (at most n bytes) that is
 * printable (not a C1 control), or 0 when s[0] starts none (ASCII bytes
 * included: the caller handles them). */
size_t text_utf8_len(const unsigned char *s, size_t n);

/* Reads the next line of f into buf (max + 2 bytes: max characters, a '\r'
 * before the '\n', the NUL), without its terminator ("\n" or "\r\n"),
 * counting it in *line.  Returns 1 with a line, 0 at the end of the file,
 * -1 with the reason in why: a NUL character or a line longer than max
 * (reported at once, reading no further, so a file like /dev/zero is
 * refused, not read forever), a read error.  The input files (topologies,
 * link failures) read their lines with it. */
int text_read_line(FILE *f, char *buf, size_t max, int *line, char *why, size_t whylen);

/* Splits s at blanks (space, tab, CR, VT, FF), in place: the first max
 * tokens go to tok, each NUL-terminated.  Returns the number of tokens,
 * which may exceed max. */
int text_tokenize(char *s, char **tok, int max);

#endif
