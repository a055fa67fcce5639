#pragma once

#include <json-glib/json-glib.h>

#include "ovi-dump-folder.h"

G_BEGIN_DECLS

typedef enum
{
  OVI_REPORT_FULL = 0,
  OVI_REPORT_RECORDS_ONLY = 1 << 0,
} OviReportFlags;

JsonNode *ovi_report_build_json (OviDumpFolder *folder);
JsonNode *ovi_report_build_json_full (OviDumpFolder *folder, OviReportFlags flags);
char *ovi_report_to_json_full (OviDumpFolder *folder, OviReportFlags flags);
char *ovi_report_to_text_full (OviDumpFolder *folder, OviReportFlags flags);
JsonNode *ovi_report_record_json (OviDumpFolder *folder, OviOverflowRecord *record);
JsonNode *ovi_report_tensor_json (OviTensor *tensor);
char *ovi_report_to_json (OviDumpFolder *folder);
char *ovi_report_to_text (OviDumpFolder *folder);

G_END_DECLS
