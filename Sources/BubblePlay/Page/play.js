"use strict";
const $ = (id) => document.getElementById(id);
const picture = $("picture"), overlay = $("overlay"), stage = $("stage");
const pctx = picture.getContext("2d"), octx = overlay.getContext("2d");
let ws = null, canvasSize = [768, 1024], header = null, fields = [], paused = false, debug = false;
let frames = 0, framesAtTick = 0, lastTick = performance.now();
const state = document.body.dataset;
state.frames = "0";

function send(message) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(message)); }
// The pacing credit. The server never drops one; as a safety net, the page sends it again
// when no frame has come for a second while something moves or a finger is down.
let lastFrameAt = performance.now(), lastReadyAt = 0, moving = false;
function sendReady() { lastReadyAt = performance.now(); send({type: "ready"}); }
setInterval(() => {
  const now = performance.now();
  const active = moving || (typeof gesture !== "undefined" && gesture !== null);
  if (active && now - lastFrameAt > 1000 && now - lastReadyAt > 1000) { state.readyResent = String(Number(state.readyResent || 0) + 1); sendReady(); }
}, 250);
function showError(text) { $("error").textContent = text; state.lastError = text; }

function layout() {
  const room = Math.max(200, window.innerHeight - 70);
  const k = Math.min(1, room / canvasSize[1]);
  const w = Math.round(canvasSize[0] * k), h = Math.round(canvasSize[1] * k);
  for (const c of [picture, overlay]) { c.style.width = w + "px"; c.style.height = h + "px"; }
}

function connect() {
  ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  ws.binaryType = "arraybuffer";
  ws.onopen = () => { $("status").textContent = "connected"; send({type: "hello", scale: Math.min(2, window.devicePixelRatio || 1)}); };
  ws.onclose = (e) => { $("status").textContent = "disconnected" + (e.reason ? ": " + e.reason : ""); state.closed = "1"; };
  ws.onmessage = (e) => {
    if (typeof e.data === "string") { receive(JSON.parse(e.data)); return; }
    const h = header;
    createImageBitmap(new Blob([e.data], {type: "image/png"})).then((bitmap) => {
      paint(h, bitmap);
      bitmap.close();
      if (h) shown(h);
      requestAnimationFrame(sendReady);
    }, () => {
      // The picture can no longer be patched: ask for a whole one.
      send({type: "hello", scale: Math.min(2, window.devicePixelRatio || 1)});
      requestAnimationFrame(sendReady);
    });
  };
}

// Scrolled pages: h.copy = [x, y, w, h, dy] moves the rows of that rectangle by dy pixels
// (down when positive) before the tiles are drawn; rows it leaves keep what they showed.
function applyCopy(h) {
  if (!h || !h.copy) return;
  const [x, y, w, hh, dy] = h.copy;
  pctx.imageSmoothingEnabled = false;
  if (dy < 0) pctx.drawImage(picture, x, y - dy, w, hh + dy, x, y, w, hh + dy);
  else if (dy > 0) pctx.drawImage(picture, x, y, w, hh - dy, x, y + dy, w, hh - dy);
}

// A frame's PNG is the whole picture, or (with h.tiles) the tiles that changed, packed
// h.columns to a row; each is drawn at its place in the picture's grid of h.tileSize squares.
function paint(h, bitmap) {
  if (!h || !h.tiles) {
    if (picture.width !== bitmap.width || picture.height !== bitmap.height) { picture.width = bitmap.width; picture.height = bitmap.height; }
    pctx.drawImage(bitmap, 0, 0);
    return;
  }
  applyCopy(h);
  const t = h.tileSize, grid = Math.ceil(h.width / t);
  pctx.imageSmoothingEnabled = false;
  h.tiles.forEach((index, k) => {
    const x = (index % grid) * t, y = Math.floor(index / grid) * t;
    const w = Math.min(t, h.width - x), hh = Math.min(t, h.height - y);
    pctx.drawImage(bitmap, (k % h.columns) * t, Math.floor(k / h.columns) * t, w, hh, x, y, w, hh);
  });
}

