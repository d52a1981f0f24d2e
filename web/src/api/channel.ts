/**
 * The app's one BroadcastChannel (`sheaf`): how a tab tells this app's other tabs that
 * something changed (WEB-STYLE 4, "Reload and other tabs"). Two kinds of message:
 *
 * - `{ stale: change }`: a change made here (a kind of stale.ts's table); the others mark
 *   the same queries stale and refetch what they show;
 * - `{ session: 'changed' | 'ended' }`: signed in or switched workspace (the others reload
 *   everything), or signed out (they go to sign-in).
 *
 * Opened on first use, so a module that only imports it (a unit test) opens no channel.
 */
export type TabMessage = { stale: string } | { session: 'changed' | 'ended' };

let channel: BroadcastChannel | null | undefined;

function open(): BroadcastChannel | null {
  if (channel === undefined) channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('sheaf');
  return channel;
}

/** Tells this app's other tabs (never this one). */
export function tellOtherTabs(message: TabMessage) {
  open()?.postMessage(message);
}

/** Hears what other tabs tell; returns the way to stop listening. */
export function hearOtherTabs(listener: (message: TabMessage) => void): () => void {
  const onMessage = (event: MessageEvent) => {
    const data = event.data as Partial<Record<'stale' | 'session', unknown>> | null;
    if (typeof data?.stale === 'string') listener({ stale: data.stale });
    else if (data?.session === 'changed' || data?.session === 'ended') listener({ session: data.session });
  };
  const ch = open();
  ch?.addEventListener('message', onMessage);
  return () => ch?.removeEventListener('message', onMessage);
}

/** Closes the channel (a unit test's end; the app keeps it open while the page lives). */
export function closeChannel() {
  channel?.close();
  channel = undefined;
}
