import Foundation
import ReportLibrary

/// `index.html`: a self-contained review page beside the frames (inline CSS and JS, the frame list
/// embedded, so it works opened straight from the file system): play/pause, a scrubber with the
/// scenario's events as markers, step one frame back or forward, speed 0.25×–2×, the current frame
/// number and time in large type. `index.html#frame=42` opens on frame 42 (the page keeps the
/// fragment up to date when paused, so a link names the frame shown). Keys: ← → step (with Shift,
/// ten frames), space plays or pauses, Home and End jump to the ends. The page also publishes what
/// it shows on `<body>` (`data-frame`, `data-img-src`, `data-img-rect`) for automated checks.
enum ReviewPage {
    static func html(
        title: String, scenarioPath: String, fps: Double, pixelWidth: Int, pixelHeight: Int, formats: [FrameFormat],
        frames: [FrameEntry], events: [EventMarker], video: String? = nil
    ) -> String {
        // Images: the PNG if written, else the SVG; duplicates show their original's file.
        let imageFormat: FrameFormat? = formats.contains(.png) ? .png : formats.contains(.svg) ? .svg : nil
        var rows: [String] = []
        rows.reserveCapacity(frames.count)
        for f in frames {
            let image = imageFormat.map { JSONLiteral.string(WorkContext.fileName(f.duplicateOf ?? f.index, $0), htmlSafe: true) } ?? "null"
            rows.append("[\(f.index),\(image),\(JSONText.strings(f.events, htmlSafe: true))]")
        }
        let first = frames.first?.index ?? 0, last = frames.last?.index ?? 0
        let markers = events.filter { $0.frame >= first && $0.frame <= last }
            .map { "[\($0.frame),\(JSONLiteral.string($0.label, htmlSafe: true)),\(JSONLiteral.number($0.time))]" }
        var data = "{\"title\":\(JSONLiteral.string(title, htmlSafe: true)),\"fps\":\(JSONLiteral.number(fps)),"
        data += "\"width\":\(pixelWidth),\"height\":\(pixelHeight),\n\"events\":[" + markers.joined(separator: ",") + "],\n\"frames\":[\n"
        data += rows.joined(separator: ",\n") + "]}"
        let escapedTitle = htmlEscape(title)
        let meta = htmlEscape(
            "\(frames.count) frames (\(first)–\(last)) · \(JSONLiteral.number(fps)) fps · \(pixelWidth)×\(pixelHeight) px · \(scenarioPath)")
        let videoLink = video.map { #" <a id="video" href=""# + htmlEscape(urlEscape($0)) + #"">▶ Video</a>"# } ?? ""
        return template
            .replacingOccurrences(of: "@TITLE@", with: escapedTitle)
            .replacingOccurrences(of: "@VIDEO@", with: videoLink)
            .replacingOccurrences(of: "@META@", with: meta)
            .replacingOccurrences(of: "@DATA@", with: data)
    }

    /// How the page (in `folder`) refers to the video at `path`: its name when it lies beside the
    /// page, else its path (absolute, as a file URL).
    static func link(to path: String, from folder: String) -> String {
        let video = URL(fileURLWithPath: path).standardizedFileURL
        if video.deletingLastPathComponent().path == URL(fileURLWithPath: folder).standardizedFileURL.path {
            return video.lastPathComponent
        }
        return video.absoluteString
    }

    /// Percent-escapes what a relative URL may not hold as is.
    static func urlEscape(_ s: String) -> String {
        if s.hasPrefix("file://") { return s }
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ":?#")
        return s.addingPercentEncoding(withAllowedCharacters: allowed) ?? s
    }

