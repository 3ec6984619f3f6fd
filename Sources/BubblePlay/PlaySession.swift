@_spi(Testbed) import BubbleDashboard
import BubbleRender
@_spi(Testbed) import BubbleScenario
import BubbleSupport
import DashboardLibrary
import Foundation
import ReportLibrary

/// What every session of one server plays: the datasource, read once.
public struct PlaySource: Sendable {
    /// The datasource path as written into recordings (absolute, so a recording exports from anywhere).
    public var dataPath: String
    /// The datasource's tree with its PDF metadata.
    public var tree: DashboardTree
    /// The settings every session starts with (canvas included).
    public var settings: DashboardSettings
    /// Answers the dashboard's search and keyword filter (nil: "Search needs an index").
    public var finder: IndexReportFinder?
    /// The reports' pages for the preview and the rows' thumbnails, shared by every session
    /// (nil: the preview draws a stand-in page).
    public var pages: ReportPageSource?
    /// The reports' PDFs the server hands out at `/reports/ID.pdf` ("Open PDF"); none unless
    /// `load` filled it from the datasource.
    public var files = ReportFiles(files: [:])

    /// A source of `tree` read from `dataPath`, played with `settings`, searching with `finder`
    /// (nil: no search), showing pages from `pages` (nil: a stand-in page).
    public init(dataPath: String, tree: DashboardTree, settings: DashboardSettings, finder: IndexReportFinder? = nil,
                pages: ReportPageSource? = nil) {
        self.dataPath = dataPath
        self.tree = tree
        self.settings = settings
        self.finder = finder
        self.pages = pages
    }

    /// Loads a datasource and its PDFs' metadata as `bubbles export` does, so that a recording
    /// exports to the same states.
    public static func load(dataPath: String, settings: DashboardSettings, readPDFs: Bool = true) throws -> PlaySource {
        try load(dataPath: dataPath, settings: settings, pdfMetadata: readPDFs ? .readEveryPDF : .none)
    }

    /// Loads a datasource with its PDFs' metadata from `pdfMetadata` (`bubbles play` takes it
    /// from the library index). `warn` is told of an index rebuilt or not usable, and of searches
    /// it could not answer (default: nobody).
    public static func load(
        dataPath: String, settings: DashboardSettings, pdfMetadata: PDFMetadataSource,
        warn: @escaping @Sendable (String) -> Void = { _ in }
    ) throws -> PlaySource {
        let library = try LibraryLoader.load(dataPath)
        let tree = try LibraryBridge.dashboardTree(library, details: LibraryBridge.details(for: library, source: pdfMetadata, warn: warn))
        let absolute = dataPath.hasPrefix("/") ? dataPath : FileManager.default.currentDirectoryPath + "/" + dataPath
        let finder = LibraryBridge.finder(for: library, dashboardTree: tree, source: pdfMetadata, warn: warn)
        var source = PlaySource(dataPath: (absolute as NSString).standardizingPath, tree: tree, settings: settings, finder: finder,
                                pages: LibraryBridge.pageSource(for: library, source: pdfMetadata))
        source.files = ReportFiles(files: ReportFiles.files(of: library), index: finder?.index)
        return source
    }
}

/// A frame for the page: a JSON header (step, state hash, rest, controls, debug view) and the PNG.
public struct PlayFrame {
    /// The frame's header, one JSON object.
    public var header: String
    /// The PNG to send after the header: the whole picture, or the changed tiles packed (see
    /// `tiles`); empty (send nothing) when no tile changed.
    public var png: [UInt8]
    /// nil when `png` is the whole picture; otherwise the grid indices of the tiles it packs.
    public var tiles: [Int]?
    /// The simulation step the frame shows.
    public var step: Int
    /// The dashboard's state hash at that step.
    public var stateHash: UInt64
    /// Where the server's time went (wall clock, for `bench play`; not part of any state).
    public var drawSeconds = 0.0
    /// See `drawSeconds`.
    public var encodeSeconds = 0.0
}

