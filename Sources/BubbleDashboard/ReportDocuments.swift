/// One page of a report's document, as the viewer lays it out.
public struct ReportPage: Sendable, Hashable {
    /// The page's width as shown, after its rotation (pt).
    public var width: Double
    /// The page's height as shown, after its rotation (pt).
    public var height: Double
    /// The page's label from the document ("iv", "A-3"), when it has one.
    public var label: String?

    /// A page of this size (pt) and label (default none).
    public init(width: Double, height: Double, label: String? = nil) {
        self.width = width
        self.height = height
        self.label = label
    }
}

/// What a host can show of a report's document.
public enum ReportDocument: Sendable, Hashable {
    /// The document opens: its pages, first to last (at least one).
    case pages([ReportPage])
    /// The document cannot be drawn; the reason is one short sentence for the reader ("The PDF
    /// needs a password.", "The file is missing.").
    case unavailable(String)
}

/// Opens reports' documents for the preview's viewer: the host's bridge to its files (see
/// `DashboardLibrary.ReportPageSource`). The dashboard asks once per preview it opens, on its own
/// thread; an answer must depend only on the report's file, so that the same files give the same
/// scenes.
public protocol ReportDocuments: AnyObject, Sendable {
    /// The pages of the report with this id, or why it cannot be drawn.
    func document(forReport id: String) -> ReportDocument
}

/// Something the dashboard asks of its host, which only the host can do (see
/// `Dashboard.takeRequests()`).
public enum DashboardRequest: Sendable, Hashable {
    /// Open the report's original file in the system's own viewer (the preview's "Open PDF"
    /// button).
    case openDocument(reportID: String)
}
