/* check.h - the prelude of the C model's tests (cmodel/tests/test_*.c).
 *
 *   CHECK(cond, fmt, ...)  counts a check; a failed one prints one line,
 *                          FAIL file:line: cond: <fmt, ...>
 *   CHECK0(cond)           the same without a message
 *   Both are expressions: 1 when cond holds, else 0.
 *   check_mute             while non-zero, a failed check is counted, not
 *                          printed (a known bug's checks)
 *   check_begin()          starts a group of checks (a scenario):
 *                          check_group_failed counts its failed checks,
 *                          check_group_line is the line of the first
 *   check_done()           prints "N passed, M failed", the line make test-c
 *                          shows, and returns the exit status (0 when
 *                          nothing failed)
 *   check_data(argc, argv) the fixture directory: the first argument
 *                          (make test-c gives cmodel/tests/data), else that
 */
#ifndef SPIN_TESTS_CHECK_H
#define SPIN_TESTS_CHECK_H

#include <stdarg.h>
#include <stdio.h>

static int check_passed, check_failed;
static int check_mute;
static int check_group_failed, check_group_line;

#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static inline int check_(int ok, const char *file, int line, const char *cond, const char *fmt,
                         ...)
{
  if (ok) {
    check_passed++;
    return 1;
  }
  check_failed++;
  if (!check_group_failed++) check_group_line = line;
  if (!check_mute) {
    va_list ap;
    printf("FAIL %s:%d: %s: ", file, line, cond);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    /* shown even if the test crashes next (stdout is a pipe under make) */
    fflush(stdout);
  }
  return 0;
}

static inline int check0_(int ok, const char *file, int line, const char *cond)
{
  return check_(ok, file, line, cond, "%s", "false");
}

#define CHECK(cond, ...) check_((cond) != 0, __FILE__, __LINE__, #cond, __VA_ARGS__)
#define CHECK0(cond) check0_((cond) != 0, __FILE__, __LINE__, #cond)

static inline void check_begin(void)
{
  check_group_failed = 0;
  check_group_line = 0;
}

static inline int check_done(void)
{
  printf("%d passed, %d failed\n", check_passed, check_failed);
  return check_failed ? 1 : 0;
}

static inline const char *check_data(int argc, char **argv)
{
  return argc > 1 ? argv[1] : "cmodel/tests/data";
}

#endif
