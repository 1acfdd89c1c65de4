import { createHash } from 'node:crypto';

/**
 * The live web view served at `GET /`: one self-contained page (no CDN, no framework), so it works
 * offline. It lists runs, starts one from pasted DOT, and for a selected run shows the SVG graph
 * re-coloured from the event stream, the event log, node details on click, the live agent output and
 * buttons for pending human questions. The page itself holds no run data: on a server with a token it
 * asks for the token (or takes `#token=...` once) and sends it as `Authorization` on every request.
 * Events are read with fetch streaming rather than EventSource, which cannot send that header.
 */
const STYLE = `
  body { font: 14px/1.4 system-ui, sans-serif; margin: 0; display: grid; grid-template-columns: 320px 1fr; height: 100vh; }
  aside { border-right: 1px solid #ddd; overflow: auto; padding: 8px; }
  main { overflow: auto; padding: 8px 16px; }
  h1 { font-size: 16px; margin: 4px 0 8px; } h2 { font-size: 14px; margin: 12px 0 4px; }
  textarea { width: 100%; height: 120px; font: 12px monospace; box-sizing: border-box; }
  ul { list-style: none; padding: 0; margin: 0; }
  li.run { padding: 4px; border-bottom: 1px solid #eee; cursor: pointer; }
  li.run.selected { background: #eef; }
  .status { font-size: 11px; padding: 1px 6px; border-radius: 8px; background: #eee; }
  .status.completed { background: #bbf7d0; } .status.failed { background: #fecaca; } .status.running { background: #fde68a; }
  .status.interrupted, .status.paused { background: #bfdbfe; }
  #graph svg { max-width: 100%; height: auto; }
  #graph g.node { cursor: pointer; }
  #log { font: 12px monospace; max-height: 240px; overflow: auto; background: #fafafa; border: 1px solid #eee; padding: 4px; white-space: pre-wrap; }
  #agent { font: 12px monospace; white-space: pre-wrap; background: #f7f7ff; border: 1px solid #eef; padding: 4px; max-height: 200px; overflow: auto; }
  #questions button { margin: 2px 4px 2px 0; }
  .question { border: 1px solid #bfdbfe; background: #eff6ff; padding: 6px; margin: 4px 0; }
  pre { white-space: pre-wrap; background: #fafafa; padding: 4px; }
  #signin { grid-column: 1 / -1; max-width: 420px; margin: 15vh auto; padding: 16px; border: 1px solid #ddd; }
  #signin input { width: 100%; box-sizing: border-box; margin: 8px 0; font: 14px monospace; }
  #signin-error { color: #b91c1c; }
`;