function receive(m) {
  if (m.type === "welcome") {
    canvasSize = m.canvas; fields = m.fields; buildSettings(); layout();
  } else if (m.type === "frame") {
    header = m;
    syncField(m);
    // No tile changed: no PNG follows.
    if (m.tiles && m.tiles.length === 0) { applyCopy(m); shown(m); requestAnimationFrame(sendReady); }
  } else if (m.type === "error") {
    showError(m.message); state.errors = String(Number(state.errors || 0) + 1);
  } else if (m.type === "recording") {
    state.recordStep = String(m.step); state.recordHash = m.hash;
    download("recording.json", m.text);
  } else if (m.type === "settingsFile") {
    download("settings.json", m.text);
  } else if (m.type === "open") {
    openDocument(m.url);
  }
}

// "Open PDF": the report's file from this server (only ever a /reports/ID.pdf path), in the
// browser's own viewer in a new tab. The tap that asked for it is a moment ago, so the browser
// still counts the page as used and lets the tab open.
function openDocument(url) {
  if (typeof url !== "string" || !/^\/reports\/[^/]+\.pdf$/.test(url)) return;
  const a = document.createElement("a");
  a.href = url; a.target = "_blank"; a.rel = "noopener";
  a.click();
  state.lastOpen = url; state.opened = String(Number(state.opened || 0) + 1);
}

// The search field and the filter sheet's field: while either is open (the frame's
// overlay), a hidden input holds the keyboard, so keys and input methods type into it.
// The page sends the field's whole text after each change, never half-composed text.
const field = $("field");
let fieldOverlay = null, composing = false, sentText = "", lastInputAt = 0, results = 0, resultsFor = "";
function sendField() {
  if (composing || !fieldOverlay) return;
  const text = field.value;
  if (text === sentText) return;
  sentText = text; lastInputAt = performance.now();
  send({type: fieldOverlay === "search" ? "search" : "filter_query", text});
}
function fieldKey(e) {
  if (e.key === "Escape") send({type: "close"});
  else if (e.key === "Enter") {
    // The first result (a pick with none would be refused, and stop the recording's export).
    if (fieldOverlay !== "search") send({type: "close"});
    else if (results > 0 && resultsFor === field.value) send({type: "search_pick", row: 0});
  }
  else return false;
  e.preventDefault();
  return true;
}
field.addEventListener("compositionstart", () => { composing = true; });
field.addEventListener("compositionend", () => { composing = false; sendField(); });
field.addEventListener("input", (e) => { if (!e.isComposing) sendField(); });
field.addEventListener("keydown", (e) => {
  if (e.isComposing || e.keyCode === 229) return;   // the input method's own keys
  fieldKey(e);
});
function syncField(h) {
  preview = h.preview || null;
  const o = h.overlay || null;
  state.overlay = o || ""; results = h.results || 0; resultsFor = h.text;
  if (o !== fieldOverlay) {
    fieldOverlay = o; composing = false;
    field.value = o ? h.text : ""; sentText = field.value;
    if (o) field.focus({preventScroll: true}); else field.blur();
  } else if (o && !composing && h.text !== sentText && performance.now() - lastInputAt > 500) {
    // The dashboard holds another text (a refused message): show its own.
    field.value = h.text; sentText = h.text;
  }
  state.fieldText = field.value;
}

function shown(h) {
  frames++;
  lastFrameAt = performance.now(); moving = !h.atRest && !h.paused;
  if (h.tiles) state.patches = String(Number(state.patches || 0) + 1);
  state.frames = String(frames); state.step = String(h.step); state.hash = h.hash; state.stepHash = h.stepHash;
  state.atRest = String(h.atRest); state.paused = String(h.paused);
  $("stepno").textContent = h.step; $("hash").textContent = h.hash; $("stephash").textContent = h.stepHash;
  $("rest").textContent = h.paused ? "paused" : (h.atRest ? "at rest" : "moving");
  $("kb").textContent = (h.bytes / 1024).toFixed(0);
  paused = h.paused; $("pause").textContent = paused ? "Run" : "Pause";
  for (const b of document.querySelectorAll("[data-speed]")) b.classList.toggle("on", Number(b.dataset.speed) === h.speed);
  drawDebug(h);
}

setInterval(() => {
  const now = performance.now();
  $("fps").textContent = ((frames - framesAtTick) * 1000 / (now - lastTick)).toFixed(0);
  framesAtTick = frames; lastTick = now;
}, 1000);

