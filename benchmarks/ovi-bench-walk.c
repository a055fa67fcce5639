/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _XOPEN_SOURCE 700
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <unistd.h>

/* The index's floor (bench.py, case index): what any indexer must do at
 * least, with no parsing at all:
 *   ovi-bench-walk ROOT
 * walks ROOT (nftw, links not followed) and opens, reads the first 4 KiB
 * of and closes every regular file, then prints the number of files and
 * bytes read. */

static unsigned long files, bytes;

static int
visit (const char *path, const struct stat *st, int type, struct FTW *ftw)
{
  char header[4096];
  ssize_t n;
  int fd;

  (void) st;
  (void) ftw;
  if (type != FTW_F)
    return 0;
  if ((fd = open (path, O_RDONLY | O_CLOEXEC)) < 0)
    return 0;
  if ((n = read (fd, header, sizeof header)) > 0)
    bytes += n;
  close (fd);
  files++;
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      fprintf (stderr, "usage: ovi-bench-walk ROOT\n");
      return 2;
    }
  if (nftw (argv[1], visit, 64, FTW_PHYS) != 0)
    {
      perror (argv[1]);
      return 1;
    }
  printf ("%lu files, %lu bytes\n", files, bytes);
  return 0;
}