/// One page's live dashboard: input in, frames out, recording. Not thread-safe: one task owns it.
///
/// Time: the dashboard runs on a clock made of the wall clock the server passes in (`now`,
/// seconds), times the speed, frozen while paused and while the dashboard is at rest (so an idle
/// page costs nothing and a recording has no dead time). Input takes effect on the state the
/// dashboard holds after advancing to `now`, that is at step `stepCount`, and is recorded with
/// that step: a `ScenarioPlayer` fires it at the same step, so the recording replays bit for bit.
///
/// Pacing: the page sends `ready` once it shows a frame; `frame(now:)` draws only with such a
/// credit and only when something changed, so no frame queues up and nothing is drawn at rest.
public final class PlaySession {
    /// What the session plays.
    public let source: PlaySource
    /// The session's dashboard (a new one on `restart`).
    public private(set) var dashboard: Dashboard
    /// The session's recording so far.
    public private(set) var recorder: Recorder
    /// The parser of the page's messages, for the session's canvas and settings.
    public private(set) var parser: PlayMessageParser
    /// True while the page has paused the clock.
    public private(set) var isPaused = false
    /// The clock's speed (1, 0.5 or 0.25).
    public private(set) var speed = 1.0
    /// True while the page shows the debug overlay.
    public private(set) var showsDebug = false
    /// Device pixels per canvas point of the frames (0.5...`maxScale`).
    public private(set) var scale: Double
    /// True when the page can take a frame.
    public private(set) var hasCredit = true
    /// Frames drawn so far.
    public private(set) var framesSent = 0
    private var renderer: SceneRenderer
    private let measurer = PangoTextMeasurer()
    /// Frames drawn only where the preview's pages changed (the rest moved or kept).
    public private(set) var partialFrames = 0
    /// The picture the page shows (nil: the next frame sends the whole picture), and the image
    /// the next frame is drawn into.
    private(set) var shownImage: RenderedImage? { didSet { if shownImage == nil { shownScene = nil } } }
    private var spareImage: RenderedImage?
    /// The scene `shownImage` was drawn from: an equal scene is not drawn again.
    private var shownScene: Scene?
    /// Whether a frame sends only the tiles that changed since the one before (the default), or
    /// always the whole picture.
    public var sendsChangedTiles = true
    /// Keeps its buffers and compressor from frame to frame.
    private let encoder = PNGEncoder()
    private let patcher = TilePatcher()
    /// Something changed since the last frame (an input, a control, a step).
    private var dirty = true
    /// The page source's generation the last frame saw.
    private var pagesSeen: UInt64 = 0
    /// The clock: `simTime = anchorSim + (now - anchorWall) · speed`.
    private var anchorSim = 0.0
    private var anchorWall: Double
    /// The time of the picture to draw (at most the dashboard's own time).
    private var simTime = 0.0
    /// Most steps one clock reading may take: a stalled server falls behind instead of freezing.
    public static let maxStepsPerAdvance = 30
    /// The largest pixel scale frames are drawn at.
    public static let maxScale = 2.0

    /// A session of `source` drawn at `scale` (clamped to 0.5...`maxScale`, default 1), its clock starting at `now` (seconds).
    public init(source: PlaySource, scale: Double = 1, now: Double) throws {
        self.source = source
        self.scale = min(max(scale, 0.5), Self.maxScale)
        let d = try Dashboard(tree: source.tree, settings: source.settings, measurer: measurer, finder: source.finder,
                              documents: source.pages)
        dashboard = d
        recorder = Recorder(
            dataPath: source.dataPath, canvasWidth: source.settings.canvasWidth, canvasHeight: source.settings.canvasHeight,
            settings: source.settings, timeStep: d.timeStep)
        parser = PlayMessageParser(canvasWidth: source.settings.canvasWidth, canvasHeight: source.settings.canvasHeight, baseSettings: source.settings)
        renderer = SceneRenderer(pixelScale: self.scale)
        renderer.pictures = source.pages
        renderer.waitsForPages = false
        anchorWall = now
        simTime = d.time
        anchorSim = d.time
    }

    /// The welcome message: canvas, scale, the settings and their ranges.
    public func welcome() -> String {
        let s = dashboard.settings
        let fields = SettingsFile.fields.map { f in
            "{\"name\": \(JSONLiteral.string(f.name)), \"min\": \(JSONLiteral.number(f.range.lowerBound)), \"max\": \(JSONLiteral.number(f.range.upperBound)), "
                + "\"value\": \(JSONLiteral.number(f.value(in: s))), \"help\": \(JSONLiteral.string(f.help))}"
        }
        return "{\"type\": \"welcome\", \"canvas\": [\(JSONLiteral.number(s.canvasWidth)), \(JSONLiteral.number(s.canvasHeight))], "
            + "\"maxScale\": \(JSONLiteral.number(Self.maxScale)), \"fields\": [\(fields.joined(separator: ", "))]}"
    }

