/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ovi-delivery.h"

/* Producers push from any thread. The consumer, on the context the
 * delivery was made for, is told once that results wait (@ready, from a
 * source at G_PRIORITY_DEFAULT), and then pops until the queue is empty:
 * only a push onto a queue the consumer has seen empty tells it again. So
 * the consumer decides how much to take at a time; core decides nothing
 * about when. */
struct _OviDelivery
{
  gatomicrefcount ref_count;
  GMutex lock;
  GQueue items;    /* guarded */
  gboolean told;   /* the consumer knows results wait; guarded */
  gboolean closed; /* pushes are dropped; guarded */
  GSource *source; /* calls @ready */
  GDestroyNotify free_item;
};

static gboolean
dispatch (GSource *source, GSourceFunc callback, gpointer user_data)
{
  g_source_set_ready_time (source, -1);
  ((OviDeliveryReadyFunc) (gpointer) callback) (user_data);
  return G_SOURCE_CONTINUE;
}

static GSourceFuncs source_funcs = { NULL, NULL, dispatch, NULL, NULL, NULL };

/**
 * ovi_delivery_new:
 * @context: where @ready runs
 * @ready: told that results wait; it must pop until ovi_delivery_pop()
 *   gives %NULL or ovi_delivery_pending() %FALSE, now or later
 */
OviDelivery *
ovi_delivery_new (GMainContext *context,
                  OviDeliveryReadyFunc ready,
                  gpointer user_data,
                  GDestroyNotify free_item)
{
  OviDelivery *self = g_new0 (OviDelivery, 1);

  g_atomic_ref_count_init (&self->ref_count);
  g_mutex_init (&self->lock);
  g_queue_init (&self->items);
  self->free_item = free_item;
  self->source = g_source_new (&source_funcs, sizeof (GSource));
  g_source_set_static_name (self->source, "[ovi] results waiting");
  g_source_set_ready_time (self->source, -1);
  g_source_set_callback (self->source, (GSourceFunc) (gpointer) ready, user_data, NULL);
  g_source_attach (self->source, context);
  return self;
}

OviDelivery *
ovi_delivery_ref (OviDelivery *self)
{
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
ovi_delivery_unref (OviDelivery *self)
{
  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_queue_clear_full (&self->items, self->free_item);
  g_source_destroy (self->source);
  g_source_unref (self->source);
  g_mutex_clear (&self->lock);
  g_free (self);
}

/* With the lock held. */
static void
tell (OviDelivery *self)
{
  self->told = TRUE;
  g_source_set_ready_time (self->source, 0);
}

/* Any thread; the delivery takes @item (and frees it once closed). */
void
ovi_delivery_push (OviDelivery *self, gpointer item)
{
  g_mutex_lock (&self->lock);
  if (self->closed)
    {
      g_mutex_unlock (&self->lock);
      self->free_item (item);
      return;
    }
  g_queue_push_tail (&self->items, item);
  if (!self->told)
    tell (self);
  g_mutex_unlock (&self->lock);
}

/* Any thread: calls @ready once more, whether results wait or not (a
 * cancelled load must be ended). */
void
ovi_delivery_wake (OviDelivery *self)
{
  g_mutex_lock (&self->lock);
  if (!self->closed)
    tell (self);
  g_mutex_unlock (&self->lock);
}

/* The consumer: the oldest result, or %NULL (and the next push tells). */
gpointer
ovi_delivery_pop (OviDelivery *self)
{
  gpointer item;

  g_mutex_lock (&self->lock);
  item = g_queue_pop_head (&self->items);
  if (item == NULL)
    self->told = FALSE;
  g_mutex_unlock (&self->lock);
  return item;
}

/* The consumer: puts back what it took and did not apply. */
void
ovi_delivery_push_front (OviDelivery *self, gpointer item)
{
  g_mutex_lock (&self->lock);
  g_queue_push_head (&self->items, item);
  g_mutex_unlock (&self->lock);
}

/* Whether results wait; when none do, the next push tells. */
gboolean
ovi_delivery_pending (OviDelivery *self)
{
  gboolean pending;

  g_mutex_lock (&self->lock);
  pending = !g_queue_is_empty (&self->items);
  if (!pending)
    self->told = FALSE;
  g_mutex_unlock (&self->lock);
  return pending;
}

/* The consumer: drops what waits, and @ready is not called again; later
 * pushes are dropped as they come. */
void
ovi_delivery_close (OviDelivery *self)
{
  GQueue dropped = G_QUEUE_INIT;

  g_mutex_lock (&self->lock);
  self->closed = TRUE;
  dropped = self->items;
  g_queue_init (&self->items);
  g_mutex_unlock (&self->lock);
  /* The consumer may be gone once it has closed the delivery. */
  g_source_destroy (self->source);
  g_queue_clear_full (&dropped, self->free_item);
}
