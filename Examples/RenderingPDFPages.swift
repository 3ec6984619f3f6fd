import PDFRender

/// Draws the first page of a PDF at 96 dpi and prints what was approximated.
func drawFirstPage(of path: String) throws -> PDFPageImage {
    let doc = try PDFPageDocument(path: path)
    let (w, h) = try doc.pixelSize(page: 1, dpi: 96)
    let image = try doc.render(page: 1, width: w, height: h)
    for warning in image.warnings { print(warning) }
    return image
}