const SCRIPT = `
"use strict";
// The token lives in this tab's sessionStorage and travels as a header, never in a cookie or a URL
// (docs/decisions/0104-web-view-signs-in-with-a-header-token.md). A #token=... link is taken once and
// removed from the address bar.
var TOKEN_KEY = "attractor.token";
var fragment = location.hash.match(/token=([^&]+)/);
if (fragment) {
  sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(fragment[1]));
  history.replaceState(null, "", location.pathname + location.search);
}
function authHeaders() { var t = sessionStorage.getItem(TOKEN_KEY); return t ? { Authorization: "Bearer " + t } : {}; }
var selected = null, stream = null, statuses = {};
var FILL = { running: "#fde68a", waiting: "#bfdbfe", success: "#bbf7d0", partial_success: "#fef08a", retry: "#fed7aa", fail: "#fecaca", skipped: "#e5e7eb" };
function $(id) { return document.getElementById(id); }
function showSignIn(message) {
  if (stream) stream.abort();
  $("app-aside").hidden = true; $("app-main").hidden = true; $("signin").hidden = false;
  $("signin-error").textContent = message || "";
  $("token").focus();
}
function showApp() {
  $("signin").hidden = true; $("app-aside").hidden = false; $("app-main").hidden = false;
  $("signout").hidden = !sessionStorage.getItem(TOKEN_KEY);
}
/** A 401 means no valid token: forget the one we had and ask for another. */
function checkAuth(r) {
  if (r.status !== 401) return r;
  var had = !!sessionStorage.getItem(TOKEN_KEY);
  sessionStorage.removeItem(TOKEN_KEY);
  showSignIn(had ? "That token is not valid for this server." : "");
  throw new Error("sign in first");
}
function api(path, init) {
  init = init || {};
  init.headers = Object.assign({ "content-type": "application/json" }, authHeaders(), init.headers || {});
  return fetch(path, init).then(checkAuth).then(function (r) {
    return r.text().then(function (t) {
      var body = t ? (r.headers.get("content-type") || "").indexOf("json") >= 0 ? JSON.parse(t) : t : null;
      if (!r.ok) throw new Error(body && body.error ? body.error.message : r.statusText);
      return body;
    });
  });
}
function el(tag, text, cls) { var e = document.createElement(tag); if (text != null) e.textContent = text; if (cls) e.className = cls; return e; }
function refreshRuns() {
  if (!$("signin").hidden) return;
  api("/pipelines?limit=50").then(function (page) {
    showApp();
    var ul = $("runs"); ul.textContent = "";
    page.pipelines.forEach(function (r) {
      var li = el("li", null, "run" + (r.id === selected ? " selected" : ""));
      li.dataset.id = r.id;
      li.appendChild(el("div", r.name));
      li.appendChild(el("span", r.status, "status " + r.status));
      li.onclick = function () { select(r.id); };
      ul.appendChild(li);
    });
  }).catch(function () {});
}
function colour() {
  var nodes = document.querySelectorAll("#graph g.node");
  nodes.forEach(function (g) {
    var title = g.querySelector("title"); if (!title) return;
    var s = statuses[title.textContent];
    g.dataset.status = s || "pending";
    g.querySelectorAll("polygon, ellipse, path").forEach(function (shape) { shape.setAttribute("fill", s ? FILL[s] : "none"); });
  });
}
function applyEvent(e) {
  var n = e.node_id, d = e.data || {};
  if (n && d.branch === undefined && d.parent === undefined) {
    if (e.kind === "node.start") statuses[n] = "running";
    else if (e.kind === "interview.start") statuses[n] = "waiting";
    else if (e.kind === "interview.complete") statuses[n] = "running";
    else if (e.kind === "node.retry") statuses[n] = "retry";
    else if (e.kind === "node.complete") statuses[n] = FILL[d.status] ? d.status : "success";
  }
  if (e.kind === "agent.assistant_text_delta" && d.delta) $("agent").textContent += d.delta;
  if (e.kind === "interview.start" || e.kind === "interview.complete" || e.kind === "interview.timeout") loadQuestions();
}
function logLine(e) {
  var log = $("log");
  log.appendChild(el("div", (e.timestamp || "").slice(11, 19) + " " + e.kind + (e.node_id ? " " + e.node_id : "") + (e.data && e.data.status ? " " + e.data.status : "")));
  log.scrollTop = log.scrollHeight;
}
function follow(id) {
  if (stream) stream.abort();
  stream = new AbortController();
  var ctrl = stream;
  fetch("/pipelines/" + id + "/events", { headers: authHeaders(), signal: ctrl.signal }).then(checkAuth).then(function (r) {
    var reader = r.body.getReader(), decoder = new TextDecoder(), buffer = "";
    function pump() {
      return reader.read().then(function (chunk) {
        if (chunk.done) return;
        buffer += decoder.decode(chunk.value, { stream: true });
        var parts = buffer.split("\\n\\n"); buffer = parts.pop();
        parts.forEach(function (block) {
          var data = block.split("\\n").filter(function (l) { return l.indexOf("data: ") === 0; }).map(function (l) { return l.slice(6); }).join("\\n");
          if (!data) return;
          var e = JSON.parse(data);
          if (e.kind === "done") { $("run-status").textContent = e.status; $("run-status").className = "status " + e.status; refreshRuns(); loadQuestions(); return; }
          applyEvent(e); logLine(e);
        });
        colour();
        return pump();
      });
    }
    return pump();
  }).catch(function () {});
}
function loadQuestions() {
  if (!selected) return;
  var id = selected;
  api("/pipelines/" + id + "/questions").then(function (qs) {
    var box = $("questions"); box.textContent = "";
    qs.forEach(function (q) {
      var div = el("div", null, "question");
      div.appendChild(el("div", q.stage + ": " + q.text));
      q.options.forEach(function (o) {
        var b = el("button", o.label); b.dataset.key = o.key;
        b.onclick = function () { api("/pipelines/" + id + "/questions/" + q.id + "/answer", { method: "POST", body: JSON.stringify({ answer: o.key }) }).then(loadQuestions); };
        div.appendChild(b);
      });
      box.appendChild(div);
    });
  }).catch(function () {});
}
function showNode(id, node) {
  api("/pipelines/" + id + "/nodes/" + encodeURIComponent(node)).then(function (n) {
    var box = $("node"); box.textContent = "";
    box.appendChild(el("div", node + " (" + n.state + ")"));
    if (n.status) box.appendChild(el("pre", JSON.stringify(n.status, null, 2)));
    if (n.prompt) { box.appendChild(el("h2", "Prompt")); box.appendChild(el("pre", n.prompt)); }
    if (n.response) { box.appendChild(el("h2", "Response")); box.appendChild(el("pre", n.response)); }
  });
}
function select(id) {
  selected = id; statuses = {};
  $("empty").hidden = true; $("run").hidden = false;
  $("log").textContent = ""; $("agent").textContent = ""; $("node").textContent = "Click a node in the graph.";
  refreshRuns();
  api("/pipelines/" + id).then(function (r) {
    $("title").textContent = r.name + (r.goal ? " — " + r.goal : "");
    $("run-status").textContent = r.status; $("run-status").className = "status " + r.status;
  });
  fetch("/pipelines/" + id + "/graph?format=svg", { headers: authHeaders() }).then(checkAuth).then(function (r) { return r.text(); }).then(function (svg) {
    $("graph").innerHTML = svg;
    document.querySelectorAll("#graph g.node").forEach(function (g) {
      g.onclick = function () { var t = g.querySelector("title"); if (t) showNode(id, t.textContent); };
    });
    colour();
  });
  loadQuestions();
  follow(id);
}
$("submit").onsubmit = function (ev) {
  ev.preventDefault();
  $("submit-error").textContent = "";
  api("/pipelines", { method: "POST", body: JSON.stringify({ dot_source: $("dot").value, dry_run: $("dry").checked }) })
    .then(function (r) { select(r.id); })
    .catch(function (err) { $("submit-error").textContent = err.message; });
};
$("cancel").onclick = function () { if (selected) api("/pipelines/" + selected + "/cancel", { method: "POST" }).then(refreshRuns); };
$("resume").onclick = function () { if (selected) api("/pipelines/" + selected + "/resume", { method: "POST" }).then(function () { select(selected); }); };
$("signin").onsubmit = function (ev) {
  ev.preventDefault();
  sessionStorage.setItem(TOKEN_KEY, $("token").value.trim());
  $("token").value = "";
  $("signin").hidden = true;
  refreshRuns();
};
$("signout").onclick = function () { sessionStorage.removeItem(TOKEN_KEY); location.reload(); };
refreshRuns();
setInterval(refreshRuns, 3000);
`;

