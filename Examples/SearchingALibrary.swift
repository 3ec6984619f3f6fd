import ReportIndex
import ReportLibrary

/// The ids of the best matches of what a user typed, in a datasource's index (created or brought
/// up to date first: only new or changed PDFs are read).
func searchLibrary(datasource: String, index: String, typed: String) throws -> [String] {
    let tree = try LibraryLoader.load(datasource)
    let (library, _) = try ReportIndex.openAndUpdate(at: index, tree: tree)
    let found = try library.search(SearchQuery(typed), options: SearchOptions(limit: 10))
    for result in found.results {
        // Where it matched: the field, its text and the matched spans (Unicode scalar offsets).
        let places = result.matches.map { "\($0.field.rawValue): \($0.spans)" }
        print(result.title, places)
    }
    return found.results.map(\.id)
}