    // MARK: - Input

    /// Handles a checked message at wall time `now`; returns the text messages to send back (an
    /// `error` for an event the dashboard refused: the session goes on).
    public func handle(_ message: PlayMessage, now: Double) -> [String] {
        switch message {
        case .hello(let s):
            let clamped = min(max(s, 0.5), Self.maxScale)
            if clamped != scale {
                scale = clamped
                let budget = (renderer.spriteBudgetBytes, renderer.textBudgetBytes)
                renderer = SceneRenderer(pixelScale: clamped)
                renderer.pictures = source.pages
                renderer.waitsForPages = false
                renderer.spriteBudgetBytes = budget.0
                renderer.textBudgetBytes = budget.1
                spareImage = nil
            }
            // A hello starts the page's picture afresh.
            shownImage = nil
            dirty = true
            return [welcome()]
        case .ready:
            hasCredit = true
            return []
        case .tap(let p): return send(.tap(at: p), now: now)
        case .press(let p): return send(.press(at: p), now: now)
        case .move(let p): return send(.move(to: p), now: now)
        case .release: return send(.release, now: now)
        case .pinch: return send(.pinch, now: now)
        case .scroll(let d): return send(.scroll(d), now: now)
        case .zoom(let s, let p): return send(.zoom(scale: s, at: p), now: now)
        case .close: return send(.closeOverlay, now: now)
        case .settings(let s): return send(.settings(s), now: now)
        case .search(let t): return send(.search(t), now: now)
        case .filterQuery(let t): return send(.filterQuery(t), now: now)
        case .searchPick(let row): return send(.searchPick(row), now: now)
        case .pause(let on):
            advanceClock(now)
            isPaused = on
            anchor(now)
            dirty = true
            return []
        case .step:
            advanceClock(now)
            isPaused = true
            dashboard.step()
            simTime = dashboard.time
            anchor(now)
            dirty = true
            return []
        case .speed(let v):
            advanceClock(now)
            speed = v
            anchor(now)
            dirty = true
            return []
        case .restart:
            do {
                let d = try Dashboard(tree: source.tree, settings: source.settings, measurer: measurer, finder: source.finder,
                                      documents: source.pages)
                dashboard = d
                recorder = Recorder(
                    dataPath: source.dataPath, canvasWidth: source.settings.canvasWidth, canvasHeight: source.settings.canvasHeight,
                    settings: source.settings, timeStep: d.timeStep)
                simTime = d.time
                anchor(now)
                dirty = true
                return []
            } catch {
                return [Self.error("restart failed: \(error)")]
            }
        case .debug(let on):
            showsDebug = on
            dirty = true
            return []
        case .record:
            advanceClock(now)
            return [
                "{\"type\": \"recording\", \"step\": \(dashboard.stepCount), \"hash\": \"\(Hex.hash(dashboard.stateHash))\", \"text\": \(JSONLiteral.string(recorder.scenarioText(endStep: dashboard.stepCount)))}"
            ]
        case .saveSettings:
            return ["{\"type\": \"settingsFile\", \"text\": \(JSONLiteral.string(SettingsFile.encode(dashboard.settings)))}"]
        }
    }

    /// What `apply(_:now:)` did with a batch.
    public struct BatchResult {
        /// Text messages to send back, in order (errors, recordings, settings files, welcome).
        public var replies: [String] = []
        /// Messages refused by the parser.
        public var refused = 0
        /// The page asked for its recording (the server also writes `--record`).
        public var recordingAsked = false
    }

    /// Handles what the inbox held: each message in arrival order (parsed by this session's
    /// parser), then the credit. `now` is read for each message (seconds, the server's clock).
    public func apply(_ batch: PlayInbox.Batch, now: () -> Double) -> BatchResult {
        var result = BatchResult()
        for item in batch.items {
            switch item {
            case .move(let p):
                result.replies += handle(.move(p), now: now())
            case .message(let bytes):
                do {
                    let message = try parser.parse(bytes)
                    result.replies += handle(message, now: now())
                    if message == .record { result.recordingAsked = true }
                } catch {
                    result.refused += 1
                    result.replies.append(Self.error(error.message, path: error.path))
                }
            }
        }
        if batch.credit { hasCredit = true }
        return result
    }