    static func htmlEscape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static let template = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>@TITLE@ · frames</title>
<style>
:root { color-scheme: dark; }
html, body { margin: 0; height: 100%; }
body { display: flex; flex-direction: column; background: #1b1e24; color: #e8eaef;
  font: 14px/1.4 system-ui, "DejaVu Sans", sans-serif; }
header { display: flex; align-items: baseline; gap: 16px; padding: 10px 16px 4px; }
header h1 { font-size: 16px; margin: 0; font-weight: 600; }
header h1 { flex: none; }
header #video { flex: none; color: #9cc2ff; font-size: 13px; text-decoration: none; border: 1px solid #444c5a; border-radius: 6px; padding: 2px 10px; }
header #video:hover { background: #2e3440; }
header .meta { flex: 1; min-width: 0; color: #9aa3b2; font-size: 12px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
#stage { flex: 1; min-height: 0; display: flex; align-items: center; justify-content: center; padding: 8px; }
#frame { display: block; max-width: 100%; max-height: 100%; box-shadow: 0 2px 14px rgba(0,0,0,.55); }
#noimage { color: #9aa3b2; }
#panel { padding: 8px 16px 12px; border-top: 1px solid #2c313b; background: #20242c; }
#readout { display: flex; gap: 14px; align-items: baseline; min-height: 40px; }
#frameno { font: 700 36px/1 "DejaVu Sans Mono", ui-monospace, monospace; }
#count { color: #7d8696; font: 14px/1 "DejaVu Sans Mono", monospace; }
#time { font: 600 20px/1 "DejaVu Sans Mono", ui-monospace, monospace; color: #c7ccd6; }
#eventnow { color: #ffc857; font-weight: 600; }
#timeline { position: relative; height: 40px; margin-top: 6px; }
#markers { position: absolute; left: 8px; right: 8px; top: 0; height: 16px; }
.marker { position: absolute; top: 0; width: 3px; height: 16px; margin-left: -1px; background: #ffc857; border-radius: 1px; cursor: pointer; }
.marker:hover { background: #fff0c2; }
#scrub { position: absolute; left: 0; right: 0; top: 18px; width: 100%; margin: 0; accent-color: #5b8def; }
#controls { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; }
button, select { background: #2e3440; color: #e8eaef; border: 1px solid #444c5a; border-radius: 6px;
  padding: 5px 12px; font: inherit; cursor: pointer; }
button:hover, select:hover { background: #3a4150; }
#play { min-width: 88px; }
.hint { color: #7d8696; font-size: 12px; margin-left: auto; }
#events { display: flex; flex-wrap: wrap; gap: 6px; margin-top: 8px; }
.chip { font-size: 12px; padding: 2px 9px; border-radius: 10px; background: #3a3320; color: #ffd88a;
  border: 1px solid #6b5a2a; cursor: pointer; }
.chip.past { opacity: .55; }
.chip.now { background: #ffc857; color: #1b1e24; }
</style>
</head>
<body data-frame="" data-img-src="" data-img-rect="">
<header><h1>@TITLE@</h1><span class="meta">@META@</span>@VIDEO@</header>
<div id="stage"><img id="frame" alt="frame"><span id="noimage" hidden>No PNG or SVG frames in this export (--format json only).</span></div>
<div id="panel">
  <div id="readout"><span id="frameno">0</span><span id="count"></span><span id="time">0.000 s</span><span id="eventnow"></span></div>
  <div id="timeline"><div id="markers"></div><input id="scrub" type="range" min="0" max="0" step="1" value="0" aria-label="frame"></div>
  <div id="controls">
    <button id="back" title="One frame back (←)">◀ 1</button>
    <button id="play" title="Play or pause (space)">▶ Play</button>
    <button id="fwd" title="One frame forward (→)">1 ▶</button>
    <label>Speed <select id="speed">
      <option value="0.25">0.25×</option><option value="0.5">0.5×</option><option value="0.75">0.75×</option>
      <option value="1" selected>1×</option><option value="1.5">1.5×</option><option value="2">2×</option>
    </select></label>
    <label><input type="checkbox" id="loop"> Loop</label>
    <span class="hint">← → step (Shift: 10) · space play/pause · Home/End</span>
  </div>
  <div id="events"></div>
</div>
<script>
const DATA = @DATA@;
(function () {
  "use strict";
  const F = DATA.frames, N = F.length, first = N ? F[0][0] : 0;
  const $ = (id) => document.getElementById(id);
  const img = $("frame"), scrub = $("scrub"), playButton = $("play"), speedSelect = $("speed");
  let k = 0, playing = false, last = 0, acc = 0;
  const preload = new Map();
  scrub.max = String(Math.max(0, N - 1));
  $("count").textContent = "/ " + (N ? F[N - 1][0] : 0);
  if (!N || F[0][1] === null) { img.hidden = true; $("noimage").hidden = false; }

  function position(frame) { return N > 1 ? (frame - first) / (N - 1) : 0; }
  const chips = [];
  DATA.events.forEach(function (e) {
    const m = document.createElement("div");
    m.className = "marker";
    m.style.left = (position(e[0]) * 100) + "%";
    m.title = e[1] + " · frame " + e[0] + " · " + e[2] + " s";
    m.addEventListener("click", function () { pause(); show(e[0] - first); });
    $("markers").appendChild(m);
    const c = document.createElement("span");
    c.className = "chip";
    c.textContent = e[1] + " @ " + e[0];
    c.title = e[2] + " s";
    c.addEventListener("click", function () { pause(); show(e[0] - first); });
    $("events").appendChild(c);
    chips.push([e[0], c]);
  });

  function publish() {
    const r = img.getBoundingClientRect();
    document.body.dataset.imgRect = [r.left, r.top, r.width, r.height].map(Math.round).join(",");
  }
  img.addEventListener("load", publish);
  window.addEventListener("resize", publish);
  if (document.fonts && document.fonts.ready) document.fonts.ready.then(publish);

  function show(i, keepHash) {
    if (!N) return;
    k = Math.max(0, Math.min(N - 1, i | 0));
    const f = F[k];
    if (f[1] !== null && img.getAttribute("src") !== f[1]) img.src = f[1];
    $("frameno").textContent = String(f[0]);
    $("time").textContent = (f[0] / DATA.fps).toFixed(3) + " s";
    $("eventnow").textContent = f[2].join(" · ");
    scrub.value = String(k);
    document.body.dataset.frame = String(f[0]);
    document.body.dataset.imgSrc = f[1] === null ? "" : f[1];
    chips.forEach(function (p) {
      p[1].classList.toggle("past", p[0] < f[0]);
      p[1].classList.toggle("now", p[0] === f[0]);
    });
    if (!keepHash && !playing) setHash();
    for (let j = k + 1; j < Math.min(N, k + 8); j++) {
      const s = F[j][1];
      if (s !== null && !preload.has(s)) { const p = new Image(); p.src = s; preload.set(s, p); }
    }
    if (preload.size > 64) preload.clear();
  }
  function setHash() {
    try { history.replaceState(null, "", "#frame=" + F[k][0]); } catch (e) { /* some browsers refuse on file: */ }
  }
  function fromHash() {
    const m = /frame=(\d+)/.exec(location.hash);
    if (m) show(parseInt(m[1], 10) - first, true);
  }
  function tick(now) {
    if (!playing) return;
    acc += (now - last) / 1000 * DATA.fps * parseFloat(speedSelect.value);
    last = now;
    const steps = Math.floor(acc);
    if (steps > 0) {
      acc -= steps;
      let next = k + steps;
      if (next >= N - 1) {
        if ($("loop").checked) next = next % N; else { show(N - 1, true); pause(); return; }
      }
      show(next, true);
    }
    requestAnimationFrame(tick);
  }
  function play() {
    if (playing || N < 2) return;
    if (k >= N - 1) show(0, true);
    playing = true; acc = 0; last = performance.now();
    playButton.textContent = "❚❚ Pause";
    requestAnimationFrame(tick);
  }
  function pause() {
    if (!playing) return;
    playing = false;
    playButton.textContent = "▶ Play";
    setHash();
  }
  playButton.addEventListener("click", function () { playing ? pause() : play(); });
  $("back").addEventListener("click", function () { pause(); show(k - 1); });
  $("fwd").addEventListener("click", function () { pause(); show(k + 1); });
  scrub.addEventListener("input", function () { pause(); show(parseInt(scrub.value, 10)); });
  window.addEventListener("hashchange", fromHash);
  document.addEventListener("keydown", function (e) {
    if (e.target === speedSelect) return;
    const n = e.shiftKey ? 10 : 1;
    if (e.key === "ArrowLeft") { pause(); show(k - n); }
    else if (e.key === "ArrowRight") { pause(); show(k + n); }
    else if (e.key === " ") { playing ? pause() : play(); }
    else if (e.key === "Home") { pause(); show(0); }
    else if (e.key === "End") { pause(); show(N - 1); }
    else return;
    e.preventDefault();
  });
  show(0, true);
  fromHash();
})();
</script>
</body>
</html>

"""#
}
