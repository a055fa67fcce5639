/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ovi-chain-line.h"
#include "ovi-diff-page.h"
#include "ovi-graph-page.h"
#include "ovi-iterations-page.h"
#include "ovi-live-button.h"
#include "ovi-notifier.h"
#include "ovi-operators-page.h"
#include "ovi-overflows-page.h"
#include "ovi-problems-page.h"
#include "ovi-scan-bar.h"
#include "ovi-session.h"
#include "ovi-sidebar.h"
#include "ovi-start-page.h"
#include "ovi-timeline-page.h"
#include "ovi-window.h"

G_BEGIN_DECLS

typedef enum
{
  OVI_WINDOW_EXPORT_REPORT_JSON,
  OVI_WINDOW_EXPORT_REPORT_TEXT,
  OVI_WINDOW_EXPORT_TENSOR_NPY,
  OVI_WINDOW_EXPORT_TENSOR_TXT,
  OVI_WINDOW_EXPORT_OVERFLOW_JSON,
  OVI_WINDOW_EXPORT_OPERATOR_TENSORS,   /* all tensors, as `convert` writes them */
  OVI_WINDOW_EXPORT_SELECTION_TENSORS,  /* of every operator below the sidebar's node */
  OVI_WINDOW_EXPORT_TENSOR_NPY_LOGICAL, /* a device layout back to its logical one */
  OVI_WINDOW_EXPORT_TENSOR_TXT_LOGICAL,
} OviWindowExport;

/* Shared by ovi-window.c, ovi-window-actions.c and ovi-window-export.c. */
struct _OviWindow
{
  AdwApplicationWindow parent_instance;

  OviIterationsPage *iterations_page;
  GtkMenuButton *export_button;
  GMenu *main_menu;
  GMenu *main_menu_recent_section;
  GtkStack *main_stack;
  AdwSplitButton *open_button;
  GMenu *open_menu_recent_section;
  OviGraphPage *graph_page;
  OviOperatorsPage *operators_page;
  OviOverflowsPage *overflows_page;
  GtkButton *problems_button;
  GtkRevealer *problems_revealer;
  AdwButtonContent *problems_content;
  OviProblemsPage *problems_page;
  OviTimelinePage *timeline_page;
  OviDiffPage *diff_page;
  AdwViewStackPage *problems_stack_page;
  OviScanBar *scan_bar;
  OviSidebar *sidebar;
  GtkToggleButton *sidebar_button;
  GtkPaned *sidebar_paned;
  OviStartPage *start_page;
  GtkStack *title_stack;
  AdwViewSwitcherBar *switcher_bar;
  AdwViewSwitcherTitle *switcher_title;
  GMenu *recent_menu;
  AdwToastOverlay *toast_overlay;
  AdwViewStack *view_stack;
  AdwWindowTitle *window_title;

  GSettings *settings;
  OviSession *session;
  OviNotifier *notifier; /* overflows of the followed folder, on the desktop */
  gboolean narrow;       /* narrower than SIDEBAR_FOLD_WIDTH: the sidebar folded */
  guint fold_task;       /* fold_sidebar_cb after the allocation that crossed it */
};

void _ovi_window_class_add_actions (GtkWidgetClass *widget_class);
void _ovi_window_class_add_export_actions (GtkWidgetClass *widget_class);
void _ovi_window_update_export_actions (OviWindow *self);
void _ovi_window_update_actions (OviWindow *self);
void _ovi_window_update_recent (OviWindow *self);
void _ovi_window_show_toast (OviWindow *self, const char *title);
void _ovi_window_show_open_error (OviWindow *self, const char *message);
gboolean _ovi_window_tab_out_of_list (OviWindow *self, GtkDirectionType direction);

/* For tests and benchmarks. */
gboolean
ovi_window_export_to_path (OviWindow *self, OviWindowExport what, const char *path, GError **error);
void ovi_window_export_tensors (OviWindow *self, OviWindowExport what, const char *output);
OviSession *ovi_window_get_session (OviWindow *self);
OviOverflowsPage *ovi_window_get_overflows_page (OviWindow *self);
OviOperatorsPage *ovi_window_get_operators_page (OviWindow *self);
OviProblemsPage *ovi_window_get_problems_page (OviWindow *self);
OviTimelinePage *ovi_window_get_timeline_page (OviWindow *self);
OviDiffPage *ovi_window_get_diff_page (OviWindow *self);
OviIterationsPage *ovi_window_get_iterations_view (OviWindow *self);
OviSidebar *ovi_window_get_sidebar (OviWindow *self);
OviScanBar *ovi_window_get_scan_bar (OviWindow *self);
GtkColumnView *ovi_window_get_record_view (OviWindow *self);
GtkColumnView *ovi_window_get_op_view (OviWindow *self);
OviRecordView *ovi_window_get_record_details (OviWindow *self);
OviTensorView *ovi_window_get_tensor_view (OviWindow *self);
GListModel *ovi_window_get_tree_model (OviWindow *self);
GMenuModel *ovi_window_get_main_menu (OviWindow *self);
void ovi_window_select_tree_row (OviWindow *self, guint position);

G_END_DECLS
