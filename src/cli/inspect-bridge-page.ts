/** Where the Stately inspector's web app lives; the bridge page frames it and feeds it by postMessage. */
export const STATELY_INSPECTOR_URL = 'https://stately.ai/inspect';

/**
 * The page a browser opens at `--inspect`'s address: the Stately inspector in a frame, fed from our
 * WebSocket. Messages go to the inspector's origin only, and only its own "connected" message is
 * listened to, so another frame can neither read the run nor pretend to be the inspector.
 */
export function bridgePage(): string {
  const origin = new URL(STATELY_INSPECTOR_URL).origin;
  return `<!doctype html>
<meta charset="utf-8"><title>Attractor run — Stately inspector</title>
<style>html,body,iframe{margin:0;width:100%;height:100%;border:0}</style>
<iframe id="viewer" src="${STATELY_INSPECTOR_URL}"></iframe>
<script>
  const viewer = document.getElementById('viewer');
  const target = ${JSON.stringify(origin)};
  const pending = [];
  let ready = false;
  addEventListener('message', (m) => {
    if (m.origin === target && m.data && m.data.type === '@statelyai.connected') {
      ready = true;
      for (const e of pending.splice(0)) viewer.contentWindow.postMessage(e, target);
    }
  });
  const socket = new WebSocket('ws://' + location.host);
  socket.onmessage = (m) => {
    const e = JSON.parse(m.data);
    if (ready) viewer.contentWindow.postMessage(e, target);
    else pending.push(e);
  };
</script>
`;
}
