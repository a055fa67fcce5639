/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The one way a scan's results reach the caller: a queue that threads push
 * to, and that tells the caller's main context when results wait
 * (folder/ internal; see ovi-delivery.c). */
typedef struct _OviDelivery OviDelivery;

typedef void (*OviDeliveryReadyFunc) (gpointer user_data);

OviDelivery *ovi_delivery_new (GMainContext *context,
                               OviDeliveryReadyFunc ready,
                               gpointer user_data,
                               GDestroyNotify free_item);
OviDelivery *ovi_delivery_ref (OviDelivery *self);
void ovi_delivery_unref (OviDelivery *self);
void ovi_delivery_push (OviDelivery *self, gpointer item);
void ovi_delivery_wake (OviDelivery *self);
gpointer ovi_delivery_pop (OviDelivery *self);
void ovi_delivery_push_front (OviDelivery *self, gpointer item);
gboolean ovi_delivery_pending (OviDelivery *self);
void ovi_delivery_close (OviDelivery *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OviDelivery, ovi_delivery_unref)

G_END_DECLS