    /// Sends a dashboard event at the current step and records it when the dashboard takes it.
    /// A refused event changes nothing, so the recording leaves it out: `bubbles export` stops at
    /// a refused event, and a tap on empty space must not make a session unexportable.
    private func send(_ event: DashboardEvent, now: Double) -> [String] {
        advanceClock(now)
        let step = dashboard.stepCount
        dirty = true
        do {
            try dashboard.send(event)
            recorder.record(event, step: step)
            let asked = dashboard.takeRequests()
            if !asked.isEmpty { return asked.map(Self.message) }
        } catch {
            if case .move = event, error == .noDragInProgress { return [] }
            if case .release = event, error == .noDragInProgress { return [] }
            return [Self.error("\(error)", step: step)]
        }
        if case .settings = event { parser.baseSettings = dashboard.settings }
        return []
    }

    /// The page's message for a request: `{"type": "open", "report": id, "url": path}` opens the
    /// report's PDF (served at `/reports/ID.pdf`) in the browser's own viewer.
    static func message(_ r: DashboardRequest) -> String {
        switch r {
        case .openDocument(let id):
            return "{\"type\": \"open\", \"report\": \(JSONLiteral.string(id)), \"url\": \(JSONLiteral.string("/reports/" + percentEncoded(id) + ".pdf"))}"
        }
    }

    /// RFC 3986's unreserved characters: every other byte of a report id is percent-encoded in its URL.
    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `s` with every byte but RFC 3986's unreserved characters percent-encoded.
    static func percentEncoded(_ s: String) -> String {
        s.addingPercentEncoding(withAllowedCharacters: unreserved) ?? s
    }

    // MARK: - Clock

    private func anchor(_ now: Double) {
        anchorWall = now
        anchorSim = simTime
    }

    /// Advances the dashboard to the clock's time `now`. At rest (or paused) the clock stands.
    public func advanceClock(_ now: Double) {
        if isPaused || dashboard.isAtRest {
            anchor(now)
            return
        }
        let target = anchorSim + max(0, now - anchorWall) * speed
        let taken = dashboard.advance(to: target, maxSteps: Self.maxStepsPerAdvance)
        if taken >= Self.maxStepsPerAdvance, dashboard.stepIndex(atTime: target) > dashboard.stepCount {
            // Behind: drop the debt rather than run ever larger batches.
            simTime = dashboard.time
            anchor(now)
        } else {
            simTime = min(target, dashboard.time)
        }
        if dashboard.isAtRest {
            simTime = dashboard.time
            anchor(now)
        }
    }

    // MARK: - Frames

    /// Whether a frame would be drawn now: the page has a credit and the picture can differ.
    public var wantsFrame: Bool { hasCredit && (dirty || pagesArrived || (!isPaused && !dashboard.isAtRest)) }

    /// A page drawn in the background since the last frame (the frame showed a stand-in).
    private var pagesArrived: Bool { source.pages.map { $0.generation != pagesSeen } ?? false }

