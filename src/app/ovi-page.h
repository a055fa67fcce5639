/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "ovi-session.h"

G_BEGIN_DECLS

#define OVI_TYPE_PAGE (ovi_page_get_type ())
G_DECLARE_DERIVABLE_TYPE (OviPage, ovi_page, OVI, PAGE, GtkWidget)

/* A widget of the window that shows part of one session. Subclasses run
 * gtk_widget_dispose_template() for their own type in dispose and chain
 * up; OviPage then lets the session go and unparents what is left. */
struct _OviPageClass
{
  GtkWidgetClass parent_class;

  /* Called after the session changed, with the one it replaced, so a page
   * can move its signal handlers and bindings from one to the other. Also
   * called from dispose, when the template children are already gone. */
  void (*session_changed) (OviPage *self, OviSession *old_session);
};

OviSession *ovi_page_get_session (OviPage *self);
void ovi_page_set_session (OviPage *self, OviSession *session);

G_END_DECLS
