/**
 * Multi-select over the album's items in display order, as in Google Photos: click toggles once selecting has
 * begun, shift-click selects the range from the last clicked item, Ctrl/Cmd+A selects everything loaded.
 */
export interface Selection {
  ids: ReadonlySet<string>;
  /** The item the next shift-click or shift-arrow range starts from. */
  anchor: string | null;
}

export const emptySelection: Selection = { ids: new Set(), anchor: null };

export function toggle(sel: Selection, id: string): Selection {
  const ids = new Set(sel.ids);
  if (ids.has(id)) ids.delete(id);
  else ids.add(id);
  return { ids, anchor: id };
}

/** Adds every item between the anchor and `id` (inclusive) in `order`. Without an anchor, selects `id`. */
export function selectRange(sel: Selection, order: readonly string[], id: string): Selection {
  const to = order.indexOf(id);
  const from = sel.anchor === null ? -1 : order.indexOf(sel.anchor);
  if (to < 0) return sel;
  if (from < 0) return toggle(sel, id);
  const ids = new Set(sel.ids);
  const [lo, hi] = from < to ? [from, to] : [to, from];
  for (let i = lo; i <= hi; i++) ids.add(order[i] as string);
  return { ids, anchor: sel.anchor };
}

/** Whether every one of `ids` is selected (and there is one). */
export function allSelected(sel: Selection, ids: readonly string[]): boolean {
  return ids.length > 0 && ids.every((id) => sel.ids.has(id));
}

/** Selects every one of `ids` (a day's photos, say), or, when all of them already are, none of them. */
export function toggleAll(sel: Selection, ids: readonly string[]): Selection {
  const all = allSelected(sel, ids);
  const next = new Set(sel.ids);
  for (const id of ids) {
    if (all) next.delete(id);
    else next.add(id);
  }
  return { ids: next, anchor: all ? sel.anchor : (ids[ids.length - 1] ?? sel.anchor) };
}

export function selectAll(order: readonly string[]): Selection {
  return { ids: new Set(order), anchor: order[0] ?? null };
}

/** Drops ids that are no longer in the album (deleted here or by someone else). */
export function prune(sel: Selection, present: ReadonlySet<string>): Selection {
  let changed = false;
  const ids = new Set<string>();
  for (const id of sel.ids) {
    if (present.has(id)) ids.add(id);
    else changed = true;
  }
  if (!changed) return sel;
  return { ids, anchor: sel.anchor && present.has(sel.anchor) ? sel.anchor : null };
}