function drawDebug(h) {
  overlay.width = picture.width; overlay.height = picture.height;
  octx.clearRect(0, 0, overlay.width, overlay.height);
  if (!h.debug) return;
  const k = picture.width / canvasSize[0];
  octx.save(); octx.scale(k, k); octx.lineWidth = 1;
  const d = h.debug;
  for (const b of d.bodies) {
    octx.strokeStyle = b.dragged ? "#ffcc00" : (b.kinematic ? "#33ccff" : (d.worldAtRest ? "#55dd55" : "#ff5577"));
    octx.beginPath();
    if (b.r !== undefined) octx.arc(b.x, b.y, b.r, 0, 2 * Math.PI);
    else octx.roundRect(b.x - b.w / 2, b.y - b.h / 2, b.w, b.h, b.c);
    octx.stroke();
    if (b.hz > 0) {
      octx.strokeStyle = "rgba(255,255,255,.6)"; octx.setLineDash([4, 3]);
      octx.beginPath(); octx.moveTo(b.x, b.y); octx.lineTo(b.tx, b.ty); octx.stroke(); octx.setLineDash([]);
      octx.fillStyle = "#fff"; octx.fillRect(b.tx - 2, b.ty - 2, 4, 4);
    }
  }
  octx.strokeStyle = "#ff3b30"; octx.lineWidth = 2;
  for (const [a, b] of d.contacts) {
    const p = d.bodies[a], q = d.bodies[b];
    octx.beginPath(); octx.moveTo(p.x, p.y); octx.lineTo(q.x, q.y); octx.stroke();
  }
  if (d.finger) { octx.fillStyle = "#ffcc00"; octx.beginPath(); octx.arc(d.finger[0], d.finger[1], 6, 0, 2 * Math.PI); octx.fill(); }
  octx.restore();
}

function buildSettings() {
  const form = $("settings"); form.textContent = "";
  for (const f of fields) {
    const label = document.createElement("label"); label.title = f.help;
    const input = document.createElement("input");
    input.type = "number"; input.min = f.min; input.max = f.max; input.step = "any"; input.value = f.value; input.name = f.name;
    label.append(f.name, input); form.append(label);
  }
}

function settingsValues() {
  const values = {};
  for (const input of $("settings").querySelectorAll("input")) {
    const v = Number(input.value), [top, inner] = input.name.split(".");
    if (inner) { values[top] = values[top] || {}; values[top][inner] = v; } else values[top] = v;
  }
  return values;
}

function download(name, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], {type: "application/json"}));
  a.download = name; a.click(); setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  state.lastDownload = name; state.lastDownloadText = text;
}

// Pointer input: a tap, a press-and-drag, a two-finger pinch.
const pointers = new Map();
let gesture = null;   // {id, start: [x, y], pressed: bool}
let pinch = null;     // {distance, sent, zoom: the last spread sent as a zoom, or null}
let preview = null;   // the open preview's sheet and pages (canvas pt), from the frame header
const dragSlop = 6;

function canvasPoint(e) {
  const r = picture.getBoundingClientRect();
  const x = (e.clientX - r.left) * canvasSize[0] / r.width, y = (e.clientY - r.top) * canvasSize[1] / r.height;
  return [x, y];
}
function clampToCanvas([x, y]) { return [Math.min(canvasSize[0], Math.max(0, x)), Math.min(canvasSize[1], Math.max(0, y))]; }
function pinchCentre() {
  const p = [...pointers.values()], r = picture.getBoundingClientRect();
  const cx = (p[0][0] + p[1][0]) / 2, cy = (p[0][1] + p[1][1]) / 2;
  return [(cx - r.left) * canvasSize[0] / r.width, (cy - r.top) * canvasSize[1] / r.height];
}
function onPages([x, y]) {
  if (!preview) return false;
  const [px, py, pw, ph] = preview.pages;
  return x >= px && x <= px + pw && y >= py && y <= py + ph;
}
function spread() { const p = [...pointers.values()]; return Math.hypot(p[0][0] - p[1][0], p[0][1] - p[1][1]); }