export const WEB_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Attractor</title>
<style>${STYLE}</style>
</head>
<body>
<form id="signin" hidden>
  <h1>Attractor</h1>
  <p>This server needs its access token. It is kept in this browser tab only.</p>
  <label>Token <input id="token" type="password" autocomplete="off" required></label>
  <button type="submit" id="signin-button">Sign in</button>
  <div id="signin-error" role="alert"></div>
</form>
<aside id="app-aside">
  <h1>Attractor <button id="signout" hidden>Sign out</button></h1>
  <form id="submit">
    <textarea id="dot" placeholder="digraph pipeline { ... }"></textarea>
    <label><input type="checkbox" id="dry" checked> dry run</label>
    <button type="submit" id="start">Start</button>
    <div id="submit-error" role="alert"></div>
  </form>
  <h2>Runs</h2>
  <ul id="runs"></ul>
</aside>
<main id="app-main">
  <div id="empty">Select a run, or start one.</div>
  <section id="run" hidden>
    <h1 id="title"></h1>
    <div>status: <span id="run-status" class="status"></span> <button id="cancel">Cancel</button> <button id="resume">Resume</button></div>
    <div id="questions"></div>
    <div id="graph"></div>
    <h2>Node</h2><div id="node">Click a node in the graph.</div>
    <h2>Agent output</h2><div id="agent"></div>
    <h2>Events</h2><div id="log"></div>
  </section>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * Served with the page: only its own script and style run (by hash), it talks only to this server, and
 * no other site may frame it or receive its form; the token it keeps is reachable by no injected script.
 */
export const WEB_PAGE_HEADERS: Record<string, string> = {
  'Content-Security-Policy': [
    "default-src 'none'",
    `script-src ${sha256(SCRIPT)}`,
    `style-src ${sha256(STYLE)}`,
    "connect-src 'self'",
    "img-src 'self' data:",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; '),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};