    /// Draws the frame for wall time `now`, if the page has a credit and anything changed since
    /// the last one; uses the credit.
    public func frame(now: Double) throws -> PlayFrame? {
        guard hasCredit else { return nil }
        let moving = !isPaused && !dashboard.isAtRest
        let arrived = pagesArrived
        guard dirty || moving || arrived else { return nil }
        if let pages = source.pages { pagesSeen = pages.generation }
        advanceClock(now)
        let t = min(simTime, dashboard.time)
        let t0 = MonotonicClock.seconds()
        let scene = dashboard.scene(at: t)
        let picture: PlayPicture
        let t1: Double
        if sendsChangedTiles, shownImage != nil, scene == shownScene, !arrived {
            t1 = MonotonicClock.seconds()
            picture = PlayPicture(png: [], tiles: [], columns: 0, tileSize: patcher.tileSize)
        } else {
            let (w, h) = renderer.pixelSize(of: scene)
            let copy = sendsChangedTiles ? scrollCopy(from: shownScene, to: scene) : nil
            // The page will move its picture by `copy` first: so does the server's copy of it.
            if let copy, let shown = shownImage { copy.apply(to: shown) }
            if sendsChangedTiles, let shown = shownImage, let old = shownScene, shown.width == w, shown.height == h,
               Self.onlyPagesScrolled(old, scene), let preview = scene.preview {
                // Only the pages moved or were drawn: the (moved) picture is drawn again in place
                // where it can differ, and only there compared with what it showed (kept aside
                // first). At fit width every page in view is copied from its picture of the
                // pixels it covers (the same pixels at any whole-pixel place), so after a move
                // only the exposed rows and the viewport's fixed parts are drawn; a zoomed page
                // is drawn in tiles, and a page drawn since may be anywhere in view, so then the
                // whole viewport is drawn again.
                let viewport = Self.viewport(of: preview, scale: scale, width: w, height: h)
                let damage = if let copy, !arrived, preview.zoom == 1 { damage(of: copy, viewport: viewport, from: old, to: scene) } else { [viewport] }
                let before = try spareImage.flatMap { $0.width == w && $0.height == h ? $0 : nil } ?? RenderedImage(width: w, height: h)
                patcher.keepTiles(of: shown, into: before, meeting: damage)
                try renderer.render(scene, over: shown, inside: damage)
                partialFrames += 1
                t1 = MonotonicClock.seconds()
                picture = try patcher.picture(shown, shown: before, encoder: encoder, copy: copy, regions: damage)
                spareImage = before
            } else {
                let image = try renderer.render(scene, reusing: spareImage)
                t1 = MonotonicClock.seconds()
                picture = try patcher.picture(image, shown: sendsChangedTiles ? shownImage : nil, encoder: encoder, copy: copy)
                spareImage = shownImage
                shownImage = image
            }
            shownScene = scene
        }
        let png = picture.png
        let t2 = MonotonicClock.seconds()
        hasCredit = false
        dirty = false
        framesSent += 1
        let hash = dashboard.stateHash(at: t)
        var header = "{\"type\": \"frame\", \"step\": \(dashboard.stepCount), \"time\": \(JSONLiteral.number(t)), "
        header += "\"hash\": \"\(Hex.hash(hash))\", \"stepHash\": \"\(Hex.hash(dashboard.stateHash))\", "
        header += "\"atRest\": \(dashboard.isAtRest), \"paused\": \(isPaused), \"speed\": \(JSONLiteral.number(speed)), "
        header += "\"scale\": \(JSONLiteral.number(scale)), \"width\": \(shownImage?.width ?? 0), \"height\": \(shownImage?.height ?? 0), \"bytes\": \(png.count)"
        if let tiles = picture.tiles {
            header += ", \"tileSize\": \(picture.tileSize), \"columns\": \(picture.columns), \"tiles\": ["
            header += tiles.map(String.init).joined(separator: ", ") + "]"
            if let copy = picture.copy { header += ", \"copy\": " + copy.json }
        }
        header += ", \"overlay\": " + Self.fieldJSON(scene: scene, dashboard: dashboard)
        header += ", \"preview\": " + Self.previewJSON(scene)
        if showsDebug { header += ", \"debug\": " + Self.debugJSON(dashboard.debugView()) }
        header += "}"
        return PlayFrame(header: header, png: png, tiles: picture.tiles, step: dashboard.stepCount, stateHash: hash, drawSeconds: t1 - t0, encodeSeconds: t2 - t1)
    }

    /// The move of the preview's pages between the picture the page shows (of `old`) and the
    /// next (of `new`), in pixels: when only the scroll changed, the inside of the pages' viewport
    /// (on whole pixels, `SceneRenderer.viewportInterior(_:)`) moves by the whole pixels the
    /// renderer moved the pages. Nil otherwise.
    func scrollCopy(from old: Scene?, to new: Scene) -> PictureCopy? {
        guard let old, let a = old.preview, let b = new.preview, a.reportID == b.reportID, a.geometry == b.geometry, a.zoom == b.zoom,
              a.swipe == b.swipe, a.scrollX == b.scrollX, a.scrollY != b.scrollY,
              let (v, _) = renderer.viewportInterior(old), renderer.viewportInterior(new)?.rect == v else { return nil }
        let dy = Int((a.scrollY * scale).rounded()) - Int((b.scrollY * scale).rounded())
        guard dy != 0, abs(dy) < v.height else { return nil }
        return PictureCopy(x: v.x, y: v.y, width: v.width, height: v.height, dy: dy)
    }