stage.addEventListener("pointerdown", (e) => {
  stage.setPointerCapture(e.pointerId);
  pointers.set(e.pointerId, [e.clientX, e.clientY]);
  if (pointers.size === 1) {
    gesture = {id: e.pointerId, start: clampToCanvas(canvasPoint(e)), client: [e.clientX, e.clientY], pressed: false};
  } else if (pointers.size === 2) {
    if (gesture && gesture.pressed) send({type: "release"});
    gesture = null; pinch = {distance: spread(), sent: false, zoom: onPages(pinchCentre()) ? spread() : null};
  }
  e.preventDefault();
});
stage.addEventListener("pointermove", (e) => {
  if (!pointers.has(e.pointerId)) return;
  pointers.set(e.pointerId, [e.clientX, e.clientY]);
  if (pinch && pointers.size >= 2) {
    if (pinch.zoom !== null) {
      // Two fingers on the preview's pages zoom around their middle.
      const s = spread(), k = s / pinch.zoom;
      if (k > 1.03 || k < 0.97) {
        const [x, y] = clampToCanvas(pinchCentre());
        pinch.zoom = s; send({type: "zoom", scale: k, x, y});
      }
    } else if (!pinch.sent && spread() < pinch.distance * 0.7) { pinch.sent = true; send({type: "pinch"}); }
    return;
  }
  if (!gesture || gesture.id !== e.pointerId) return;
  if (!gesture.pressed && Math.hypot(e.clientX - gesture.client[0], e.clientY - gesture.client[1]) > dragSlop) {
    gesture.pressed = true;
    send({type: "press", x: gesture.start[0], y: gesture.start[1]});
  }
  if (gesture.pressed) { const [x, y] = canvasPoint(e); send({type: "move", x, y}); }
});
function pointerEnd(e) {
  if (!pointers.has(e.pointerId)) return;
  pointers.delete(e.pointerId);
  if (pointers.size === 0) pinch = null;
  if (!gesture || gesture.id !== e.pointerId) return;
  if (gesture.pressed) send({type: "release"});
  else if (e.type === "pointerup") send({type: "tap", x: gesture.start[0], y: gesture.start[1]});
  gesture = null;
  if (fieldOverlay) field.focus({preventScroll: true});
}
stage.addEventListener("pointerup", pointerEnd);
stage.addEventListener("pointercancel", pointerEnd);

let lastWheelPinch = 0;
stage.addEventListener("wheel", (e) => {
  e.preventDefault();
  if ((e.ctrlKey || e.metaKey) && onPages(canvasPoint(e))) {
    // ctrl/⌘ + wheel (a trackpad's pinch) over the pages zooms around the pointer.
    const [x, y] = clampToCanvas(canvasPoint(e));
    const scale = Math.exp(-Math.max(-300, Math.min(300, e.deltaY)) / 200);
    if (Math.abs(scale - 1) > 0.001) send({type: "zoom", scale, x, y});
    return;
  }
  if (e.ctrlKey || e.metaKey) {
    const now = performance.now();
    if (e.deltaY > 0 && now - lastWheelPinch > 400) { lastWheelPinch = now; send({type: "pinch"}); }
    return;
  }
  const dy = Math.max(-20000, Math.min(20000, e.deltaMode === 1 ? e.deltaY * 40 : e.deltaY));
  if (dy !== 0) send({type: "scroll", dy});
}, {passive: false});

document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLInputElement) return;
  if (fieldOverlay) {
    // The keyboard belongs to the open field: the key goes on into it.
    field.focus({preventScroll: true});
    fieldKey(e);
    return;
  }
  const k = e.key;
  if (k === "Escape") send({type: "close"});
  else if (k === " ") send({type: "pause", on: !paused});
  else if (k === "." || k === "s" || k === "S") send({type: "step"});
  else if (k === "1") send({type: "speed", value: 1});
  else if (k === "2") send({type: "speed", value: 0.5});
  else if (k === "4") send({type: "speed", value: 0.25});
  else if (k === "r" || k === "R") send({type: "restart"});
  else if (k === "d" || k === "D") { $("debug").checked = !$("debug").checked; send({type: "debug", on: $("debug").checked}); }
  else if (k === "b" || k === "B" || k === "Backspace") send({type: "pinch"});
  else return;
  e.preventDefault();
});

$("pause").onclick = () => send({type: "pause", on: !paused});
$("step").onclick = () => send({type: "step"});
$("restart").onclick = () => send({type: "restart"});
$("debug").onchange = () => send({type: "debug", on: $("debug").checked});
for (const b of document.querySelectorAll("[data-speed]")) b.onclick = () => send({type: "speed", value: Number(b.dataset.speed)});
$("apply").onclick = () => send({type: "settings", values: settingsValues()});
$("save-settings").onclick = () => send({type: "saveSettings"});
$("save-recording").onclick = () => send({type: "record"});
window.addEventListener("resize", layout);
layout();
connect();
