/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "ovi-file-name.h"

static gboolean
is_number (const char *s)
{
  if (*s == '\0' || strlen (s) > 20)
    return FALSE;
  for (; *s; s++)
    if (!g_ascii_isdigit (*s))
      return FALSE;
  return TRUE;
}

static guint64
number (const char *s)
{
  return g_ascii_strtoull (s, NULL, 10);
}

void
ovi_file_name_clear (OviFileName *name)
{
  g_clear_pointer (&name->op_type, g_free);
  g_clear_pointer (&name->op_name, g_free);
  memset (name, 0, sizeof *name);
}

/* The numeric fields after op_type.op_name, by how many there are
 * (dump-format.md section 2 and format-sources.md "File-name variants"):
 *   2  task.ts                          (older, no stream id)
 *   3  task.stream.ts
 *   4  dump_number.task.stream.ts       (adump)
 *   6  task.ts.a.ctx.thread.b           (older with the FFTS+ extras)
 *   7  task.stream.ts.a.ctx.thread.b
 *   8  dump_number.task.stream.ts.a.ctx.thread.b (adump with FFTS+)
 * "FFTSPLUS" may stand in place of the numeric task type a. */
static gboolean
assign_numbers (OviFileName *out, char **nums, guint n)
{
  guint i = 0;

  switch (n)
    {
    case 2:
    case 6:
      out->task_id = number (nums[i++]);
      break;
    case 3:
    case 7:
      out->task_id = number (nums[i++]);
      out->stream_id = number (nums[i++]);
      out->has_stream_id = TRUE;
      break;
    case 4:
    case 8:
      out->dump_number = number (nums[i++]);
      out->has_dump_number = TRUE;
      out->task_id = number (nums[i++]);
      out->stream_id = number (nums[i++]);
      out->has_stream_id = TRUE;
      break;
    default:
      return FALSE;
    }
  out->timestamp = number (nums[i++]);
  if (n >= 6)
    {
      out->context_id = number (nums[i + 1]);
      out->thread_id = number (nums[i + 2]);
      out->has_context = TRUE;
    }
  return TRUE;
}

static gboolean
valid_tail_length (guint n)
{
  return n == 2 || n == 3 || n == 4 || n == 6 || n == 7 || n == 8;
}

/* An exception or kernel file: {type}.{stream}.{task}...{ts}, the stream
 * before the task, the timestamp at @ts_part. */
static gboolean
exception_name (OviFileName *out, char **parts, guint ts_part)
{
  out->kind = OVI_FILE_KIND_EXCEPTION;
  out->op_type = g_strdup (parts[0]);
  out->op_name = g_strdup ("");
  out->stream_id = number (parts[1]);
  out->has_stream_id = TRUE;
  out->task_id = number (parts[2]);
  out->timestamp = number (parts[ts_part]);
  return TRUE;
}

/**
 * ovi_file_name_parse:
 * @name: a base name, the original one when mapping.csv has it
 * @out: (out caller-allocates): the fields; clear with ovi_file_name_clear()
 *
 * Returns: %TRUE when @name is an op dump, overflow or exception dump name.
 */
gboolean
ovi_file_name_parse (const char *name, OviFileName *out)
{
  /* Split at the dots in a copy, on the stack for any name a folder can
   * hold (this runs twice for every file listed). */
  char stack_copy[256];
  char *stack_parts[64];
  g_autofree char *heap_copy = NULL;
  g_autofree char **heap_parts = NULL;
  char *copy, **parts;
  gsize length;
  guint n_parts = 1, tail = 0, n;

  memset (out, 0, sizeof *out);
  g_return_val_if_fail (name != NULL, FALSE);

  length = strlen (name);
  copy = length < sizeof stack_copy ? stack_copy : (heap_copy = g_malloc (length + 1));
  memcpy (copy, name, length + 1);
  for (const char *p = name; *p; p++)
    n_parts += *p == '.';
  parts = n_parts < G_N_ELEMENTS (stack_parts) ? stack_parts
                                               : (heap_parts = g_new (char *, n_parts + 1));
  parts[0] = copy;
  for (guint i = 1; i < n_parts; i++)
    {
      char *dot = strchr (parts[i - 1], '.');
      *dot = '\0';
      parts[i] = dot + 1;
    }
  parts[n_parts] = NULL;

  /* exception_info.{stream}.{task}.{ts}: stream before task. */
  if (n_parts == 4 && g_str_equal (parts[0], "exception_info") && is_number (parts[1]) &&
      is_number (parts[2]) && is_number (parts[3]))
    return exception_name (out, parts, 3);

  /* {kernel|exception_info}.{stream}.{task}.{core_type}.{core_id}.{ts} */
  if (n_parts == 6 &&
      (g_str_equal (parts[0], "exception_info") || g_str_equal (parts[0], "kernel")) &&
      is_number (parts[1]) && is_number (parts[2]) && is_number (parts[3]) &&
      is_number (parts[4]) && is_number (parts[5]))
    return exception_name (out, parts, 5);

  if (n_parts < 4)
    return FALSE;

  while (tail < n_parts)
    {
      const char *p = parts[n_parts - 1 - tail];
      /* FFTSPLUS sits fourth from the end, in place of the task type. */
      if (is_number (p) || (tail == 3 && g_str_equal (p, "FFTSPLUS")))
        tail++;
      else
        break;
    }

  /* op_type and op_name take at least one field each; an op name made of
   * digits only is still a name. */
  n = MIN (tail, n_parts - 2);
  while (n > 0 && (!valid_tail_length (n) || g_str_equal (parts[n_parts - n], "FFTSPLUS")))
    n--;
  if (n == 0)
    return FALSE;

  if (!assign_numbers (out, parts + (n_parts - n), n))
    return FALSE;

  /* op_name: the fields between op_type and the numbers, dots and all. */
  out->op_type = g_strdup (parts[0]);
  out->op_name = g_strndup (name + (parts[1] - copy), parts[n_parts - n] - 1 - parts[1]);
  if (*out->op_type == '\0' || *out->op_name == '\0')
    {
      ovi_file_name_clear (out);
      return FALSE;
    }

  if (g_ascii_strcasecmp (out->op_type, "Opdebug") == 0 &&
      g_ascii_strcasecmp (out->op_name, "Node_OpDebug") == 0)
    out->kind = OVI_FILE_KIND_OVERFLOW;
  else
    out->kind = OVI_FILE_KIND_OP_DUMP;
  return TRUE;
}

/**
 * ovi_file_name_form:
 * @name: an op type or op name
 *
 * The form @name takes in a dump file name, where `.`, `/`, `\` and spaces
 * are replaced by `_` (dump-format.md section 2): how an operator read from
 * its header and the same operator known only by its file name (a
 * statistics CSV) are matched.
 *
 * Returns: (transfer full): the name as a file name writes it
 */
char *
ovi_file_name_form (const char *name)
{
  char *form = g_strdup (name);

  g_strdelimit (form, "./\\ ", '_');
  return form;
}