    /// Whether two scenes differ only in where the preview's pages are (the scroll, the pages in
    /// view, the current page and its label, the indicator's opacity).
    static func onlyPagesScrolled(_ a: Scene, _ b: Scene) -> Bool {
        func still(_ s: Scene) -> Scene {
            var s = s
            s.preview?.pages = []
            s.preview?.page = 0
            s.preview?.pageLabel = nil
            s.preview?.indicatorOpacity = 0
            s.preview?.scrollY = 0
            return s
        }
        return a.preview != nil && still(a) == still(b)
    }

    /// The pages' viewport in pixels, rounded outwards: what a frame in which only the pages
    /// scrolled draws again. Drawn whole, every page in it is composited as in a whole frame.
    static func viewport(of preview: ScenePreview, scale: Double, width: Int, height: Int) -> SceneRenderer.PixelRect {
        let v = preview.geometry.pages
        let x0 = max(0, Int(((v.x + preview.swipe) * scale).rounded(.down))), x1 = min(width, Int(((v.x + preview.swipe + v.width) * scale).rounded(.up)))
        let y0 = max(0, Int((v.y * scale).rounded(.down))), y1 = min(height, Int(((v.y + v.height) * scale).rounded(.up)))
        return SceneRenderer.PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// What a copy leaves to draw again in the viewport (`v`, pixels, rounded outwards): the
    /// viewport's edges outside the copy's rectangle, the rows the move exposed, and the parts
    /// that do not move with the pages (the rounded corners and the page indicator) where they
    /// were moved to and where they are.
    func damage(of copy: PictureCopy, viewport v: SceneRenderer.PixelRect, from old: Scene, to new: Scene) -> [SceneRenderer.PixelRect] {
        let moved = SceneRenderer.PixelRect(x: copy.x, y: copy.y, width: copy.width, height: copy.height)
        var out = v.subtracting(moved)
        if copy.dy > 0 {
            out.append(SceneRenderer.PixelRect(x: copy.x, y: copy.y, width: copy.width, height: copy.dy))
        } else {
            out.append(SceneRenderer.PixelRect(x: copy.x, y: copy.y + copy.height + copy.dy, width: copy.width, height: -copy.dy))
        }
        for fixed in fixedParts(old) {
            if let r = SceneRenderer.PixelRect(x: fixed.x, y: fixed.y + copy.dy, width: fixed.width, height: fixed.height).intersection(moved) { out.append(r) }
        }
        out += fixedParts(new).compactMap { $0.intersection(v) }
        return out
    }

    /// The pixels of the viewport that stay where they are while its pages scroll: its corner
    /// squares, and the page indicator's pill (with a pixel around it) when it shows.
    func fixedParts(_ scene: Scene) -> [SceneRenderer.PixelRect] {
        guard let p = scene.preview, let (v, c) = renderer.viewportInterior(scene) else { return [] }
        var parts = v.cornerSquares(side: c)
        if p.indicatorOpacity > 0, p.pageCount > 0 {
            let pill = renderer.pageIndicatorRect(p)
            let x0 = Int(((pill.x + p.swipe) * scale).rounded(.down)) - 1, x1 = Int(((pill.x + p.swipe + pill.width) * scale).rounded(.up)) + 1
            let y0 = Int((pill.y * scale).rounded(.down)) - 1, y1 = Int(((pill.y + pill.height) * scale).rounded(.up)) + 1
            parts.append(SceneRenderer.PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
        }
        return parts
    }

    // MARK: - Memory

    /// The most bytes this session's sprite caches may hold (the server splits one budget between
    /// its sessions; default 96 MiB, the renderer's own).
    public var spriteBudgetBytes: Int {
        get { renderer.spriteBudgetBytes }
        set { if renderer.spriteBudgetBytes != newValue { renderer.spriteBudgetBytes = newValue } }
    }

    /// The most bytes this session's text caches may hold, estimated (default unbounded; the
    /// server sets a share of one budget).
    public var textBudgetBytes: Int {
        get { renderer.textBudgetBytes }
        set { if renderer.textBudgetBytes != newValue { renderer.textBudgetBytes = newValue } }
    }

    /// The sizes of what this session keeps between frames.
    public struct CacheStatistics: Sendable, Equatable {
        /// Raster caches of the renderer (sprites, background, bars, focus), bytes.
        public var rasterBytes: Int
        /// The pictures kept for changed tiles (shown and spare), bytes.
        public var pictureBytes: Int
        /// Text layouts and sizes cached by the renderer, entries.
        public var textEntries: Int
        /// The renderer's text layouts and fitted labels, bytes (estimated).
        public var textBytes: Int
    }

    /// What the session's caches hold now.
    public var cacheStatistics: CacheStatistics {
        func bytes(_ i: RenderedImage?) -> Int { i.map { $0.width * $0.height * 4 } ?? 0 }
        return CacheStatistics(
            rasterBytes: renderer.rasterCacheBytes, pictureBytes: bytes(shownImage) + bytes(spareImage), textEntries: renderer.textCacheEntries,
            textBytes: renderer.textCacheBytes)
    }

    /// The recording so far as a scenario file, ending at the current step.
    public func recordingText() -> String { recorder.scenarioText(endStep: dashboard.stepCount) }

    // MARK: - Text

    /// An `error` message.
    public static func error(_ message: String, path: String = "", step: Int? = nil) -> String {
        var out = "{\"type\": \"error\", \"message\": \(JSONLiteral.string(message))"
        if !path.isEmpty { out += ", \"path\": \(JSONLiteral.string(path))" }
        if let step { out += ", \"step\": \(step)" }
        return out + "}"
    }

    /// The field that takes the page's keyboard: `"search"` (then `"text"` and `"results"`, the
    /// rows shown, follow) or `"filter"` (then `"text"`), or `null` when neither the search nor the
    /// filter sheet is open.
    static func fieldJSON(scene: Scene, dashboard: Dashboard) -> String {
        if dashboard.isSearching {
            var text = ""
            if case .search(let s) = scene.overlay { text = s.text }
            return "\"search\", \"text\": \(JSONLiteral.string(text)), \"results\": \(dashboard.searchResults.count)"
        }
        if dashboard.isFilterSheetOpen {
            var text = ""
            if case .filterSheet(let f) = scene.overlay { text = f.query }
            return "\"filter\", \"text\": \(JSONLiteral.string(text))"
        }
        return "null"
    }

    /// Where the open preview's sheet and pages are (canvas pt, `[x, y, w, h]`), so the page can
    /// tell a pinch on the pages (a zoom) from one elsewhere (back a level); `null` without one.
    static func previewJSON(_ scene: Scene) -> String {
        guard let p = scene.preview, scene.overlayOpacity >= 1 else { return "null" }
        func r(_ x: SceneRect) -> String {
            "[\(JSONLiteral.number(x.x)), \(JSONLiteral.number(x.y)), \(JSONLiteral.number(x.width)), \(JSONLiteral.number(x.height))]"
        }
        return "{\"sheet\": \(r(p.geometry.card)), \"pages\": \(r(p.geometry.pages)), \"zoom\": \(JSONLiteral.number(p.zoom))}"
    }

    static func debugJSON(_ v: DashboardDebugView) -> String {
        func n(_ x: Double) -> String { JSONLiteral.number((x * 100).rounded() / 100) }
        let bodies = v.bodies.map { b -> String in
            let shape: String
            switch b.shape {
            case .circle(let r): shape = "\"r\": \(n(r))"
            case .roundedRect(let w, let h, let c): shape = "\"w\": \(n(w)), \"h\": \(n(h)), \"c\": \(n(c))"
            }
            return "{\"id\": \(JSONLiteral.string(b.id)), \"x\": \(n(b.position.x)), \"y\": \(n(b.position.y)), \(shape), "
                + "\"tx\": \(n(b.target.x)), \"ty\": \(n(b.target.y)), \"hz\": \(n(b.springFrequency)), "
                + "\"kinematic\": \(b.isKinematic), \"dragged\": \(b.isDragged)}"
        }
        let contacts = v.contacts.map { "[\($0.a), \($0.b), \(n($0.depth))]" }
        var out = "{\"atRest\": \(v.isAtRest), \"worldAtRest\": \(v.worldIsAtRest), \"bodies\": [\(bodies.joined(separator: ", "))], "
        out += "\"contacts\": [\(contacts.joined(separator: ", "))]"
        if let f = v.dragFinger { out += ", \"finger\": [\(n(f.x)), \(n(f.y))]" }
        return out + "}"
    }
}
