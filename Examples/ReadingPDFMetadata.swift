import PDFMetadata

/// The title, page count and keywords of a PDF, or why it cannot be read.
func summary(ofPDF path: String) -> String {
    do {
        let info = try PDFDocumentInfo.read(contentsOf: path)
        let pages = info.pageCount.map { "\($0) pages" } ?? "pages unknown"
        return "\(info.title ?? "untitled"), \(pages): \(info.keywords.joined(separator: ", "))"
    } catch {
        return "\(path): \(error)"  // the kind of failure and its byte offset
    }
}
