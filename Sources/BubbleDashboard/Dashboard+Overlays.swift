import BubblePhysics

// Overlays: the report preview and the reports table, fading in and out over the bubbles.
extension Dashboard {
    func openOverlay(_ content: OverlayState.Content) {
        // A finger on the table's rows lets go of them when anything else opens.
        if table.isTracking { _ = releaseTable() }
        if case .reports(let level) = content, !(overlay.map { $0.content == content && !$0.closing } ?? false) {
            resetTable(tableGeometry(rows: tableRows(of: level).count).rowsArea)
        }
        if case .search = content, !(overlay.map { $0.content == content && !$0.closing } ?? false) {
            resetTable(searchGeometry(rows: searchSession?.hits.count ?? 0).rowsArea, flashIndicator: false)
        }
        if case .preview(let node) = content { openViewer(for: node) }
        let now = time
        let from = overlay?.opacity ?? .constant(0)
        overlay = OverlayState(
            content: content, opacity: from.retarget(1, at: now, duration: settings.motion.overlayDuration, curve: .out), closing: false)
    }

    func closeOverlay() {
        guard let o = overlay, !o.closing else { return }
        if table.isTracking { _ = releaseTable() }
        overlay!.closing = true
        overlay!.opacity = o.opacity.retarget(0, at: time, duration: settings.motion.overlayDuration, curve: .out)
    }
}
